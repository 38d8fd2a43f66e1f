/** Accounts, users, dashboard sessions, bots, API keys, audit log and usage counters. */
import type { Kysely } from 'kysely';
import { seamOf } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const seam = seamOf(db);

  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('memberships')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('tabs', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('memberships_pk', ['account_id', 'user_id'])
    .execute();
  await db.schema.createIndex('memberships_user').on('memberships').column('user_id').execute();

  await db.schema
    .createTable('invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('tabs', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text')
    .execute();

  await db.schema
    .createTable('dashboard_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('bots')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('welcome_message', 'text', (c) => c.notNull())
    .addColumn('primary_color', 'text', (c) => c.notNull())
    .addColumn('selected_model', 'text', (c) => c.notNull())
    .addColumn('system_instructions', 'text', (c) => c.notNull())
    .addColumn('widget_style', 'text', (c) => c.notNull())
    .addColumn('response_language', 'text', (c) => c.notNull())
    .addColumn('strict_mode', 'integer', (c) => c.notNull())
    .addColumn('lead_capture_enabled', 'integer', (c) => c.notNull())
    .addColumn('lead_fields', 'text', (c) => c.notNull())
    .addColumn('calendar_scheduling_enabled', 'integer', (c) => c.notNull())
    .addColumn('meeting_provider', 'text')
    .addColumn('meeting_url', 'text')
    .addColumn('allowed_domains', 'text', (c) => c.notNull())
    .addColumn('paused', 'integer', (c) => c.notNull())
    .addColumn('monthly_message_quota', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bots_account').on('bots').columns(['account_id', 'created_at']).execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('allowed_ips', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_bot').on('api_keys').columns(['bot_id', 'created_at']).execute();

  // No foreign keys: the audit trail outlives the bots and keys it mentions.
  await db.schema
    .createTable('audit_log')
    .addColumn('id', seam.serialType, (c) => seam.serialPrimaryKey(c))
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('key_id', 'text')
    .addColumn('bot_id', 'text')
    .addColumn('account_id', 'text')
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('latency_ms', 'real', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_bot').on('audit_log').columns(['bot_id', 'created_at']).execute();
  await db.schema.createIndex('audit_log_request').on('audit_log').column('request_id').execute();

  await db.schema
    .createTable('usage_daily')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('bot_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('messages', 'integer', (c) => c.notNull())
    .addColumn('api_calls', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_daily_pk', ['key_id', 'day'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['usage_daily', 'audit_log', 'api_keys', 'bots', 'dashboard_sessions', 'invitations', 'memberships', 'users', 'accounts']) {
    await db.schema.dropTable(table).execute();
  }
}
