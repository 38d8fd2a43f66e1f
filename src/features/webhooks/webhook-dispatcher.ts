/**
 * Sends webhook deliveries. Each instance runs one dispatcher; they share the work through leases
 * on the delivery rows (interface.md sections 3, 6 and 8; decisions.md "Webhooks"):
 *
 * - Due deliveries are claimed in batches with a lease that outlives one attempt, so a delivery is
 *   sent by one instance at a time, and one whose instance died is claimed again when the lease
 *   runs out (a process killed between commit and send delivers after it comes back).
 * - Every attempt POSTs the stored body unchanged, signed (`X-Service-Signature`, HMAC-SHA256 of
 *   the body keyed with the whole secret) and named (`X-Service-Delivery`), through the guarded
 *   client: the address is checked again at every attempt, redirects are not followed, and the
 *   receiver has `timeoutMs` for its whole answer.
 * - A non-2xx answer, a redirect, a time-out or a broken connection is a failure, retried after
 *   each delay of the schedule in turn; the attempt after the last delay is the last one.
 * - A receiver never holds more than `perWebhook` of this instance's sending slots, so a slow or
 *   dead one cannot delay the others.
 * - Attempts and finished deliveries are kept for 30 days.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle, Db } from '../../db/database.ts';
import type { DialectSeam } from '../../db/dialect.ts';
import { isoAt, type Clock } from '../../platform/clock.ts';
import type { SecretBox } from '../../platform/encryption.ts';
import type { GuardedFetch } from '../../platform/outbound/guarded-fetch.ts';
import * as repo from './webhooks.repository.ts';

export interface DispatcherDeps {
  db: Db;
  /** The database's shared transaction: attempt results commit with the chat writes of the moment. */
  inSharedTransaction: DatabaseHandle['inSharedTransaction'];
  seam: DialectSeam;
  clock: Clock;
  secrets: SecretBox;
  send: GuardedFetch;
  /** Seconds before each retry (`PARLEY_WEBHOOK_RETRY_DELAYS`). */
  retryDelaysSec: number[];
  /** A receiver's time for its whole answer (`PARLEY_WEBHOOK_TIMEOUT_MS`). */
  timeoutMs: number;
  log?: FastifyBaseLogger;
  /** How often due deliveries are looked for when nothing wakes the dispatcher. */
  pollMs?: number;
  instanceId?: string;
}

/** How one attempt went, as the test endpoint reports it. */
export interface AttemptReport {
  deliveryId: string;
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

export type WebhookDispatcher = ReturnType<typeof createWebhookDispatcher>;

const BATCH = 200;
const MAX_IN_FLIGHT = 512;
const PER_WEBHOOK = 32;
const EXCERPT_CHARS = 512;
const KEEP_HISTORY_MS = 30 * 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;
const GATHER_MS = 10;

/** The signature of a body: lowercase hex HMAC-SHA256 keyed with the whole secret string. */
export function signatureOf(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

export function createWebhookDispatcher(deps: DispatcherDeps) {
  const { db, inSharedTransaction, seam, clock, secrets, send, retryDelaysSec, timeoutMs, log, pollMs = 500, instanceId = randomUUID() } = deps;
  // Long enough for one attempt and its record; a dead instance's claims come back this long after it died.
  const leaseMs = timeoutMs + 5_000;
  const inFlightByWebhook = new Map<string, number>();
  let inFlight = 0;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let lastPrune = 0;
  const sending = new Set<Promise<unknown>>();
  // Webhooks that had every slot busy and have freed some: refilled by a claim of their own.
  const refill = new Set<string>();
  let refillScheduled = false;
  // A webhook's secret never changes: decrypted once.
  const plainSecrets = new Map<string, string>();
  let outcomes: repo.AttemptOutcome[] = [];
  let writing: Promise<void> | null = null;

  /** Writes finished attempts in one transaction per batch, off each attempt's own path. */
  function recordSoon(outcome: repo.AttemptOutcome): Promise<void> {
    outcomes.push(outcome);
    writing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      const batch = outcomes;
      outcomes = [];
      writing = null;
      try {
        await inSharedTransaction((trx) => repo.recordOutcomes(trx, batch));
      } catch {
        // One bad row (a delivery deleted between the check and the write) must not sink the others.
        for (const outcome of batch) {
          await db
            .transaction()
            .execute((trx) => repo.recordOutcomes(trx, [outcome]))
            .catch((err: unknown) => {
              // Its lease runs out and it is attempted again: late, but not lost.
              log?.error({ err, deliveryId: outcome.deliveryId }, 'webhooks: an attempt result could not be stored');
            });
        }
      }
    });
    return writing;
  }

