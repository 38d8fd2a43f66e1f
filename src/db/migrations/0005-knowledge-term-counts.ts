/** Per-term row counts of the full-text index, which search uses to skip terms that tell nothing. */
import type { Kysely } from 'kysely';
import { fullTextFor } from '../full-text.ts';
import { seamOf } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await fullTextFor(seamOf(db).name).createTermCounts(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await fullTextFor(seamOf(db).name).dropTermCounts(db);
}
