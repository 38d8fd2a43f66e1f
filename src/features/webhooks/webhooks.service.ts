/**
 * Webhook subscriptions of a bot: registration (the URL checked by the outbound address rules, a
 * signing secret shown once and kept encrypted), changes, test events, the delivery log and
 * redelivery. Sending is the dispatcher's.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { isoAt, type Clock } from '../../platform/clock.ts';
import type { SecretBox } from '../../platform/encryption.ts';
import { NotFoundError, ValidationError } from '../../platform/errors.ts';
import { checkOutboundUrl, type OutboundPolicy } from '../../platform/outbound/outbound-target.ts';
import { CREDENTIAL_PREFIX, generateCredential } from '../../platform/secrets.ts';
import type { WebhookDispatcher } from './webhook-dispatcher.ts';
import * as repo from './webhooks.repository.ts';
import type { WebhookEvent } from './webhooks.schemas.ts';

export interface WebhookServiceDeps {
  db: Db;
  clock: Clock;
  secrets: SecretBox;
  dispatcher: WebhookDispatcher;
  /** The address rules of the guarded client (`PARLEY_ALLOW_PRIVATE_NETWORK`). */
  outbound: OutboundPolicy;
}

export type WebhookService = ReturnType<typeof createWebhookService>;

/** What a test event carries: the shape of a real event of that name, marked as a test. */
function sampleData(event: WebhookEvent, at: string): Record<string, unknown> {
  switch (event) {
    case 'lead.created':
      return { test: true, id: randomUUID(), name: 'Ada Lovelace', email: 'ada@example.com', phone: '+441632960961', extra: {} };
    case 'message.user':
      return { test: true, message_id: randomUUID(), role: 'user', content: 'This is a test message.' };
    case 'message.assistant':
      return { test: true, message_id: randomUUID(), role: 'assistant', content: 'This is a test answer.', latency_ms: 0, sources: [] };
    case 'session.started':
      return { test: true, visitor_id: null, metadata: {}, started_at: at };
    case 'session.ended':
      return { test: true, started_at: at, ended_at: at, message_count: 0 };
  }
}

export function webhookView(row: repo.WebhookRow) {
  return { id: row.id, url: row.url, events: JSON.parse(row.events) as string[], created_at: row.created_at };
}

export function createWebhookService({ db, clock, secrets, dispatcher, outbound }: WebhookServiceDeps) {
  const now = () => isoAt(clock.now());

  async function checkUrl(url: string): Promise<string> {
    if (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(url)) throw new ValidationError("field 'url' must not contain credentials");
    const checked = await checkOutboundUrl(url, outbound);
    if (!checked.ok) throw new ValidationError(`field 'url' is not allowed: ${checked.detail}`);
    return checked.url;
  }

  async function requireOwn(botId: string, webhookId: string): Promise<repo.WebhookRow> {
    const hook = await repo.findWebhook(db, webhookId);
    if (!hook || hook.bot_id !== botId) throw new NotFoundError('Webhook not found');
    return hook;
  }

  return {
    async create(botId: string, input: { url: string; events: WebhookEvent[] }) {
      const url = await checkUrl(input.url);
      const id = randomUUID();
      const secret = generateCredential(CREDENTIAL_PREFIX.webhookSecret);
      const at = now();
      const row: repo.WebhookRow = { id, bot_id: botId, url, events: JSON.stringify(input.events), secret: secrets.encrypt(secret, id), created_at: at, updated_at: at };
      await repo.insertWebhook(db, row);
      return { ...webhookView(row), secret };
    },

    list: async (botId: string) => (await repo.listWebhooks(db, botId)).map(webhookView),

    async update(botId: string, webhookId: string, changes: { url?: string; events?: WebhookEvent[] }) {
      const hook = await requireOwn(botId, webhookId);
      const url = changes.url === undefined ? undefined : await checkUrl(changes.url);
      await repo.updateWebhook(db, hook.id, {
        ...(url !== undefined && { url }),
        ...(changes.events !== undefined && { events: JSON.stringify(changes.events) }),
        updated_at: now(),
      });
      return webhookView((await repo.findWebhook(db, hook.id))!);
    },

    /** Deletes the webhook with its queued deliveries: nothing more is sent to it. */
    async remove(botId: string, webhookId: string) {
      const hook = await requireOwn(botId, webhookId);
      await repo.deleteWebhook(db, hook.id);
      return { success: true, id: hook.id };
    },

    /** Sends a sample of the webhook's first event now, once, and reports how the receiver answered. */
    async test(botId: string, webhookId: string) {
      const hook = await requireOwn(botId, webhookId);
      const event = (JSON.parse(hook.events) as WebhookEvent[])[0] ?? 'message.user';
      const at = now();
      const body = repo.envelopeOf({ event, botId, sessionId: 'webhook-test', occurredAt: at, data: sampleData(event, at) });
      const delivery = { ...repo.newDelivery(hook.id, botId, event, body, at), next_attempt_at: null };
      await repo.insertDelivery(db, delivery);
      const report = await dispatcher.attemptNow(delivery.id);
      if (!report) throw new NotFoundError('Webhook not found');
      return { success: report.ok, delivery_id: delivery.id, event, status_code: report.statusCode, latency_ms: report.latencyMs, error: report.error };
    },

    async deliveries(botId: string, webhookId: string, page: { limit: number; offset: number }) {
      const hook = await requireOwn(botId, webhookId);
      const { rows, attempts, total } = await repo.listDeliveries(db, hook.id, page);
      const byDelivery = new Map<string, repo.AttemptRow[]>();
      for (const a of attempts) byDelivery.set(a.delivery_id, [...(byDelivery.get(a.delivery_id) ?? []), a]);
      const deliveries = rows.map((d) => ({
        id: d.id,
        event: d.event,
        status: d.status,
        attempts: Number(d.attempts),
        next_attempt_at: d.next_attempt_at,
        last_status_code: d.last_status_code === null ? null : Number(d.last_status_code),
        last_error: d.last_error,
        created_at: d.created_at,
        delivered_at: d.delivered_at,
        body: d.body,
        attempt_log: (byDelivery.get(d.id) ?? []).map((a) => ({
          attempt: Number(a.attempt),
          status_code: a.status_code === null ? null : Number(a.status_code),
          latency_ms: Number(a.latency_ms),
          error: a.error,
          response_excerpt: a.response_excerpt,
          created_at: a.created_at,
        })),
      }));
      return { deliveries, total, ...page };
    },

    /** Sends a delivery again from its first attempt: same id, same body, a fresh retry schedule. */
    async redeliver(botId: string, webhookId: string, deliveryId: string) {
      const hook = await requireOwn(botId, webhookId);
      const delivery = await repo.findDelivery(db, deliveryId);
      if (!delivery || delivery.webhook_id !== hook.id) throw new NotFoundError('Delivery not found');
      await repo.requeueDelivery(db, delivery.id, now());
      dispatcher.wake();
      return { success: true, delivery_id: delivery.id };
    },
  };
}
