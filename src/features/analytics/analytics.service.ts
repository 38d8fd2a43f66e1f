/**
 * A bot's numbers (interface.md section 4 "Analytics", decisions.md "GET /api/v1/analytics"), as
 * of request time: messages by role, session visits and leads from the hourly counters kept in
 * step with the rows (analytics-counters.ts), and the knowledge attached now.
 *
 * Sessions: a session counts once for each visit that started in the window (a session that went
 * idle and was written to again starts a new visit). Messages and the current visit of a cleared
 * conversation leave the counts; its lead stays.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { isoAt, type Clock } from '../../platform/clock.ts';
import { hourOf, nextHourStart, sumCounts, type Counts } from './analytics-counters.ts';
import { buildScorecard } from './scorecard.ts';

export interface BotTotals {
  total_messages: number;
  user_messages: number;
  bot_messages: number;
  unique_sessions: number;
  total_leads: number;
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;

const DAY_MS = 86_400_000;
/** The most recent unanswered questions read for the list. */
const UNANSWERED_SCAN = 5000;

/** A question as the list groups it: lower case, single spaces, no closing punctuation. */
function questionKey(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim().replace(/[\s?!.¿¡]+$/u, '').replace(/^[¿¡]+/u, '');
}

/** The first day (UTC, YYYY-MM-DD) of a window of `days` days ending today. */
function windowStart(now: number, days: number): string {
  const today = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate());
  return new Date(today - (days - 1) * DAY_MS).toISOString().slice(0, 10);
}

