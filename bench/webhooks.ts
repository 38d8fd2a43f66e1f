/**
 * Webhook figures for `npm run bench`: how many deliveries per second the dispatcher sends to a
 * local receiver from a backlog, and how long an event takes from its transaction to the
 * receiver (p50, measured on chat turns sent one at a time).
 */
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import SQLite from 'better-sqlite3';
import type { Fixtures } from './bench.ts';
import { measure, type LoadOptions } from './lib.ts';

export interface ReceiverStats {
  received: number;
  p50_ms: number;
  p95_ms: number;
  first_at: number;
  last_at: number;
}

export const receiverStats = async (url: string): Promise<ReceiverStats> => (await fetch(`${url}/stats`)).json() as Promise<ReceiverStats>;
export const resetReceiver = async (url: string, lags = true) => void (await fetch(`${url}/reset${lags ? '' : '?lags=0'}`, { method: 'POST' })).arrayBuffer();

/** Registers a webhook of the bench bot for these events; returns its id. */
export async function registerWebhook(f: Fixtures, receiverUrl: string, events: string[]): Promise<string> {
  await resetReceiver(receiverUrl, false);
  const writer = await f.api<{ key: string }>('POST', '/api/keys', { token: f.token, body: { bot_id: f.botId, name: 'bench webhooks', scopes: ['read', 'write'] } });
  const hook = await f.api<{ id: string }>('POST', '/api/v1/webhooks', { token: writer.key, body: { url: `${receiverUrl}/hook`, events } });
  return hook.id;
}

/** Waits until the service has no delivery left to send (what earlier scenarios queued). */
export async function waitForDrain(dataDir: string, timeoutMs = 120_000): Promise<void> {
  const file = new SQLite(path.join(dataDir, 'parley.sqlite'), { readonly: true });
  try {
    const pending = file.prepare(`select count(*) as n from webhook_deliveries where status = 'pending'`);
    const deadline = Date.now() + timeoutMs;
    while ((pending.get() as { n: number }).n > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  } finally {
    file.close();
  }
}

/**
 * Puts `count` due deliveries straight into the service's SQLite database (a backlog, as after a
 * receiver outage) and times the dispatcher until the receiver has them all.
 */
export async function measureDeliveryRate(dataDir: string, botId: string, webhookId: string, receiverUrl: string, count = 20_000) {
  await waitForDrain(dataDir);
  await resetReceiver(receiverUrl, false);
  const file = new SQLite(path.join(dataDir, 'parley.sqlite'));
  file.pragma('busy_timeout = 5000');
  const at = new Date().toISOString();
  const insert = file.prepare(
    `insert into webhook_deliveries (id, webhook_id, bot_id, event, body, status, attempts, next_attempt_at, created_at) values (?, ?, ?, 'message.user', ?, 'pending', 0, ?, ?)`,
  );
  const started = Date.now();
  file.transaction(() => {
    for (let i = 0; i < count; i++) {
      const body = JSON.stringify({ event: 'message.user', bot_id: botId, session_id: `bench-${i}`, timestamp: at, data: { message_id: randomUUID(), role: 'user', content: 'Bench backlog' } });
      insert.run(randomUUID(), webhookId, botId, body, at, at);
    }
  })();
  file.close();
  const deadline = Date.now() + 120_000;
  let stats = await receiverStats(receiverUrl);
  while (stats.received < count && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    stats = await receiverStats(receiverUrl);
  }
  const seconds = ((stats.last_at || Date.now()) - started) / 1000;
  return { delivered: stats.received, seconds, perSecond: stats.received / seconds };
}

/**
 * Chat turns one at a time, each a new session, with the webhook on every event (three per turn):
 * the time from each event to its receiver.
 */
export async function measureEventLag(f: Fixtures, dataDir: string, receiverUrl: string, questions: string[]) {
  await waitForDrain(dataDir);
  await resetReceiver(receiverUrl);
  for (const text of questions) await f.api('POST', '/api/v1/chat', { token: f.key, body: { text }, expect: 200 });
  const deadline = Date.now() + 10_000;
  let stats = await receiverStats(receiverUrl);
  while (stats.received < questions.length * 3 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    stats = await receiverStats(receiverUrl);
  }
  return stats;
}

const ALL_EVENTS = ['lead.created', 'message.user', 'message.assistant', 'session.started', 'session.ended'];

/**
 * Chat throughput with and without one webhook on every event, in alternating runs (without, with,
 * without, with, …), each pair measured side by side, since a single pair on a noisy machine says
 * little. The webhook is registered before each "with" run and deleted after it; the deliveries of
 * a run are let drain before the next.
 */
export async function measureChatWithWebhook(f: Fixtures, dataDir: string, receiverUrl: string, questions: string[], load: LoadOptions, pairs = 3) {
  const writer = await f.api<{ key: string }>('POST', '/api/keys', { token: f.token, body: { bot_id: f.botId, name: 'bench webhook pairs', scopes: ['read', 'write'] } });
  const target = {
    url: `${f.parleyUrl}/api/v1/chat`,
    method: 'POST',
    headers: { authorization: `Bearer ${f.key}`, 'content-type': 'application/json' },
    bodies: questions.map((text) => JSON.stringify({ text })),
  };
  const without: number[] = [];
  const withHook: number[] = [];
  let failed = 0;
  for (let i = 0; i < pairs; i++) {
    await waitForDrain(dataDir);
    const plain = await measure(target, load);
    without.push(plain.rps);
    await resetReceiver(receiverUrl, false);
    const hook = await f.api<{ id: string }>('POST', '/api/v1/webhooks', { token: writer.key, body: { url: `${receiverUrl}/hook`, events: ALL_EVENTS } });
    const hooked = await measure(target, load);
    withHook.push(hooked.rps);
    failed += plain.non2xx + hooked.non2xx + plain.errors + hooked.errors;
    await f.api('DELETE', `/api/v1/webhooks/${hook.id}`, { token: writer.key });
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return { without, withHook, ratio: sum(withHook) / sum(without), failed };
}
