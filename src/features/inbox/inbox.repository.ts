/** The inbox's reads of the conversations tables and the takeover flag; every query is scoped to a bot. */
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ChatMessagesTable, ChatSessionsTable } from '../../db/schema.ts';

export type InboxSessionRow = Selectable<ChatSessionsTable>;
export type LastMessageRow = Pick<Selectable<ChatMessagesTable>, 'session_id' | 'role' | 'author' | 'content' | 'created_at'>;

/** Which sessions a page lists: `activeSince` is the idle cutoff, so a session idle past it counts as ended before the sweeper gets to it. */
export interface SessionFilter {
  status?: 'active' | 'ended';
  activeSince: string;
}

function filtered(db: Db, botId: string, filter: SessionFilter) {
  let query = db.selectFrom('chat_sessions').where('bot_id', '=', botId);
  if (filter.status === 'active') {
    query = query.where('status', '=', 'active').where('last_activity_at', '>=', filter.activeSince);
  } else if (filter.status === 'ended') {
    query = query.where((eb) => eb.or([eb('status', '=', 'ended'), eb('last_activity_at', '<', filter.activeSince)]));
  }
  return query;
}

/** One page of the bot's sessions, most recent activity first. */
export function listSessions(db: Db, botId: string, filter: SessionFilter, page: { limit: number; offset: number }): Promise<InboxSessionRow[]> {
  return filtered(db, botId, filter)
    .selectAll()
    .orderBy('last_activity_at', 'desc')
    .orderBy('started_at', 'desc')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countSessions(db: Db, botId: string, filter: SessionFilter): Promise<number> {
  const row = await filtered(db, botId, filter)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The newest message of each of these sessions of the bot (sessions without messages are absent). */
export async function lastMessages(db: Db, botId: string, sessionIds: readonly string[]): Promise<Map<string, LastMessageRow>> {
  if (sessionIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('chat_messages as m')
    .select(['m.session_id', 'm.role', 'm.author', 'm.content', 'm.created_at'])
    .where('m.bot_id', '=', botId)
    .where('m.session_id', 'in', sessionIds)
    .where((eb) =>
      eb(
        'm.seq',
        '=',
        eb
          .selectFrom('chat_messages as newest')
          .select((sub) => sub.fn.max('newest.seq').as('seq'))
          .whereRef('newest.session_id', '=', 'm.session_id'),
      ),
    )
    .execute();
  return new Map(rows.map((row) => [row.session_id, row]));
}

/** Sets or clears the session's takeover; false when the bot has no such session. */
export async function setTakenOver(db: Db, botId: string, sessionId: string, takenOver: boolean): Promise<boolean> {
  const result = await db
    .updateTable('chat_sessions')
    .set({ taken_over: takenOver ? 1 : 0 })
    .where('id', '=', sessionId)
    .where('bot_id', '=', botId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
