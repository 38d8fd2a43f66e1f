import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { botWithKey, createBot, createKey, inviteMember } from '../../testing/factories.ts';

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
    // The sessions were opened through the API: the business's server sends the form with its key.
    assert.equal((await t.request('PATCH', `/api/v1/bots/${bot.id}`, { token: key.key, body: { lead_capture_enabled: true } })).status, 200);
    assert.equal((await t.request('POST', '/api/widget/leads', { token: key.key, body: { session_id: 'a-2', email: 'lead@example.com' } })).status, 201);
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
    // Without a zone a date-time is UTC, whatever the server's own time zone; ±hhmm reads as ±hh:mm.
    const serverZone = process.env.TZ;
    process.env.TZ = 'Asia/Tokyo';
    try {
      for (const written of [mark.replace(/Z$/, ''), mark.replace('T', ' ').replace(/Z$/, '+0000')]) {
        const same = await t.request('GET', `/api/v1/analytics?since=${encodeURIComponent(written)}`, { token: key.key });
        assert.deepEqual([same.status, same.body.total_messages, same.body.since], [200, 2, written]);
      }
    } finally {
      if (serverZone === undefined) delete process.env.TZ;
      else process.env.TZ = serverZone;
    }
    // The years 0 to 99 are years like any other (a client's "minimum date" is often 0001-01-01).
    const earliest = await t.request('GET', '/api/v1/analytics?since=0001-01-01T00:00:00Z', { token: key.key });
    assert.deepEqual([earliest.status, earliest.body.total_messages], [200, 8]);
    const dateOnly = await t.request('GET', '/api/v1/analytics?since=2000-01-01', { token: key.key });
    assert.equal(dateOnly.body.since, '2000-01-01', 'echoed as sent');
    assert.equal(dateOnly.body.total_messages, 8);
    // Within the last hour of year 9999 nothing has happened yet (the next hour is not year 10000's '+0…').
    const lastHour = await t.request('GET', `/api/v1/analytics?since=${encodeURIComponent('9999-12-31T23:00:00.001Z')}`, { token: key.key });
    assert.deepEqual([lastHour.body.total_messages, lastHour.body.unique_sessions, lastHour.body.total_leads], [0, 0, 0]);
    // A day the calendar lacks is refused, not rolled over into the next month.
    for (const bad of ['yesterday', '2026-13-45', '12345', '2026-02-30', '2026-11-31', '2026-04-31T00:00:00Z']) {
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

  it('lists the questions the bot could not answer, most frequent first, and daily series for charts', async () => {
    const { owner, bot, key } = await botWithKey(t, { scopes: ['chat', 'read', 'write'] });
    // No knowledge: every question is one the bot cannot answer; a greeting is not a question.
    await say(key.key, 'Hello', 'u-1');
    await say(key.key, "What is your CEO's name?", 'u-1');
    await say(key.key, 'Do you sell bikes?', 'u-2');
    await say(key.key, "what is your ceo's name", 'u-3');
    t.clock.advance(86_400_000);
    await say(key.key, 'Do you ship to Mars?', 'u-4');
    const list = await t.request('GET', `/api/dashboard/bots/${bot.id}/analytics/unanswered?days=7`, { token: owner.token });
    assert.equal(list.status, 200, list.text);
    // Each group shows its most recent wording.
    assert.deepEqual(list.body.questions.map((q: { question: string; count: number }) => [q.question, q.count]), [
      ["what is your ceo's name", 2],
      ['Do you ship to Mars?', 1],
      ['Do you sell bikes?', 1],
    ]);
    const yesterdayOnly = await t.request('GET', `/api/dashboard/bots/${bot.id}/analytics/unanswered?days=1`, { token: owner.token });
    assert.deepEqual(yesterdayOnly.body.questions.map((q: { question: string }) => q.question), ['Do you ship to Mars?']);

    const daily = await t.request('GET', `/api/dashboard/bots/${bot.id}/analytics/daily?days=3`, { token: owner.token });
    assert.equal(daily.body.series.length, 3);
    const [first, second, third] = daily.body.series;
    assert.deepEqual({ ...first, date: undefined }, { date: undefined, user_messages: 0, bot_messages: 0, sessions: 0, leads: 0 });
    assert.deepEqual({ ...second, date: undefined }, { date: undefined, user_messages: 4, bot_messages: 4, sessions: 3, leads: 0 });
    assert.deepEqual({ ...third, date: undefined }, { date: undefined, user_messages: 1, bot_messages: 1, sessions: 1, leads: 0 });
    assert.equal(third.date, new Date(t.clock.now()).toISOString().slice(0, 10));
    assert.equal((await t.request('GET', `/api/dashboard/bots/${bot.id}/analytics/daily?days=400`, { token: owner.token })).status, 400);
    const stranger = await botWithKey(t);
    assert.equal((await t.request('GET', `/api/dashboard/bots/${bot.id}/analytics/daily`, { token: stranger.owner.token })).status, 404);
    // They belong to the Inbox tab, as the conversations and leads they come from do.
    const settingsOnly = await inviteMember(t, owner, 'admin', ['settings']);
    for (const path of ['unanswered', 'daily']) {
      assert.equal((await t.request('GET', `/api/dashboard/bots/${bot.id}/analytics/${path}`, { token: settingsOnly.token })).status, 403, path);
    }
  });
});
