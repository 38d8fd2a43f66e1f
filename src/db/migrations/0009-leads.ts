/**
 * Leads: at most one per chat session, kept when the conversation is cleared (a lead is the
 * business's record). A session's lead-capture progress (what was asked, a refusal, details given
 * before the first email or phone) lives on the session.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('leads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id').onDelete('cascade'))
    // The chat_sessions row (no foreign key: the lead outlives a cleared session) and its caller-facing id.
    .addColumn('session_row_id', 'text', (c) => c.notNull().unique())
    .addColumn('session_key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    // JSON object of the bot's custom lead fields.
    .addColumn('extra', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('leads_bot').on('leads').columns(['bot_id', 'created_at']).execute();
  await db.schema.alterTable('chat_sessions').addColumn('lead_state', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('chat_sessions').dropColumn('lead_state').execute();
  await db.schema.dropTable('leads').execute();
}
