/**
 * Chat sessions and their messages: the session state machine of interface.md section 3 (started
 * by a first message, ended after PARLEY_SESSION_IDLE_MINUTES idle, cleared by DELETE), the monthly
 * message quota, human takeover, and the events each transition records in the outbox. Each write
 * also moves the bot's hourly analytics counters in the same transaction.
 */
import type { DatabaseHandle, Db } from '../../db/database.ts';
import { isoAt, type Clock } from '../../platform/clock.ts';
import { timeOrderedUuid } from '../../platform/ids.ts';
import { NotFoundError, RateLimitedError } from '../../platform/errors.ts';
import type { AnswerSource, ChatTurn } from '../answers/answers.types.ts';
import { recordEvents, type OutboxEvent } from '../events/events.repository.ts';
import { addCounts, addCountsByHour, hourOf, mergeInto, messageDeltas, type CountDeltas } from '../analytics/analytics-counters.ts';
import * as repo from './conversations.repository.ts';

export const SESSION_NOT_FOUND = 'Session not found or belongs to a different bot';

/**
 * Whether a visitor (widget access) may not read or write this session; they are told it is not
 * found. A session is a visitor's when a visitor opened it (not the business's server through an
 * API key) and, once it has a `visitor_id`, only for that visitor id.
 */
function closedToVisitor(session: { visitor_id: string | null; opened_by_visitor: number }, visitorId: string | undefined, { checkId = true } = {}): boolean {
  return session.opened_by_visitor !== 1 || (checkId && session.visitor_id !== null && session.visitor_id !== visitorId);
}

/** The account's monthly allowance of user messages is used up (429, stream `quota_exceeded`). */
export class QuotaExceededError extends RateLimitedError {
  constructor(retryAfterSec: number) {
    super('Monthly message quota exceeded', retryAfterSec);
  }
}

/** The bot fields the conversation rules read. */
export interface ConversationBot {
  id: string;
  account_id: string;
  paused: boolean;
  monthly_message_quota: number;
}

export interface UserTurnInput {
  bot: ConversationBot;
  text: string;
  /** The caller's session_id; a new UUID when omitted. */
  sessionKey?: string;
  visitorId?: string;
  visitorTimezone?: string;
  metadata?: Record<string, unknown>;
  /**
   * The caller is a visitor (widget access): a session started by another `visitor_id` is not
   * theirs (SESSION_NOT_FOUND), as for its history.
   */
  asVisitor?: boolean;
}

/** Who calls a widget endpoint: a visitor (a bot id as credential) with the `visitor_id` they sent, or the business's server (an API key). */
export interface WidgetCaller {
  asVisitor: boolean;
  visitorId?: string;
}

/** A stored user message and what answering it needs. */
export interface UserTurn {
  sessionId: string;
  sessionKey: string;
  messageId: string;
  /** When the message was stored (ISO 8601). */
  createdAt: string;
  /** The session's earlier turns, oldest first. */
  history: ChatTurn[];
  /** An operator holds the session or the whole bot: no AI answer. */
  paused: boolean;
  /** The message started the session (so nothing, an upload included, came before it). */
  newSession: boolean;
}

export interface StoredMessage {
  id: string;
  role: 'user' | 'assistant';
  author: 'visitor' | 'bot' | 'operator';
  content: string;
  feedback_rating: 'up' | 'down' | null;
  created_at: string;
}

export type ConversationService = ReturnType<typeof createConversationService>;

export interface ConversationServiceDeps {
  db: Db;
  /** The database's shared (group-committed) transaction, for the two writes of every chat turn. */
  inSharedTransaction: DatabaseHandle['inSharedTransaction'];
  clock: Clock;
  /** PARLEY_SESSION_IDLE_MINUTES. */
  idleMinutes: number;
}

