/**
 * Leads (decisions.md "Leads"): every visitor message of a bot with lead capture is read for
 * contact details; a session has at most one lead, created (with its `lead.created` event, in the
 * same transaction) when its first email or phone is known and completed as details arrive. After
 * a `parley-local` answer the service says what to add: the question for the next missing detail,
 * one at a time, each asked once (at once when the visitor asks to be contacted), never again once
 * the visitor declined; and the booking link when they ask for a meeting.
 */
import type { Db } from '../../db/database.ts';
import { isoAt, type Clock } from '../../platform/clock.ts';
import { timeOrderedUuid } from '../../platform/ids.ts';
import { ValidationError } from '../../platform/errors.ts';
import { PHRASE_LANGUAGES, type PhraseLanguage } from '../answers/local/phrases.ts';
import type { Bot } from '../bots/bots.schemas.ts';
import { recordEvents } from '../events/events.repository.ts';
import { countryOfTimezone, findDetails, isDecline, normaliseEmail, normalisePhone, wantsContact, wantsMeeting, type FoundDetails } from './lead-extraction.ts';
import { askFor, LEAD_PHRASES } from './lead-phrases.ts';
import { addCounts, hourOf } from '../analytics/analytics-counters.ts';
import * as repo from './leads.repository.ts';

/** A session's lead-capture progress, stored with the session. */
interface LeadState {
  /** The field the bot asked for in its last reply. */
  asked: string | null;
  /** Every field asked in this session (each is asked once). */
  askedFields: string[];
  declined: boolean;
  /** Details given before the lead exists (a name, custom fields). */
  pending: { name?: string; extra: Record<string, string> };
}

