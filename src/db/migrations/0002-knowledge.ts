/** Knowledge sources, their passages, and the passages' full-text index (per dialect). */
import type { Kysely } from 'kysely';
import { fullTextFor } from '../full-text.ts';
import { seamOf } from '../dialect.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('knowledge_sources')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_detail', 'text')
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('char_count', 'integer', (c) => c.notNull())
    .addColumn('crawl_schedule', 'text')
    .addColumn('next_crawl_at', 'text')
    .addColumn('last_crawled_at', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('knowledge_sources_bot').on('knowledge_sources').columns(['bot_id', 'created_at']).execute();
  await db.schema.createIndex('knowledge_sources_due').on('knowledge_sources').columns(['next_crawl_at']).execute();

  await db.schema
    .createTable('knowledge_passages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('source_id', 'text', (c) => c.notNull().references('knowledge_sources.id').onDelete('cascade'))
    .addColumn('bot_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('heading', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('knowledge_passages_source').on('knowledge_passages').columns(['source_id', 'position']).execute();

  await fullTextFor(seamOf(db).name).createIndex(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await fullTextFor(seamOf(db).name).dropIndex(db);
  await db.schema.dropTable('knowledge_passages').execute();
  await db.schema.dropTable('knowledge_sources').execute();
}