export function createAnalyticsService({ db, clock }: { db: Db; clock: Clock }) {
  /**
   * Rows stored in [since, end of since's hour): the part of a window that whole-hour counters
   * cannot tell, counted over the (bot, time) indexes.
   */
  async function countPartialHour(botId: string, since: string): Promise<Pick<Counts, 'user_messages' | 'bot_messages' | 'sessions' | 'leads'>> {
    const until = nextHourStart(since);
    const [byRole, sessions, leads] = await Promise.all([
      db.selectFrom('chat_messages').select(['role', (eb) => eb.fn.countAll().as('n')]).where('bot_id', '=', botId).where('created_at', '>=', since).where('created_at', '<', until).groupBy('role').execute(),
      db.selectFrom('chat_sessions').select((eb) => eb.fn.countAll().as('n')).where('bot_id', '=', botId).where('started_at', '>=', since).where('started_at', '<', until).executeTakeFirstOrThrow(),
      db.selectFrom('leads').select((eb) => eb.fn.countAll().as('n')).where('bot_id', '=', botId).where('created_at', '>=', since).where('created_at', '<', until).executeTakeFirstOrThrow(),
    ]);
    return {
      user_messages: Number(byRole.find((r) => r.role === 'user')?.n ?? 0),
      bot_messages: Number(byRole.find((r) => r.role === 'assistant')?.n ?? 0),
      sessions: Number(sessions.n),
      leads: Number(leads.n),
    };
  }

  /** Messages, session visits and leads of a bot, on or after `since` (an ISO 8601 UTC time) when given. */
  async function totals(botId: string, since?: string): Promise<BotTotals> {
    let counts: Pick<Counts, 'user_messages' | 'bot_messages' | 'sessions' | 'leads'>;
    if (!since) counts = await sumCounts(db, botId);
    else if (since === `${hourOf(since)}:00:00.000Z`) counts = await sumCounts(db, botId, { fromHour: hourOf(since) });
    else {
      const [whole, partial] = await Promise.all([sumCounts(db, botId, { fromHour: hourOf(nextHourStart(since)) }), countPartialHour(botId, since)]);
      counts = {
        user_messages: whole.user_messages + partial.user_messages,
        bot_messages: whole.bot_messages + partial.bot_messages,
        sessions: whole.sessions + partial.sessions,
        leads: whole.leads + partial.leads,
      };
    }
    return {
      total_messages: counts.user_messages + counts.bot_messages,
      user_messages: counts.user_messages,
      bot_messages: counts.bot_messages,
      unique_sessions: counts.sessions,
      total_leads: counts.leads,
    };
  }

  return {
    totals,

    /**
     * The questions the bot could not answer in the last `days` days (UTC), most frequent first:
     * the visitor message before each answer that said it did not know, grouped by its text.
     */
    async unanswered(botId: string, days: number, limit: number) {
      const since = `${windowStart(clock.now(), days)}T00:00:00.000Z`;
      const rows = await db
        .selectFrom('chat_messages as a')
        .select((eb) => [
          'a.created_at',
          eb
            .selectFrom('chat_messages as q')
            .select('q.content')
            .whereRef('q.session_id', '=', 'a.session_id')
            .whereRef('q.seq', '<', 'a.seq')
            .where('q.role', '=', 'user')
            .orderBy('q.seq', 'desc')
            .limit(1)
            .as('question'),
        ])
        .where('a.bot_id', '=', botId)
        .where('a.created_at', '>=', since)
        .where('a.unanswered', '=', 1)
        .orderBy('a.created_at', 'desc')
        .limit(UNANSWERED_SCAN)
        .execute();
      const groups = new Map<string, { question: string; count: number; last_asked_at: string }>();
      for (const row of rows) {
        if (!row.question) continue;
        const key = questionKey(row.question);
        const group = groups.get(key);
        if (group) group.count++;
        else groups.set(key, { question: row.question.trim(), count: 1, last_asked_at: row.created_at });
      }
      const questions = [...groups.values()].sort((a, b) => b.count - a.count || b.last_asked_at.localeCompare(a.last_asked_at)).slice(0, limit);
      return { days, since, questions };
    },

    /** Per day (UTC) of the last `days` days, oldest first, zeros included: messages by role, session visits, leads. */
    async daily(botId: string, days: number) {
      const first = windowStart(clock.now(), days);
      const day = sql<string>`substr(hour, 1, 10)`;
      const rows = await db
        .selectFrom('analytics_hourly')
        .select([
          day.as('day'),
          sql<string | number>`sum(user_messages)`.as('user_messages'),
          sql<string | number>`sum(bot_messages)`.as('bot_messages'),
          sql<string | number>`sum(sessions)`.as('sessions'),
          sql<string | number>`sum(leads)`.as('leads'),
        ])
        .where('bot_id', '=', botId)
        .where('hour', '>=', `${first}T00`)
        .groupBy(day)
        .execute();
      const byDate = new Map(rows.map((r) => [r.day, r]));
      const series = Array.from({ length: days }, (_, i) => {
        const date = new Date(Date.parse(`${first}T00:00:00.000Z`) + i * DAY_MS).toISOString().slice(0, 10);
        const row = byDate.get(date);
        return { date, user_messages: Number(row?.user_messages ?? 0), bot_messages: Number(row?.bot_messages ?? 0), sessions: Number(row?.sessions ?? 0), leads: Number(row?.leads ?? 0) };
      });
      return { days, series };
    },

    /** The scorecard of the last `days` days (UTC, today included). */
    async scorecard(bot: { id: string; lead_capture_enabled: boolean }, days: number) {
      const counts = await sumCounts(db, bot.id, { fromHour: `${windowStart(clock.now(), days)}T00` });
      const card = buildScorecard({ counts, days, leadCaptureEnabled: bot.lead_capture_enabled });
      return { bot_id: bot.id, ...card, audit_timestamp: isoAt(clock.now()) };
    },

    /** `GET /api/v1/analytics`: the totals (windowed by `since`), and the knowledge attached now. */
    async report(botId: string, since: string | null) {
      const [counts, knowledge] = await Promise.all([
        totals(botId, since ?? undefined),
        db
          .selectFrom('knowledge_sources')
          .select([(eb) => eb.fn.countAll().as('n'), sql<number>`coalesce(sum(char_count), 0)`.as('chars')])
          .where('bot_id', '=', botId)
          .where('type', '!=', 'catalog')
          .executeTakeFirstOrThrow(),
      ]);
      return {
        bot_id: botId,
        since,
        ...counts,
        total_sessions: counts.unique_sessions,
        knowledge_sources: Number(knowledge.n),
        knowledge_kb: Math.ceil(Number(knowledge.chars) / 1024),
      };
    },
  };
}
