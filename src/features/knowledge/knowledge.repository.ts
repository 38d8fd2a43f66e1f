/** Storage of knowledge sources and passages, and the passages' full-text index. */
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { FullText } from '../../db/full-text.ts';
import type { KnowledgeSourcesTable } from '../../db/schema.ts';

export type SourceRow = Selectable<KnowledgeSourcesTable>;

export async function insertSource(db: Db, source: Insertable<KnowledgeSourcesTable>): Promise<void> {
  await db.insertInto('knowledge_sources').values(source).execute();
}

export function findSource(db: Db, sourceId: string): Promise<SourceRow | undefined> {
  return db.selectFrom('knowledge_sources').selectAll().where('id', '=', sourceId).executeTakeFirst();
}

export function listSources(db: Db, botId: string, page?: { limit: number; offset: number }): Promise<SourceRow[]> {
  let query = db.selectFrom('knowledge_sources').selectAll().where('bot_id', '=', botId).where('type', '!=', 'catalog').orderBy('created_at', 'desc').orderBy('id', 'desc');
  if (page) query = query.limit(page.limit).offset(page.offset);
  return query.execute();
}

export async function countSources(db: Db, botId: string): Promise<number> {
  const row = await db
    .selectFrom('knowledge_sources')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('bot_id', '=', botId)
    .where('type', '!=', 'catalog')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether the bot has any source at all (the catalog's items included). */
export async function hasSources(db: Db, botId: string): Promise<boolean> {
  const row = await db.selectFrom('knowledge_sources').select('id').where('bot_id', '=', botId).limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function updateSource(db: Db, sourceId: string, changes: Partial<Insertable<KnowledgeSourcesTable>>): Promise<void> {
  await db.updateTable('knowledge_sources').set(changes).where('id', '=', sourceId).execute();
}

/** Replaces a source's passages and their index entries (call inside a transaction). */
export async function replacePassages(
  trx: Db,
  fullText: FullText,
  source: { id: string; bot_id: string; title: string },
  passages: { id: string; heading: string; body: string }[],
): Promise<void> {
  await fullText.unindexSource(trx, source.id);
  await trx.deleteFrom('knowledge_passages').where('source_id', '=', source.id).execute();
  const rows = passages.map((p, position) => ({ ...p, source_id: source.id, bot_id: source.bot_id, position, title: source.title }));
  for (let i = 0; i < rows.length; i += 200) {
    await trx.insertInto('knowledge_passages').values(rows.slice(i, i + 200)).execute();
  }
  await fullText.index(trx, rows);
}

/** Deletes a source with its passages and index entries (call inside a transaction). */
export async function deleteSource(trx: Db, fullText: FullText, sourceId: string): Promise<void> {
  await fullText.unindexSource(trx, sourceId);
  await trx.deleteFrom('knowledge_passages').where('source_id', '=', sourceId).execute();
  await trx.deleteFrom('knowledge_sources').where('id', '=', sourceId).execute();
}

/** Passages by id with their source's title and URL. */
export function passagesWithSources(db: Db, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('knowledge_passages as p')
    .innerJoin('knowledge_sources as s', 's.id', 'p.source_id')
    .select(['p.id', 'p.source_id', 'p.heading', 'p.body', 's.name', 's.url'])
    .where('p.id', 'in', ids)
    .execute();
}

/**
 * Takes the source's lease if it is free or expired and the source still needs a crawl (it is due,
 * or still `processing`); true when this instance now holds it. The second condition matters: an
 * instance that found the source due may claim it only after another has crawled it and let the
 * lease go, and must then find it no longer due rather than crawl it again.
 */
export async function claimSource(db: Db, sourceId: string, owner: string, nowIso: string, untilIso: string): Promise<boolean> {
  const result = await db
    .updateTable('knowledge_sources')
    .set({ lease_owner: owner, lease_until: untilIso })
    .where('id', '=', sourceId)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', nowIso)]))
    .where((eb) => eb.or([eb('next_crawl_at', '<=', nowIso), eb('status', '=', 'processing')]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** URL sources due for a crawl, or left in `processing` by an instance that stopped. */
export function findDueSources(db: Db, nowIso: string, limit: number) {
  return db
    .selectFrom('knowledge_sources')
    .select(['id'])
    .where('type', '=', 'url')
    .where((eb) => eb.or([eb('next_crawl_at', '<=', nowIso), eb('status', '=', 'processing')]))
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', nowIso)]))
    .orderBy('next_crawl_at')
    .limit(limit)
    .execute();
}

/** Stores passage embeddings (call inside the transaction that wrote the passages, or after it). */
export async function insertVectors(db: Db, rows: { passage_id: string; model: string; bot_id: string; vector: Buffer }[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) {
    await db
      .insertInto('knowledge_vectors')
      .values(rows.slice(i, i + 200))
      .onConflict((oc) => oc.columns(['passage_id', 'model']).doNothing())
      .execute();
  }
}

/** Every embedding of the bot's passages by one model. */
export function botVectors(db: Db, botId: string, model: string) {
  return db.selectFrom('knowledge_vectors').select(['passage_id', 'vector']).where('bot_id', '=', botId).where('model', '=', model).execute();
}

/** Passages that have no embedding by this model yet, oldest sources first. */
export function passagesWithoutVectors(db: Db, model: string, limit: number) {
  return db
    .selectFrom('knowledge_passages as p')
    .leftJoin('knowledge_vectors as v', (join) => join.onRef('v.passage_id', '=', 'p.id').on('v.model', '=', model))
    .select(['p.id', 'p.bot_id', 'p.title', 'p.heading', 'p.body'])
    .where('v.passage_id', 'is', null)
    .limit(limit)
    .execute();
}
