/**
 * Analytics counters: a bot's activity per hour (features/analytics/analytics-counters.ts), kept in
 * step with the rows they count, filled here from the rows already stored.
 */
import type { Kysely } from 'kysely';
import type { Db } from '../database.ts';
import { rebuildCounts } from '../../features/analytics/analytics-counters.ts';

// The columns as of this migration (frozen: a later counter comes with a migration of its own).
const COUNTERS = [
  'user_messages',
  'bot_messages',
  'sessions',
  'multi_turn_sessions',
  'leads',
  'bot_answers',
  'unanswered_answers',
  'grounded_answers',
  'failed_answers',
  'slow_answers',
  'feedback_up',
  'feedback_down',
];

export async function up(db: Kysely<any>): Promise<void> {
  let table = db.schema
    .createTable('analytics_hourly')
    .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id').onDelete('cascade'))
    // `YYYY-MM-DDTHH`, UTC: sorts and compares as text on both databases.
    .addColumn('hour', 'text', (c) => c.notNull());
  for (const name of COUNTERS) table = table.addColumn(name, 'bigint', (c) => c.notNull().defaultTo(0));
  await table.addPrimaryKeyConstraint('analytics_hourly_pk', ['bot_id', 'hour']).execute();
  await rebuildCounts(db as unknown as Db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('analytics_hourly').execute();
}
