import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { botWithKey, createBot, createKey } from '../../testing/factories.ts';

describe('analytics', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  async function say(key: string, text: string, session: string) {
    const res = await t.request('POST', '/api/v1/chat', { token: key, body: { text, session_id: session } });
    assert.equal(res.status, 200, res.text);
  }

  it('counts what the test produced, lifetime and since a time, with the knowledge attached now', async () => {
    const { owner, bot, key } = await botWithKey(t, { scopes: ['chat', 'read', 'write'] });
    const empty = await t.request('GET', '/api/v1/analytics', { token: key.key });
    assert.deepEqual(empty.body, {
      bot_id: bot.id, since: null, total_messages: 0, user_messages: 0, bot_messages: 0, unique_sessions: 0, total_sessions: 0, total_leads: 0, knowledge_sources: 0, knowledge_kb: 0,
    });
    await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'text', name: 'Hours', content: 'x'.repeat(3000) } });
    await say(key.key, 'Hello', 'a-1');
    await say(key.key, 'Are you open?', 'a-1');
    await say(key.key, 'Hi', 'a-2');
    await t.request('POST', '/api/widget/leads', { token: bot.id, body: { session_id: 'a-2', email: 'lead@example.com' } });
    const mark = new Date(t.clock.now() + 60_000).toISOString();
    t.clock.advance(120_000);
    await say(key.key, 'Later question', 'a-3');

    const lifetime = await t.request('GET', '/api/v1/analytics', { token: key.key });
    assert.deepEqual(lifetime.body, {
      bot_id: bot.id, since: null, total_messages: 8, user_messages: 4, bot_messages: 4, unique_sessions: 3, total_sessions: 3, total_leads: 1, knowledge_sources: 1, knowledge_kb: 3,
    });
    const windowed = await t.request('GET', `/api/v1/analytics?since=${encodeURIComponent(mark)}`, { token: key.key });
    assert.deepEqual(windowed.body, {
      bot_id: bot.id, since: mark, total_messages: 2, user_messages: 1, bot_messages: 1, unique_sessions: 1, total_sessions: 1, total_leads: 0, knowledge_sources: 1, knowledge_kb: 3,
    });
    const dateOnly = await t.request('GET', '/api/v1/analytics?since=2000-01-01', { token: key.key });
    assert.equal(dateOnly.body.since, '2000-01-01T00:00:00.000Z');
    assert.equal(dateOnly.body.total_messages, 8);
    for (const bad of ['yesterday', '2026-13-45', '12345']) {
      const res = await t.request('GET', `/api/v1/analytics?since=${bad}`, { token: key.key });
      assert.equal(res.status, 400, bad);
      assert.match(res.body.detail, /'since'/);
    }

    const perBot = await t.request('GET', `/api/v1/bots/${bot.id}/analytics`, { token: key.key });
    assert.deepEqual(perBot.body, { bot_id: bot.id, total_messages: 8, user_messages: 4, bot_messages: 4, unique_sessions: 3, total_leads: 1 });
    // A cleared conversation leaves the counts; its lead stays.
    assert.equal((await t.request('DELETE', '/api/v1/conversations/a-2', { token: key.key })).status, 200);
    const after = await t.request('GET', `/api/v1/bots/${bot.id}/analytics`, { token: key.key });
    assert.deepEqual(after.body, { bot_id: bot.id, total_messages: 6, user_messages: 3, bot_messages: 3, unique_sessions: 2, total_leads: 1 });

    // An API key reads its own bot only; chat-only keys lack `read`.
    const other = await createBot(t, owner);
    assert.equal((await t.request('GET', `/api/v1/bots/${other.id}/analytics`, { token: key.key })).status, 403);
    const chatOnly = await createKey(t, owner, bot.id, { scopes: ['chat'] });
    assert.equal((await t.request('GET', '/api/v1/analytics', { token: chatOnly.key })).status, 403);
  });
});
