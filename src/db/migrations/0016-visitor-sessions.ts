/**
 * Whether a visitor (widget access) opened each session. The widget endpoints reach only those
 * sessions: a conversation a business's server holds through an API key is not readable, nor
 * writable, with the public bot id and a session id. Sessions from before this migration count as
 * opened by the server.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('chat_sessions').addColumn('opened_by_visitor', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('chat_sessions').dropColumn('opened_by_visitor').execute();
}
