/**
 * Several instances behave as one service: two real server processes (`src/server.ts`), each with
 * its own DATA_DIR, on one PostgreSQL schema and one Redis, checked only through HTTP. Runs in the
 * PostgreSQL + Redis pass (SQLite keeps its database in DATA_DIR, so it has no such setup).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { usingPostgres, usingRedis, type TestApp, type TestResponse } from './testing/test-app.ts';
import { serverProcessEnv, startServerProcess } from './testing/server-process.ts';
import { freePort } from './testing/free-port.ts';
import { readEventStream } from './testing/event-stream.ts';
import { startLocalS3, type LocalS3 } from './testing/s3-server.ts';
import { startWebhookReceiver, type WebhookReceiver } from './testing/webhook-receiver.ts';
import { dropPostgresSchema } from './db/database.ts';

const LIMITS = { PARLEY_RATE_KEY_PER_MIN: '10', PARLEY_RATE_IP_PER_MIN: '20', PARLEY_RATE_WIDGET_PER_MIN: '5' };

interface Instance {
  name: string;
  url: string;
  process: ChildProcess;
  dataDir: string;
  request<T = any>(method: string, path: string, options?: { token?: string; body?: unknown; headers?: Record<string, string>; ip?: string }): Promise<TestResponse<T>>;
}

/** A client address of its own (the instances trust X-Forwarded-For from 127.0.0.1), so each check has fresh per-IP windows. */
let nextIp = 1;
const freshIp = () => `10.77.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`;

async function startInstance(name: string, schema: string, extra: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `parley-${name}-`));
  const env = serverProcessEnv({ port, dataDir, schema, extra: { REDIS_URL: process.env.TEST_REDIS_URL!, PARLEY_TRUST_PROXY: '127.0.0.1', ...extra } });
  const child = await startServerProcess(env);
  const url = `http://127.0.0.1:${port}`;
  return {
    name,
    url,
    process: child,
    dataDir,
    async request(method, path, { token, body, headers = {}, ip } = {}) {
      const all: Record<string, string> = { 'x-forwarded-for': ip ?? freshIp(), ...headers };
      if (token) all.authorization = `Bearer ${token}`;
      if (body !== undefined) all['content-type'] ??= 'application/json';
      const res = await fetch(url + path, { method, headers: all, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: res.status, headers: res.headers, body: parsed as never, text };
    },
  };
}

async function stopInstance(instance: Instance): Promise<void> {
  if (instance.process.exitCode === null && instance.process.signalCode === null) {
    const exited = new Promise((resolve) => instance.process.once('exit', resolve));
    instance.process.kill('SIGTERM');
    await exited;
  }
  rmSync(instance.dataDir, { recursive: true, force: true });
}

/** Polls until `check` passes or `withinMs` has gone by; answers how long it took. */
async function within(withinMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (Date.now() - started <= withinMs) {
    if (await check()) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`not within ${withinMs} ms`);
}

/** Signs up, makes a bot and a key with every scope, on the given instances. */
async function account(on: Instance, keyOn: Instance = on) {
  const signup = await on.request('POST', '/api/auth/signup', { body: { email: `multi-${randomBytes(5).toString('hex')}@example.com`, password: 'correct horse battery' } });
  assert.equal(signup.status, 201, signup.text);
  const bot = await keyOn.request('POST', '/api/dashboard/bots', { token: signup.body.token, body: { name: 'Multi' } });
  assert.equal(bot.status, 201, bot.text);
  const key = await on.request('POST', '/api/keys', { token: signup.body.token, body: { bot_id: bot.body.id, name: 'k', scopes: ['chat', 'read', 'write', 'admin'] } });
  assert.equal(key.status, 201, key.text);
  return { token: signup.body.token as string, botId: bot.body.id as string, key: key.body.key as string, keyId: key.body.id as string };
}

const enabled = usingPostgres && usingRedis;