/** True when, besides the details, the message holds no question and at most a few words ("sure, it's …"). */
function isOnlyDetails(text: string, details: FoundDetails): boolean {
  if (text.includes('?') || text.includes('¿')) return false;
  let rest = text;
  for (const value of [details.email, details.name]) if (value) rest = rest.replace(new RegExp(value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i'), ' ');
  rest = rest.replace(/[+\d][\d\s().-]{5,}\d/g, ' ');
  return (rest.match(/\p{L}+/gu) ?? []).length <= 6;
}

const FRESH: LeadState = { asked: null, askedFields: [], declined: false, pending: { extra: {} } };
const CONTACT_FIELDS = ['email', 'phone'];
const MAX_EXTRA_CHARS = 500;

/** What one visitor message did to the session's lead, for the answer to take into account. */
export interface LeadTurn {
  state: LeadState;
  /** Lead fields of the bot still unknown, in the bot's order. */
  missing: string[];
  wantsContact: boolean;
  wantsMeeting: boolean;
  /** The message did nothing but give details (no question): it is acknowledged rather than answered. */
  onlyDetails: boolean;
}

export interface LeadView {
  id: string;
  bot_id: string;
  session_id: string;
  name: string;
  email: string;
  phone: string;
  extra: Record<string, string>;
  created_at: string;
}

export function leadView(row: repo.LeadRow): LeadView {
  return {
    id: row.id,
    bot_id: row.bot_id,
    session_id: row.session_key,
    name: row.name,
    email: row.email,
    phone: row.phone,
    extra: JSON.parse(row.extra) as Record<string, string>,
    created_at: row.created_at,
  };
}

export type LeadService = ReturnType<typeof createLeadService>;

type LeadBot = Pick<Bot, 'id' | 'account_id' | 'lead_capture_enabled' | 'lead_fields' | 'calendar_scheduling_enabled' | 'meeting_url'>;

export function createLeadService({ db, clock }: { db: Db; clock: Clock }) {
  const parseState = (text: string | null | undefined): LeadState => (text ? { ...FRESH, ...(JSON.parse(text) as LeadState) } : structuredClone(FRESH));

  function known(lead: repo.LeadRow | undefined, state: LeadState, field: string): boolean {
    if (field === 'name') return Boolean(lead?.name || state.pending.name);
    if (field === 'email' || field === 'phone') return Boolean(lead?.[field]);
    return Boolean((lead && (JSON.parse(lead.extra) as Record<string, string>)[field]) || state.pending.extra[field]);
  }

  /**
   * Stores the details in the session's lead: creates it (and its event) when an email or phone
   * arrives, else keeps them pending. Call inside a transaction.
   */
  async function applyDetails(
    trx: Db,
    bot: LeadBot,
    session: { rowId: string; key: string },
    state: LeadState,
    details: FoundDetails & { extra?: Record<string, string> },
  ): Promise<{ lead: repo.LeadRow | undefined; created: boolean }> {
    const at = isoAt(clock.now());
    let lead = await repo.findLeadOfSession(trx, session.rowId);
    if (details.name) state.pending.name = details.name;
    Object.assign(state.pending.extra, details.extra ?? {});
    if (!lead) {
      if (!details.email && !details.phone) return { lead, created: false };
      lead = {
        id: timeOrderedUuid(),
        bot_id: bot.id,
        session_row_id: session.rowId,
        session_key: session.key,
        name: state.pending.name ?? '',
        email: details.email ?? '',
        phone: details.phone ?? '',
        extra: JSON.stringify(state.pending.extra),
        created_at: at,
        updated_at: at,
      };
      await repo.insertLead(trx, lead);
      await addCounts(trx, bot.id, hourOf(at), { leads: 1 });
      state.pending = { extra: {} };
      const data = { id: lead.id, name: lead.name, email: lead.email, phone: lead.phone, extra: JSON.parse(lead.extra) };
      await recordEvents(trx, [{ event: 'lead.created', botId: bot.id, accountId: bot.account_id, sessionId: session.key, data, occurredAt: at }]);
      return { lead, created: true };
    }
    const changes = {
      ...(details.name && { name: details.name }),
      ...(details.email && { email: details.email }),
      ...(details.phone && { phone: details.phone }),
      ...(Object.keys(state.pending.extra).length > 0 && { extra: JSON.stringify({ ...JSON.parse(lead.extra), ...state.pending.extra }) }),
    };
    state.pending = { extra: {} };
    if (Object.keys(changes).length > 0) {
      await repo.updateLead(trx, lead.id, { ...changes, updated_at: at });
      lead = { ...lead, ...changes, updated_at: at };
    }
    return { lead, created: false };
  }

  return {
    /** Reads a visitor message of a session for details and intents, and stores what it gives. */
    async readMessage(bot: LeadBot, session: { rowId: string; key: string }, text: string): Promise<LeadTurn> {
      const turn = { wantsContact: wantsContact(text), wantsMeeting: wantsMeeting(text) };
      // Without lead capture only the intents matter (the booking link): no stored state to read.
      if (!bot.lead_capture_enabled) return { state: structuredClone(FRESH), missing: [], ...turn, onlyDetails: false };
      return db.transaction().execute(async (trx) => {
        const stored = await repo.sessionLeadState(trx, session.rowId);
        const state = parseState(stored?.lead_state);
        const asked = state.asked;
        state.asked = null;

        if (asked && isDecline(text) && !turn.wantsContact) state.declined = true;
        const details = findDetails(text, { country: countryOfTimezone(stored?.visitor_timezone), asked: asked ?? undefined });
        const extra: Record<string, string> = {};
        // The reply to a custom field's question is its value.
        if (asked && !['name', ...CONTACT_FIELDS].includes(asked) && !state.declined && text.trim()) extra[asked] = text.trim().slice(0, MAX_EXTRA_CHARS);
        if (turn.wantsContact) state.declined = false;
        const { lead } = await applyDetails(trx, bot, session, state, { ...details, extra });
        await repo.saveLeadState(trx, session.rowId, JSON.stringify(state));
        const gave = Boolean(details.email || details.phone || details.name || Object.keys(extra).length > 0);
        return { state, missing: bot.lead_fields.filter((f) => !known(lead, state, f)), ...turn, onlyDetails: gave && !turn.wantsMeeting && isOnlyDetails(text, details) };
      });
    },

    /**
     * What `parley-local` adds after its reply: the booking link when asked for a meeting, and the
     * question for the next missing detail when the moment is right; remembers what it asked.
     */
    async followUp(bot: LeadBot, session: { rowId: string }, turn: LeadTurn, reply: { outcome?: string; language?: string }): Promise<string | null> {
      const language: PhraseLanguage = PHRASE_LANGUAGES.includes(reply.language as PhraseLanguage) ? (reply.language as PhraseLanguage) : 'en';
      const parts: string[] = [];
      if (turn.onlyDetails) parts.push(turn.missing.length > 0 && !turn.state.declined ? LEAD_PHRASES[language].thanks : LEAD_PHRASES[language].done);
      if (turn.wantsMeeting && bot.calendar_scheduling_enabled && bot.meeting_url) parts.push(LEAD_PHRASES[language].meeting(bot.meeting_url));

      const { state } = turn;
      const moment = turn.onlyDetails || turn.wantsContact || reply.outcome === 'answer' || reply.outcome === 'refusal';
      if (bot.lead_capture_enabled && !state.declined && moment && turn.missing.length > 0) {
        const field = turn.wantsContact
          ? (turn.missing.find((f) => CONTACT_FIELDS.includes(f)) ?? turn.missing.find((f) => !state.askedFields.includes(f)))
          : turn.missing.find((f) => !state.askedFields.includes(f));
        if (field) {
          parts.push(askFor(field, language));
          state.asked = field;
          if (!state.askedFields.includes(field)) state.askedFields.push(field);
          await repo.saveLeadState(db, session.rowId, JSON.stringify(state));
        }
      }
      return parts.length > 0 ? parts.join(' ') : null;
    },

    /** The widget's lead form: details for the session's lead, validated and normalised. */
    /**
     * Checks a lead form before anything is stored for it (the session included): 400 for a bad email
     * or phone, or for neither when the session does not exist yet and so has no lead to complete.
     */
    checkForm(form: { email?: string; phone?: string }, session: { timezone?: string | null } | null): void {
      const { email, phone } = readContact(form, session?.timezone);
      if (!session && !email && !phone) throw new ValidationError(CONTACT_REQUIRED);
    },

    async submitForm(
      bot: LeadBot,
      session: { rowId: string; key: string; timezone?: string | null },
      form: { name?: string; email?: string; phone?: string; extra?: Record<string, string> },
    ): Promise<{ lead: LeadView; created: boolean }> {
      const { email, phone } = readContact(form, session.timezone);
      return db.transaction().execute(async (trx) => {
        const stored = await repo.sessionLeadState(trx, session.rowId);
        const state = parseState(stored?.lead_state);
        const existing = await repo.findLeadOfSession(trx, session.rowId);
        if (!existing && !email && !phone) throw new ValidationError(CONTACT_REQUIRED);
        const extra = Object.fromEntries(Object.entries(form.extra ?? {}).map(([k, v]) => [k, String(v).slice(0, MAX_EXTRA_CHARS)]));
        const { lead, created } = await applyDetails(trx, bot, session, state, { name: form.name?.trim() || undefined, email, phone, extra });
        await repo.saveLeadState(trx, session.rowId, JSON.stringify(state));
        return { lead: leadView(lead!), created };
      });
    },

    async list(botId: string, page: { limit: number; offset: number; q?: string }) {
      const { rows, total } = await repo.listLeads(db, botId, page);
      return { leads: rows.map(leadView), total };
    },
  };
}

const CONTACT_REQUIRED = "field 'email' or 'phone' is required";

/** The form's email and phone, normalised (the phone read with the country of the session's time zone). */
function readContact(form: { email?: string; phone?: string }, timezone: string | null | undefined): { email?: string; phone?: string } {
  const email = form.email?.trim() ? normaliseEmail(form.email) : undefined;
  if (form.email?.trim() && !email) throw new ValidationError("field 'email' is not an email address");
  const phone = form.phone?.trim() ? normalisePhone(form.phone, countryOfTimezone(timezone)) : undefined;
  if (form.phone?.trim() && !phone) throw new ValidationError("field 'phone' is not a valid phone number (use the international form, e.g. +44 20 7946 0958)");
  return { email, phone };
}

const CSV_COLUMNS = ['id', 'created_at', 'name', 'email', 'phone', 'session_id', 'extra'] as const;

// A phone number as leads store it (E.164): it runs nothing, and a CRM importing the file needs it as is.
const STORED_PHONE = /^\+\d{4,15}$/;

/** One CSV field: quoted when needed, and a leading = + - @ defused so that spreadsheets do not run it. */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !STORED_PHONE.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Leads as CSV (RFC 4180, CRLF), a header row first; `extra` as JSON. */
export function leadsCsv(leads: LeadView[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const lead of leads) {
    lines.push(CSV_COLUMNS.map((c) => csvField(c === 'extra' ? (Object.keys(lead.extra).length ? JSON.stringify(lead.extra) : '') : String(lead[c]))).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
