import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { botWithKey, inviteMember, signUp, createBot } from '../../testing/factories.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../testing/webhook-receiver.ts';
import { recordOutcomes } from './webhooks.repository.ts';

const DELAYS = '0.2,0.2,0.2,0.2,0.2,0.2,0.2';

async function chat(t: TestApp, key: string, text: string, sessionId: string) {
  const res = await t.request('POST', '/api/v1/chat', { token: key, body: { text, session_id: sessionId } });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** Registers a webhook and teaches the receiver its secret. */
async function register(t: TestApp, receiver: WebhookReceiver, key: string, path: string, events: string[]) {
  const res = await t.request('POST', '/api/v1/webhooks', { token: key, body: { url: receiver.url(path), events } });
  assert.equal(res.status, 201, res.text);
  receiver.secret(path, res.body.secret);
  return res.body as { id: string; secret: string };
}

/**
 * Long enough that a loaded CI machine still hears a 500 in time (at 600 ms one first attempt was
 * recorded as timed out), short enough that the hanging receivers below time out quickly.
 */
const TIMEOUT_MS = 1_500;

/** Moves the clock past each retry delay until `done` holds. */
async function driveRetries(t: TestApp, done: () => boolean, rounds = 40) {
  for (let i = 0; i < rounds && !done(); i++) {
    t.clock.advance(250);
    await new Promise((resolve) => setTimeout(resolve, 120));
  }
}

describe('webhooks', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  before(async () => {
    receiver = await startWebhookReceiver();
    t = await startTestApp({ env: { PARLEY_ALLOW_PRIVATE_NETWORK: '1', PARLEY_WEBHOOK_RETRY_DELAYS: DELAYS, PARLEY_WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) } });
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  it('registers with a secret shown once, lists without it, changes and deletes', async () => {
    const { key } = await botWithKey(t, { scopes: ['chat', 'read', 'write'] });
    const created = await t.request('POST', '/api/v1/webhooks', { token: key.key, body: { url: receiver.url('/crud'), events: ['lead.created', 'message.user'] } });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body).sort(), ['created_at', 'events', 'id', 'secret', 'url']);
    assert.match(created.body.secret, /^parley_whsec_[A-Za-z0-9_-]{43}$/);
    const listed = await t.request('GET', '/api/v1/webhooks', { token: key.key });
    assert.deepEqual(listed.body, { webhooks: [{ id: created.body.id, url: receiver.url('/crud'), events: ['lead.created', 'message.user'], created_at: created.body.created_at }] });
    assert.ok(!listed.text.includes(created.body.secret));

    const patched = await t.request('PATCH', `/api/v1/webhooks/${created.body.id}`, { token: key.key, body: { events: ['session.ended'] } });
    assert.equal(patched.status, 200);
    assert.deepEqual(patched.body.events, ['session.ended']);
    assert.equal(patched.body.url, receiver.url('/crud'));
    const stored = await t.runtime.database.db.selectFrom('webhooks').select('secret').where('id', '=', created.body.id).executeTakeFirstOrThrow();
    assert.ok(!stored.secret.includes(created.body.secret), 'the secret is stored encrypted');

    const removed = await t.request('DELETE', `/api/v1/webhooks/${created.body.id}`, { token: key.key });
    assert.deepEqual(removed.body, { success: true, id: created.body.id });
    assert.equal((await t.request('DELETE', `/api/v1/webhooks/${created.body.id}`, { token: key.key })).status, 404);
    assert.deepEqual((await t.request('GET', '/api/v1/webhooks', { token: key.key })).body, { webhooks: [] });
  });

  it('refuses bad registrations with a 400 naming the field', async () => {
    const { key } = await botWithKey(t, { scopes: ['chat', 'read', 'write'] });
    const cases: [unknown, RegExp][] = [
      [{ url: 'ftp://example.com/hook', events: ['message.user'] }, /'url'/],
      [{ url: 'https://user:pass@example.com/hook', events: ['message.user'] }, /'url'.*credentials/],
      [{ url: 'not a url', events: ['message.user'] }, /'url'/],
      [{ url: receiver.url(), events: ['message.sent'] }, /events/],
      [{ url: receiver.url(), events: [] }, /events/],
      [{ url: receiver.url(), events: ['message.user', 'message.user'] }, /events/],
      [{ events: ['message.user'] }, /url/],
    ];
    for (const [body, detail] of cases) {
      const res = await t.request('POST', '/api/v1/webhooks', { token: key.key, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(res.body.detail, detail);
    }
    const readOnly = await botWithKey(t);
    assert.equal((await t.request('POST', '/api/v1/webhooks', { token: readOnly.key.key, body: { url: receiver.url(), events: ['message.user'] } })).status, 403);
  });

  it('delivers the conversation events, signed, in the envelope, with the fields a receiver needs', async () => {
    const { bot, key } = await botWithKey(t, { scopes: ['chat', 'read', 'write'] });
    await register(t, receiver, key.key, '/events', ['session.started', 'message.user', 'message.assistant']);
    const answer = await chat(t, key.key, 'Hello there', 'wh-session-1');
    const got = await receiver.waitFor('/events', 3);
    assert.ok(got.every((r) => r.signatureValid), 'every request carries a valid X-Service-Signature');
    const byEvent = new Map(got.map((r) => [r.json.event, r]));
    assert.deepEqual([...byEvent.keys()].sort(), ['message.assistant', 'message.user', 'session.started']);
    for (const r of got) {
      assert.deepEqual(Object.keys(r.json).sort(), ['bot_id', 'data', 'event', 'session_id', 'timestamp']);
      assert.equal(r.json.bot_id, bot.id);
      assert.equal(r.json.session_id, 'wh-session-1');
      assert.equal(r.event, r.json.event);
      assert.match(r.deliveryId, /^[0-9a-f-]{36}$/);
    }
    const user = byEvent.get('message.user')!.json.data;
    assert.equal(user.role, 'user');
    assert.equal(user.content, 'Hello there');
    assert.equal(typeof user.message_id, 'string');
    const assistant = byEvent.get('message.assistant')!.json.data;
    assert.deepEqual(Object.keys(assistant).sort(), ['content', 'latency_ms', 'message_id', 'role']);
    assert.equal(assistant.content, answer.reply);
    assert.ok(Number.isInteger(assistant.latency_ms));
    assert.ok('visitor_id' in byEvent.get('session.started')!.json.data);
  });

  it('retries a failing receiver on the configured schedule with the identical body and delivery id, then delivers', async () => {
    const { key } = await botWithKey(t, { scopes: ['chat', 'read', 'write'] });
    const hook = await register(t, receiver, key.key, '/flaky', ['message.user']);
    receiver.behave('/flaky', (n) => (n <= 3 ? 'fail' : 'ok'));
    await chat(t, key.key, 'Retry me', 'wh-flaky');
    await receiver.waitFor('/flaky', 1);
    await driveRetries(t, () => receiver.received.filter((r) => r.path === '/flaky').length >= 4);
    const got = await receiver.waitFor('/flaky', 4);
    assert.equal(new Set(got.map((r) => r.body)).size, 1, 'every attempt sends the same bytes');
    assert.equal(new Set(got.map((r) => r.deliveryId)).size, 1, 'and the same delivery id');

    let listed = await t.request('GET', `/api/v1/webhooks/${hook.id}/deliveries`, { token: key.key });
    for (let i = 0; i < 20 && listed.body.deliveries[0]?.status !== 'delivered'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      listed = await t.request('GET', `/api/v1/webhooks/${hook.id}/deliveries`, { token: key.key });
    }
    const [delivery] = listed.body.deliveries;
    assert.equal(delivery.status, 'delivered');
    assert.equal(delivery.attempts, 4);
    assert.deepEqual(delivery.attempt_log.map((a: { status_code: number }) => a.status_code), [500, 500, 500, 200]);
    // A failing receiver's own words are kept too: they say why it failed.
    const excerpts = delivery.attempt_log.map((a: { response_excerpt: string | null }) => a.response_excerpt);
    assert.deepEqual(excerpts, ['receiver error', 'receiver error', 'receiver error', '{"received":true}']);
    assert.equal(delivery.body, got[0]!.body);
  });

  it('drops an event after the eighth failed attempt, and a redelivery by hand sends it again', async () => {
    const { key } = await botWithKey(t, { scopes: ['chat', 'read', 'write'] });
    const hook = await register(t, receiver, key.key, '/dead', ['message.user']);
    receiver.behave('/dead', 'fail');
    await chat(t, key.key, 'Nobody listens', 'wh-dead');
    await receiver.waitFor('/dead', 1);
    await driveRetries(t, () => receiver.received.filter((r) => r.path === '/dead').length >= 8);
    await receiver.waitFor('/dead', 8);
    // No ninth attempt, however long we wait.
    await driveRetries(t, () => false, 8);
    assert.equal(receiver.received.filter((r) => r.path === '/dead').length, 8);
    const listed = await t.request('GET', `/api/v1/webhooks/${hook.id}/deliveries`, { token: key.key });
    const [delivery] = listed.body.deliveries;
    assert.equal(delivery.status, 'dropped');
    assert.equal(delivery.attempts, 8);
    assert.equal(delivery.attempt_log.length, 8);

    receiver.behave('/dead', 'ok');
    const redelivered = await t.request('POST', `/api/v1/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver`, { token: key.key });
    assert.equal(redelivered.status, 202);
    const got = await receiver.waitFor('/dead', 9);
    assert.equal(got[8]!.deliveryId, delivery.id);
    assert.equal(got[8]!.body, got[0]!.body);
  });

  it('counts a redirect, garbage, a hang and a closed connection as failed attempts, while other receivers get theirs at once', async () => {
    const { key } = await botWithKey(t, { scopes: ['chat', 'read', 'write'] });
    const bad = ['redirect', 'garbage', 'hang', 'close'] as const;
    const hooks = [];
    for (const behaviour of bad) {
      receiver.behave(`/${behaviour}`, behaviour);
      hooks.push(await register(t, receiver, key.key, `/${behaviour}`, ['message.user']));
    }
    await register(t, receiver, key.key, '/healthy', ['message.user']);
    const sent = Date.now();
    await chat(t, key.key, 'Mixed receivers', 'wh-mixed');
    const [healthy] = await receiver.waitFor('/healthy', 1);
    // Well under the 1.5 s a hanging receiver takes to time out.
    assert.ok(healthy!.at - sent < 1000, 'a hanging receiver does not hold the others back');
    for (const [i, behaviour] of bad.entries()) {
      let delivery;
      for (let n = 0; n < 80; n++) {
        delivery = (await t.request('GET', `/api/v1/webhooks/${hooks[i]!.id}/deliveries`, { token: key.key })).body.deliveries[0];
        if (delivery?.attempts >= 1) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(delivery.attempts, 1, behaviour);
      assert.equal(delivery.status, 'pending', `${behaviour}: retried later`);
      assert.ok(delivery.last_error, `${behaviour}: the failure is described`);
    }
  });

  it('sends the deliveries queued behind a receiver\'s full sending slots once its slots free', async () => {
    const { key } = await botWithKey(t, { scopes: ['chat', 'read', 'write'] });
    await register(t, receiver, key.key, '/crowded', ['message.user']);
    // The first 32 (one receiver's share of the slots) hang until the time-out; the rest answer.
    receiver.behave('/crowded', (n) => (n <= 32 ? 'hang' : 'ok'));
    const turns = 40;
    await Promise.all(Array.from({ length: turns }, (_, i) => chat(t, key.key, `Crowded ${i}`, `wh-crowded-${i}`)));
    const got = await receiver.waitFor('/crowded', turns, 10_000);
    assert.equal(new Set(got.map((r) => r.deliveryId)).size, turns, 'every queued delivery is sent once a slot frees');
  });

  it('deletes a webhook whose delivery is under way without losing the other webhooks\' results', async () => {
    const { key } = await botWithKey(t, { scopes: ['chat', 'read', 'write'] });
    receiver.behave('/doomed', 'hang');
    const doomed = await register(t, receiver, key.key, '/doomed', ['message.user']);
    await register(t, receiver, key.key, '/survivor', ['message.user']);
    await chat(t, key.key, 'First', 'wh-doomed');
    await receiver.waitFor('/doomed', 1);
    assert.equal((await t.request('DELETE', `/api/v1/webhooks/${doomed.id}`, { token: key.key })).status, 200);
    // The hanging attempt times out after its delivery is gone; the survivor goes on.
    await new Promise((r) => setTimeout(r, TIMEOUT_MS + 200));
    await chat(t, key.key, 'Second', 'wh-doomed');
    const got = await receiver.waitFor('/survivor', 2);
    assert.equal(new Set(got.map((r) => r.deliveryId)).size, 2);
    await new Promise((r) => setTimeout(r, 300));
    const survivors = await t.runtime.database.db.selectFrom('webhook_deliveries').select(['status', 'attempts']).where('webhook_id', '!=', doomed.id).where('body', 'like', '%wh-doomed%').execute();
    assert.deepEqual(survivors.map((d) => [d.status, Number(d.attempts)]), [['delivered', 1], ['delivered', 1]]);
    assert.equal(receiver.received.filter((r) => r.path === '/survivor').length, 2, 'nothing sent twice');
    // The result of an attempt whose delivery is gone is skipped, not a failed write of its batch.
    const gone = { deliveryId: '00000000-0000-4000-8000-000000000000', owner: 'x', attempt: 1, statusCode: 200, latencyMs: 1, error: null, responseExcerpt: null, at: new Date().toISOString(), status: 'delivered' as const, nextAttemptAt: null };
    await t.runtime.database.db.transaction().execute((trx) => recordOutcomes(trx, [gone]));
  });

  it('sends a test event once and reports the answer', async () => {
    const { key } = await botWithKey(t, { scopes: ['chat', 'read', 'write'] });
    const hook = await register(t, receiver, key.key, '/test-ok', ['lead.created']);
    const res = await t.request('POST', `/api/v1/webhooks/${hook.id}/test`, { token: key.key });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.success, true);
    assert.equal(res.body.status_code, 200);
    assert.equal(res.body.event, 'lead.created');
    const [got] = await receiver.waitFor('/test-ok', 1);
    assert.equal(got!.json.data.test, true);
    assert.ok(got!.signatureValid);

    receiver.behave('/test-fail', 'fail');
    const failing = await register(t, receiver, key.key, '/test-fail', ['message.user']);
    const failed = await t.request('POST', `/api/v1/webhooks/${failing.id}/test`, { token: key.key });
    assert.equal(failed.body.success, false);
    assert.equal(failed.body.status_code, 500);
    await driveRetries(t, () => false, 4);
    assert.equal(receiver.received.filter((r) => r.path === '/test-fail').length, 1, 'a test event is not retried');
  });

  it('serves the same API to dashboard members with the Webhooks tab, and refuses the others', async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner);
    const created = await t.request('POST', `/api/dashboard/bots/${bot.id}/webhooks`, { token: owner.token, body: { url: receiver.url('/dash'), events: ['session.started'] } });
    assert.equal(created.status, 201, created.text);
    const listed = await t.request('GET', `/api/dashboard/bots/${bot.id}/webhooks`, { token: owner.token });
    assert.equal(listed.body.webhooks.length, 1);
    const agent = await inviteMember(t, owner, 'agent');
    assert.equal((await t.request('GET', `/api/dashboard/bots/${bot.id}/webhooks`, { token: agent.token })).status, 403);
    const stranger = await signUp(t);
    assert.equal((await t.request('GET', `/api/dashboard/bots/${bot.id}/webhooks`, { token: stranger.token })).status, 404);
  });
});

