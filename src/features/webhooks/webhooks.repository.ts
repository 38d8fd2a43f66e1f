/** Storage of webhooks, their deliveries and attempts. */
import { EventEmitter } from 'node:events';
import { sql, type Selectable } from 'kysely';
import { cachedQuery } from '../../db/cached-query.ts';
import type { Db } from '../../db/database.ts';
import type { DialectSeam } from '../../db/dialect.ts';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable } from '../../db/schema.ts';
import { timeOrderedUuid } from '../../platform/ids.ts';
import type { OutboxEvent } from '../events/events.repository.ts';

export type WebhookRow = Selectable<WebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type AttemptRow = Selectable<WebhookAttemptsTable>;

/** The JSON body of an event (interface.md section 6's envelope), the same bytes for every attempt. */
export function envelopeOf(event: Pick<OutboxEvent, 'event' | 'botId' | 'sessionId' | 'occurredAt' | 'data'>): string {
  return JSON.stringify({ event: event.event, bot_id: event.botId, session_id: event.sessionId, timestamp: event.occurredAt, data: event.data });
}

/**
 * Told when deliveries were queued (with the ids of their webhooks), so that the dispatchers of this
 * process look for them at once instead of at their next poll. It fires while the queuing
 * transaction may still be open: on SQLite the dispatcher's claim waits for that transaction on the
 * one connection; on PostgreSQL a claim that comes too early misses the rows until the next poll.
 */
export const deliveriesQueued = new EventEmitter().setMaxListeners(0);

// Run on every chat turn: compiled once (see cached-query.ts).
export const insertDelivery = cachedQuery((db, row: DeliveryRow) => db.insertInto('webhook_deliveries').values(row));
const webhooksOfBot = cachedQuery((db, p: { botId: string }) => db.selectFrom('webhooks').select(['id', 'bot_id', 'events']).where('bot_id', '=', p.botId));

/** One delivery per event and webhook subscribed to it (call inside the event's transaction). */
export async function enqueueDeliveries(trx: Db, events: readonly OutboxEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const botIds = [...new Set(events.map((e) => e.botId))];
  const rowsOfHooks = [];
  for (const botId of botIds) rowsOfHooks.push(...(await webhooksOfBot(trx, { botId })).rows);
  if (rowsOfHooks.length === 0) return 0;
  const hooks = rowsOfHooks.map((h) => ({ id: h.id, bot_id: h.bot_id, events: JSON.parse(h.events) as string[] }));
  const rows: DeliveryRow[] = [];
  for (const event of events) {
    let body: string | undefined;
    for (const hook of hooks) {
      if (hook.bot_id !== event.botId || !hook.events.includes(event.event)) continue;
      body ??= envelopeOf(event);
      rows.push(newDelivery(hook.id, event.botId, event.event, body, event.occurredAt));
    }
  }
  if (rows.length > 0) {
    for (const row of rows) await insertDelivery(trx, row);
    const webhookIds = new Set(rows.map((r) => r.webhook_id));
    setImmediate(() => deliveriesQueued.emit('queued', webhookIds));
  }
  return rows.length;
}

export function newDelivery(webhookId: string, botId: string, event: string, body: string, at: string): DeliveryRow {
  return {
    id: timeOrderedUuid(),
    webhook_id: webhookId,
    bot_id: botId,
    event,
    body,
    status: 'pending',
    attempts: 0,
    next_attempt_at: at,
    lease_owner: null,
    lease_until: null,
    last_status_code: null,
    last_error: null,
    created_at: at,
    delivered_at: null,
  };
}

export const insertWebhook = (db: Db, row: WebhookRow) => db.insertInto('webhooks').values(row).execute();

