// `GET /api/dashboard/usage`: the account's visitor messages this month against each bot's allowance.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { createBot, createKey, inviteMember, signUp } from '../../testing/factories.ts';

describe('dashboard billing usage', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ env: { PARLEY_MONTHLY_MESSAGES: '50' } })));
  after(async () => t.close());

  it("counts the account's messages across its bots against each bot's quota, resetting next month", async () => {
    const owner = await signUp(t);
    const a = await createBot(t, owner, { name: 'A' });
    const b = await createBot(t, owner, { name: 'B', monthly_message_quota: 3 });
    const keyA = await createKey(t, owner, a.id, { scopes: ['chat'] });
    const keyB = await createKey(t, owner, b.id, { scopes: ['chat'] });
    for (const key of [keyA, keyA, keyB]) {
      assert.equal((await t.request('POST', '/api/v1/chat', { token: key.key, body: { text: 'Hello there' } })).status, 200);
    }
    const res = await t.request('GET', '/api/dashboard/usage', { token: owner.token });
    assert.equal(res.status, 200, res.text);
    const now = new Date(t.clock.now());
    assert.equal(res.body.month, now.toISOString().slice(0, 7));
    assert.equal(res.body.messages_used, 3);
    assert.equal(res.body.resets_at, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString());
    const byName = Object.fromEntries((res.body.bots as Array<{ name: string; monthly_message_quota: number; remaining: number }>).map((bot) => [bot.name, bot]));
    assert.deepEqual([byName.A?.monthly_message_quota, byName.A?.remaining], [50, 47]);
    assert.deepEqual([byName.B?.monthly_message_quota, byName.B?.remaining], [3, 0]);

    // Another account's messages are its own.
    const other = await signUp(t);
    assert.equal((await t.request('GET', '/api/dashboard/usage', { token: other.token })).body.messages_used, 0);
  });

  it('needs the Billing tab, which admins and agents lack by default', async () => {
    const owner = await signUp(t);
    for (const role of ['admin', 'agent'] as const) {
      const member = await inviteMember(t, owner, role);
      const res = await t.request('GET', '/api/dashboard/usage', { token: member.token });
      assert.equal(res.status, 403, role);
      assert.match(res.body.detail, /billing tab/);
    }
    const granted = await inviteMember(t, owner, 'admin', ['billing']);
    assert.equal((await t.request('GET', '/api/dashboard/usage', { token: granted.token })).status, 200);
  });
});
