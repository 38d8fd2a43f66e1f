import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { botWithKey, createKey } from '../../testing/factories.ts';
import { listEvents } from '../events/events.repository.ts';

async function writer(t: TestApp) {
  const setup = await botWithKey(t, { scopes: ['chat', 'read', 'write'] });
  return { ...setup, token: setup.key.key };
}

async function say(t: TestApp, token: string, text: string, session_id?: string) {
  const res = await t.request('POST', '/api/v1/chat', { token, body: { text, ...(session_id && { session_id }) } });
  assert.equal(res.status, 200, res.text);
  return res.body as { reply: string; session_id: string };
}

describe('conversations API', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('lists messages across sessions newest first, with session ids, paged by limit and offset', async () => {
    const { token } = await writer(t);
    await say(t, token, 'first question', 'a');
    t.clock.advance(1000);
    await say(t, token, 'second question', 'b');
    const all = await t.request('GET', '/api/v1/conversations', { token });
    assert.equal(all.status, 200);
    assert.equal(all.body.limit, 50);
    assert.equal(all.body.offset, 0);
    assert.deepEqual(
      all.body.messages.map((m: { session_id: string; role: string }) => `${m.session_id}:${m.role}`),
      ['b:assistant', 'b:user', 'a:assistant', 'a:user'],
    );
    assert.deepEqual(Object.keys(all.body.messages[0]).sort(), ['content', 'created_at', 'feedback_rating', 'id', 'role', 'session_id']);
    const page = await t.request('GET', '/api/v1/conversations?limit=2&offset=1', { token });
    assert.deepEqual(page.body.messages.map((m: { role: string }) => m.role), ['user', 'assistant']);
    assert.equal(page.body.limit, 2);
    assert.equal(page.body.offset, 1);
    // Integers in decimal digits only: coercion would read hex, exponents and padding as numbers; past
    // JavaScript's safe integers a number is inexact and the database refuses it.
    for (const query of ['limit=0', 'limit=201', 'offset=-1', 'limit=abc', 'offset=1.5', 'limit=0x10', 'limit=10.0', 'limit=%2010', 'offset=1e2', 'offset=1e30', 'offset=9223372036854775807']) {
      const res = await t.request('GET', `/api/v1/conversations?${query}`, { token });
      assert.equal(res.status, 400, query);
      assert.match(res.body.detail, /'(limit|offset)'/);
    }
  });

  it('reads and deletes a session by an id of the full 128 characters, multi-byte ones included', async () => {
    const { token } = await writer(t);
    for (const id of ['s'.repeat(128), 'é'.repeat(128)]) {
      await say(t, token, 'hello', id);
      const read = await t.request('GET', `/api/v1/conversations/${encodeURIComponent(id)}`, { token });
      assert.equal(read.status, 200, read.text);
      assert.equal(read.body.messages.length, 2);
      assert.equal((await t.request('DELETE', `/api/v1/conversations/${encodeURIComponent(id)}`, { token })).status, 200);
    }
  });

  it("keeps each bot's sessions apart: the same session id on another bot is another session, and 404 across bots", async () => {
    const one = await writer(t);
    const two = await writer(t);
    await say(t, one.token, 'hello from one', 'shared-id');
    const missing = await t.request('GET', '/api/v1/conversations/shared-id', { token: two.token });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.detail, 'Session not found or belongs to a different bot');
    assert.equal((await t.request('DELETE', '/api/v1/conversations/shared-id', { token: two.token })).status, 404);
    await say(t, two.token, 'hello from two', 'shared-id');
    const mine = await t.request('GET', '/api/v1/conversations/shared-id', { token: one.token });
    assert.equal(mine.body.messages[0].content, 'hello from one');
    assert.equal(mine.body.messages.length, 2);
    assert.equal((await t.request('GET', '/api/v1/conversations', { token: two.token })).body.messages.length, 2);
  });

  it('reading needs read, deleting needs write', async () => {
    const { owner, bot, token } = await writer(t);
    await say(t, token, 'hello', 'scoped');
    const chatOnly = await createKey(t, owner, bot.id, { scopes: ['chat'] });
    assert.equal((await t.request('GET', '/api/v1/conversations', { token: chatOnly.key })).status, 403);
    assert.equal((await t.request('GET', '/api/v1/conversations/scoped', { token: chatOnly.key })).status, 403);
    const reader = await createKey(t, owner, bot.id, { scopes: ['read'] });
    assert.equal((await t.request('DELETE', '/api/v1/conversations/scoped', { token: reader.key })).status, 403);
  });

  it('DELETE clears the session: 404 afterwards, and the next message with the same id starts afresh', async () => {
    const { bot, token } = await writer(t);
    await say(t, token, 'hello', 'reused');
    await say(t, token, 'second message', 'reused');
    const deleted = await t.request('DELETE', '/api/v1/conversations/reused', { token });
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body, { success: true, session_id: 'reused' });
    assert.equal((await t.request('GET', '/api/v1/conversations/reused', { token })).status, 404);
    assert.equal((await t.request('DELETE', '/api/v1/conversations/reused', { token })).status, 404);
    assert.equal((await t.request('GET', '/api/v1/conversations', { token })).body.messages.length, 0);

    await say(t, token, 'a new start', 'reused');
    const fresh = await t.request('GET', '/api/v1/conversations/reused', { token });
    assert.deepEqual(fresh.body.messages.map((m: { content: string; role: string }) => m.role), ['user', 'assistant']);
    assert.equal(fresh.body.messages[0].content, 'a new start');
    const started = (await listEvents(t.runtime.database.db, bot.id)).filter((e) => e.event === 'session.started');
    assert.equal(started.length, 2);
  });
});

