import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp, type TestResponse } from '../../testing/test-app.ts';
import { createBot, signUp, uniqueEmail, type Owner, inviteMember } from '../../testing/factories.ts';
import { createSecretBox, decryptSecret, loadMasterKey, SECRET_KEY_FILE } from '../../platform/encryption.ts';
import { loadConfig } from '../../config/config.ts';
import { createProviderKeyService, providerKeyContext } from './provider-keys.service.ts';

const fakeKey = (tag: string) => `sk-${tag}-${randomBytes(24).toString('base64url')}`;
const keysPath = (botId: string, provider = '') => `/api/dashboard/bots/${botId}/provider-keys${provider && `/${provider}`}`;

/** Every log line the app writes, to prove no key reaches the log. */
const logLines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(String(chunk));
    done();
  },
});

describe('bring-your-own provider keys', () => {
  let t: TestApp;
  /** Every response body seen, to prove no key ever leaves the server. */
  const bodies: string[] = [];
  const sentKeys: string[] = [];

  async function call(method: string, url: string, token: string, body?: unknown): Promise<TestResponse> {
    const res = await t.request(method, url, { token, body });
    bodies.push(res.text);
    return res;
  }

  async function putKey(owner: { token: string }, botId: string, provider: string, apiKey = fakeKey(provider)) {
    sentKeys.push(apiKey);
    return { res: await call('PUT', keysPath(botId, provider), owner.token, { api_key: apiKey }), apiKey };
  }


  before(async () => {
    t = await startTestApp({ app: { logger: { level: 'trace', stream: logStream } } });
  });
  after(async () => {
    await t.close();
    assert.ok(logLines.length > 0 && sentKeys.length > 0);
    for (const key of sentKeys) {
      assert.ok(!bodies.some((body) => body.includes(key)), 'a response carried a provider key');
      assert.ok(!logLines.some((line) => line.includes(key)), 'the log carried a provider key');
    }
  });

  it('stores a key per provider, lists which providers have one, and removes it', async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner);

    const empty = await call('GET', keysPath(bot.id), owner.token);
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, { providers: [] });

    const { res: put } = await putKey(owner, bot.id, 'openai');
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(Object.keys(put.body).sort(), ['created_at', 'provider']);
    assert.equal(put.body.provider, 'openai');
    assert.ok(!Number.isNaN(Date.parse(put.body.created_at)));
    assert.equal((await putKey(owner, bot.id, 'anthropic')).res.status, 200);

    const listed = await call('GET', keysPath(bot.id), owner.token);
    assert.deepEqual(
      listed.body.providers.map((p: { provider: string }) => p.provider),
      ['anthropic', 'openai'],
    );
    for (const entry of listed.body.providers) assert.deepEqual(Object.keys(entry).sort(), ['created_at', 'provider']);

    const removed = await call('DELETE', keysPath(bot.id, 'openai'), owner.token);
    assert.equal(removed.status, 200);
    assert.deepEqual(removed.body, { success: true, provider: 'openai' });
    assert.equal((await call('DELETE', keysPath(bot.id, 'openai'), owner.token)).status, 404);
    assert.deepEqual(
      (await call('GET', keysPath(bot.id), owner.token)).body.providers.map((p: { provider: string }) => p.provider),
      ['anthropic'],
    );
  });

  it('keeps only the encrypted key in the database, which decrypts to the key sent; a second PUT replaces it', async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner);
    const { apiKey: first } = await putKey(owner, bot.id, 'mistral');
    const { res, apiKey: second } = await putKey(owner, bot.id, 'mistral');
    assert.equal(res.status, 200);

    const rows = await t.runtime.database.db.selectFrom('bot_provider_keys').selectAll().where('bot_id', '=', bot.id).execute();
    assert.equal(rows.length, 1);
    const row = rows[0]!;
    assert.equal(row.provider, 'mistral');
    assert.ok(!row.encrypted_key.includes(second) && !row.encrypted_key.includes(first));
    assert.match(row.encrypted_key, /^v1:/);
    // The embedded default generated its master key into the data directory, readable by the owner only.
    const keyFile = path.join(t.env.DATA_DIR!, SECRET_KEY_FILE);
    assert.equal(fs.statSync(keyFile).mode & 0o777, 0o600);
    const masterKey = loadMasterKey({ dataDir: t.env.DATA_DIR! });
    assert.equal(decryptSecret(masterKey, row.encrypted_key, providerKeyContext(bot.id, 'mistral')), second);
    // What the answer engine reads.
    const service = createProviderKeyService({ db: t.runtime.database.db, clock: t.clock, secrets: createSecretBox(masterKey) });
    assert.equal(await service.keyFor(bot.id, 'mistral'), second);
    assert.equal(await service.keyFor(bot.id, 'openai'), undefined);
  });

  it('lets any member list, but only the owner or an admin with the BYOK tab change keys', async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner);
    await putKey(owner, bot.id, 'google');
    const admin = await inviteMember(t, owner, 'admin');
    const byokAdmin = await inviteMember(t, owner, 'admin', ['settings', 'byok']);
    const agent = await inviteMember(t, owner, 'agent');

    for (const member of [admin, byokAdmin, agent]) {
      const listed = await call('GET', keysPath(bot.id), member.token);
      assert.equal(listed.status, 200);
      assert.equal(listed.body.providers[0].provider, 'google');
    }
    for (const member of [admin, agent]) {
      assert.equal((await putKey(member, bot.id, 'openai')).res.status, 403);
      assert.equal((await call('DELETE', keysPath(bot.id, 'google'), member.token)).status, 403);
    }
    assert.equal((await putKey(byokAdmin, bot.id, 'openai')).res.status, 200);
    assert.equal((await call('DELETE', keysPath(bot.id, 'google'), byokAdmin.token)).status, 200);
  });

  it("answers 404 for another account's bot, and 401 without a session", async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner);
    await putKey(owner, bot.id, 'openai');
    const stranger = await signUp(t);
    assert.equal((await call('GET', keysPath(bot.id), stranger.token)).status, 404);
    assert.equal((await putKey(stranger, bot.id, 'openai')).res.status, 404);
    assert.equal((await call('DELETE', keysPath(bot.id, 'openai'), stranger.token)).status, 404);
    assert.equal((await call('GET', keysPath(bot.id), '')).status, 401);
    assert.equal((await call('GET', keysPath('00000000-0000-4000-8000-000000000000'), owner.token)).status, 404);
  });

  it('refuses an unknown provider and a bad key with 400 naming the field', async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner);
    const unknown = await putKey(owner, bot.id, 'cohere');
    assert.equal(unknown.res.status, 400);
    assert.match(unknown.res.body.detail, /provider/);
    assert.equal((await call('DELETE', keysPath(bot.id, 'cohere'), owner.token)).status, 400);
    for (const body of [{}, { api_key: '' }, { api_key: 42 }, { api_key: 'x'.repeat(501) }, { api_key: '   ' }]) {
      const res = await call('PUT', keysPath(bot.id, 'openai'), owner.token, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(res.body.detail, /api_key/);
    }
    assert.equal((await putKey(owner, bot.id, 'openai', 'k'.repeat(500))).res.status, 200);
  });

  it("deletes a bot's keys with the bot", async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner);
    await putKey(owner, bot.id, 'anthropic');
    assert.equal((await call('DELETE', `/api/dashboard/bots/${bot.id}`, owner.token)).status, 200);
    const rows = await t.runtime.database.db.selectFrom('bot_provider_keys').selectAll().where('bot_id', '=', bot.id).execute();
    assert.deepEqual(rows, []);
  });
});