  /** One attempt; `once` makes it the last whatever the schedule (a test event). */
  async function attempt(delivery: repo.DeliveryRow, hook: repo.WebhookRow, once = false): Promise<AttemptReport> {
    const number = delivery.attempts + 1;
    let secret = plainSecrets.get(hook.id);
    if (secret === undefined) plainSecrets.set(hook.id, (secret = secrets.decrypt(hook.secret, hook.id)));
    const started = performance.now();
    const result = await send(hook.url, {
      method: 'POST',
      body: delivery.body,
      headers: {
        'content-type': 'application/json',
        'x-service-signature': signatureOf(secret, delivery.body),
        'x-service-delivery': delivery.id,
        'x-service-event': delivery.event,
      },
    });
    const latencyMs = Math.round(performance.now() - started);
    const at = isoAt(clock.now());
    const statusCode = result.ok ? result.status : (result.status ?? null);
    const error = result.ok ? null : `${result.reason}: ${result.detail}`.slice(0, EXCERPT_CHARS);
    const answered = result.ok ? result.body.subarray(0, EXCERPT_CHARS * 4).toString('utf8') : result.bodyStart;
    const excerpt = answered === undefined ? null : answered.slice(0, EXCERPT_CHARS);
    const last = once || number > retryDelaysSec.length;
    const status = result.ok ? 'delivered' : last ? 'dropped' : 'pending';
    const nextAttemptAt = status === 'pending' ? isoAt(clock.now() + retryDelaysSec[number - 1]! * 1000) : null;
    if (status === 'dropped') log?.warn({ deliveryId: delivery.id, webhookId: hook.id }, 'webhooks: delivery dropped after its last attempt');
    await recordSoon({ deliveryId: delivery.id, owner: delivery.lease_owner ?? instanceId, attempt: number, statusCode, latencyMs, error, responseExcerpt: excerpt, at, status, nextAttemptAt });
    return { deliveryId: delivery.id, ok: result.ok, statusCode, latencyMs, error };
  }

  function track(webhookId: string, task: Promise<unknown>): void {
    inFlight++;
    inFlightByWebhook.set(webhookId, (inFlightByWebhook.get(webhookId) ?? 0) + 1);
    sending.add(task);
    void task.finally(() => {
      sending.delete(task);
      inFlight--;
      const before = inFlightByWebhook.get(webhookId)!;
      if (before === 1) inFlightByWebhook.delete(webhookId);
      else inFlightByWebhook.set(webhookId, before - 1);
      // A webhook held back at its cap may have more waiting: claim for it alone (an indexed
      // query), rather than scan everyone's due deliveries again after every attempt.
      if (before >= PER_WEBHOOK && !stopped) {
        refill.add(webhookId);
        if (!refillScheduled) {
          refillScheduled = true;
          setImmediate(() => void refillHeldBack());
        }
      }
    });
  }

  async function refillHeldBack(): Promise<void> {
    refillScheduled = false;
    const webhooks = [...refill];
    refill.clear();
    try {
      for (const webhookId of webhooks) {
        const room = Math.min(PER_WEBHOOK - (inFlightByWebhook.get(webhookId) ?? 0), MAX_IN_FLIGHT - inFlight);
        if (room <= 0 || stopped) continue;
        const now = clock.now();
        const claimed = await repo.claimDue(db, seam, { owner: instanceId, now: isoAt(now), leaseUntil: isoAt(now + leaseMs), limit: room, skipWebhooks: [], onlyWebhook: webhookId });
        await start(claimed);
      }
    } catch (err) {
      log?.error({ err }, 'webhooks: claiming deliveries failed');
    }
  }

