// Changing things in the dashboard, in Debian's Chromium against a real Parley: a catalog item
// edited (the API's validation message shown under its field, then the bot answering the new
// price), a webhook's address and events changed (its secret kept), pending invitations listed
// and revoked (the revoked link then refused), and the API keys screen open to exactly the members
// `/api/keys` serves: owners and admins, with or without the Settings tab, and no agent.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext } from 'playwright-core';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { createBot, createKey, inviteMember, signUp, uniqueEmail, type Owner } from '../../testing/factories.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../testing/webhook-receiver.ts';
import { dashboardBrowserSkip, heading, launchDashboardBrowser, nav, shot, signedInPage, WAIT_MS, type Watched } from '../../testing/dashboard-browser.ts';

describe('Editing in the dashboard', { skip: dashboardBrowserSkip }, () => {
  let t: TestApp;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let owner: Owner;
  let botId = '';
  const contexts: BrowserContext[] = [];

  before(async () => {
    receiver = await startWebhookReceiver();
    t = await startTestApp({ env: { PARLEY_ALLOW_PRIVATE_NETWORK: '1' } });
    browser = await launchDashboardBrowser();
    owner = await signUp(t, { name: 'Ada Owner' });
    botId = (await createBot(t, owner, { name: 'Kestrel Support' })).id;
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await t?.close();
    await receiver?.close();
  });

  /** A watched page signed in as the member with session `token`. */
  async function pageOf(token: string, expected: RegExp[] = []): Promise<Watched> {
    const { context, ...watched } = await signedInPage(browser, t, token, expected);
    contexts.push(context);
    return watched;
  }

  it('edits a catalog item: a refused value shows the API’s message under its field, a saved one changes the answers', async () => {
    const created = await t.request('POST', `/api/dashboard/bots/${botId}/catalog/items`, {
      token: owner.token,
      body: { kind: 'product', name: 'Camp Mug', price: 12, currency: 'EUR', sku: 'MUG-1' },
    });
    assert.equal(created.status, 201, created.text);
    const key = await createKey(t, owner, botId, { scopes: ['chat'] });
    const { page, problems } = await pageOf(owner.token, [/\b400\b.*\/catalog\/items\/[^/]+$/]);
    await page.goto(`${t.url}/app/bots/${botId}/knowledge`);
    await heading(page, 'Knowledge');
    await page.getByRole('button', { name: 'Edit Camp Mug' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit “Camp Mug”' });
    await dialog.waitFor({ timeout: WAIT_MS });
    assert.equal(await dialog.getByLabel('Price').inputValue(), '12');
    assert.equal(await dialog.getByLabel('SKU').inputValue(), 'MUG-1');

    // Details that are not a JSON object are refused before anything is sent.
    await dialog.getByLabel('Details (JSON)').fill('sizes: 40');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText(`field 'metadata' must be a JSON object`).waitFor({ timeout: WAIT_MS });
    assert.equal(await dialog.getByLabel('Details (JSON)').getAttribute('aria-invalid'), 'true');
    await dialog.getByLabel('Details (JSON)').fill('{"colour": "green", "capacity": "350 ml"}');

    // A currency the API refuses: its message, under the field, which takes the focus.
    await dialog.getByLabel('Currency').fill('EU1');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const currency = dialog.getByLabel('Currency');
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-invalid') === 'true');
    assert.equal(await currency.getAttribute('aria-invalid'), 'true');
    assert.ok(await currency.evaluate((input) => input === document.activeElement), 'the refused field has the focus');
    const message = await page.locator(`#${await currency.getAttribute('aria-describedby').then((ids) => ids!.split(' ').pop())}`).innerText();
    assert.match(message, /^field 'currency' must match pattern/, 'the API’s own detail, tied to the field');
    await shot(page, 'catalog-edit-refused');

    await currency.fill('gbp');
    await dialog.getByLabel('Price').fill('14.5');
    await dialog.getByLabel('Description').fill('Enamel mug for the campsite.');
    await dialog.getByLabel('SKU').fill('');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached', timeout: WAIT_MS });
    const row = page.locator('tr[data-item="Camp Mug"]');
    await row.getByText('14.5 GBP').waitFor({ timeout: WAIT_MS });
    assert.match(await row.innerText(), /Enamel mug for the campsite/);

    const stored = await t.request('GET', `/api/dashboard/bots/${botId}/catalog/items`, { token: owner.token });
    const item = stored.body.items.find((i: { id: string }) => i.id === created.body.id);
    assert.deepEqual(
      { price: item.price, currency: item.currency, sku: item.sku, description: item.description, metadata: item.metadata, name: item.name },
      { price: 14.5, currency: 'GBP', sku: null, description: 'Enamel mug for the campsite.', metadata: { colour: 'green', capacity: '350 ml' }, name: 'Camp Mug' },
    );
    const answer = await t.request('POST', '/api/v1/chat', { token: key.key, body: { text: 'What does the Camp Mug cost?' } });
    assert.match(answer.body.reply, /14\.5 GBP/, 'the bot answers from the change at once');
    assert.deepEqual(problems, []);
  });

  it("changes a webhook's address and events; a refused address shows the API's message, and the secret stays", async () => {
    const created = await t.request('POST', `/api/dashboard/bots/${botId}/webhooks`, { token: owner.token, body: { url: receiver.url('/first'), events: ['lead.created'] } });
    assert.equal(created.status, 201, created.text);
    receiver.secret('/second', created.body.secret);
    const { page, problems } = await pageOf(owner.token, [/\b400\b.*\/webhooks\/[^/]+$/]);
    await page.goto(`${t.url}/app/bots/${botId}/webhooks`);
    await heading(page, 'Webhooks');
    await page.getByRole('button', { name: `Edit the webhook to ${receiver.url('/first')}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the webhook' });
    await dialog.waitFor({ timeout: WAIT_MS });
    assert.ok(await dialog.getByRole('checkbox', { name: /^lead\.created/ }).isChecked());

    const url = dialog.getByLabel('Receiver URL');
    await url.fill(receiver.url('/second').replace('http://', 'http://user:secret@'));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText("field 'url' must not contain credentials").waitFor({ timeout: WAIT_MS });
    assert.equal(await url.getAttribute('aria-invalid'), 'true');

    await url.fill(receiver.url('/second'));
    await dialog.getByRole('checkbox', { name: /^message\.user/ }).check();
    await dialog.getByRole('checkbox', { name: /^lead\.created/ }).uncheck();
    await dialog.getByRole('checkbox', { name: /^session\.ended/ }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached', timeout: WAIT_MS });
    const item = page.locator(`li[data-webhook="${receiver.url('/second')}"]`);
    await item.waitFor({ timeout: WAIT_MS });
    assert.match(await item.innerText(), /message\.user, session\.ended/);
    await shot(page, 'webhook-edited');

    const listed = await t.request('GET', `/api/dashboard/bots/${botId}/webhooks`, { token: owner.token });
    assert.deepEqual(listed.body.webhooks.map((w: { url: string; events: string[] }) => [w.url, w.events]), [[receiver.url('/second'), ['message.user', 'session.ended']]]);
    // The test event goes to the new address, signed with the same secret.
    await item.getByRole('button', { name: 'Send a test' }).click();
    await item.getByText(/Test message\.user: delivered \(200\)/).waitFor({ timeout: WAIT_MS });
    const [delivery] = await receiver.waitFor('/second', 1);
    assert.ok(delivery!.signatureValid, 'signed with the secret shown at creation');
    assert.deepEqual(problems, []);
  });

  it('lists pending invitations without their links, and revokes one: its link no longer works', async () => {
    const invite = async (by: { token: string }, role: 'admin' | 'agent') => {
      const res = await t.request('POST', '/api/dashboard/invitations', { token: by.token, body: { email: uniqueEmail(role), role } });
      assert.equal(res.status, 201, res.text);
      return res.body as { email: string; token: string };
    };
    const agentInvite = await invite(owner, 'agent');
    const adminInvite = await invite(owner, 'admin');
    const { page, problems } = await pageOf(owner.token);
    await page.goto(`${t.url}/app/team`);
    await heading(page, 'Team');
    const pending = page.getByRole('table', { name: 'Pending invitations' });
    const row = pending.locator(`tr[data-invitation="${agentInvite.email}"]`);
    await row.waitFor({ timeout: WAIT_MS });
    assert.match(await row.innerText(), /agent\s+Inbox/);
    assert.match(await pending.locator(`tr[data-invitation="${adminInvite.email}"]`).innerText(), /admin\s+Inbox, Knowledge, Customizer, Settings, Voice Agent, Team/);
    const html = await page.content();
    assert.ok(!html.includes(agentInvite.token) && !html.includes(adminInvite.token), 'no invitation link is shown again');

    await row.getByRole('button', { name: `Revoke the invitation for ${agentInvite.email}` }).click();
    await page.getByRole('dialog', { name: `Revoke the invitation for ${agentInvite.email}?` }).getByRole('button', { name: 'Revoke invitation' }).click();
    await row.waitFor({ state: 'detached', timeout: WAIT_MS });
    const refused = await t.request('POST', '/api/auth/signup', { body: { email: agentInvite.email, password: 'member password', invite_token: agentInvite.token } });
    assert.equal(refused.status, 400, 'the revoked link no longer works');

    // A new invitation appears in the list at once.
    const email = uniqueEmail('new');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Create invitation link' }).click();
    await page.locator('[data-secret]').waitFor({ timeout: WAIT_MS });
    await pending.locator(`tr[data-invitation="${email}"]`).waitFor({ timeout: WAIT_MS });
    await shot(page, 'team-pending-invitations');

    // An admin sees the invitation to be an admin, but only the owner may revoke it.
    const admin = await inviteMember(t, owner, 'admin');
    const asAdmin = await pageOf(admin.token);
    await asAdmin.page.goto(`${t.url}/app/team`);
    const adminRow = asAdmin.page.locator(`tr[data-invitation="${adminInvite.email}"]`);
    await adminRow.waitFor({ timeout: WAIT_MS });
    assert.equal(await adminRow.getByRole('button').count(), 0);
    await asAdmin.page.locator(`tr[data-invitation="${email}"]`).getByRole('button', { name: /^Revoke/ }).waitFor({ timeout: WAIT_MS });
    assert.deepEqual(problems, []);
    assert.deepEqual(asAdmin.problems, []);
  });

  it('opens the API keys to admins without the Settings tab, as /api/keys does, and never to agents', async () => {
    const admin = await inviteMember(t, owner, 'admin', ['inbox', 'team']);
    const { page, problems } = await pageOf(admin.token);
    await page.goto(`${t.url}/app/bots/${botId}/inbox`);
    await heading(page, 'Inbox');
    const sidebar = page.locator('#sidebar');
    assert.equal(await sidebar.getByRole('link', { name: 'Settings', exact: true }).count(), 0, 'no Settings tab');
    await nav(page, 'API keys');
    await heading(page, 'API keys');
    await page.getByLabel('Name').fill('Admin key');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('tr[data-key="Admin key"]').waitFor({ timeout: WAIT_MS });
    assert.deepEqual(problems, []);

    // An agent holding Settings still has no keys: not in the navigation, refused by address, and by the API.
    const agent = await inviteMember(t, owner, 'agent', ['inbox', 'settings']);
    const asAgent = await pageOf(agent.token);
    await asAgent.page.goto(`${t.url}/app/bots/${botId}/settings`);
    await heading(asAgent.page, 'Settings');
    assert.equal(await asAgent.page.locator('#sidebar').getByRole('link', { name: 'API keys' }).count(), 0);
    await asAgent.page.goto(`${t.url}/app/bots/${botId}/keys`);
    await heading(asAgent.page, 'No access to API keys');
    assert.match(await asAgent.page.locator('main').innerText(), /API keys is for owners and admins/);
    assert.equal((await t.request('GET', `/api/keys?bot_id=${botId}`, { token: agent.token })).status, 403);
    assert.equal((await t.request('GET', `/api/keys?bot_id=${botId}`, { token: admin.token })).status, 200);
    assert.deepEqual(asAgent.problems, []);
  });
});
