import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { startTestApp, usingRedis, type TestApp } from '../../testing/test-app.ts';
import { botWithKey, createKey } from '../../testing/factories.ts';
import { createMemoryWindowStore, createRedisWindowStore, type SlidingWindowStore } from './sliding-window.ts';

const limits = { PARLEY_RATE_KEY_PER_MIN: '60', PARLEY_RATE_IP_PER_MIN: '120', PARLEY_TRUST_PROXY: '127.0.0.1' };

describe('per-key limit: 60 requests per sliding 60 s', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: limits });
  });
  after(() => t.close());

  it('refuses the 61st request within 60 s and allows one once the oldest ages out', async () => {
    const { owner, bot, key } = await botWithKey(t);
    const start = t.clock.now();
    // Spread the 60 allowed requests over 30 s: the first at `start`, the rest from +30 s on.
    for (let i = 0; i < 60; i++) {
      if (i === 1) t.clock.advance(30_000);
      const res = await t.request('GET', '/api/v1/bot', { token: key.key, headers: { 'x-forwarded-for': `10.0.${i}.1` } });
      assert.equal(res.status, 200, `request ${i + 1}`);
    }
    const refused = await t.request('GET', '/api/v1/bot', { token: key.key });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '60');
    assert.deepEqual(refused.body, { detail: 'Rate limit exceeded (60/min per key)' });
    assert.ok(refused.headers.get('x-request-id'));

    // Just before the first request is 60 s old: still full (a fixed minute bucket would have reset).
    t.clock.set(start + 59_999);
    assert.equal((await t.request('GET', '/api/v1/bot', { token: key.key })).status, 429);
    // The first request ages out: exactly one slot frees up.
    t.clock.set(start + 60_000);
    assert.equal((await t.request('GET', '/api/v1/bot', { token: key.key })).status, 200);
    assert.equal((await t.request('GET', '/api/v1/bot', { token: key.key })).status, 429);

    // Another key of the same bot has its own window.
    const other = await createKey(t, owner, bot.id);
    assert.equal((await t.request('GET', '/api/v1/bot', { token: other.key })).status, 200);
  });
});

describe('per-IP limit: 120 requests per endpoint per sliding 60 s', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { ...limits, PARLEY_RATE_KEY_PER_MIN: '1000' } });
  });
  after(() => t.close());

  it('counts each client address and endpoint separately and names its own limit', async () => {
    const { key } = await botWithKey(t);
    const ip = { 'x-forwarded-for': '192.0.2.10' };
    for (let i = 0; i < 120; i++) {
      assert.equal((await t.request('GET', '/api/v1/bot', { token: key.key, headers: ip })).status, 200, `request ${i + 1}`);
    }
    const refused = await t.request('GET', '/api/v1/bot', { token: key.key, headers: ip });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '60');
    assert.equal(refused.body.detail, 'Rate limit exceeded (120/min per IP address)');

    // Same address, another endpoint; same endpoint, another address.
    assert.equal((await t.request('GET', '/api/v1/usage', { token: key.key, headers: ip })).status, 200);
    assert.equal((await t.request('GET', '/api/v1/bot', { token: key.key, headers: { 'x-forwarded-for': '192.0.2.11' } })).status, 200);
  });

  it('applies before authentication, so unauthenticated floods are cut off too', async () => {
    const ip = { 'x-forwarded-for': '192.0.2.20' };
    for (let i = 0; i < 120; i++) assert.equal((await t.request('GET', '/api/v1/usage', { headers: ip })).status, 401);
    assert.equal((await t.request('GET', '/api/v1/usage', { headers: ip })).status, 429);
  });

  it('leaves the health checks alone', async () => {
    const ip = { 'x-forwarded-for': '192.0.2.30' };
    for (let i = 0; i < 130; i++) assert.equal((await t.request('GET', '/healthz', { headers: ip })).status, 200);
  });
});

