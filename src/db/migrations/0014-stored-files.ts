/**
 * Files kept in the database (`PARLEY_STORAGE=database`): a row per file and its bytes in chunks,
 * so that a file streams in and out without being held whole in memory.
 */
import type { Kysely } from 'kysely';
import { seamOf } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const seam = seamOf(db);
  await db.schema
    .createTable('stored_files')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('chunk_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('stored_file_chunks')
    .addColumn('key', 'text', (c) => c.notNull().references('stored_files.key').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', seam.binaryType, (c) => c.notNull())
    .addPrimaryKeyConstraint('stored_file_chunks_pk', ['key', 'seq'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('stored_file_chunks').execute();
  await db.schema.dropTable('stored_files').execute();
}
