/**
 * The events outbox: every event the webhooks deliver (interface.md section 6) is written here in
 * the same transaction as the change it tells about, together with one delivery per subscribed
 * webhook, so that none is lost between the change and its delivery.
 */
import type { Insertable } from 'kysely';
import { cachedQuery } from '../../db/cached-query.ts';
import type { Db } from '../../db/database.ts';
import type { OutboxEventsTable } from '../../db/schema.ts';
import { timeOrderedUuid } from '../../platform/ids.ts';
import { enqueueDeliveries } from '../webhooks/webhooks.repository.ts';

export type EventName = OutboxEventsTable['event'];

export interface OutboxEvent {
  event: EventName;
  botId: string;
  accountId: string;
  /** The caller's session_id. */
  sessionId: string;
  data: Record<string, unknown>;
  /** When it happened (ISO 8601): the envelope's `timestamp`. */
  occurredAt: string;
}

const insertEvent = cachedQuery((db, row: Insertable<OutboxEventsTable>) => db.insertInto('outbox_events').values(row));

/** Appends events to the outbox (call inside the transaction that makes the change). */
export async function recordEvents(trx: Db, events: readonly OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  // A statement per event: compiled once, each costs less than Kysely building one for several rows.
  for (const e of events) {
    await insertEvent(trx, {
      id: timeOrderedUuid(),
      bot_id: e.botId,
      account_id: e.accountId,
      session_id: e.sessionId,
      event: e.event,
      data: JSON.stringify(e.data),
      occurred_at: e.occurredAt,
    });
  }
  await enqueueDeliveries(trx, events);
}

/** A bot's events in the order they happened (oldest first), after `afterSeq`. */
export async function listEvents(db: Db, botId: string, afterSeq = 0, limit = 1000) {
  const rows = await db
    .selectFrom('outbox_events')
    .selectAll()
    .where('bot_id', '=', botId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, seq: Number(row.seq), data: JSON.parse(row.data) as Record<string, unknown> }));
}