describe('webhook address rules', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('refuses loopback and private receivers unless PARLEY_ALLOW_PRIVATE_NETWORK is set', async () => {
    const { key } = await botWithKey(t, { scopes: ['chat', 'read', 'write'] });
    for (const url of ['http://127.0.0.1:9/hook', 'http://10.1.2.3/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest', 'http://localhost/hook']) {
      const res = await t.request('POST', '/api/v1/webhooks', { token: key.key, body: { url, events: ['message.user'] } });
      assert.equal(res.status, 400, url);
      assert.match(res.body.detail, /'url'/);
    }
  });
});

describe('two dispatchers on one database', () => {
  let first: TestApp;
  let second: TestApp;
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await startWebhookReceiver();
    first = await startTestApp({ env: { PARLEY_ALLOW_PRIVATE_NETWORK: '1' } });
    second = await startTestApp({ shareWith: first, env: { PARLEY_ALLOW_PRIVATE_NETWORK: '1' } });
  });
  after(async () => {
    await second.close();
    await first.close();
    await receiver.close();
  });

  it('deliver each event exactly once', async () => {
    const { key } = await botWithKey(first, { scopes: ['chat', 'read', 'write'] });
    await register(first, receiver, key.key, '/once', ['message.user', 'message.assistant']);
    const turns = 30;
    await Promise.all(Array.from({ length: turns }, (_, i) => chat(i % 2 ? second : first, key.key, `Question ${i}`, `once-${i}`)));
    const got = await receiver.waitFor('/once', turns * 2, 10_000);
    await new Promise((r) => setTimeout(r, 600));
    const all = receiver.received.filter((r) => r.path === '/once');
    assert.equal(all.length, turns * 2);
    assert.equal(new Set(all.map((r) => r.deliveryId)).size, turns * 2, 'no delivery id twice');
    assert.ok(got.every((r) => r.signatureValid));
  });
});

