/**
 * Conversations: sessions, their messages, uploaded media, the events outbox (what the webhooks
 * deliver) and the monthly message counters behind the quota.
 */
import type { Kysely } from 'kysely';
import { seamOf } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const seam = seamOf(db);

  // `session_key` is the caller's session_id: free-form, unique within a bot only.
  await db.schema
    .createTable('chat_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('session_key', 'text', (c) => c.notNull())
    .addColumn('visitor_id', 'text')
    .addColumn('visitor_timezone', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('taken_over', 'integer', (c) => c.notNull())
    .addColumn('message_count', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('last_activity_at', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text')
    .addUniqueConstraint('chat_sessions_bot_key', ['bot_id', 'session_key'])
    .execute();
  await db.schema.createIndex('chat_sessions_inbox').on('chat_sessions').columns(['bot_id', 'last_activity_at']).execute();
  await db.schema.createIndex('chat_sessions_idle').on('chat_sessions').columns(['status', 'last_activity_at']).execute();
  await db.schema.createIndex('chat_sessions_visitor').on('chat_sessions').columns(['bot_id', 'visitor_id']).execute();

  // `seq` orders messages stored within one millisecond (a user message precedes its reply).
  await db.schema
    .createTable('chat_messages')
    .addColumn('seq', seam.serialType, (c) => seam.serialPrimaryKey(c))
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('session_id', 'text', (c) => c.notNull().references('chat_sessions.id').onDelete('cascade'))
    .addColumn('bot_id', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('feedback_rating', 'text')
    .addColumn('latency_ms', 'integer')
    .addColumn('engine', 'text')
    .addColumn('sources', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('chat_messages_session').on('chat_messages').columns(['session_id', 'seq']).execute();
  await db.schema.createIndex('chat_messages_bot').on('chat_messages').columns(['bot_id', 'seq']).execute();

  await db.schema
    .createTable('media_files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('chat_sessions.id').onDelete('cascade'))
    .addColumn('bot_id', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('extracted_text', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('media_files_session').on('media_files').columns(['session_id', 'created_at']).execute();

  // No foreign keys: an event outlives the session it tells about (it may still be delivered).
  await db.schema
    .createTable('outbox_events')
    .addColumn('seq', seam.serialType, (c) => seam.serialPrimaryKey(c))
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('bot_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('outbox_events_bot').on('outbox_events').columns(['bot_id', 'seq']).execute();

  await db.schema
    .createTable('monthly_messages')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('user_messages', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('monthly_messages_pk', ['account_id', 'month'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['monthly_messages', 'outbox_events', 'media_files', 'chat_messages', 'chat_sessions']) {
    await db.schema.dropTable(table).execute();
  }
}