describe('two server processes on one database and one Redis', { skip: enabled ? false : 'needs TEST_DATABASE_URL and TEST_REDIS_URL (the PostgreSQL + Redis pass)' }, () => {
  const schema = `t_multi_${randomBytes(4).toString('hex')}`;
  let a: Instance;
  let b: Instance;
  let s3: LocalS3;
  let receiver: WebhookReceiver;
  let pages: http.Server;
  let pageHits = 0;
  let pageUrl = '';

  before(async () => {
    s3 = await startLocalS3('parley-multi');
    receiver = await startWebhookReceiver();
    pages = http.createServer((_req, res) => {
      pageHits++;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html><head><title>Returns</title></head><body><main><h1>Returns</h1><p>Bikes may be returned within 45 days of delivery for a full refund.</p></main></body></html>');
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    pageUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}/returns`;
    const shared = {
      ...LIMITS,
      ...s3.env,
      PARLEY_SECRET_KEY: randomBytes(32).toString('hex'),
      PARLEY_ALLOW_PRIVATE_NETWORK: '1',
      PARLEY_SESSION_IDLE_MINUTES: '0.03',
      PARLEY_SESSION_SWEEP_MS: '200',
      PARLEY_CRAWL_CHECK_MS: '200',
      PARLEY_WEBHOOK_RETRY_DELAYS: '1,1,1',
      // Windows of earlier runs stay in Redis for a minute: this run's keys are its own.
      PARLEY_REDIS_PREFIX: `parley-test:${schema}:`,
    };
    // One after the other: the first runs the migrations.
    a = await startInstance('a', schema, shared);
    b = await startInstance('b', schema, shared);
  });

  after(async () => {
    await Promise.all([a, b].filter(Boolean).map(stopInstance));
    await s3?.close();
    await receiver?.close();
    await new Promise<void>((resolve) => (pages ? pages.close(() => resolve()) : resolve()));
    await dropPostgresSchema(process.env.TEST_DATABASE_URL!, schema);
  });

  it('uses on one instance the session, bot and key made on the other', async () => {
    const made = await account(a, b);
    const bots = await b.request('GET', '/api/dashboard/bots', { token: made.token });
    assert.equal(bots.status, 200);
    assert.deepEqual(bots.body.bots.map((bot: { id: string }) => bot.id), [made.botId]);
    const viaKey = await b.request('GET', '/api/v1/bot', { token: made.key });
    assert.equal(viaKey.status, 200);
    assert.equal(viaKey.body.id, made.botId);
  });

  it('keeps the per-key, per-IP and widget limits exact across both', async () => {
    const { key, botId } = await account(a);
    for (let i = 0; i < 10; i++) assert.equal((await (i % 2 ? b : a).request('GET', '/api/v1/bot', { token: key })).status, 200, `key request ${i + 1}`);
    assert.equal((await a.request('GET', '/api/v1/bot', { token: key })).status, 429);
    assert.equal((await b.request('GET', '/api/v1/bot', { token: key })).status, 429);

    const ip = freshIp();
    for (let i = 0; i < 20; i++) assert.equal((await (i % 2 ? b : a).request('GET', `/api/widget/config?bot_id=${botId}`, { ip })).status, 200, `IP request ${i + 1}`);
    const refused = await b.request('GET', `/api/widget/config?bot_id=${botId}`, { ip });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '60');

    const visitor = freshIp();
    const send = (on: Instance) =>
      fetch(`${on.url}/api/widget/chat/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${botId}`, 'x-forwarded-for': visitor },
        body: JSON.stringify({ text: 'Hello' }),
      }).then(async (res) => (await res.text(), res.status));
    for (let i = 0; i < 5; i++) assert.equal(await send(i % 2 ? b : a), 200, `widget message ${i + 1}`);
    assert.equal(await send(a), 429);
    assert.equal(await send(b), 429);
  });

  it('refuses a revoked key and a deleted bot on the other instance within one second', async () => {
    const made = await account(a);
    assert.equal((await b.request('GET', '/api/v1/bot', { token: made.key })).status, 200);
    assert.equal((await a.request('DELETE', `/api/keys/${made.keyId}`, { token: made.token })).status, 200);
    await within(1000, async () => (await b.request('GET', '/api/v1/bot', { token: made.key })).status === 401);

    const other = await account(a);
    assert.equal((await b.request('GET', `/api/widget/config?bot_id=${other.botId}`)).status, 200);
    assert.equal((await b.request('GET', '/api/v1/bot', { token: other.key })).status, 200);
    assert.equal((await a.request('DELETE', `/api/dashboard/bots/${other.botId}`, { token: other.token })).status, 200);
    await within(1000, async () => (await b.request('GET', '/api/v1/bot', { token: other.key })).status === 401);
    await within(1000, async () => (await b.request('GET', `/api/widget/config?bot_id=${other.botId}`)).status === 401);
  });

  it('answers on one instance from knowledge added on the other, and continues one chat session across both', async () => {
    const { key } = await account(a);
    const added = await a.request('POST', '/api/v1/knowledge', { token: key, body: { type: 'text', name: 'Service', content: 'A standard bike service costs 89 EUR and takes two days.' } });
    assert.equal(added.status, 200, added.text);
    const first = await b.request('POST', '/api/v1/chat', { token: key, body: { text: 'How much does a bike service cost?', session_id: 'across-1' } });
    assert.equal(first.status, 200, first.text);
    assert.match(first.body.reply, /89 EUR/);
    const second = await a.request('POST', '/api/v1/chat', { token: key, body: { text: 'How long does it take?', session_id: 'across-1' } });
    assert.equal(second.status, 200);
    const conversation = await b.request('GET', '/api/v1/conversations/across-1', { token: key });
    assert.deepEqual(conversation.body.messages.map((m: { role: string }) => m.role), ['user', 'assistant', 'user', 'assistant']);
  });

  it("brings an operator's takeover and message through one instance to the visitor's stream on the other", async () => {
    const { token, botId } = await account(a);
    const opened = await readEventStream({ url: a.url } as TestApp, '/api/widget/chat/stream', { token: botId, body: { text: 'I need a human', session_id: 'live-1' } });
    assert.equal(opened.events.at(-1)?.event, 'done');
    const events: Array<{ event: string; data: any }> = [];
    const controller = new AbortController();
    const listening = readEventStream({ url: b.url } as TestApp, `/api/widget/sessions/live-1/events?bot_id=${botId}`, {
      method: 'GET',
      signal: controller.signal,
      onEvent: (e) => {
        events.push(e);
        return e.event === 'message';
      },
    }).catch(() => undefined);
    // Let the stream subscribe before the operator acts.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await a.request('POST', `/api/dashboard/bots/${botId}/inbox/live-1/takeover`, { token })).status, 200);
    const reply = await a.request('POST', `/api/dashboard/bots/${botId}/inbox/live-1/messages`, { token, body: { content: 'Hi, this is Sam from support.' } });
    assert.ok(reply.status === 200 || reply.status === 201, reply.text);
    await within(3000, async () => events.some((e) => e.event === 'message'));
    controller.abort();
    await listening;
    assert.deepEqual(events.find((e) => e.event === 'status')?.data, { taken_over: true });
    const message = events.find((e) => e.event === 'message')!;
    assert.equal(message.data.author, 'operator');
    assert.equal(message.data.content, 'Hi, this is Sam from support.');
  });

  it('serves from one instance a file uploaded through the other (s3)', async () => {
    const { botId } = await account(a);
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f5b4d30000000049454e44ae426082', 'hex');
    const form = new FormData();
    form.set('session_id', 'file-1');
    form.set('bot_id', botId);
    form.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'dot.png');
    const upload = await fetch(`${b.url}/api/widget/chat/media`, { method: 'POST', body: form, headers: { 'x-forwarded-for': freshIp() } });
    assert.equal(upload.status, 200, await upload.clone().text());
    const link = new URL(((await upload.json()) as { file_url: string }).file_url);
    const served = await fetch(a.url + link.pathname + link.search);
    assert.equal(served.status, 200);
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), png);
  });

  it('sweeps an idle session once and delivers each webhook event once with two dispatchers', async () => {
    const { key } = await account(a);
    const hook = await a.request('POST', '/api/v1/webhooks', {
      token: key,
      body: { url: receiver.url('/multi'), events: ['message.user', 'message.assistant', 'session.started', 'session.ended'] },
    });
    assert.equal(hook.status, 201, hook.text);
    receiver.secret('/multi', hook.body.secret);
    for (let i = 0; i < 6; i++) {
      const res = await (i % 2 ? b : a).request('POST', '/api/v1/chat', { token: key, body: { text: `Question ${i}`, session_id: `hooks-${i % 3}` } });
      assert.equal(res.status, 200);
    }
    // 3 sessions: started and (after ~2 s idle) ended once each, and 6 turns of two messages.
    const expected = 3 + 3 + 12;
    await receiver.waitFor('/multi', expected, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const arrived = receiver.received.filter((d) => d.path === '/multi');
    assert.equal(arrived.length, expected, JSON.stringify(arrived.map((d) => d.event)));
    assert.equal(new Set(arrived.map((d) => d.deliveryId)).size, expected, 'no delivery twice');
    assert.equal(arrived.filter((d) => d.event === 'session.ended').length, 3, 'each idle session ended once');
    assert.ok(arrived.every((d) => d.signatureValid));
  });

  it('crawls a due page once, not once per instance', async () => {
    const { token, botId } = await account(a);
    const added = await a.request('POST', `/api/dashboard/bots/${botId}/knowledge`, { token, body: { type: 'url', url: pageUrl, crawl_schedule: 'hourly' } });
    assert.ok(added.status === 201 || added.status === 200, added.text);
    await within(5000, async () => pageHits >= 1);
    // Reading the page runs in a worker thread, whose start can take a while on a loaded machine.
    const status = async () => (await b.request('GET', `/api/dashboard/bots/${botId}/knowledge`, { token })).body.sources[0].status;
    // Polled once a second: within the suite's per-IP limit of 20 a minute.
    await within(15_000, async () => (await new Promise((resolve) => setTimeout(resolve, 1000)), (await status()) === 'ready'));
    // Both schedulers look every 200 ms; the source is due again only in an hour.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(pageHits, 1, 'fetched once by one of the two instances');
    assert.equal(await status(), 'ready');
  });

  it('loses no acknowledged message when one instance is killed under chat load, and the other keeps answering', async () => {
    // Several keys, so that the per-key limit is not what is measured.
    const accounts: Array<Awaited<ReturnType<typeof account>>> = [];
    for (let i = 0; i < 12; i++) accounts.push(await account(a));
    const acknowledged: Array<{ owner: (typeof accounts)[number]; session: string; text: string }> = [];
    const failuresOnB: number[] = [];
    let killed = false;
    let n = 0;
    const loop = async (worker: number) => {
      const deadline = Date.now() + 4000;
      while (Date.now() < deadline) {
        const i = n++;
        const on = killed || i % 2 ? b : a;
        const chosen = accounts[i % accounts.length]!;
        const session = `load-${worker}-${i}`;
        const text = `Load message ${i}`;
        try {
          const res = await on.request('POST', '/api/v1/chat', { token: chosen.key, body: { text, session_id: session } });
          if (res.status === 200) acknowledged.push({ owner: chosen, session, text });
          // 429 is an answer (the per-key limit); a 5xx is not.
          else if (on === b && res.status >= 500) failuresOnB.push(res.status);
        } catch {
          if (on === b) failuresOnB.push(0);
        }
      }
    };
    const workers = [0, 1, 2, 3].map(loop);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    a.process.kill('SIGKILL');
    killed = true;
    await Promise.all(workers);
    assert.deepEqual(failuresOnB, [], 'the surviving instance answered every request');
    assert.ok(acknowledged.length > 20, `${acknowledged.length} acknowledged`);
    // Read back through the dashboard (the keys' windows are spent).
    for (const sent of acknowledged) {
      const conversation = await b.request('GET', `/api/dashboard/bots/${sent.owner.botId}/inbox/${sent.session}`, { token: sent.owner.token });
      assert.equal(conversation.status, 200, `${sent.session}: ${conversation.text}`);
      assert.deepEqual(conversation.body.messages.map((m: { role: string; content: string }) => m.role), ['user', 'assistant'], sent.session);
      assert.equal(conversation.body.messages[0].content, sent.text);
    }
  });
});
