/** Each bot's full-text rows in a row-id range of their own, so that a search reads only those. */
import type { Kysely } from 'kysely';
import { fullTextFor } from '../full-text.ts';
import { seamOf } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await fullTextFor(seamOf(db).name).createBotRanges(db);
}

export async function down(): Promise<void> {
  // The ranges are harmless to keep: the index works with them whatever the code that reads it.
}