  /** Starts an attempt of each claimed delivery; gives back at once those over their webhook's cap. */
  async function start(claimed: repo.DeliveryRow[]): Promise<number> {
    if (claimed.length === 0) return 0;
    const hooks = new Map((await repo.findWebhooks(db, [...new Set(claimed.map((d) => d.webhook_id))])).map((h) => [h.id, h]));
    const surplus: string[] = [];
    for (const delivery of claimed) {
      const hook = hooks.get(delivery.webhook_id);
      if (!hook) continue; // deleted meanwhile: its deliveries went with it
      if ((inFlightByWebhook.get(hook.id) ?? 0) >= PER_WEBHOOK) {
        surplus.push(delivery.id);
        continue;
      }
      const task = attempt(delivery, hook).catch((err: unknown) => log?.error({ err, deliveryId: delivery.id }, 'webhooks: attempt failed unexpectedly'));
      track(hook.id, task);
    }
    await repo.releaseClaims(db, surplus, instanceId);
    return surplus.length;
  }

  /** Claims what is due and starts sending it; returns whether there may be more to claim now. */
  async function claimAndSend(): Promise<boolean> {
    // At most one webhook's worth per round: a round's claim cannot overshoot a webhook's cap by much.
    const room = Math.min(PER_WEBHOOK, MAX_IN_FLIGHT - inFlight);
    if (room <= 0) return false;
    const now = clock.now();
    const skipWebhooks = [...inFlightByWebhook].filter(([, n]) => n >= PER_WEBHOOK).map(([id]) => id);
    const claimed = await repo.claimDue(db, seam, { owner: instanceId, now: isoAt(now), leaseUntil: isoAt(now + leaseMs), limit: room, skipWebhooks });
    const surplus = await start(claimed);
    return claimed.length === room && surplus < claimed.length;
  }

  async function run(): Promise<void> {
    do {
      again = false;
      try {
        while (!stopped && (await claimAndSend()));
        if (clock.now() - lastPrune > PRUNE_EVERY_MS) {
          lastPrune = clock.now();
          await repo.pruneHistory(db, isoAt(clock.now() - KEEP_HISTORY_MS));
        }
      } catch (err) {
        log?.error({ err }, 'webhooks: claiming deliveries failed');
      }
    } while (again && !stopped);
  }

  /** Looks for due deliveries now (after a commit that queued some, or a freed slot). */
  function wake(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = run().finally(() => (running = null));
  }

  const timer = setInterval(wake, pollMs);
  timer.unref();
  // New deliveries are gathered for a few milliseconds, so that a busy service claims and records
  // them in batches rather than a claim and a write per chat message.
  let gathering: NodeJS.Timeout | undefined;
  const onQueued = (webhookIds: ReadonlySet<string>) => {
    // A webhook at its cap takes its next deliveries as its slots free (the refill above). Looking
    // for anyone else's would walk past its whole backlog, and under load that is most of the queue.
    if ([...webhookIds].every((id) => (inFlightByWebhook.get(id) ?? 0) >= PER_WEBHOOK)) return;
    gathering ??= setTimeout(() => {
      gathering = undefined;
      wake();
    }, GATHER_MS);
  };
  repo.deliveriesQueued.on('queued', onQueued);

  return {
    wake,

    /** The one attempt of a test delivery (stored with no due time, so only this sends it). */
    async attemptNow(deliveryId: string): Promise<AttemptReport | null> {
      const now = clock.now();
      const [delivery] = await repo.claimDue(db, seam, { owner: instanceId, now: isoAt(now), leaseUntil: isoAt(now + leaseMs), limit: 1, skipWebhooks: [], onlyId: deliveryId });
      if (!delivery) return null;
      const hook = await repo.findWebhook(db, delivery.webhook_id);
      if (!hook) return null;
      const task = attempt(delivery, hook, true);
      track(hook.id, task);
      return task;
    },

    /** Stops looking for work and waits for the attempts under way and their records. */
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(timer);
      repo.deliveriesQueued.off('queued', onQueued);
      clearTimeout(gathering);
      await running;
      await Promise.allSettled([...sending]);
      await writing;
    },
  };
}