describe('webhook events from the session sweeper, and the 30-day history', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await startWebhookReceiver();
    t = await startTestApp({ env: { PARLEY_ALLOW_PRIVATE_NETWORK: '1', PARLEY_SESSION_IDLE_MINUTES: '30', PARLEY_SESSION_SWEEP_MS: '20' }, app: { backgroundJobs: true } });
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  it('delivers session.ended when a session goes idle, and forgets finished deliveries after 30 days', async () => {
    const { owner, bot, key } = await botWithKey(t, { scopes: ['chat', 'read', 'write'] });
    const hook = await register(t, receiver, key.key, '/ended', ['session.ended']);
    await chat(t, key.key, 'Hello', 'wh-idle');
    t.clock.advance(31 * 60_000);
    const [ended] = await receiver.waitFor('/ended', 1);
    assert.equal(ended!.json.event, 'session.ended');
    // One end time: when the idle time ran out, in the event and in the stored session alike.
    const session = await t.request('GET', `/api/dashboard/bots/${bot.id}/inbox/wh-idle`, { token: owner.token });
    assert.equal(session.body.ended_at, ended!.json.data.ended_at);
    assert.equal(ended!.json.session_id, 'wh-idle');
    assert.deepEqual(Object.keys(ended!.json.data).sort(), ['ended_at', 'message_count', 'started_at']);
    assert.equal(ended!.json.data.message_count, 2);
    assert.ok(ended!.signatureValid);

    const listed = async () => (await t.request('GET', `/api/v1/webhooks/${hook.id}/deliveries`, { token: key.key })).body;
    for (let i = 0; i < 40 && (await listed()).deliveries[0]?.status !== 'delivered'; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal((await listed()).total, 1);
    // The dispatcher prunes once an hour: 31 days later the delivery and its attempts are gone.
    t.clock.advance(31 * 24 * 3600_000);
    let total = 1;
    for (let i = 0; i < 60 && total > 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      total = (await listed()).total;
    }
    assert.equal(total, 0);
    const attempts = await t.runtime.database.db.selectFrom('webhook_attempts').select('seq').execute();
    assert.equal(attempts.length, 0);
  });
});
