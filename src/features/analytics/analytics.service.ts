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

export interface BotTotals {
  total_messages: number;
  user_messages: number;
  bot_messages: number;
  unique_sessions: number;
  total_leads: number;
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;

export function createAnalyticsService({ db }: { db: Db }) {
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
