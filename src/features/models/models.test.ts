// `GET /api/dashboard/models`: parley-local always, the providers this deployment has a key for,
// the bot's own keys, and what an OpenAI-compatible server lists.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { createBot, inviteMember, signUp } from '../../testing/factories.ts';

type Model = { id: string; provider: string; key: string };
const ids = (models: Model[]) => models.map((m) => m.id);

describe('dashboard models', () => {
  describe('without a provider', () => {
    let t: TestApp;
    before(async () => (t = await startTestApp()));
    after(async () => t.close());

    it('offers parley-local, and a bot with its own key that provider\'s models', async () => {
      const owner = await signUp(t);
      const res = await t.request('GET', '/api/dashboard/models', { token: owner.token });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { default_model: 'parley-local', models: [{ id: 'parley-local', provider: 'local', key: 'none' }] });

      const bot = await createBot(t, owner);
      const put = await t.request('PUT', `/api/dashboard/bots/${bot.id}/provider-keys/mistral`, { token: owner.token, body: { api_key: 'mistral-test-key' } });
      assert.equal(put.status, 200, put.text);
      const forBot = await t.request('GET', `/api/dashboard/models?bot_id=${bot.id}`, { token: owner.token });
      const mistral = (forBot.body.models as Model[]).filter((m) => m.provider === 'mistral');
      assert.ok(mistral.length > 0);
      assert.ok(mistral.every((m) => m.key === 'bot'));
      assert.ok(ids(mistral).includes('mistral-small-latest'));
      assert.ok(!(forBot.body.models as Model[]).some((m) => m.provider === 'openai'));
    });

    it('answers any member, but not for another account\'s bot', async () => {
      const owner = await signUp(t);
      const agent = await inviteMember(t, owner, 'agent');
      assert.equal((await t.request('GET', '/api/dashboard/models', { token: agent.token })).status, 200);
      const stranger = await signUp(t);
      const bot = await createBot(t, stranger);
      assert.equal((await t.request('GET', `/api/dashboard/models?bot_id=${bot.id}`, { token: owner.token })).status, 404);
      assert.equal((await t.request('GET', '/api/dashboard/models')).status, 401);
    });
  });

  describe('with shared keys', () => {
    let t: TestApp;
    before(async () => (t = await startTestApp({ env: { ANTHROPIC_API_KEY: 'sk-ant-test', GOOGLE_GENERATIVE_AI_API_KEY: 'google-test' } })));
    after(async () => t.close());

    it("lists those providers' models as served by the shared pool, with the account default", async () => {
      const owner = await signUp(t);
      const res = await t.request('GET', '/api/dashboard/models', { token: owner.token });
      assert.equal(res.body.default_model, 'claude-3-5-haiku-latest');
      const models = res.body.models as Model[];
      assert.equal(models[0]!.id, 'parley-local');
      assert.ok(ids(models).includes('claude-3-5-haiku-latest'));
      assert.ok(ids(models).includes('gemini-2.0-flash'));
      assert.ok(models.filter((m) => m.provider !== 'local').every((m) => m.key === 'pool'));
      assert.ok(!models.some((m) => m.provider === 'openai' || m.provider === 'mistral'));
    });
  });

  describe('with an OpenAI-compatible server', () => {
    let t: TestApp;
    let server: http.Server;
    let calls = 0;
    before(async () => {
      server = http.createServer((req, res) => {
        calls++;
        if (req.url === '/v1/models') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'llama3.2' }, { id: 'qwen2.5:7b' }] }));
        res.writeHead(404).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      t = await startTestApp({ env: { OPENAI_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` } });
    });
    after(async () => {
      await t.close();
      server.close();
    });

    it('lists the models the server says it serves, asking it once a minute at most', async () => {
      const owner = await signUp(t);
      const first = await t.request('GET', '/api/dashboard/models', { token: owner.token });
      assert.deepEqual(first.body.models, [
        { id: 'parley-local', provider: 'local', key: 'none' },
        { id: 'llama3.2', provider: 'openai-compatible', key: 'pool' },
        { id: 'qwen2.5:7b', provider: 'openai-compatible', key: 'pool' },
      ]);
      await t.request('GET', '/api/dashboard/models', { token: owner.token });
      assert.equal(calls, 1);
    });
  });

  describe('with an OpenAI-compatible server that does not answer', () => {
    let t: TestApp;
    before(async () => (t = await startTestApp({ env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } })));
    after(async () => t.close());

    it('still answers, with parley-local', async () => {
      const owner = await signUp(t);
      const res = await t.request('GET', '/api/dashboard/models', { token: owner.token });
      assert.equal(res.status, 200);
      assert.deepEqual(ids(res.body.models), ['parley-local']);
    });
  });
});
