/**
 * Webhooks: subscriptions, one delivery per event and subscription (written in the transaction
 * that records the event, its body fixed then), and every attempt of a delivery (kept 30 days).
 */
import type { Kysely } from 'kysely';
import { seamOf } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    // JSON array of event names.
    .addColumn('events', 'text', (c) => c.notNull())
    // The signing secret, encrypted under the master key (it must be recoverable to sign).
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_bot').on('webhooks').columns(['bot_id', 'created_at']).execute();

  // status: pending (waiting for its next attempt), delivered, dropped (every attempt failed).
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('bot_id', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .execute();
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_webhook').on('webhook_deliveries').columns(['webhook_id', 'created_at']).execute();
  await db.schema.createIndex('webhook_deliveries_webhook_due').on('webhook_deliveries').columns(['webhook_id', 'status', 'next_attempt_at']).execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('seq', seamOf(db).serialType, (c) => seamOf(db).serialPrimaryKey(c))
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('response_excerpt', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_attempts_delivery').on('webhook_attempts').columns(['delivery_id', 'seq']).execute();
  await db.schema.createIndex('webhook_attempts_age').on('webhook_attempts').columns(['created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['webhook_attempts', 'webhook_deliveries', 'webhooks']) await db.schema.dropTable(table).execute();
}