describe('the session sweeper', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { PARLEY_SESSION_IDLE_MINUTES: '30', PARLEY_SESSION_SWEEP_MS: '20' }, app: { backgroundJobs: true } });
  });
  after(() => t.close());

  async function waitForEvents(botId: string, name: string, count: number) {
    for (let i = 0; i < 200; i++) {
      const events = (await listEvents(t.runtime.database.db, botId)).filter((e) => e.event === name);
      if (events.length >= count) return events;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.fail(`expected ${count} ${name} events`);
  }

  it('ends a session after 30 idle minutes, once, recording session.ended; a later message starts it again', async () => {
    const { bot, token } = await writer(t);
    await say(t, token, 'hello', 'idle-1');
    t.clock.advance(29 * 60_000);
    await say(t, token, 'still here', 'idle-1');
    // 29 minutes after the last activity: still active.
    t.clock.advance(29 * 60_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const row = () => t.runtime.database.db.selectFrom('chat_sessions').selectAll().where('bot_id', '=', bot.id).executeTakeFirstOrThrow();
    assert.equal((await row()).status, 'active');
    assert.equal((await listEvents(t.runtime.database.db, bot.id)).filter((e) => e.event === 'session.ended').length, 0);

    t.clock.advance(2 * 60_000);
    const [ended] = await waitForEvents(bot.id, 'session.ended', 1);
    assert.equal((await row()).status, 'ended');
    assert.equal(ended!.session_id, 'idle-1');
    assert.equal(ended!.data.message_count, 4);
    // Further sweeps do not end it again.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal((await listEvents(t.runtime.database.db, bot.id)).filter((e) => e.event === 'session.ended').length, 1);

    await say(t, token, 'back again', 'idle-1');
    assert.equal((await row()).status, 'active');
    await waitForEvents(bot.id, 'session.started', 2);
    const history = await t.request('GET', '/api/v1/conversations/idle-1', { token });
    assert.equal(history.body.messages.length, 6);
  });

  it('two instances sweeping the same database end a session exactly once', async () => {
    const second = await startTestApp({ shareWith: t, env: { PARLEY_SESSION_IDLE_MINUTES: '30', PARLEY_SESSION_SWEEP_MS: '20' }, app: { backgroundJobs: true } });
    try {
      const { bot, token } = await writer(t);
      for (let i = 0; i < 5; i++) await say(t, token, 'hello', `many-${i}`);
      t.clock.advance(31 * 60_000);
      await waitForEvents(bot.id, 'session.ended', 5);
      await new Promise((resolve) => setTimeout(resolve, 150));
      const ended = (await listEvents(t.runtime.database.db, bot.id)).filter((e) => e.event === 'session.ended');
      assert.deepEqual(ended.map((e) => e.session_id).sort(), ['many-0', 'many-1', 'many-2', 'many-3', 'many-4']);
    } finally {
      await second.close();
    }
  });
});