describe('the master key', () => {
  it('comes from PARLEY_SECRET_KEY when set (no key file is written)', async () => {
    const secretKey = randomBytes(32).toString('base64url');
    const t = await startTestApp({ env: { PARLEY_SECRET_KEY: secretKey } });
    try {
      const owner = await signUp(t);
      const bot = await createBot(t, owner);
      const apiKey = fakeKey('env');
      const res = await t.request('PUT', keysPath(bot.id, 'openai'), { token: owner.token, body: { api_key: apiKey } });
      assert.equal(res.status, 200);
      const row = await t.runtime.database.db.selectFrom('bot_provider_keys').selectAll().where('bot_id', '=', bot.id).executeTakeFirstOrThrow();
      const masterKey = loadMasterKey({ secretKey, dataDir: '/nonexistent' });
      assert.equal(decryptSecret(masterKey, row.encrypted_key, providerKeyContext(bot.id, 'openai')), apiKey);
      assert.ok(!fs.existsSync(path.join(t.env.DATA_DIR!, SECRET_KEY_FILE)));
    } finally {
      await t.close();
    }
  });

  it('refuses to start with a malformed PARLEY_SECRET_KEY, naming the variable', () => {
    assert.throws(() => loadConfig({ NODE_ENV: 'test', PARLEY_SECRET_KEY: 'too-short' }), /PARLEY_SECRET_KEY/);
  });
});
