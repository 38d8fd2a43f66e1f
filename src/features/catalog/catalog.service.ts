/**
 * The product catalog (decisions.md "The product catalog webhook"): products and media items of a
 * bot, changed by signed deliveries from the business's own system or by hand in the dashboard.
 * Every item is knowledge: its text is a source of type `catalog`, written in the same transaction
 * as the item, so when a change returns the bot answers from it (and stops once the item is gone).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import type { DialectSeam } from '../../db/dialect.ts';
import { isoAt, type Clock } from '../../platform/clock.ts';
import type { SecretBox } from '../../platform/encryption.ts';
import { ConflictError, NotFoundError, UnauthorizedError, UnsupportedMediaTypeError, ValidationError } from '../../platform/errors.ts';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from '../../platform/http-rules.ts';
import { timeOrderedUuid } from '../../platform/ids.ts';
import { CREDENTIAL_PREFIX, generateCredential } from '../../platform/secrets.ts';
import { compileBodyValidator } from '../../platform/validation.ts';
import type { KnowledgeService } from '../knowledge/knowledge.service.ts';
import * as repo from './catalog.repository.ts';
import { CatalogEnvelopeSchema, EventItemSchemas, type CatalogEvent, type MediaFields, type ProductFields } from './catalog.schemas.ts';

export interface CatalogServiceDeps {
  db: Db;
  seam: DialectSeam;
  clock: Clock;
  secrets: SecretBox;
  knowledge: KnowledgeService;
  publicUrl: string;
}

type Kind = repo.ItemRow['kind'];
type ItemFields = Omit<ProductFields & MediaFields, 'url'> & { url?: string | null; external_id?: string | null };

const validateEnvelope = compileBodyValidator(CatalogEnvelopeSchema);
const validateItem: Record<Kind, (value: unknown) => string | null> = {
  product: compileBodyValidator(EventItemSchemas.product),
  media: compileBodyValidator(EventItemSchemas.media),
};
const FIELDS: Record<Kind, readonly (keyof ItemFields)[]> = {
  product: ['name', 'description', 'price', 'currency', 'sku', 'url', 'image_url', 'metadata'],
  media: ['title', 'url', 'description', 'mime_type', 'metadata'],
};

/** A signed delivery as received: the raw body, its signature header, and whether it was sent as JSON. */
export interface Delivery {
  body: string;
  signature: string | undefined;
  json: boolean;
}

/** The body without `item`: a delete ignores it, whatever it holds, so the envelope is checked alone. */
function withoutItem(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const { item: _item, ...envelope } = body as Record<string, unknown>;
  return envelope;
}

export function itemView(row: repo.ItemRow) {
  const { bot_id: _bot, source_id: _source, metadata, price, ...rest } = row;
  return { ...rest, price: price === null ? null : Number(price), metadata: JSON.parse(metadata) as Record<string, unknown> };
}

/** The signature of a delivery: lowercase hex HMAC-SHA256 of the raw body keyed with the whole secret. */
export function catalogSignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

