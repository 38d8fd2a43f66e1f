/**
 * Analytics: indexes for windows over a bot's messages and sessions by time, and on each bot
 * answer whether the bot could not answer (for the list of unanswered questions).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('chat_messages_bot_time').on('chat_messages').columns(['bot_id', 'created_at', 'role']).execute();
  await db.schema.createIndex('chat_sessions_bot_start').on('chat_sessions').columns(['bot_id', 'started_at']).execute();
  // 1 when the engine said it did not know; null when it answered or cannot tell (a provider).
  await db.schema.alterTable('chat_messages').addColumn('unanswered', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('chat_messages').dropColumn('unanswered').execute();
  await db.schema.dropIndex('chat_sessions_bot_start').execute();
  await db.schema.dropIndex('chat_messages_bot_time').execute();
}
