/** Storage of chat sessions, their messages and the monthly message counters; every query is scoped to a bot or account. */
import type { Insertable, Selectable } from 'kysely';
import { sql } from 'kysely';
import { cachedQuery } from '../../db/cached-query.ts';
import type { Db } from '../../db/database.ts';
import type { ChatMessagesTable, ChatSessionsTable } from '../../db/schema.ts';

export type SessionRow = Selectable<ChatSessionsTable>;
export type MessageRow = Omit<Selectable<ChatMessagesTable>, 'seq'> & { seq: number };

// The statements of every chat turn are compiled once (see cached-query.ts).
const selectSession = cachedQuery((db, p: { botId: string; sessionKey: string }) =>
  db.selectFrom('chat_sessions').selectAll().where('bot_id', '=', p.botId).where('session_key', '=', p.sessionKey),
);
export const insertSession = cachedQuery((db, session: Insertable<ChatSessionsTable>) => db.insertInto('chat_sessions').values(session));
const touchSessionRow = cachedQuery((db, p: { sessionId: string; at: string; messages: number }) =>
  db
    .updateTable('chat_sessions')
    .set({ last_activity_at: p.at, message_count: sql`message_count + ${p.messages}` })
    .where('id', '=', p.sessionId),
);
export const insertMessage = cachedQuery((db, message: Omit<Insertable<ChatMessagesTable>, 'seq'>) => db.insertInto('chat_messages').values(message));
const takeMonthlyMessageRow = cachedQuery((db, p: { accountId: string; month: string; quota: number }) =>
  db
    .insertInto('monthly_messages')
    .values({ account_id: p.accountId, month: p.month, user_messages: 1 })
    .onConflict((oc) =>
      oc
        .columns(['account_id', 'month'])
        .doUpdateSet({ user_messages: sql`monthly_messages.user_messages + 1` })
        .where('monthly_messages.user_messages', '<', p.quota),
    )
    .returning('user_messages'),
);

export async function findSession(db: Db, botId: string, sessionKey: string): Promise<SessionRow | undefined> {
  return (await selectSession(db, { botId, sessionKey })).rows[0];
}

export async function updateSession(db: Db, sessionId: string, changes: Partial<Insertable<ChatSessionsTable>>): Promise<void> {
  await db.updateTable('chat_sessions').set(changes).where('id', '=', sessionId).execute();
}

/** Counts a message against the session and marks its activity. */
export async function touchSession(db: Db, sessionId: string, at: string, messages: number): Promise<void> {
  await touchSessionRow(db, { sessionId, at, messages });
}

export async function deleteSession(db: Db, botId: string, sessionId: string): Promise<boolean> {
  const result = await db.deleteFrom('chat_sessions').where('id', '=', sessionId).where('bot_id', '=', botId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}


function asMessageRow(row: Selectable<ChatMessagesTable>): MessageRow {
  return { ...row, seq: Number(row.seq) };
}

/** A session's messages, oldest first. */
export async function sessionMessages(db: Db, sessionId: string): Promise<MessageRow[]> {
  const rows = await db.selectFrom('chat_messages').selectAll().where('session_id', '=', sessionId).orderBy('seq').execute();
  return rows.map(asMessageRow);
}

/** A bot's messages across sessions, newest first, with the caller's session_id. */
export async function botMessages(db: Db, botId: string, page: { limit: number; offset: number }) {
  const rows = await db
    .selectFrom('chat_messages as m')
    .innerJoin('chat_sessions as s', 's.id', 'm.session_id')
    .select(['m.id', 's.session_key', 'm.role', 'm.content', 'm.feedback_rating', 'm.created_at'])
    .where('m.bot_id', '=', botId)
    .orderBy('m.seq', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows;
}

export function findMessage(db: Db, botId: string, messageId: string): Promise<Selectable<ChatMessagesTable> | undefined> {
  return db.selectFrom('chat_messages').selectAll().where('id', '=', messageId).where('bot_id', '=', botId).executeTakeFirst();
}

/** Sets a message's rating if it is still `expected`; false when another rating came first. */
export async function setFeedback(db: Db, messageId: string, expected: ChatMessagesTable['feedback_rating'], rating: ChatMessagesTable['feedback_rating']): Promise<boolean> {
  const result = await db
    .updateTable('chat_messages')
    .set({ feedback_rating: rating })
    .where('id', '=', messageId)
    .where((eb) => (expected === null ? eb('feedback_rating', 'is', null) : eb('feedback_rating', '=', expected)))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Counts one user message against the account's month unless that would pass `quota`; false when
 * the allowance is used up. One statement, so concurrent messages cannot both take the last one.
 */
export async function takeMonthlyMessage(db: Db, accountId: string, month: string, quota: number): Promise<boolean> {
  if (quota <= 0) return false;
  return (await takeMonthlyMessageRow(db, { accountId, month, quota })).rows.length > 0;
}

export async function monthlyMessages(db: Db, accountId: string, month: string): Promise<number> {
  const row = await db
    .selectFrom('monthly_messages')
    .select('user_messages')
    .where('account_id', '=', accountId)
    .where('month', '=', month)
    .executeTakeFirst();
  return Number(row?.user_messages ?? 0);
}

/** Ends every active session idle since before `cutoff`; returns the ended ones. Safe when several instances sweep at once. */
/** Whether any active session has been idle since `cutoff` (a read, so a sweep with nothing to do takes no write lock). */
export async function anySessionIdleSince(db: Db, cutoff: string): Promise<boolean> {
  const row = await db.selectFrom('chat_sessions').select('id').where('status', '=', 'active').where('last_activity_at', '<', cutoff).limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function setSessionEndedAt(db: Db, sessionId: string, endedAt: string): Promise<void> {
  await db.updateTable('chat_sessions').set({ ended_at: endedAt }).where('id', '=', sessionId).execute();
}

export function endSessionsIdleSince(db: Db, cutoff: string, endedAt: string) {
  return db
    .updateTable('chat_sessions')
    .set({ status: 'ended', ended_at: endedAt })
    .where('status', '=', 'active')
    .where('last_activity_at', '<', cutoff)
    .returning(['id', 'bot_id', 'account_id', 'session_key', 'started_at', 'last_activity_at', 'message_count'])
    .execute();
}