function sameSignature(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What the bot reads about an item: sentences that each name it, so that any one of them answers. */
export function itemText(item: repo.ItemRow): string {
  const metadata = JSON.parse(item.metadata) as Record<string, unknown>;
  const name = (item.kind === 'product' ? item.name : item.title) ?? '';
  const lines = [`# ${name}`, ''];
  if (item.description) lines.push(item.description, '');
  if (item.kind === 'product') {
    if (item.price !== null) lines.push(`The price of ${name} is ${Number(item.price)}${item.currency ? ` ${item.currency.toUpperCase()}` : ''}.`);
    if (item.sku) lines.push(`The SKU of ${name} is ${item.sku}.`);
  } else if (item.mime_type) {
    lines.push(`${name} is a ${item.mime_type} file.`);
  }
  for (const [key, value] of Object.entries(metadata)) {
    lines.push(`The ${key.replace(/_/g, ' ')} of ${name} is ${typeof value === 'string' ? value : JSON.stringify(value)}.`);
  }
  if (item.url) lines.push(`${name}: ${item.url}`);
  return lines.join('\n').trim();
}

export type CatalogService = ReturnType<typeof createCatalogService>;

export function createCatalogService({ db, seam, clock, secrets, knowledge, publicUrl }: CatalogServiceDeps) {
  const now = () => isoAt(clock.now());

  /** Writes the item and its knowledge in `trx`. */
  async function writeItem(trx: Db, item: repo.ItemRow, exists: boolean): Promise<void> {
    if (exists) await repo.updateItem(trx, item.id, item);
    else await repo.insertItem(trx, item);
    const source = { id: item.source_id, bot_id: item.bot_id, name: (item.kind === 'product' ? item.name : item.title) ?? 'Item', url: item.url };
    // Item texts are short: preparing them inside the transaction keeps the change atomic and costs little.
    const content = await knowledge.catalogSources.prepare(source, itemText(item));
    await knowledge.catalogSources.write(trx, source, content, exists);
  }

  function newItem(botId: string, kind: Kind, fields: ItemFields): repo.ItemRow {
    if (kind === 'product' && !fields.name) throw new ValidationError("field 'item.name' is required to create a product");
    if (kind === 'media' && !fields.title) throw new ValidationError("field 'item.title' is required to create a media item");
    if (kind === 'media' && !fields.url) throw new ValidationError("field 'item.url' is required to create a media item");
    const at = now();
    return {
      id: timeOrderedUuid(),
      bot_id: botId,
      kind,
      external_id: fields.external_id ?? null,
      name: kind === 'product' ? (fields.name ?? null) : null,
      title: kind === 'media' ? (fields.title ?? null) : null,
      description: fields.description ?? null,
      price: kind === 'product' ? (fields.price ?? null) : null,
      currency: kind === 'product' ? (fields.currency?.toUpperCase() ?? null) : null,
      sku: kind === 'product' ? (fields.sku ?? null) : null,
      url: fields.url ?? null,
      image_url: kind === 'product' ? (fields.image_url ?? null) : null,
      mime_type: kind === 'media' ? (fields.mime_type ?? null) : null,
      metadata: JSON.stringify(fields.metadata ?? {}),
      source_id: timeOrderedUuid(),
      created_at: at,
      updated_at: at,
    };
  }

  /** The item with the fields sent replacing the stored ones (`metadata` whole). */
  function changed(item: repo.ItemRow, fields: ItemFields): repo.ItemRow {
    const next: repo.ItemRow = { ...item, updated_at: now() };
    for (const field of FIELDS[item.kind]) {
      const value = fields[field];
      if (value === undefined) continue;
      if (field === 'metadata') next.metadata = JSON.stringify(value ?? {});
      else if (field === 'currency') next.currency = typeof value === 'string' ? value.toUpperCase() : null;
      else (next as Record<string, unknown>)[field] = value;
    }
    if (fields.external_id !== undefined) next.external_id = fields.external_id;
    if (item.kind === 'product' && !next.name) throw new ValidationError("field 'name' must not be empty");
    if (item.kind === 'media' && (!next.title || !next.url)) throw new ValidationError("fields 'title' and 'url' must not be empty");
    return next;
  }

  /** The one item of this kind with this external id: 404 when none, 409 when several. */
  async function matchOne(trx: Db, botId: string, kind: Kind, externalId: string): Promise<repo.ItemRow> {
    const matches = await repo.itemsWithExternalId(trx, botId, kind, externalId);
    if (matches.length === 0) throw new NotFoundError(`No ${kind} with external_id '${externalId}'`);
    if (matches.length > 1) throw new ConflictError(`Several ${kind} items have external_id '${externalId}'; nothing was changed`);
    return matches[0]!;
  }

  /** Runs a change of the bot's catalog alone (one at a time per bot), then tells the caches. */
  async function change<T>(botId: string, work: (trx: Db) => Promise<T>): Promise<T> {
    const result = await db.transaction().execute(async (trx) => {
      await seam.lockTransaction(trx, `catalog:${botId}`);
      return work(trx);
    });
    knowledge.catalogSources.changed(botId);
    return result;
  }

  async function requireItem(botId: string, itemId: string): Promise<repo.ItemRow> {
    const item = await repo.findItem(db, itemId);
    if (!item || item.bot_id !== botId) throw new NotFoundError('Item not found');
    return item;
  }

  return {
    /** Creates or replaces the bot's signing secret; shown once. */
    async rotateSecret(botId: string) {
      const secret = generateCredential(CREDENTIAL_PREFIX.catalogSecret);
      const at = now();
      await repo.saveSecret(db, botId, secrets.encrypt(secret, `catalog:${botId}`), at);
      return { secret, delivery_url: `${publicUrl}/api/catalog/${botId}/events`, created_at: at };
    },

    /** A signed delivery, checked in the documented order: signature (401), body (415, 400), match (404, 409). */
    async receive(botId: string, { body: rawBody, signature, json }: Delivery) {
      const stored = await repo.findSecret(db, botId);
      if (!stored) throw new UnauthorizedError('This bot has no catalog signing secret');
      const secret = secrets.decrypt(stored.secret, `catalog:${botId}`);
      if (!signature || !sameSignature(signature.trim().toLowerCase(), catalogSignature(secret, rawBody))) {
        throw new UnauthorizedError('Missing or invalid X-Catalog-Signature');
      }
      if (!json) throw new UnsupportedMediaTypeError('A catalog event is sent as application/json');
      if (jsonNestsDeeperThan(rawBody, MAX_JSON_DEPTH)) throw new ValidationError(`The JSON body nests more than ${MAX_JSON_DEPTH} levels deep`);
      let body: unknown;
      try {
        body = JSON.parse(rawBody);
      } catch {
        throw new ValidationError('Request body is not valid JSON');
      }
      const invalid = validateEnvelope(withoutItem(body));
      if (invalid) throw new ValidationError(invalid);
      const event = body as CatalogEvent;
      const [kind, action] = (event.event as string).split('.') as [Kind, 'created' | 'updated' | 'deleted'];
      let fields: ItemFields = {};
      if (action !== 'deleted') {
        const wrong = validateItem[kind](body);
        if (wrong) throw new ValidationError(wrong);
        fields = event.item as ItemFields;
      }

      const itemId = await change(botId, async (trx) => {
        if (action === 'created') {
          if ((await repo.itemsWithExternalId(trx, botId, kind, event.external_id)).length > 0) {
            throw new ConflictError(`A ${kind} with external_id '${event.external_id}' already exists`);
          }
          const item = newItem(botId, kind, { ...fields, external_id: event.external_id });
          await writeItem(trx, item, false);
          return item.id;
        }
        const item = await matchOne(trx, botId, kind, event.external_id);
        if (action === 'deleted') {
          await repo.deleteItem(trx, item.id);
          await knowledge.catalogSources.remove(trx, item.source_id);
        } else {
          await writeItem(trx, changed(item, { ...fields, external_id: undefined }), true);
        }
        return item.id;
      });
      return { success: true, event: event.event, item_id: itemId };
    },

    async list(botId: string, page: { limit: number; offset: number }) {
      const { rows, total } = await repo.listItems(db, botId, page);
      return { items: rows.map(itemView), total };
    },

    /** A dashboard item; its external id may repeat (deliveries then answer 409 for it). */
    async create(botId: string, input: ItemFields & { kind: Kind }) {
      const item = newItem(botId, input.kind, input);
      await change(botId, (trx) => writeItem(trx, item, false));
      return itemView(item);
    },

    async update(botId: string, itemId: string, fields: ItemFields) {
      const item = changed(await requireItem(botId, itemId), fields);
      await change(botId, (trx) => writeItem(trx, item, true));
      return itemView(item);
    },

    async remove(botId: string, itemId: string) {
      const item = await requireItem(botId, itemId);
      await change(botId, async (trx) => {
        await repo.deleteItem(trx, item.id);
        await knowledge.catalogSources.remove(trx, item.source_id);
      });
      return { success: true, id: item.id };
    },
  };
}
