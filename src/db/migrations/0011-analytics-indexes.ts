/** Indexes for analytics windows: a bot's messages, sessions and leads by time. */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('chat_messages_bot_time').on('chat_messages').columns(['bot_id', 'created_at', 'role']).execute();
  await db.schema.createIndex('chat_sessions_bot_start').on('chat_sessions').columns(['bot_id', 'started_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('chat_sessions_bot_start').execute();
  await db.schema.dropIndex('chat_messages_bot_time').execute();
}
