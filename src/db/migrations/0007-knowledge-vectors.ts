/**
 * Passage embeddings, one row per passage and embedding model, removed with their passage. Passages
 * stored before this migration get theirs from the knowledge service's back-fill.
 */
import type { Kysely } from 'kysely';
import { seamOf } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('knowledge_vectors')
    .addColumn('passage_id', 'text', (c) => c.notNull().references('knowledge_passages.id').onDelete('cascade'))
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('bot_id', 'text', (c) => c.notNull())
    .addColumn('vector', seamOf(db).binaryType, (c) => c.notNull())
    .addPrimaryKeyConstraint('knowledge_vectors_pk', ['passage_id', 'model'])
    .execute();
  await db.schema.createIndex('knowledge_vectors_bot').on('knowledge_vectors').columns(['bot_id', 'model']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('knowledge_vectors').execute();
}
