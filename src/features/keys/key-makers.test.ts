import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { createKey, inviteMember, ownerWithBot } from '../../testing/factories.ts';
import { obtainOAuthTokens } from '../../testing/oauth.ts';

// A key or token can do no more than the member who made it can now do in the dashboard.
describe('API keys and OAuth tokens made by members', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  async function keyMadeBy(member: { token: string }, botId: string, scopes: string[]): Promise<string> {
    const res = await t.request('POST', '/api/keys', { token: member.token, body: { bot_id: botId, name: 'member key', scopes } });
    assert.equal(res.status, 201, res.text);
    return res.body.key;
  }
  const listWebhooks = (token: string, headers: Record<string, string> = {}) => t.request('GET', '/api/v1/webhooks', { token, headers });
  const addText = (token: string) => t.request('POST', '/api/v1/knowledge', { token, body: { type: 'text', name: 'Hours', content: 'We open at nine every weekday.' } });
  const setTabs = (owner: { token: string }, userId: string, tabs: string[]) =>
    t.request('PATCH', `/api/dashboard/members/${userId}`, { token: owner.token, body: { tabs } });

  it("is refused where its maker lacks the tab, and follows the maker's tabs as the owner changes them", async () => {
    const { owner, botId } = await ownerWithBot(t);
    // An admin's default tabs leave out Webhooks.
    const admin = await inviteMember(t, owner, 'admin');
    const key = await keyMadeBy(admin, botId, ['chat', 'read', 'write']);

    assert.equal((await addText(key)).status, 200);
    const refused = await listWebhooks(key);
    assert.equal(refused.status, 403);
    assert.match(refused.body.detail, /made by a member without the Webhooks tab/);
    const create = await t.request('POST', '/api/v1/webhooks', { token: key, body: { url: 'https://hooks.example.com/parley', events: ['lead.created'] } });
    assert.equal(create.status, 403);
    // The key reads conversations (Inbox) as its maker can.
    assert.equal((await t.request('GET', '/api/v1/conversations', { token: key })).status, 200);

    // Granted the tab, the key can list webhooks at once; without Knowledge it can no longer add text.
    assert.equal((await setTabs(owner, admin.userId, ['inbox', 'settings', 'webhooks'])).status, 200);
    assert.equal((await listWebhooks(key)).status, 200);
    const noKnowledge = await addText(key);
    assert.equal(noKnowledge.status, 403);
    assert.match(noKnowledge.body.detail, /Knowledge tab/);
    // Leads are the Inbox's, the bot's settings the Settings tab's.
    assert.equal((await setTabs(owner, admin.userId, ['knowledge'])).status, 200);
    const leads = await t.request('GET', '/api/v1/leads', { token: key });
    assert.deepEqual([leads.status, /Inbox tab/.test(leads.body.detail)], [403, true]);
    const rename = await t.request('PATCH', `/api/v1/bots/${botId}`, { token: key, body: { name: 'Renamed' } });
    assert.deepEqual([rename.status, /Settings tab/.test(rename.body.detail)], [403, true]);
    assert.equal((await setTabs(owner, admin.userId, ['inbox', 'settings'])).status, 200);
    assert.equal((await t.request('GET', '/api/v1/leads', { token: key })).status, 200);
    assert.equal((await t.request('PATCH', `/api/v1/bots/${botId}`, { token: key, body: { name: 'Renamed' } })).status, 200);

    // The owner's own key is bound by no tab.
    const ownerKey = (await createKey(t, owner, botId, { scopes: ['read', 'write'] })).key;
    assert.equal((await listWebhooks(ownerKey)).status, 200);
    assert.equal((await addText(ownerKey)).status, 200);
  });

  it("stops when its maker leaves the account or is made an agent, and a key it made stops with it", async () => {
    const { owner, botId } = await ownerWithBot(t);
    const leaving = await inviteMember(t, owner, 'admin');
    const demoted = await inviteMember(t, owner, 'admin');
    const leavingKey = await keyMadeBy(leaving, botId, ['chat', 'read', 'admin']);
    const demotedKey = await keyMadeBy(demoted, botId, ['chat', 'read']);
    // A key minted by a key acts for the same member.
    const minted = await t.request('POST', '/api/v1/api-keys', { token: leavingKey, body: { name: 'minted', scopes: ['read'] } });
    assert.equal(minted.status, 201, minted.text);
    const ownerKey = (await createKey(t, owner, botId)).key;
    for (const key of [leavingKey, demotedKey, minted.body.key]) assert.equal((await t.request('GET', '/api/v1/conversations', { token: key })).status, 200);

    assert.equal((await t.request('DELETE', `/api/dashboard/members/${leaving.userId}`, { token: owner.token })).status, 200);
    assert.equal((await t.request('PATCH', `/api/dashboard/members/${demoted.userId}`, { token: owner.token, body: { role: 'agent' } })).status, 200);
    for (const key of [leavingKey, demotedKey, minted.body.key]) {
      const res = await t.request('GET', '/api/v1/conversations', { token: key });
      assert.equal(res.status, 401);
    }
    assert.equal((await t.request('GET', '/api/v1/conversations', { token: ownerKey })).status, 200);

    // The departed member's keys are listed as revoked; the demoted member's come back if they are made an admin again.
    const listed = await t.request('GET', `/api/keys?bot_id=${botId}`, { token: owner.token });
    const byName = (name: string) => (listed.body.keys as Array<{ name: string; revoked_at: string | null; prefix: string }>).filter((k) => k.name === name);
    assert.ok(byName('minted').every((k) => k.revoked_at !== null));
    const revoked = byName('member key').filter((k) => k.revoked_at !== null);
    assert.equal(revoked.length, 1);
    assert.ok(leavingKey.startsWith(revoked[0]!.prefix));
    assert.equal((await t.request('PATCH', `/api/dashboard/members/${demoted.userId}`, { token: owner.token, body: { role: 'admin' } })).status, 200);
    assert.equal((await t.request('GET', '/api/v1/conversations', { token: demotedKey })).status, 200);
  });

  it('lists who made each key; a key made before makers were recorded acts for the account but mints no keys', async () => {
    const { owner, botId } = await ownerWithBot(t);
    const admin = await inviteMember(t, owner, 'admin');
    const made = await t.request('POST', '/api/keys', { token: admin.token, body: { bot_id: botId, name: 'bound', scopes: ['chat', 'read', 'admin'] } });
    assert.equal(made.body.created_by, admin.userId);
    // An older key, as the migration leaves it: no maker.
    const legacy = await createKey(t, owner, botId, { name: 'legacy', scopes: ['chat', 'read', 'write', 'admin'] });
    await t.runtime.database.db.updateTable('api_keys').set({ created_by: null }).where('id', '=', legacy.id).execute();
    const listed = await t.request('GET', `/api/keys?bot_id=${botId}`, { token: owner.token });
    const byName = new Map((listed.body.keys as Array<{ name: string; created_by: string | null }>).map((k) => [k.name, k.created_by]));
    assert.deepEqual([byName.get('bound'), byName.get('legacy')], [admin.userId, null]);

    assert.equal((await listWebhooks(legacy.key)).status, 200);
    const minted = await t.request('POST', '/api/v1/api-keys', { token: legacy.key, body: { name: 'laundered', scopes: ['read'] } });
    assert.equal(minted.status, 403);
    assert.match(minted.body.detail, /made before keys recorded their maker/);
    // A bound key mints keys bound to the same member.
    const child = await t.request('POST', '/api/v1/api-keys', { token: made.body.key, body: { name: 'child', scopes: ['read'] } });
    assert.equal(child.status, 201, child.text);
    assert.equal(child.body.created_by, admin.userId);
  });

  it("binds an OAuth token to the approving member's tabs", async () => {
    const { owner, botId } = await ownerWithBot(t);
    const admin = await inviteMember(t, owner, 'admin');
    const tokens = await obtainOAuthTokens(t, { sessionToken: admin.token, scope: 'read write' });
    const refused = await listWebhooks(tokens.accessToken, { 'x-bot-id': botId });
    assert.equal(refused.status, 403);
    assert.match(refused.body.detail, /Webhooks tab/);
    const knowledge = await t.request('GET', '/api/v1/knowledge', { token: tokens.accessToken, headers: { 'x-bot-id': botId } });
    assert.equal(knowledge.status, 200);
    const ownerTokens = await obtainOAuthTokens(t, { sessionToken: owner.token, scope: 'read write' });
    assert.equal((await listWebhooks(ownerTokens.accessToken, { 'x-bot-id': botId })).status, 200);
  });
});
