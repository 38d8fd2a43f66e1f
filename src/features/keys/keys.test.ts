import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { botWithKey, createBot, createKey, signUp } from '../../testing/factories.ts';
import { hashCredential } from '../../platform/secrets.ts';

describe('API keys', () => {
  let t: TestApp;
  before(async () => {
    // Trusting the loopback proxy lets a test speak from any client address via X-Forwarded-For.
    t = await startTestApp({ env: { PARLEY_TRUST_PROXY: '127.0.0.1' } });
  });
  after(() => t.close());

  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  describe('creation and listing', () => {
    it('shows the secret once, with the prefix, default scopes and an empty allowlist', async () => {
      const owner = await signUp(t);
      const bot = await createBot(t, owner);
      const created = await t.request('POST', '/api/keys', { token: owner.token, body: { bot_id: bot.id, name: 'backend' } });
      assert.equal(created.status, 201);
      const key = created.body;
      assert.match(key.key, /^parley_sk_[A-Za-z0-9_-]{43}$/);
      assert.ok(key.key.startsWith(key.prefix) && key.prefix.length < key.key.length);
      assert.deepEqual(key.scopes, ['chat', 'read']);
      assert.deepEqual(key.allowed_ips, []);
      assert.equal(key.bot_id, bot.id);
      assert.equal(key.name, 'backend');

      const list = await t.request('GET', `/api/keys?bot_id=${bot.id}`, { token: owner.token });
      assert.equal(list.status, 200);
      assert.equal(list.body.keys.length, 1);
      const listed = list.body.keys[0];
      assert.equal(listed.id, key.id);
      assert.equal(listed.key, undefined);
      assert.ok(!list.text.includes(key.key), 'the secret never appears in a listing');
      assert.ok(!list.text.includes(hashCredential(key.key)), 'nor does its hash');
      assert.deepEqual(Object.keys(listed).sort(), ['allowed_ips', 'bot_id', 'created_at', 'created_by', 'id', 'last_used_at', 'name', 'prefix', 'revoked_at', 'scopes']);
    });

    it('stores only a hash of the secret', async () => {
      const { key } = await botWithKey(t);
      const row = await t.runtime.database.db.selectFrom('api_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
      assert.equal(row.key_hash, hashCredential(key.key));
      assert.ok(!Object.values(row).includes(key.key));
    });

    it('keeps allowed_ips exactly as sent and refuses entries that are not IPs or CIDR ranges', async () => {
      const owner = await signUp(t);
      const bot = await createBot(t, owner);
      const ips = ['203.0.113.7', '10.0.0.0/8', '2001:db8::/32', '::ffff:198.51.100.1'];
      const key = await createKey(t, owner, bot.id, { allowed_ips: ips });
      assert.deepEqual(key.allowed_ips, ips);

      const bad = await t.request('POST', '/api/keys', { token: owner.token, body: { bot_id: bot.id, name: 'x', allowed_ips: ['10.0.0.0/33'] } });
      assert.equal(bad.status, 400);
      assert.match(bad.body.detail, /allowed_ips/);
      // Only the standard forms: leading zeros (read as octal elsewhere), hex, short and integer forms are refused.
      for (const entry of ['0127.0.0.1', '192.168.010.005', '0x7f.0.0.1', '127.1', '2130706433', '10.0.0', '10.0.0.0/08x', '10.0.0.0/']) {
        const odd = await t.request('POST', '/api/keys', { token: owner.token, body: { bot_id: bot.id, name: 'x', allowed_ips: [entry] } });
        assert.deepEqual([odd.status, odd.body.detail], [400, `field 'allowed_ips' has '${entry}', which is not an IP address or CIDR range`]);
      }
      const unknownScope = await t.request('POST', '/api/keys', { token: owner.token, body: { bot_id: bot.id, name: 'x', scopes: ['superuser'] } });
      assert.equal(unknownScope.status, 400);
      assert.match(unknownScope.body.detail, /scopes/);
    });

    it('records last_used_at', async () => {
      const { owner, bot, key } = await botWithKey(t);
      const before = await t.request('GET', `/api/keys?bot_id=${bot.id}`, { token: owner.token });
      assert.equal(before.body.keys[0].last_used_at, null);
      assert.equal((await t.request('GET', '/api/v1/bot', { token: key.key })).status, 200);
      const afterUse = await t.request('GET', `/api/keys?bot_id=${bot.id}`, { token: owner.token });
      assert.equal(afterUse.body.keys[0].last_used_at, new Date(t.clock.now()).toISOString());
    });

    it('does not count a refused request as a use', async () => {
      const { owner, bot, key } = await botWithKey(t, { allowed_ips: ['192.0.2.1'] });
      assert.equal((await t.request('GET', '/api/v1/bot', { token: key.key, headers: from('192.0.2.2') })).status, 403);
      const list = await t.request('GET', `/api/keys?bot_id=${bot.id}`, { token: owner.token });
      assert.equal(list.body.keys[0].last_used_at, null);
    });
  });

  describe('authentication failures (401)', () => {
    it('refuses a missing, malformed, unknown or revoked key', async () => {
      const { owner, key } = await botWithKey(t);
      const cases: [string, Record<string, string>][] = [
        ['missing', {}],
        ['not bearer', { authorization: `Basic ${key.key}` }],
        ['empty bearer', { authorization: 'Bearer ' }],
        ['unknown key', { authorization: 'Bearer parley_sk_thisKeyDoesNotExist000000000000000000000000' }],
        ['unknown kind', { authorization: 'Bearer something-else' }],
        ['truncated key', { authorization: `Bearer ${key.key.slice(0, -1)}` }],
      ];
      for (const [label, headers] of cases) {
        const res = await t.request('GET', '/api/v1/bot', { headers });
        assert.equal(res.status, 401, label);
        assert.equal(typeof res.body.detail, 'string', label);
      }

      assert.equal((await t.request('GET', '/api/v1/bot', { token: key.key })).status, 200);
      const revoked = await t.request('DELETE', `/api/keys/${key.id}`, { token: owner.token });
      assert.deepEqual(revoked.body, { success: true, id: key.id });
      const afterRevoke = await t.request('GET', '/api/v1/bot', { token: key.key });
      assert.equal(afterRevoke.status, 401);
      assert.equal(afterRevoke.body.detail, 'Invalid or revoked API key');
    });

    it('answers a patch that names nothing it can change with the key unchanged', async () => {
      const { owner, key } = await botWithKey(t);
      assert.equal((await t.request('PATCH', `/api/keys/${key.id}`, { token: owner.token, body: { name: 'kept' } })).status, 200);
      for (const body of [{}, { foo: 1 }]) {
        const patch = await t.request('PATCH', `/api/keys/${key.id}`, { token: owner.token, body });
        assert.equal(patch.status, 200, patch.text);
        assert.equal(patch.body.name, 'kept');
        assert.deepEqual(patch.body.scopes, key.scopes);
        assert.equal(patch.body.key, undefined);
      }
    });

    it('keeps a revoked key revoked: it cannot be changed back', async () => {
      const { owner, key } = await botWithKey(t);
      await t.request('DELETE', `/api/keys/${key.id}`, { token: owner.token });
      const patch = await t.request('PATCH', `/api/keys/${key.id}`, { token: owner.token, body: { name: 'again' } });
      assert.equal(patch.status, 409);
      assert.equal((await t.request('GET', '/api/v1/bot', { token: key.key })).status, 401);
    });

    it('does not accept an API key where a dashboard session is needed, nor the reverse', async () => {
      const { owner, bot, key } = await botWithKey(t);
      assert.equal((await t.request('GET', `/api/keys?bot_id=${bot.id}`, { token: key.key })).status, 401);
      assert.equal((await t.request('GET', '/api/v1/bot', { token: owner.token })).status, 401);
    });
  });

  describe('authorization failures (403)', () => {
    it('refuses a key lacking the scope; admin satisfies every scope', async () => {
      const { owner, bot } = await botWithKey(t);
      const chatOnly = await createKey(t, owner, bot.id, { scopes: ['chat'] });
      const res = await t.request('GET', '/api/v1/bot', { token: chatOnly.key });
      assert.equal(res.status, 403);
      assert.match(res.body.detail, /read/);

      const admin = await createKey(t, owner, bot.id, { scopes: ['admin'] });
      assert.equal((await t.request('GET', '/api/v1/bot', { token: admin.key })).status, 200);
      assert.equal((await t.request('GET', '/api/v1/api-keys', { token: admin.key })).status, 200);
    });

    it('needs admin for the API form of key management', async () => {
      const { owner, bot } = await botWithKey(t);
      const writer = await createKey(t, owner, bot.id, { scopes: ['chat', 'read', 'write'] });
      assert.equal((await t.request('GET', '/api/v1/api-keys', { token: writer.key })).status, 403);
      assert.equal((await t.request('POST', '/api/v1/api-keys', { token: writer.key, body: { name: 'x' } })).status, 403);
    });

    const allowlistCases: { name: string; allowed: string[]; inside: string[]; outside: string[] }[] = [
      { name: 'exact IPv4', allowed: ['203.0.113.7'], inside: ['203.0.113.7'], outside: ['203.0.113.8', '2001:db8::1'] },
      { name: 'IPv4 CIDR', allowed: ['198.51.100.0/24'], inside: ['198.51.100.1', '198.51.100.254'], outside: ['198.51.101.1'] },
      { name: 'exact IPv6', allowed: ['2001:db8::42'], inside: ['2001:db8::42', '2001:0db8:0000::0042'], outside: ['2001:db8::43'] },
      { name: 'IPv6 CIDR', allowed: ['2001:db8:abcd::/48'], inside: ['2001:db8:abcd:12::1'], outside: ['2001:db8:abce::1', '198.51.100.1'] },
      { name: 'IPv4-mapped client', allowed: ['192.0.2.0/24'], inside: ['::ffff:192.0.2.10'], outside: ['::ffff:192.0.3.10'] },
      { name: 'IPv4-mapped entry', allowed: ['::ffff:192.0.2.10'], inside: ['192.0.2.10'], outside: ['192.0.2.11'] },
      { name: 'several entries', allowed: ['10.1.0.0/16', '2001:db8::/32'], inside: ['10.1.2.3', '2001:db8:1::5'], outside: ['10.2.0.1', '2001:db9::1'] },
    ];
    for (const c of allowlistCases) {
      it(`applies the IP allowlist: ${c.name}`, async () => {
        const { key } = await botWithKey(t, { allowed_ips: c.allowed });
        for (const ip of c.inside) {
          const res = await t.request('GET', '/api/v1/bot', { token: key.key, headers: from(ip) });
          assert.equal(res.status, 200, `${ip} should be allowed by ${c.allowed}`);
        }
        for (const ip of c.outside) {
          const res = await t.request('GET', '/api/v1/bot', { token: key.key, headers: from(ip) });
          assert.equal(res.status, 403, `${ip} should be refused by ${c.allowed}`);
          assert.match(res.body.detail, /not allowed/);
        }
      });
    }

    it('allows any address with an empty allowlist, and applies a narrowed list at once', async () => {
      const { owner, key } = await botWithKey(t);
      assert.equal((await t.request('GET', '/api/v1/bot', { token: key.key, headers: from('192.0.2.99') })).status, 200);
      const patched = await t.request('PATCH', `/api/keys/${key.id}`, { token: owner.token, body: { allowed_ips: ['192.0.2.1'] } });
      assert.equal(patched.status, 200);
      assert.deepEqual(patched.body.allowed_ips, ['192.0.2.1']);
      assert.equal((await t.request('GET', '/api/v1/bot', { token: key.key, headers: from('192.0.2.99') })).status, 403);
      assert.equal((await t.request('GET', '/api/v1/bot', { token: key.key, headers: from('192.0.2.1') })).status, 200);
    });
  });

  describe('the API form', () => {
    it('mints, lists, narrows and revokes keys of the calling key’s own bot', async () => {
      const { bot, owner } = await botWithKey(t);
      const admin = await createKey(t, owner, bot.id, { scopes: ['admin'] });
      const created = await t.request('POST', '/api/v1/api-keys', { token: admin.key, body: { name: 'minted', scopes: ['read'], allowed_ips: ['::1'] } });
      assert.equal(created.status, 201);
      assert.equal(created.body.bot_id, bot.id);
      assert.deepEqual(created.body.scopes, ['read']);
      assert.deepEqual(created.body.allowed_ips, ['::1']);

      const list = await t.request('GET', '/api/v1/api-keys', { token: admin.key });
      assert.equal(list.status, 200);
      assert.equal(list.body.keys.length, 3);
      assert.ok(!list.text.includes(created.body.key));

      const narrowed = await t.request('PATCH', `/api/v1/api-keys/${created.body.id}`, { token: admin.key, body: { allowed_ips: [], name: 'renamed' } });
      assert.equal(narrowed.status, 200);
      assert.equal(narrowed.body.name, 'renamed');
      assert.equal((await t.request('GET', '/api/v1/bot', { token: created.body.key })).status, 200);
      // The minted key holds only `read`: it can neither write nor manage keys.
      assert.equal((await t.request('GET', '/api/v1/api-keys', { token: created.body.key })).status, 403);

      const revoked = await t.request('DELETE', `/api/v1/api-keys/${created.body.id}`, { token: admin.key });
      assert.deepEqual(revoked.body, { success: true, id: created.body.id });
      assert.equal((await t.request('GET', '/api/v1/bot', { token: created.body.key })).status, 401);
    });

    it('never touches another bot’s keys', async () => {
      const a = await botWithKey(t, { scopes: ['admin'] });
      const b = await botWithKey(t);
      const patch = await t.request('PATCH', `/api/v1/api-keys/${b.key.id}`, { token: a.key.key, body: { scopes: ['admin'] } });
      assert.equal(patch.status, 404);
      const del = await t.request('DELETE', `/api/v1/api-keys/${b.key.id}`, { token: a.key.key });
      assert.equal(del.status, 404);
      assert.equal((await t.request('GET', '/api/v1/bot', { token: b.key.key })).status, 200);
    });
  });

  describe('isolation between accounts', () => {
    it('hides another account’s bots and keys behind 404', async () => {
      const a = await botWithKey(t);
      const intruder = await signUp(t);
      const create = await t.request('POST', '/api/keys', { token: intruder.token, body: { bot_id: a.bot.id, name: 'steal' } });
      assert.equal(create.status, 404);
      assert.equal((await t.request('GET', `/api/keys?bot_id=${a.bot.id}`, { token: intruder.token })).status, 404);
      assert.equal((await t.request('PATCH', `/api/keys/${a.key.id}`, { token: intruder.token, body: { name: 'x' } })).status, 404);
      assert.equal((await t.request('DELETE', `/api/keys/${a.key.id}`, { token: intruder.token })).status, 404);
      assert.equal((await t.request('GET', '/api/v1/bot', { token: a.key.key })).status, 200);
    });
  });
});

describe('scope narrowing', () => {
  it('never lets a credential grant a scope it does not hold', async () => {
    const { createKeyService } = await import('./keys.service.ts');
    const { ForbiddenError } = await import('../../platform/errors.ts');
    const t = await startTestApp();
    try {
      const { bot, key } = await botWithKey(t);
      const { db } = t.runtime.database;
      const keys = createKeyService({ db, clock: t.clock, bus: t.runtime.bus, flushMs: 1000 });
      const owned = { id: bot.id, account_id: (await db.selectFrom('bots').select('account_id').where('id', '=', bot.id).executeTakeFirstOrThrow()).account_id };

      await assert.rejects(keys.create(owned, { name: 'wider', scopes: ['write'] }, { scopes: ['chat', 'read'], makerId: null }), ForbiddenError);
      await assert.rejects(keys.create(owned, { name: 'admin', scopes: ['admin'] }, { scopes: ['chat', 'read', 'write'], makerId: null }), ForbiddenError);
      await assert.rejects(keys.update(bot.id, key.id, { scopes: ['chat', 'write'] }, ['chat', 'read']), ForbiddenError);
      const narrower = await keys.create(owned, { name: 'narrower', scopes: ['read'] }, { scopes: ['chat', 'read'], makerId: null });
      assert.deepEqual(narrower.scopes, ['read']);
      // With no scopes given, a new key gets the defaults, which must also be within the granter's.
      await assert.rejects(keys.create(owned, { name: 'defaults' }, { scopes: ['read'], makerId: null }), ForbiddenError);
      await keys.close();
    } finally {
      await t.close();
    }
  });
});
