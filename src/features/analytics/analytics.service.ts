/**
 * A bot's numbers (interface.md section 4 "Analytics", decisions.md "GET /api/v1/analytics"),
 * counted from the stored rows at request time, over indexes by bot and time: messages by role,
 * sessions, leads, and the knowledge attached now.
 *
 * Sessions: a session counts once for each visit that started in the window (a session that went
 * idle and was written to again starts a new visit). Messages and sessions of a cleared
 * conversation are gone from the counts; its lead stays.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../platform/clock.ts';

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
  /** Messages, sessions and leads of a bot, on or after `since` when given. */
  async function totals(botId: string, since?: string): Promise<BotTotals> {
    let messages = db.selectFrom('chat_messages').select(['role', (eb) => eb.fn.countAll().as('n')]).where('bot_id', '=', botId);
    let sessions = db.selectFrom('chat_sessions').select((eb) => eb.fn.countAll().as('n')).where('bot_id', '=', botId);
    let leads = db.selectFrom('leads').select((eb) => eb.fn.countAll().as('n')).where('bot_id', '=', botId);
    if (since) {
      messages = messages.where('created_at', '>=', since);
      sessions = sessions.where('started_at', '>=', since);
      leads = leads.where('created_at', '>=', since);
    }
    const [byRole, sessionCount, leadCount] = await Promise.all([messages.groupBy('role').execute(), sessions.executeTakeFirstOrThrow(), leads.executeTakeFirstOrThrow()]);
    const user = Number(byRole.find((r) => r.role === 'user')?.n ?? 0);
    const bot = Number(byRole.find((r) => r.role === 'assistant')?.n ?? 0);
    return { total_messages: user + bot, user_messages: user, bot_messages: bot, unique_sessions: Number(sessionCount.n), total_leads: Number(leadCount.n) };
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
      const since = `${first}T00:00:00.000Z`;
      const day = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 10)`;
      const [messages, sessions, leads] = await Promise.all([
        db.selectFrom('chat_messages').select([day('created_at').as('day'), 'role', (eb) => eb.fn.countAll().as('n')]).where('bot_id', '=', botId).where('created_at', '>=', since).groupBy([day('created_at'), 'role']).execute(),
        db.selectFrom('chat_sessions').select([day('started_at').as('day'), (eb) => eb.fn.countAll().as('n')]).where('bot_id', '=', botId).where('started_at', '>=', since).groupBy(day('started_at')).execute(),
        db.selectFrom('leads').select([day('created_at').as('day'), (eb) => eb.fn.countAll().as('n')]).where('bot_id', '=', botId).where('created_at', '>=', since).groupBy(day('created_at')).execute(),
      ]);
      const series = Array.from({ length: days }, (_, i) => ({ date: new Date(Date.parse(since) + i * DAY_MS).toISOString().slice(0, 10), user_messages: 0, bot_messages: 0, sessions: 0, leads: 0 }));
      const byDate = new Map(series.map((d) => [d.date, d]));
      for (const m of messages) {
        const entry = byDate.get(m.day);
        if (entry) entry[m.role === 'user' ? 'user_messages' : 'bot_messages'] += Number(m.n);
      }
      for (const s of sessions) if (byDate.has(s.day)) byDate.get(s.day)!.sessions += Number(s.n);
      for (const l of leads) if (byDate.has(l.day)) byDate.get(l.day)!.leads += Number(l.n);
      return { days, series };
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
