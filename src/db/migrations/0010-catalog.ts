/**
 * The product catalog (decisions.md "The product catalog webhook"): products and media items per
 * bot, each told to retrieval through a knowledge source of type `catalog`, and the bot's catalog
 * signing secret.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('catalog_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('name', 'text')
    .addColumn('title', 'text')
    .addColumn('description', 'text')
    .addColumn('price', 'double precision')
    .addColumn('currency', 'text')
    .addColumn('sku', 'text')
    .addColumn('url', 'text')
    .addColumn('image_url', 'text')
    .addColumn('mime_type', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    // The knowledge source that makes the item answerable (deleted with the item).
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('catalog_items_match').on('catalog_items').columns(['bot_id', 'kind', 'external_id']).execute();
  await db.schema.createIndex('catalog_items_list').on('catalog_items').columns(['bot_id', 'created_at']).execute();

  await db.schema
    .createTable('catalog_secrets')
    .addColumn('bot_id', 'text', (c) => c.primaryKey().references('bots.id').onDelete('cascade'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('catalog_secrets').execute();
  await db.schema.dropTable('catalog_items').execute();
}
