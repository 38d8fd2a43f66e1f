import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { botWithKey, createKey } from '../../testing/factories.ts';

const DAY = 86_400_000;

describe('GET /api/v1/usage', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('counts API calls per key, separately for several keys of one bot', async () => {
    const { owner, bot, key } = await botWithKey(t);
    const other = await createKey(t, owner, bot.id);
    for (let i = 0; i < 3; i++) await t.request('GET', '/api/v1/bot', { token: key.key });
    await t.request('GET', '/api/v1/bot', { token: other.key });

    const mine = await t.request('GET', '/api/v1/usage', { token: key.key });
    assert.equal(mine.status, 200);
    assert.equal(mine.body.key_id, key.id);
    assert.equal(mine.body.days, 30);
    assert.equal(mine.body.daily.length, 30);
    // Three bot reads plus this usage call.
    assert.deepEqual(mine.body.totals, { messages: 0, api_calls: 4 });
    assert.deepEqual(mine.body.daily[0], { date: new Date(t.clock.now()).toISOString().slice(0, 10), messages: 0, api_calls: 4 });

    const theirs = await t.request('GET', '/api/v1/usage', { token: other.key });
    assert.equal(theirs.body.key_id, other.id);
    assert.deepEqual(theirs.body.totals, { messages: 0, api_calls: 2 });
  });

  it('lists days newest first and counts only the window asked for', async () => {
    const { key } = await botWithKey(t);
    await t.request('GET', '/api/v1/bot', { token: key.key });
    t.clock.advance(2 * DAY);
    await t.request('GET', '/api/v1/bot', { token: key.key });
    await t.request('GET', '/api/v1/bot', { token: key.key });

    const week = await t.request('GET', '/api/v1/usage?days=7', { token: key.key });
    assert.equal(week.body.days, 7);
    const dates = week.body.daily.map((d: { date: string }) => d.date);
    assert.deepEqual(dates, [...dates].sort().reverse());
    assert.equal(week.body.daily[0].api_calls, 3);
    assert.equal(week.body.daily[1].api_calls, 0);
    assert.equal(week.body.daily[2].api_calls, 1);
    assert.equal(week.body.totals.api_calls, 4);

    const today = await t.request('GET', '/api/v1/usage?days=1', { token: key.key });
    assert.equal(today.body.daily.length, 1);
    assert.equal(today.body.totals.api_calls, 4);
  });

  it('refuses days outside 1 to 90, naming the parameter', async () => {
    const { key } = await botWithKey(t);
    for (const days of ['0', '91', 'abc', '1.5']) {
      const res = await t.request('GET', `/api/v1/usage?days=${days}`, { token: key.key });
      assert.equal(res.status, 400, days);
      assert.match(res.body.detail, /days/);
    }
    assert.equal((await t.request('GET', '/api/v1/usage?days=90', { token: key.key })).body.daily.length, 90);
  });

  it('needs the read scope', async () => {
    const { key } = await botWithKey(t, { scopes: ['chat'] });
    assert.equal((await t.request('GET', '/api/v1/usage', { token: key.key })).status, 403);
  });
});
