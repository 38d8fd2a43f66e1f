import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { botWithKey, createBot, createKey, inviteMember, signUp } from '../../testing/factories.ts';

const ACCOUNT_VIEW = ['created_at', 'id', 'lead_capture_enabled', 'name', 'primary_color', 'response_language', 'selected_model', 'strict_mode', 'system_instructions', 'updated_at', 'welcome_message', 'widget_style'];
const DASHBOARD_ONLY = ['allowed_domains', 'calendar_scheduling_enabled', 'lead_fields', 'meeting_provider', 'meeting_url', 'monthly_message_quota', 'paused'];
const KEY_VIEW = ['calendar_scheduling_enabled', 'created_at', 'id', 'lead_capture_enabled', 'lead_fields', 'meeting_provider', 'name', 'primary_color', 'response_language', 'selected_model', 'welcome_message'];

describe('bots from the dashboard', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { PARLEY_MONTHLY_MESSAGES: '2500' } });
  });
  after(() => t.close());

  it('creates a bot with defaults and every field of the dashboard view', async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner, { name: 'Helpdesk' });
    assert.deepEqual(Object.keys(bot).sort(), [...ACCOUNT_VIEW, ...DASHBOARD_ONLY].sort());
    assert.match(bot.id, /^[0-9a-f-]{36}$/);
    assert.equal(bot.name, 'Helpdesk');
    assert.equal(bot.selected_model, 'parley-local');
    assert.equal(bot.response_language, '');
    assert.equal(bot.strict_mode, true);
    assert.equal(bot.paused, false);
    assert.deepEqual(bot.allowed_domains, []);
    assert.equal(bot.monthly_message_quota, 2500);
    assert.equal(bot.meeting_provider, null);
    assert.match(bot.created_at as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok((bot.welcome_message as string).length > 0);
  });

  it('stores every settable field and changes only the fields sent', async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner, {
      name: 'Full',
      welcome_message: 'Welcome!',
      system_instructions: 'Be brief.',
      selected_model: 'gpt-4o-mini',
      primary_color: '#ff0000',
      response_language: 'es',
      widget_style: 'bubble',
      strict_mode: false,
      lead_capture_enabled: true,
      allowed_domains: ['example.com', '*.shop.example.com'],
      lead_fields: ['name', 'email'],
      calendar_scheduling_enabled: true,
      meeting_provider: 'calendly',
      meeting_url: 'https://calendly.com/acme/demo',
      monthly_message_quota: 100,
    });
    assert.equal(bot.response_language, 'es');
    assert.deepEqual(bot.allowed_domains, ['example.com', '*.shop.example.com']);

    t.clock.advance(1000);
    const patched = await t.request('PATCH', `/api/dashboard/bots/${bot.id}`, { token: owner.token, body: { paused: true, meeting_provider: null } });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.paused, true);
    assert.equal(patched.body.meeting_provider, null);
    assert.equal(patched.body.name, 'Full');
    assert.equal(patched.body.primary_color, '#ff0000');
    assert.notEqual(patched.body.updated_at, bot.updated_at);
    assert.equal(patched.body.created_at, bot.created_at);

    const read = await t.request('GET', `/api/dashboard/bots/${bot.id}`, { token: owner.token });
    assert.deepEqual(read.body, patched.body);
  });

  it('ignores unknown fields and the bot identity in a PATCH body: the bot stays where it is', async () => {
    const owner = await signUp(t);
    const stranger = await signUp(t);
    const bot = await createBot(t, owner, { name: 'Mine' });
    const res = await t.request('PATCH', `/api/dashboard/bots/${bot.id}`, {
      token: owner.token,
      body: { name: 'Renamed', id: 'f0000000-0000-4000-8000-000000000000', account_id: stranger.accountId, created_at: '2000-01-01T00:00:00.000Z', no_such_field: 1 },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.id, bot.id);
    assert.equal(res.body.name, 'Renamed');
    assert.equal(res.body.created_at, bot.created_at);
    assert.equal((await t.request('GET', `/api/dashboard/bots/${bot.id}`, { token: owner.token })).status, 200);
    assert.equal((await t.request('GET', `/api/dashboard/bots/${bot.id}`, { token: stranger.token })).status, 404);
  });

  it('refuses invalid field values with a detail naming the field', async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: '' }, /name/],
      [{ name: 'x'.repeat(101) }, /name/],
      [{ meeting_provider: 'zoom' }, /meeting_provider/],
      [{ allowed_domains: ['https://example.com/path'] }, /allowed_domains/],
      [{ monthly_message_quota: -1 }, /monthly_message_quota/],
      [{ strict_mode: 'yes' }, /strict_mode/],
      [{ response_language: 'english please' }, /response_language/],
    ];
    for (const [body, field] of cases) {
      const res = await t.request('PATCH', `/api/dashboard/bots/${bot.id}`, { token: owner.token, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(res.body.detail, field);
    }
  });

  it("lets the Customizer tab alone change the widget's look, and nothing else", async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner);
    const designer = await inviteMember(t, owner, 'agent', ['customizer']);
    const look = { name: 'Renamed', welcome_message: 'Welcome!', primary_color: '#ff0000', widget_style: 'classic' };
    const saved = await t.request('PATCH', `/api/dashboard/bots/${bot.id}`, { token: designer.token, body: look });
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.body.primary_color, '#ff0000');
    const beyond = await t.request('PATCH', `/api/dashboard/bots/${bot.id}`, { token: designer.token, body: { ...look, strict_mode: false } });
    assert.equal(beyond.status, 403);
    const without = await inviteMember(t, owner, 'agent', ['inbox']);
    assert.equal((await t.request('PATCH', `/api/dashboard/bots/${bot.id}`, { token: without.token, body: { name: 'No' } })).status, 403);
  });

  it('lists the account’s bots, newest first', async () => {
    const owner = await signUp(t);
    const first = await createBot(t, owner, { name: 'one' });
    t.clock.advance(5);
    const second = await createBot(t, owner, { name: 'two' });
    const list = await t.request('GET', '/api/dashboard/bots', { token: owner.token });
    assert.deepEqual(list.body.bots.map((b: { id: string }) => b.id), [second.id, first.id]);
  });

  it('hides another account’s bot behind 404 for every method', async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner);
    const other = await signUp(t);
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const res = await t.request(method, `/api/dashboard/bots/${bot.id}`, { token: other.token, ...(method === 'PATCH' && { body: { name: 'mine' } }) });
      assert.equal(res.status, 404, method);
    }
    const list = await t.request('GET', '/api/dashboard/bots', { token: other.token });
    assert.deepEqual(list.body.bots, []);
    assert.equal((await t.request('GET', `/api/dashboard/bots/${bot.id}`, { token: owner.token })).body.name, 'Support bot');
  });

  it('deletes a bot with its keys: they stop working at once', async () => {
    const { owner, bot, key } = await botWithKey(t);
    const second = await createKey(t, owner, bot.id);
    assert.equal((await t.request('GET', '/api/v1/bot', { token: key.key })).status, 200);
    const del = await t.request('DELETE', `/api/dashboard/bots/${bot.id}`, { token: owner.token });
    assert.deepEqual(del.body, { success: true, id: bot.id });
    assert.equal((await t.request('GET', '/api/v1/bot', { token: key.key })).status, 401);
    assert.equal((await t.request('GET', '/api/v1/bot', { token: second.key })).status, 401);
    assert.equal((await t.request('GET', `/api/dashboard/bots/${bot.id}`, { token: owner.token })).status, 404);
    const keysLeft = await t.runtime.database.db.selectFrom('api_keys').select('id').where('bot_id', '=', bot.id).execute();
    assert.deepEqual(keysLeft, []);
  });
});

describe('GET /api/v1/bot', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('returns exactly the key-bound view of the key’s own bot', async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner, { name: 'Keyed', lead_capture_enabled: true, lead_fields: ['email'], meeting_provider: 'cal_com' });
    const key = await createKey(t, owner, bot.id);
    const res = await t.request('GET', '/api/v1/bot', { token: key.key });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), KEY_VIEW);
    assert.equal(res.body.id, bot.id);
    assert.equal(res.body.name, 'Keyed');
    assert.deepEqual(res.body.lead_fields, ['email']);
    assert.equal(res.body.meeting_provider, 'cal_com');
    assert.equal(res.body.lead_capture_enabled, true);
  });

  it('reflects a dashboard change on the next call', async () => {
    const { owner, bot, key } = await botWithKey(t);
    assert.equal((await t.request('GET', '/api/v1/bot', { token: key.key })).body.name, 'Support bot');
    await t.request('PATCH', `/api/dashboard/bots/${bot.id}`, { token: owner.token, body: { name: 'Renamed' } });
    assert.equal((await t.request('GET', '/api/v1/bot', { token: key.key })).body.name, 'Renamed');
  });
});
