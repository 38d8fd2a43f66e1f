import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { botWithKey, createBot, createKey, signUp } from '../../testing/factories.ts';
import { obtainOAuthTokens, postForm } from '../../testing/oauth.ts';

const ACCOUNT_VIEW_FIELDS = [
  'created_at', 'id', 'lead_capture_enabled', 'name', 'primary_color', 'response_language', 'selected_model', 'strict_mode', 'system_instructions', 'updated_at', 'welcome_message', 'widget_style',
];
const LIST_FIELDS = ['created_at', 'id', 'name', 'primary_color', 'selected_model', 'welcome_message'];

describe('the bots API', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('creates and lists bots with an OAuth token only; an API key gets 403', async () => {
    const { owner, bot, key } = await botWithKey(t, { scopes: ['chat', 'read', 'write', 'admin'] });
    const { accessToken } = await obtainOAuthTokens(t, { sessionToken: owner.token, scope: 'read write' });

    // Dashboard-only settings and unknown fields are ignored.
    const created = await t.request('POST', '/api/v1/bots', {
      token: accessToken,
      body: { name: 'Sales', primary_color: '#112233', response_language: 'de', monthly_message_quota: 999999, paused: true, account_id: 'x', id: 'y' },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(Object.keys(created.body).sort(), ACCOUNT_VIEW_FIELDS);
    assert.equal(created.body.name, 'Sales');
    assert.equal(created.body.primary_color, '#112233');
    assert.equal(created.body.response_language, 'de');
    assert.equal(created.body.selected_model, 'parley-local', 'the account default without a provider');
    assert.ok(created.body.welcome_message.length > 0, 'a generic greeting by default');
    assert.equal(created.body.created_at, created.body.updated_at);
    const settings = (await t.request('GET', `/api/dashboard/bots/${created.body.id}`, { token: owner.token })).body;
    assert.equal(settings.monthly_message_quota, 10000);
    assert.equal(settings.paused, false);

    const list = await t.request('GET', '/api/v1/bots', { token: accessToken });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body.bots.map((b: { id: string }) => b.id).sort(), [bot.id, created.body.id].sort());
    for (const item of list.body.bots) assert.deepEqual(Object.keys(item).sort(), LIST_FIELDS);

    // Another account's token sees none of these.
    const stranger = await signUp(t);
    const strangerToken = (await obtainOAuthTokens(t, { sessionToken: stranger.token, scope: 'read' })).accessToken;
    assert.deepEqual((await t.request('GET', '/api/v1/bots', { token: strangerToken })).body.bots, []);

    for (const [method, body] of [['POST', { name: 'Nope' }], ['GET', undefined]] as const) {
      const res = await t.request(method, '/api/v1/bots', { token: key.key, body });
      assert.equal(res.status, 403, `${method} with an API key`);
      assert.match(res.body.detail, /OAuth access token/);
    }
    assert.equal((await t.request('GET', '/api/v1/bots')).status, 401);
    // A read-only token cannot create.
    assert.equal((await t.request('POST', '/api/v1/bots', { token: strangerToken, body: { name: 'x' } })).status, 403);
    // Bad input names the field and stores nothing.
    const bad = await t.request('POST', '/api/v1/bots', { token: accessToken, body: { name: '', primary_color: 'blue' } });
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /name|primary_color/);
    assert.equal((await t.request('GET', '/api/v1/bots', { token: accessToken })).body.bots.length, 2);
  });

  it('reads a bot: a token any bot of its account, a key its own bot only', async () => {
    const { owner, bot, key } = await botWithKey(t, { scopes: ['read'] });
    const other = await createBot(t, owner, { name: 'Other' });
    const { accessToken } = await obtainOAuthTokens(t, { sessionToken: owner.token, scope: 'read' });

    const byKey = await t.request('GET', `/api/v1/bots/${bot.id}`, { token: key.key });
    assert.equal(byKey.status, 200, byKey.text);
    assert.deepEqual(Object.keys(byKey.body).sort(), ACCOUNT_VIEW_FIELDS);
    assert.equal((await t.request('GET', `/api/v1/bots/${other.id}`, { token: key.key })).status, 403);

    assert.equal((await t.request('GET', `/api/v1/bots/${other.id}`, { token: accessToken })).body.name, 'Other');
    const foreign = await botWithKey(t);
    assert.equal((await t.request('GET', `/api/v1/bots/${foreign.bot.id}`, { token: accessToken })).status, 404);
    assert.equal((await t.request('GET', '/api/v1/bots/not-a-uuid', { token: accessToken })).status, 400);
    const chatOnly = await createKey(t, owner, bot.id, { scopes: ['chat'] });
    assert.equal((await t.request('GET', `/api/v1/bots/${bot.id}`, { token: chatOnly.key })).status, 403);
  });

  it('reads a bot id written in upper case as the same bot (UUIDs are case-insensitive)', async () => {
    const { owner, bot, key } = await botWithKey(t, { scopes: ['read'] });
    const upper = bot.id.toUpperCase();
    const { accessToken } = await obtainOAuthTokens(t, { sessionToken: owner.token, scope: 'read' });
    const byKey = await t.request('GET', `/api/v1/bots/${upper}`, { token: key.key });
    assert.deepEqual([byKey.status, byKey.body.id], [200, bot.id]);
    const byToken = await t.request('GET', '/api/v1/leads', { token: accessToken, headers: { 'x-bot-id': upper } });
    assert.equal(byToken.status, 200, byToken.text);
    const keys = await t.request('GET', `/api/keys?bot_id=${upper}`, { token: owner.token });
    assert.equal(keys.status, 200, keys.text);
    const created = await t.request('POST', '/api/keys', { token: owner.token, body: { bot_id: upper, name: 'upper' } });
    assert.deepEqual([created.status, created.body.bot_id], [201, bot.id]);
  });

  it('changes only the fields sent, with a key (own bot) or a token (any bot of the account)', async () => {
    const { owner, bot, key } = await botWithKey(t, { scopes: ['read', 'write'] });
    const other = await createBot(t, owner, { name: 'Other', welcome_message: 'Hello there' });
    const { accessToken } = await obtainOAuthTokens(t, { sessionToken: owner.token, scope: 'read write' });
    const before = (await t.request('GET', `/api/v1/bots/${bot.id}`, { token: key.key })).body;

    t.clock.advance(1000);
    const patched = await t.request('PATCH', `/api/v1/bots/${bot.id}`, { token: key.key, body: { strict_mode: false, widget_style: 'bubble' } });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(
      { ...patched.body, updated_at: undefined },
      { ...before, strict_mode: false, widget_style: 'bubble', updated_at: undefined },
      'only the two fields sent changed',
    );
    assert.ok(patched.body.updated_at > before.updated_at);
    assert.equal((await t.request('PATCH', `/api/v1/bots/${other.id}`, { token: key.key, body: { name: 'Hijacked' } })).status, 403);

    const byToken = await t.request('PATCH', `/api/v1/bots/${other.id}`, { token: accessToken, body: { lead_capture_enabled: true, system_instructions: 'Be brief.' } });
    assert.equal(byToken.status, 200, byToken.text);
    assert.equal(byToken.body.lead_capture_enabled, true);
    assert.equal(byToken.body.system_instructions, 'Be brief.');
    assert.equal(byToken.body.welcome_message, 'Hello there');
    assert.equal(byToken.body.name, 'Other');

    // Dashboard-only settings are not part of this API: ignored, never changed.
    const dashboardBefore = (await t.request('GET', `/api/dashboard/bots/${bot.id}`, { token: owner.token })).body;
    const ignored = await t.request('PATCH', `/api/v1/bots/${bot.id}`, { token: accessToken, body: { paused: true, allowed_domains: ['evil.example'], id: other.id, account_id: 'x', unknown: 1 } });
    assert.equal(ignored.status, 200, ignored.text);
    assert.equal(ignored.body.id, bot.id);
    const dashboardAfter = (await t.request('GET', `/api/dashboard/bots/${bot.id}`, { token: owner.token })).body;
    assert.equal(dashboardAfter.paused, dashboardBefore.paused);
    assert.deepEqual(dashboardAfter.allowed_domains, dashboardBefore.allowed_domains);

    const invalid = await t.request('PATCH', `/api/v1/bots/${bot.id}`, { token: accessToken, body: { strict_mode: 'yes' } });
    assert.equal(invalid.status, 400);
    assert.match(invalid.body.detail, /strict_mode/);
    const readOnly = (await obtainOAuthTokens(t, { sessionToken: owner.token, scope: 'read' })).accessToken;
    assert.equal((await t.request('PATCH', `/api/v1/bots/${bot.id}`, { token: readOnly, body: { name: 'x' } })).status, 403);
  });

  it('names the bot of a token on paths without {bot_id} by X-Bot-Id or ?bot_id= (decisions.md)', async () => {
    const { owner, bot } = await botWithKey(t);
    const { accessToken } = await obtainOAuthTokens(t, { sessionToken: owner.token, scope: 'read' });
    const missing = await t.request('GET', '/api/v1/bot', { token: accessToken });
    assert.equal(missing.status, 400);
    assert.match(missing.body.detail, /X-Bot-Id/);
    assert.equal((await t.request('GET', '/api/v1/analytics', { token: accessToken })).status, 400);
    const byHeader = await t.request('GET', '/api/v1/bot', { token: accessToken, headers: { 'x-bot-id': bot.id } });
    assert.equal(byHeader.status, 200, byHeader.text);
    assert.equal(byHeader.body.id, bot.id);
    const byQuery = await t.request('GET', `/api/v1/analytics?bot_id=${bot.id}`, { token: accessToken });
    assert.equal(byQuery.status, 200, byQuery.text);
    assert.equal(byQuery.body.bot_id, bot.id);
    const foreign = await botWithKey(t);
    for (const botId of [foreign.bot.id, 'not-a-uuid']) {
      assert.equal((await t.request('GET', '/api/v1/bot', { token: accessToken, headers: { 'x-bot-id': botId } })).status, 404, botId);
    }
  });

  it("adds knowledge and reads analytics of a path's bot with a token, and with a key for its own bot only", async () => {
    const { owner, bot, key } = await botWithKey(t, { scopes: ['chat', 'read', 'write'] });
    const other = await createBot(t, owner);
    const { accessToken } = await obtainOAuthTokens(t, { sessionToken: owner.token, scope: 'chat read write' });

    const added = await t.request('POST', `/api/v1/bots/${other.id}/knowledge`, {
      token: accessToken,
      body: { name: 'Hours', content: 'The showroom opens at 10 am on Saturdays.' },
    });
    assert.equal(added.status, 201, added.text);
    assert.equal(added.body.success, true);
    assert.equal(added.body.source.status, 'trained');
    assert.equal((await t.request('POST', `/api/v1/bots/${other.id}/knowledge`, { token: key.key, body: { name: 'x', content: 'y' } })).status, 403);
    assert.equal((await t.request('POST', `/api/v1/bots/${bot.id}/knowledge`, { token: key.key, body: { name: 'Own', content: 'Own text.' } })).status, 201);
    // Form 1's rules: a blank name or text is missing, and limits read as the other forms say them.
    for (const [body, detail] of [
      [{ name: '   ', content: 'abc' }, "field 'name' must not be blank"],
      [{ name: 'x', content: '  \n ' }, "field 'content' must not be blank"],
      [{ name: 'x'.repeat(201), content: 'abc' }, "field 'name' must be at most 200 characters"],
    ] as const) {
      const refused = await t.request('POST', `/api/v1/bots/${bot.id}/knowledge`, { token: key.key, body });
      assert.deepEqual([refused.status, refused.body.detail], [400, detail]);
    }

    const chat = await t.request('POST', '/api/v1/chat', { token: accessToken, headers: { 'x-bot-id': other.id }, body: { text: 'When does the showroom open on Saturdays?' } });
    assert.equal(chat.status, 200, chat.text);
    assert.match(chat.body.reply, /10 am/);

    const analytics = await t.request('GET', `/api/v1/bots/${other.id}/analytics`, { token: accessToken });
    assert.deepEqual(analytics.body, { bot_id: other.id, total_messages: 2, user_messages: 1, bot_messages: 1, unique_sessions: 1, total_leads: 0 });
    assert.equal((await t.request('GET', `/api/v1/bots/${other.id}/analytics`, { token: key.key })).status, 403);
    const scorecard = await t.request('GET', `/api/admin/analytics/scorecard?bot_id=${other.id}`, { token: accessToken });
    assert.equal(scorecard.status, 200, scorecard.text);
    assert.equal(scorecard.body.metrics.user_messages, 1);
  });
});

describe('OAuth tokens and the per-credential rate limit', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { PARLEY_RATE_KEY_PER_MIN: '3' } });
  });
  after(() => t.close());

  it('counts a token against PARLEY_RATE_KEY_PER_MIN like a key, and a refresh does not reset it', async () => {
    const { owner, bot } = await botWithKey(t);
    const tokens = await obtainOAuthTokens(t, { sessionToken: owner.token, scope: 'read' });
    const read = (token: string) => t.request('GET', '/api/v1/bot', { token, headers: { 'x-bot-id': bot.id } });
    for (let i = 0; i < 3; i++) assert.equal((await read(tokens.accessToken)).status, 200, `request ${i + 1}`);
    const limited = await read(tokens.accessToken);
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '60');
    const refreshed = await postForm(t, '/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refreshToken, client_id: tokens.clientId });
    assert.equal(refreshed.status, 200, refreshed.text);
    assert.equal((await read(refreshed.body.access_token)).status, 429, 'the same authorization, the same window');
    const other = await obtainOAuthTokens(t, { sessionToken: owner.token, scope: 'read' });
    assert.equal((await read(other.accessToken)).status, 200, 'another authorization has its own window');
  });
});