export function createConversationService({ db, inSharedTransaction, clock, idleMinutes }: ConversationServiceDeps) {
  const idleMs = idleMinutes * 60_000;

  /** When a session, active since its last activity, ends by going idle (ms since the epoch). */
  function idleEndOf(session: { last_activity_at: string }): number {
    return Date.parse(session.last_activity_at) + idleMs;
  }

  function sessionStarted(bot: ConversationBot, sessionKey: string, at: string, row: { visitor_id: string | null; metadata: string | null }): OutboxEvent {
    const data = { visitor_id: row.visitor_id, metadata: row.metadata ? JSON.parse(row.metadata) : null, started_at: at };
    return { event: 'session.started', botId: bot.id, accountId: bot.account_id, sessionId: sessionKey, data, occurredAt: at };
  }

  function sessionEnded(row: { bot_id: string; account_id: string; session_key: string; started_at: string; message_count: number }, endedAt: string): OutboxEvent {
    return {
      event: 'session.ended',
      botId: row.bot_id,
      accountId: row.account_id,
      sessionId: row.session_key,
      data: { started_at: row.started_at, ended_at: endedAt, message_count: Number(row.message_count) },
      occurredAt: endedAt,
    };
  }

  /**
   * The session a message or upload goes to, created (or reopened once ended) as needed, with the
   * events that records; the visit it counts is added to `counts` (the caller writes them with its
   * own, one row update per hour). Call inside a transaction. `unused`: the key was just generated,
   * so no session has it; `firstMessages`: the message count a session created here starts with;
   * `checkVisitorId`: a visitor's existing session must carry their `visitor_id` (an upload, which
   * names none, needs only a session a visitor opened).
   */
  async function openSession(
    trx: Db,
    input: Omit<UserTurnInput, 'text'> & { sessionKey: string },
    at: string,
    counts: Map<string, CountDeltas>,
    { unused = false, firstMessages = 0, checkVisitorId = true } = {},
  ) {
    const { bot, sessionKey } = input;
    const events: OutboxEvent[] = [];
    let session = unused ? undefined : await repo.findSession(trx, bot.id, sessionKey);
    if (session && input.asVisitor && closedToVisitor(session, input.visitorId, { checkId: checkVisitorId })) throw new NotFoundError(SESSION_NOT_FOUND);
    const changes = {
      // A session stays with the visitor who started it: their id is set once, never replaced.
      ...(input.visitorId !== undefined && !session?.visitor_id && { visitor_id: input.visitorId }),
      ...(input.visitorTimezone !== undefined && { visitor_timezone: input.visitorTimezone }),
      ...(input.metadata !== undefined && { metadata: JSON.stringify(input.metadata) }),
    };
    if (!session) {
      session = {
        id: timeOrderedUuid(),
        bot_id: bot.id,
        account_id: bot.account_id,
        session_key: sessionKey,
        visitor_id: input.visitorId ?? null,
        visitor_timezone: input.visitorTimezone ?? 'UTC',
        metadata: input.metadata ? JSON.stringify(input.metadata) : null,
        status: 'active',
        taken_over: 0,
        message_count: firstMessages,
        started_at: at,
        last_activity_at: at,
        ended_at: null,
        lead_state: null,
        opened_by_visitor: input.asVisitor ? 1 : 0,
      };
      await repo.insertSession(trx, session);
      mergeInto(counts, hourOf(at), { sessions: 1 });
      events.push(sessionStarted(bot, sessionKey, at, session));
      return { session, events, created: true };
    }
    // Idle past the limit but not swept yet: it ended when it went idle, and this message starts it again.
    const idleEnd = idleEndOf(session);
    const reopening = session.status === 'ended' || idleEnd < Date.parse(at);
    if (session.status === 'active' && reopening) events.push(sessionEnded(session, isoAt(idleEnd)));
    session = { ...session, ...changes };
    if (reopening) {
      session = { ...session, status: 'active', ended_at: null, started_at: at };
      mergeInto(counts, hourOf(at), { sessions: 1 });
      events.push(sessionStarted(bot, sessionKey, at, session));
    }
    if (reopening || Object.keys(changes).length > 0) {
      await repo.updateSession(trx, session.id, { ...changes, status: session.status, ended_at: session.ended_at, started_at: session.started_at });
    }
    return { session, events, created: false };
  }

  function monthOf(ms: number): { month: string; secondsLeft: number } {
    const d = new Date(ms);
    const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    return { month: isoAt(ms).slice(0, 7), secondsLeft: Math.max(1, Math.ceil((next - ms) / 1000)) };
  }

  async function messagesOf(sessionId: string): Promise<StoredMessage[]> {
    return (await repo.sessionMessages(db, sessionId)).map(storedMessage);
  }

  async function requireSession(botId: string, sessionKey: string): Promise<repo.SessionRow> {
    const session = await repo.findSession(db, botId, sessionKey);
    if (!session) throw new NotFoundError(SESSION_NOT_FOUND);
    return session;
  }

  /**
   * A session as a widget caller may reach it, else SESSION_NOT_FOUND: a visitor (`asVisitor`) only
   * their own, an API key any session of its bot.
   */
  async function requireCallerSession(botId: string, sessionKey: string, caller: WidgetCaller): Promise<repo.SessionRow> {
    const session = await requireSession(botId, sessionKey);
    if (caller.asVisitor && closedToVisitor(session, caller.visitorId)) throw new NotFoundError(SESSION_NOT_FOUND);
    return session;
  }

  return {
    /**
     * Stores a visitor's message: counts it against the monthly quota (refusing with
     * QuotaExceededError, storing nothing, when it is used up), opens the session, records the
     * events, and returns the history the answer needs.
     */
    async addUserMessage(input: UserTurnInput): Promise<UserTurn> {
      const now = clock.now();
      const at = isoAt(now);
      const sessionKey = input.sessionKey ?? timeOrderedUuid();
      const messageId = timeOrderedUuid();
      const { month, secondsLeft } = monthOf(now);
      return inSharedTransaction(async (trx) => {
        if (!(await repo.takeMonthlyMessage(trx, input.bot.account_id, month, input.bot.monthly_message_quota))) {
          throw new QuotaExceededError(secondsLeft);
        }
        const counts = new Map<string, CountDeltas>();
        const { session, events, created } = await openSession(trx, { ...input, sessionKey }, at, counts, { unused: input.sessionKey === undefined, firstMessages: 1 });
        const earlier = !created && session.message_count > 0 ? await repo.sessionMessages(trx, session.id) : [];
        await repo.insertMessage(trx, { id: messageId, session_id: session.id, bot_id: input.bot.id, role: 'user', author: 'visitor', content: input.text, feedback_rating: null, latency_ms: null, engine: null, sources: null, created_at: at });
        // A session created for this message already counts it.
        if (!created) await repo.touchSession(trx, session.id, at, 1);
        mergeInto(counts, hourOf(at), { user_messages: 1 });
        // The visit's second visitor message makes it a multi-turn visit (counted in the hour it started).
        if (earlier.filter((m) => m.role === 'user' && m.created_at >= session.started_at).length === 1) {
          mergeInto(counts, hourOf(session.started_at), { multi_turn_sessions: 1 });
        }
        await addCountsByHour(trx, input.bot.id, counts);
        events.push({
          event: 'message.user',
          botId: input.bot.id,
          accountId: input.bot.account_id,
          sessionId: sessionKey,
          data: { message_id: messageId, role: 'user', content: input.text },
          occurredAt: at,
        });
        await recordEvents(trx, events);
        return {
          sessionId: session.id,
          sessionKey,
          messageId,
          createdAt: at,
          history: earlier.map((m) => ({ role: m.role, content: m.content })),
          paused: input.bot.paused || session.taken_over === 1,
          newSession: created,
        };
      });
    },

    /** Stores the bot's (or an operator's) answer in a session, with its event. */
    async addAssistantMessage(
      bot: ConversationBot,
      turn: { sessionId: string; sessionKey: string },
      answer: { content: string; author: 'bot' | 'operator'; latencyMs: number; engine?: string; sources?: AnswerSource[]; unanswered?: boolean },
    ): Promise<StoredMessage> {
      const at = isoAt(clock.now());
      const message: StoredMessage = { id: timeOrderedUuid(), role: 'assistant', author: answer.author, content: answer.content, feedback_rating: null, created_at: at };
      await inSharedTransaction(async (trx) => {
        const row = {
          ...message,
          session_id: turn.sessionId,
          bot_id: bot.id,
          latency_ms: Math.round(answer.latencyMs),
          engine: answer.engine ?? null,
          sources: answer.sources ? JSON.stringify(answer.sources) : null,
          unanswered: answer.unanswered ? 1 : null,
        };
        await repo.insertMessage(trx, row);
        await addCounts(trx, bot.id, hourOf(at), messageDeltas(row));
        await repo.touchSession(trx, turn.sessionId, at, 1);
        const data = { message_id: message.id, role: 'assistant', content: answer.content, latency_ms: Math.round(answer.latencyMs), ...(answer.author === 'operator' && { author: 'operator' }) };
        await recordEvents(trx, [{ event: 'message.assistant', botId: bot.id, accountId: bot.account_id, sessionId: turn.sessionKey, data, occurredAt: at }]);
      });
      return message;
    },

    /** The session an upload or a lead form goes to, created with it when it has no messages yet (`asVisitor`: widget access, which reaches only a visitor's session). */
    async ensureSession(bot: ConversationBot, sessionKey: string, { asVisitor = false } = {}): Promise<{ sessionId: string }> {
      const at = isoAt(clock.now());
      return db.transaction().execute(async (trx) => {
        const counts = new Map<string, CountDeltas>();
        const { session, events } = await openSession(trx, { bot, sessionKey, asVisitor }, at, counts, { checkVisitorId: false });
        await addCountsByHour(trx, bot.id, counts);
        await repo.updateSession(trx, session.id, { last_activity_at: at });
        await recordEvents(trx, events);
        return { sessionId: session.id };
      });
    },

    /** A session of the bot, or NotFoundError. */
    getSession: requireSession,
    /** A session of the bot that a widget caller may reach, or NotFoundError. */
    getCallerSession: requireCallerSession,
    /** The session, or null when none has that key yet. */
    findSession: (botId: string, sessionKey: string) => repo.findSession(db, botId, sessionKey).then((row) => row ?? null),

    /** A session's messages, oldest first. */
    async messages(botId: string, sessionKey: string): Promise<StoredMessage[]> {
      const session = await requireSession(botId, sessionKey);
      return messagesOf(session.id);
    },

    /**
     * A visitor's own conversation for the widget, oldest first with each answer's sources, and
     * what `attachmentsOf` finds for the session (its uploads: files are the media feature's); to a
     * visitor (`asVisitor`), a session that is not theirs is "not found" (the widget sends its own id).
     */
    async visitorHistory<A>(botId: string, sessionKey: string, caller: WidgetCaller, attachmentsOf: (sessionId: string) => Promise<A[]>) {
      const session = await requireCallerSession(botId, sessionKey, caller);
      const [rows, attachments] = await Promise.all([repo.sessionMessages(db, session.id), attachmentsOf(session.id)]);
      return {
        session_id: session.session_key,
        taken_over: session.taken_over === 1,
        messages: rows.map((row) => ({ ...storedMessage(row), sources: row.sources ? (JSON.parse(row.sources) as AnswerSource[]) : [] })),
        attachments,
      };
    },

    /** Refuses (SESSION_NOT_FOUND) a visitor writing to a session that is not theirs; a session not started yet is anyone's. */
    async checkVisitorOf(botId: string, sessionKey: string, visitorId: string | undefined): Promise<void> {
      const session = await repo.findSession(db, botId, sessionKey);
      if (session && closedToVisitor(session, visitorId)) throw new NotFoundError(SESSION_NOT_FOUND);
    },

    /** The messages of a session already looked up, oldest first. */
    messagesOf,

    /** The session state rule: ended once idle for PARLEY_SESSION_IDLE_MINUTES, even before the sweeper says so. */
    idleEndOf,

    /** Sessions whose last activity is older than this (ISO 8601) have ended by going idle. */
    idleCutoff: (now: number): string => isoAt(now - idleMs),

    /** The bot's messages across sessions, newest first. */
    async recentMessages(botId: string, page: { limit: number; offset: number }) {
      const rows = await repo.botMessages(db, botId, page);
      return rows.map((r) => ({ id: r.id, session_id: r.session_key, role: r.role, content: r.content, feedback_rating: r.feedback_rating, created_at: r.created_at }));
    },

    /**
     * Deletes a session with its messages and uploads; the id may then start a fresh conversation.
     * Its messages and its current visit leave the analytics counters (earlier visits stay counted).
     */
    async clear(botId: string, sessionKey: string): Promise<{ sessionId: string }> {
      const session = await requireSession(botId, sessionKey);
      return db.transaction().execute(async (trx) => {
        const messages = await repo.sessionMessages(trx, session.id);
        if (!(await repo.deleteSession(trx, botId, session.id))) throw new NotFoundError(SESSION_NOT_FOUND);
        const byHour = new Map<string, CountDeltas>();
        for (const m of messages) mergeInto(byHour, hourOf(m.created_at), messageDeltas(m, -1));
        const visitMessages = messages.filter((m) => m.role === 'user' && m.created_at >= session.started_at).length;
        mergeInto(byHour, hourOf(session.started_at), { sessions: -1, ...(visitMessages >= 2 && { multi_turn_sessions: -1 }) });
        await addCountsByHour(trx, botId, byHour);
        return { sessionId: session.id };
      });
    },

    /** Counts a visitor message the engine failed to answer (nothing else is stored for it). */
    async recordFailedAnswer(botId: string): Promise<void> {
      await addCounts(db, botId, hourOf(isoAt(clock.now())), { failed_answers: 1 });
    },

    /** Sets the visitor's rating of an assistant message of this session. */
    async rateMessage(botId: string, sessionKey: string, messageId: string, rating: 'up' | 'down' | null) {
      const session = await repo.findSession(db, botId, sessionKey);
      const message = session ? await repo.findMessage(db, botId, messageId) : undefined;
      if (!session || !message || message.session_id !== session.id || message.role !== 'assistant') {
        throw new NotFoundError('Message not found in this session');
      }
      await db.transaction().execute(async (trx) => {
        // Compare-and-set, so that concurrent ratings of one message move the counters once each.
        let previous = message.feedback_rating;
        while (!(await repo.setFeedback(trx, messageId, previous, rating))) {
          const current = await repo.findMessage(trx, botId, messageId);
          if (!current) throw new NotFoundError('Message not found in this session');
          previous = current.feedback_rating;
        }
        if (previous === rating) return;
        const deltas: CountDeltas = {};
        if (previous) deltas[previous === 'up' ? 'feedback_up' : 'feedback_down'] = -1;
        if (rating) deltas[rating === 'up' ? 'feedback_up' : 'feedback_down'] = 1;
        await addCounts(trx, botId, hourOf(message.created_at), deltas);
      });
      return { id: messageId, feedback_rating: rating };
    },

    /** Ends the sessions idle for longer than the limit, recording `session.ended` for each. */
    async endIdleSessions(): Promise<number> {
      const now = clock.now();
      const at = isoAt(now);
      if (!(await repo.anySessionIdleSince(db, isoAt(now - idleMs)))) return 0;
      return db.transaction().execute(async (trx) => {
        const ended = await repo.endSessionsIdleSince(trx, isoAt(now - idleMs), at);
        // A session ended when its idle time ran out, not when the sweep noticed: the inbox shows
        // that time before the sweep, and the webhook and the stored row say the same after it.
        const endedAt = (row: (typeof ended)[number]) => isoAt(Math.min(now, idleEndOf(row)));
        for (const row of ended) await repo.setSessionEndedAt(trx, row.id, endedAt(row));
        await recordEvents(
          trx,
          ended.map((row) => sessionEnded(row, endedAt(row))),
        );
        return ended.length;
      });
    },

    /** User messages the account has sent this calendar month (UTC). */
    async messagesThisMonth(accountId: string): Promise<number> {
      return repo.monthlyMessages(db, accountId, monthOf(clock.now()).month);
    },
  };
}

function storedMessage(row: repo.MessageRow): StoredMessage {
  return { id: row.id, role: row.role, author: row.author, content: row.content, feedback_rating: row.feedback_rating, created_at: row.created_at };
}

