/**
 * The member who made each API key, so that a key can do no more than its maker can now do in the
 * dashboard, and stops when its maker leaves. Keys made before this migration have no maker and
 * act for the whole account, as they did.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('created_by', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('created_by').execute();
}