export const listWebhooks = (db: Db, botId: string) =>
  db.selectFrom('webhooks').selectAll().where('bot_id', '=', botId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();

export const findWebhook = (db: Db, id: string) => db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();

export const findWebhooks = (db: Db, ids: string[]) => (ids.length === 0 ? Promise.resolve([]) : db.selectFrom('webhooks').selectAll().where('id', 'in', ids).execute());

export async function updateWebhook(db: Db, id: string, changes: Partial<Pick<WebhookRow, 'url' | 'events' | 'updated_at'>>) {
  await db.updateTable('webhooks').set(changes).where('id', '=', id).execute();
}

export async function deleteWebhook(db: Db, id: string) {
  await db.deleteFrom('webhooks').where('id', '=', id).execute();
}

/**
 * Leases up to `limit` due deliveries to `owner` until `leaseUntil`, leaving out the webhooks given
 * (those this instance already sends its fill to). On PostgreSQL rows another instance is claiming
 * are skipped, not waited for.
 */
export async function claimDue(
  db: Db,
  seam: DialectSeam,
  claim: { owner: string; now: string; leaseUntil: string; limit: number; skipWebhooks: string[]; onlyId?: string; onlyWebhook?: string },
): Promise<DeliveryRow[]> {
  const skip = claim.skipWebhooks.length > 0 ? sql`and webhook_id not in (${sql.join(claim.skipWebhooks)})` : sql``;
  const only = claim.onlyId
    ? sql`and id = ${claim.onlyId}`
    : claim.onlyWebhook
      ? sql`and webhook_id = ${claim.onlyWebhook} and next_attempt_at <= ${claim.now}`
      : sql`and next_attempt_at <= ${claim.now}`;
  const due = sql`status = 'pending' ${only} and (lease_until is null or lease_until < ${claim.now}) ${skip}`;
  // A read first: the dispatcher polls twice a second, and an UPDATE takes SQLite's write lock even
  // when it matches nothing, so an idle poll would queue behind (and stall the event loop for) every
  // other writer.
  const { rows: anyDue } = await sql`select 1 from webhook_deliveries where ${due} limit 1`.execute(db);
  if (anyDue.length === 0) return [];
  const { rows } = await sql<DeliveryRow>`
    update webhook_deliveries set lease_owner = ${claim.owner}, lease_until = ${claim.leaseUntil}
    where id in (
      select id from webhook_deliveries
      where ${due}
      order by next_attempt_at limit ${claim.limit} ${seam.skipLockedRows}
    )
    returning *`.execute(db);
  return rows;
}

/** Gives claimed deliveries back at once (this instance has no room for them). */
export async function releaseClaims(db: Db, ids: string[], owner: string) {
  if (ids.length === 0) return;
  await db.updateTable('webhook_deliveries').set({ lease_owner: null, lease_until: null }).where('id', 'in', ids).where('lease_owner', '=', owner).execute();
}

/** What one attempt found, and what the delivery becomes. */
export interface AttemptOutcome {
  deliveryId: string;
  owner: string;
  attempt: number;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
  at: string;
  /** delivered, dropped, or pending again at `nextAttemptAt`. */
  status: DeliveryRow['status'];
  nextAttemptAt: string | null;
}

/**
 * Stores attempts and their deliveries' new state; a delivery whose lease was lost meanwhile is
 * left alone, and one deleted meanwhile (with its webhook) is skipped.
 */
export async function recordOutcomes(trx: Db, all: AttemptOutcome[]): Promise<void> {
  if (all.length === 0) return;
  const present = new Set(
    (await trx.selectFrom('webhook_deliveries').select('id').where('id', 'in', all.map((o) => o.deliveryId)).execute()).map((r) => r.id),
  );
  const outcomes = all.filter((o) => present.has(o.deliveryId));
  if (outcomes.length === 0) return;
  await trx
    .insertInto('webhook_attempts')
    .values(
      outcomes.map((o) => ({
        delivery_id: o.deliveryId,
        attempt: o.attempt,
        status_code: o.statusCode,
        latency_ms: o.latencyMs,
        error: o.error,
        response_excerpt: o.responseExcerpt,
        created_at: o.at,
      })),
    )
    .execute();
  // Successes, the common case, are written a statement per status code and owner.
  const delivered = new Map<string, AttemptOutcome[]>();
  for (const o of outcomes) {
    if (o.status !== 'delivered') continue;
    const key = `${o.statusCode}\u0000${o.owner}`;
    const group = delivered.get(key);
    if (group) group.push(o);
    else delivered.set(key, [o]);
  }
  for (const group of delivered.values()) {
    const { statusCode, owner, at } = group[0]!;
    await trx
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        status: 'delivered',
        attempts: eb('attempts', '+', 1),
        next_attempt_at: null,
        lease_owner: null,
        lease_until: null,
        last_status_code: statusCode,
        last_error: null,
        delivered_at: at,
      }))
      .where('id', 'in', group.map((o) => o.deliveryId))
      .where('lease_owner', '=', owner)
      .execute();
  }
  for (const o of outcomes) {
    if (o.status === 'delivered') continue;
    await trx
      .updateTable('webhook_deliveries')
      .set({
        status: o.status,
        attempts: o.attempt,
        next_attempt_at: o.nextAttemptAt,
        lease_owner: null,
        lease_until: null,
        last_status_code: o.statusCode,
        last_error: o.error,
        delivered_at: null,
      })
      .where('id', '=', o.deliveryId)
      .where('lease_owner', '=', o.owner)
      .execute();
  }
}

export async function listDeliveries(db: Db, webhookId: string, page: { limit: number; offset: number }) {
  const [rows, total] = await Promise.all([
    db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
    db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll().as('n')).where('webhook_id', '=', webhookId).executeTakeFirstOrThrow(),
  ]);
  const ids = rows.map((r) => r.id);
  const attempts = ids.length === 0 ? [] : await db.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', ids).orderBy('seq').execute();
  return { rows, attempts, total: Number(total.n) };
}

export const findDelivery = (db: Db, id: string) => db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();

/** Queues a delivery again from its first attempt, keeping its id, body and past attempts. */
export async function requeueDelivery(db: Db, id: string, at: string) {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', attempts: 0, next_attempt_at: at, lease_owner: null, lease_until: null, delivered_at: null })
    .where('id', '=', id)
    .execute();
}

/** Forgets attempts, and finished deliveries, older than `before`. */
export async function pruneHistory(db: Db, before: string) {
  // Each delete is looked for with a read first: a DELETE takes SQLite's write lock even when it
  // matches nothing.
  const oldAttempt = await db.selectFrom('webhook_attempts').select('delivery_id').where('created_at', '<', before).limit(1).executeTakeFirst();
  if (oldAttempt) await db.deleteFrom('webhook_attempts').where('created_at', '<', before).execute();
  const oldDelivery = await db.selectFrom('webhook_deliveries').select('id').where('status', '!=', 'pending').where('created_at', '<', before).limit(1).executeTakeFirst();
  if (oldDelivery) await db.deleteFrom('webhook_deliveries').where('status', '!=', 'pending').where('created_at', '<', before).execute();
}