function describeStore(name: string, makeStore: () => Promise<{ store: SlidingWindowStore; close: () => Promise<void> }>) {
  describe(`sliding window store: ${name}`, () => {
    let store: SlidingWindowStore;
    let close: () => Promise<void>;
    before(async () => {
      ({ store, close } = await makeStore());
    });
    after(() => close());

    it('slides: capacity returns one request at a time as each ages out', async () => {
      const key = `slide-${Math.random()}`;
      const t0 = 1_000_000;
      assert.equal((await store.hit(key, 3, 1000, t0)).allowed, true);
      assert.equal((await store.hit(key, 3, 1000, t0 + 400)).allowed, true);
      assert.equal((await store.hit(key, 3, 1000, t0 + 800)).allowed, true);
      const full = await store.hit(key, 3, 1000, t0 + 900);
      assert.equal(full.allowed, false);
      assert.equal(full.resetInMs, 100);
      assert.equal((await store.hit(key, 3, 1000, t0 + 1000)).allowed, true);
      assert.equal((await store.hit(key, 3, 1000, t0 + 1100)).allowed, false);
      assert.equal((await store.hit(key, 3, 1000, t0 + 1400)).allowed, true);
      assert.equal(await store.count(key, 1000, t0 + 1400), 3);
      assert.equal(await store.count(key, 1000, t0 + 5000), 0);
    });

    it('agrees with a naive sliding log on a random sequence of requests', async () => {
      const key = `random-${Math.random()}`;
      const allowed: number[] = [];
      let now = 5_000_000;
      for (let i = 0; i < 2000; i++) {
        now += Math.floor(Math.random() * 60);
        const expected = allowed.filter((at) => at > now - 1000).length < 20;
        const decision = await store.hit(key, 20, 1000, now);
        assert.equal(decision.allowed, expected, `request ${i} at ${now}`);
        if (expected) allowed.push(now);
      }
    });

    it('does not count refused requests', async () => {
      const key = `refused-${Math.random()}`;
      assert.equal((await store.hit(key, 1, 1000, 0)).allowed, true);
      for (let i = 1; i < 10; i++) assert.equal((await store.hit(key, 1, 1000, i * 50)).allowed, false);
      assert.equal((await store.hit(key, 1, 1000, 1000)).allowed, true);
    });
  });
}

describeStore('in-process', async () => {
  const store = createMemoryWindowStore();
  return { store, close: () => store.close() };
});

if (usingRedis) {
  describeStore('Redis', async () => {
    const redis = new Redis(process.env.TEST_REDIS_URL!);
    const store = createRedisWindowStore(redis, `parley-test:${Math.random()}:`);
    return { store, close: async () => redis.disconnect() };
  });

  describe('Redis store shared by two instances', () => {
    let first: TestApp;
    let second: TestApp;
    before(async () => {
      first = await startTestApp({ env: { ...limits, PARLEY_RATE_KEY_PER_MIN: '10' } });
      second = await startTestApp({ env: { ...limits, PARLEY_RATE_KEY_PER_MIN: '10' }, shareWith: first });
    });
    after(async () => {
      await second.close();
      await first.close();
    });

    it('enforces one key window across both instances', async () => {
      const { key } = await botWithKey(first);
      for (let i = 0; i < 10; i++) {
        const instance = i % 2 === 0 ? first : second;
        assert.equal((await instance.request('GET', '/api/v1/bot', { token: key.key })).status, 200, `request ${i + 1}`);
      }
      assert.equal((await first.request('GET', '/api/v1/bot', { token: key.key })).status, 429);
      assert.equal((await second.request('GET', '/api/v1/bot', { token: key.key })).status, 429);
    });

    it('keeps serving with per-instance limits while Redis is away, and shares them again once it is back', async () => {
      const { key } = await botWithKey(first);
      const redis = first.runtime.redis!;
      redis.disconnect();
      // Nothing fails: each instance counts on its own (10 each) while Redis is away.
      for (let i = 0; i < 10; i++) assert.equal((await first.request('GET', '/api/v1/bot', { token: key.key })).status, 200, `first ${i + 1}`);
      assert.equal((await first.request('GET', '/api/v1/bot', { token: key.key })).status, 429, 'the per-instance window holds');
      const store = first.runtime.windowStore as { degraded?: boolean };
      assert.equal(store.degraded, true);

      await redis.connect();
      // Back on the shared window: the second instance (never cut off) counted none of the above.
      assert.equal((await first.request('GET', '/api/v1/bot', { token: key.key })).status, 200);
      assert.equal(store.degraded, false);
      const shared = await first.runtime.windowStore.count(`key:${key.id}`, 60_000, Date.now());
      assert.ok(shared >= 1, `the shared window counts again (${shared})`);
    });

    it('revokes a key on both instances at once', async () => {
      const { owner, key } = await botWithKey(first);
      assert.equal((await second.request('GET', '/api/v1/bot', { token: key.key })).status, 200);
      assert.equal((await first.request('DELETE', `/api/keys/${key.id}`, { token: owner.token })).status, 200);
      // The revocation travels over Redis pub/sub; allow it a moment to arrive.
      let status = 0;
      for (let i = 0; i < 50 && status !== 401; i++) {
        status = (await second.request('GET', '/api/v1/bot', { token: key.key })).status;
        if (status !== 401) await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(status, 401);
    });
  });
}
