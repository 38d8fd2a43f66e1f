/** Storage of catalog items and the bots' catalog secrets. */
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { CatalogItemsTable } from '../../db/schema.ts';

export type ItemRow = Selectable<CatalogItemsTable>;

export const findItem = (db: Db, id: string) => db.selectFrom('catalog_items').selectAll().where('id', '=', id).executeTakeFirst();

export const itemsWithExternalId = (db: Db, botId: string, kind: ItemRow['kind'], externalId: string) =>
  db.selectFrom('catalog_items').selectAll().where('bot_id', '=', botId).where('kind', '=', kind).where('external_id', '=', externalId).execute();

export const insertItem = (db: Db, row: ItemRow) => db.insertInto('catalog_items').values(row).execute();

export async function updateItem(db: Db, id: string, changes: Partial<ItemRow>) {
  await db.updateTable('catalog_items').set(changes).where('id', '=', id).execute();
}

export async function deleteItem(db: Db, id: string) {
  await db.deleteFrom('catalog_items').where('id', '=', id).execute();
}

export async function listItems(db: Db, botId: string, page: { limit: number; offset: number }) {
  const [rows, count] = await Promise.all([
    db.selectFrom('catalog_items').selectAll().where('bot_id', '=', botId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
    db.selectFrom('catalog_items').select((eb) => eb.fn.countAll().as('n')).where('bot_id', '=', botId).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export const findSecret = (db: Db, botId: string) => db.selectFrom('catalog_secrets').selectAll().where('bot_id', '=', botId).executeTakeFirst();

export async function saveSecret(db: Db, botId: string, secret: string, at: string) {
  await db
    .insertInto('catalog_secrets')
    .values({ bot_id: botId, secret, created_at: at })
    .onConflict((oc) => oc.column('bot_id').doUpdateSet({ secret, created_at: at }))
    .execute();
}
