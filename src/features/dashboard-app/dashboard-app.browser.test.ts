// The dashboard in a real browser (Debian's Chromium through playwright-core) against a real Parley:
// the first sign-up, a bot with knowledge (a text, documents dropped and chosen), the Customizer's
// preview widget answering, the conversation arriving live in the Inbox, takeover and an operator
// reply that reaches the widget; an invited agent who sees only the Inbox and can reach neither
// another tab's screen nor its API; an API key shown once. Then, with a fresh account and bot,
// how the Inbox reads (a long conversation opens at its newest message and follows new ones;
// answers and replies in the widget's Markdown) and the Knowledge table staying in its box. Nothing
// may ask another origin, break the Content-Security-Policy or log an error. A screenshot of every
// tab is kept under .tmp/artifacts/dashboard/ (not committed).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { pkcePair, registerClient } from '../../testing/oauth.ts';
import { createBot, createKey, signUp, type Owner } from '../../testing/factories.ts';
import {
  dashboardBrowserSkip,
  heading,
  launchDashboardBrowser,
  nav,
  sameOriginContext,
  shot,
  signedInPage,
  WAIT_MS,
  watchedPage as watched,
  type Watched,
} from '../../testing/dashboard-browser.ts';

const OWNER = { name: 'Ada Owner', email: 'ada@kestrel.example', password: 'correct horse battery' };
const AGENT = { email: 'sam@kestrel.example', password: 'agent passphrase' };
const SHIPPING = '# Shipping\nOrders leave our Leeds warehouse within 2 working days. Delivery to the EU takes 5 to 7 working days.';
const RETURNS = '# Returns\nYou can return any item within 30 days of delivery with the prepaid label in the parcel.';
const HOURS = 'Our support team answers Monday to Friday, 9:00 to 18:00 UK time.';

describe('Dashboard in a browser', { skip: dashboardBrowserSkip }, () => {
  let t: TestApp;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let botId = '';
  let inviteLink = '';

  before(async () => {
    t = await startTestApp({ env: { PARLEY_SIGNUP: 'first' } });
    browser = await launchDashboardBrowser();
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await t?.close();
  });

  async function newContext(viewport?: { width: number; height: number }): Promise<BrowserContext> {
    const context = await sameOriginContext(browser, t, viewport);
    contexts.push(context);
    return context;
  }

  /** A page that records everything that goes wrong; `expected` lists answers the test provokes on purpose. */
  const watchedPage = (context: BrowserContext, expected: RegExp[] = []): Promise<Watched> => watched(context, t, expected);

  const preview = (page: Page): FrameLocator => page.frameLocator('iframe.preview-frame');
  // The signed-out app asks who is signed in once, and is told 401: that is how it knows.
  const SIGNED_OUT = /\b401\b.*\/api\/auth\/me$/;

  let owner: BrowserContext;
  let ownerPage: Watched;

  it('signs up the first user as the owner, and creates a bot', async () => {
    owner = await newContext();
    ownerPage = await watchedPage(owner, [SIGNED_OUT]);
    const { page } = ownerPage;
    await page.goto(`${t.url}/`);
    await heading(page, 'Log in');
    assert.equal(new URL(page.url()).pathname, '/app/login');
    await shot(page, 'login');
    await page.getByRole('link', { name: 'Create the owner account' }).click();
    await heading(page, 'Create the owner account');
    await page.getByLabel('Your name').fill(OWNER.name);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByLabel('Company or team name').fill('Kestrel');
    await page.getByRole('button', { name: 'Create account' }).click();

    await heading(page, 'Bots');
    await page.getByLabel('Name').fill('Kestrel Support');
    await page.getByRole('button', { name: 'Create bot' }).click();
    await heading(page, 'Inbox');
    botId = /\/app\/bots\/([^/]+)\/inbox/.exec(page.url())![1]!;
    const me = await t.request('POST', '/api/auth/login', { body: { email: OWNER.email, password: OWNER.password } });
    assert.equal((await t.request('GET', '/api/auth/me', { token: me.body.token })).body.role, 'owner');
    // The owner holds every tab.
    const tabs = await page.locator('#sidebar li[data-tab]').evaluateAll((items) => items.map((li) => li.getAttribute('data-tab')));
    assert.deepEqual(tabs, ['inbox', 'knowledge', 'customizer', 'settings', 'voice_agent', 'webhooks', 'byok', 'team', 'billing']);
    assert.deepEqual(ownerPage.problems, []);
  });

  it('adds a text and documents (chosen and dropped), each with its progress, and finds them with the search preview', async () => {
    const { page, problems } = ownerPage;
    await nav(page, 'Knowledge');
    await heading(page, 'Knowledge');

    await page.getByLabel('Name').fill('Shipping');
    await page.getByLabel('Text', { exact: true }).fill(SHIPPING);
    await page.getByRole('button', { name: 'Add text' }).click();
    await page.locator('tr[data-source="Shipping"] [data-status="trained"]').waitFor({ timeout: WAIT_MS });

    await page.getByRole('button', { name: 'Documents' }).click();
    await page.locator('#knowledge-files').setInputFiles([{ name: 'returns.md', mimeType: 'text/markdown', buffer: Buffer.from(RETURNS) }]);
    const dropped = await page.evaluateHandle((text) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], 'hours.txt', { type: 'text/plain' }));
      return transfer;
    }, HOURS);
    await page.dispatchEvent('[data-dropzone]', 'drop', { dataTransfer: dropped });
    for (const name of ['returns.md', 'hours.txt']) {
      const upload = page.locator(`[data-upload="${name}"]`);
      await upload.getByText('Added').waitFor({ timeout: WAIT_MS });
      assert.equal(await upload.locator('progress').evaluate((bar) => (bar as HTMLProgressElement).value), 1);
    }
    await page.locator('tr[data-source="Returns"]').waitFor({ timeout: WAIT_MS });
    await page.locator('tbody tr', { hasText: 'Monday to Friday' }).waitFor({ timeout: WAIT_MS });

    await page.getByLabel('Question', { exact: true }).fill('How long before my order leaves the warehouse?');
    await page.getByRole('button', { name: 'Search' }).click();
    const first = page.locator('.passage').first();
    await first.waitFor({ timeout: WAIT_MS });
    assert.match(await first.innerText(), /Shipping[\s\S]*score[\s\S]*Leeds warehouse within 2 working days/);
    // Above the passages, what the bot would reply; passages are found for nearly any question.
    assert.match(await page.locator('.passage-reply').innerText(), /Leeds warehouse within 2 working days/);
    await page.getByLabel('Question', { exact: true }).fill('Do you sell bicycle helmets?');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('The bot would say it does not know').waitFor({ timeout: WAIT_MS });
    await shot(page, 'knowledge');
    assert.deepEqual(problems, []);
  });

  it('answers in the preview widget, shows the conversation live in the inbox, and carries an operator reply back to the widget', async () => {
    const { page: inbox, problems } = ownerPage;
    await nav(inbox, 'Inbox');
    await heading(inbox, 'Inbox');
    await inbox.locator('[data-live="live"]').waitFor({ timeout: WAIT_MS });

    // The Customizer in a second tab: its preview is the real widget on the bot's demo page.
    const second = await watchedPage(owner);
    const customizer = second.page;
    await customizer.goto(`${t.url}/app/bots/${botId}/customizer`);
    await heading(customizer, 'Customizer');
    const widget = preview(customizer);
    const box = widget.getByPlaceholder('Write a message…');
    await box.waitFor({ timeout: WAIT_MS });
    // The demo page focuses the widget as it opens; the dashboard keeps the keyboard where it was.
    await customizer.waitForTimeout(300);
    assert.equal(await customizer.evaluate(() => document.activeElement?.tagName), 'H1');
    await box.click();
    await box.fill('How long before my order leaves the warehouse?');
    await box.press('Enter');
    await widget.getByText(/within 2 working days/).first().waitFor({ timeout: WAIT_MS });
    await shot(customizer, 'customizer');

    // The inbox, not reloaded, has the new conversation.
    const item = inbox.locator('.session-item').first();
    await item.waitFor({ timeout: WAIT_MS });
    await item.locator('.session-preview', { hasText: /2 working days|leaves the warehouse/ }).waitFor({ timeout: WAIT_MS });
    await item.getByRole('link').click();
    const conversation = inbox.locator('article.conversation');
    await conversation.locator('[data-author="visitor"]', { hasText: 'How long before my order leaves the warehouse?' }).waitFor({ timeout: WAIT_MS });
    await conversation.locator('[data-author="bot"]', { hasText: '2 working days' }).waitFor({ timeout: WAIT_MS });

    // A second question arrives live in the open conversation.
    await box.fill('Can I return a parcel?');
    await box.press('Enter');
    await conversation.locator('[data-author="visitor"]', { hasText: 'Can I return a parcel?' }).waitFor({ timeout: WAIT_MS });
    await widget.getByText(/within 30 days of delivery/).first().waitFor({ timeout: WAIT_MS });

    await inbox.getByRole('button', { name: 'Take over' }).click();
    await inbox.getByRole('button', { name: 'Hand back to the bot' }).waitFor({ timeout: WAIT_MS });
    await inbox.getByLabel('Reply as an operator').fill('Hello, this is Ada from Kestrel: your parcel is on its way.');
    await inbox.getByRole('button', { name: 'Send reply' }).click();
    await conversation.locator('[data-author="operator"]', { hasText: 'this is Ada from Kestrel' }).waitFor({ timeout: WAIT_MS });
    await widget.getByText('Hello, this is Ada from Kestrel: your parcel is on its way.').waitFor({ timeout: WAIT_MS });
    await shot(inbox, 'inbox');

    // Taken over, the bot stays quiet: the visitor's next message reaches the operator only.
    await box.fill('Thanks! One more thing.');
    await box.press('Enter');
    await conversation.locator('[data-author="visitor"]', { hasText: 'Thanks! One more thing.' }).waitFor({ timeout: WAIT_MS });
    await inbox.getByRole('button', { name: 'Hand back to the bot' }).click();
    await inbox.getByRole('button', { name: 'Take over' }).waitFor({ timeout: WAIT_MS });
    await second.page.close();
    assert.deepEqual(problems, []);
    assert.deepEqual(second.problems, []);
  });

  it('creates an API key and shows it once', async () => {
    const { page, problems } = ownerPage;
    await nav(page, 'API keys');
    await heading(page, 'API keys');
    await page.getByLabel('Name').fill('Backend');
    await page.getByRole('checkbox', { name: /^write/ }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = page.locator('[data-secret]');
    await secret.waitFor({ timeout: WAIT_MS });
    const key = await secret.inputValue();
    assert.match(key, /^parley_sk_/);
    const bot = await t.request('GET', '/api/v1/bot', { token: key });
    assert.equal(bot.status, 200, 'the key works');
    assert.equal(bot.body.id, botId);
    await page.locator('tr[data-key="Backend"]').waitFor({ timeout: WAIT_MS });
    assert.match(await page.locator('tr[data-key="Backend"]').innerText(), /chat, read, write/);
    await shot(page, 'keys');

    await page.getByRole('button', { name: 'Done' }).click();
    await secret.waitFor({ state: 'detached', timeout: WAIT_MS });
    await page.reload();
    await page.locator('tr[data-key="Backend"]').waitFor({ timeout: WAIT_MS });
    const html = await page.content();
    assert.ok(!html.includes(key), 'the key is not shown again');
    assert.ok(html.includes(key.slice(0, 16)), 'its prefix is');
    assert.deepEqual(problems, []);
  });

  it('saves the look in the Customizer, and the preview widget shows it at once', async () => {
    const { page, problems } = ownerPage;
    await nav(page, 'Customizer');
    await heading(page, 'Customizer');
    const widget = preview(page);
    await widget.getByText('Hi! How can I help you today?').first().waitFor({ timeout: WAIT_MS });
    await page.getByLabel('Welcome message').fill('Welcome to Kestrel! Ask me about orders.');
    await page.locator('input[type="text"][maxlength="7"]').fill('#0f766e');
    await page.getByRole('radio', { name: /Bubble/ }).check();
    await page.getByRole('button', { name: 'Save and preview' }).click();
    await page.getByText('Saved. The preview shows the change.').waitFor({ timeout: WAIT_MS });
    await widget.getByText('Welcome to Kestrel! Ask me about orders.').first().waitFor({ timeout: WAIT_MS });
    const bot = await t.request('POST', '/api/auth/login', { body: { email: OWNER.email, password: OWNER.password } });
    const saved = await t.request('GET', `/api/dashboard/bots/${botId}`, { token: bot.body.token });
    assert.deepEqual([saved.body.welcome_message, saved.body.primary_color, saved.body.widget_style], ['Welcome to Kestrel! Ask me about orders.', '#0f766e', 'bubble']);
    assert.deepEqual(problems, []);
  });

  it('saves settings: strict mode, a lead field and the quota', async () => {
    const { page, problems } = ownerPage;
    await nav(page, 'Settings');
    await heading(page, 'Settings');
    assert.equal(await page.getByLabel('Model').inputValue(), 'parley-local');
    await page.getByRole('checkbox', { name: 'Strict mode' }).uncheck();
    await page.getByRole('checkbox', { name: 'Capture leads' }).check();
    await page.getByLabel('Add a field').fill('Company');
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByLabel('Monthly message quota').fill('500');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor({ timeout: WAIT_MS });
    const session = await t.request('POST', '/api/auth/login', { body: { email: OWNER.email, password: OWNER.password } });
    const saved = await t.request('GET', `/api/dashboard/bots/${botId}`, { token: session.body.token });
    assert.equal(saved.body.strict_mode, false);
    assert.equal(saved.body.lead_capture_enabled, true);
    assert.deepEqual(saved.body.lead_fields, ['name', 'email', 'phone', 'company']);
    assert.equal(saved.body.monthly_message_quota, 500);
    assert.deepEqual(problems, []);
  });

  it('keeps a screenshot of every tab', async () => {
    const { page, problems } = ownerPage;
    for (const [link, title, file] of [
      ['Leads', 'Leads', 'leads'],
      ['Analytics', 'Analytics', 'analytics'],
      ['Customizer', 'Customizer', 'customizer-owner'],
      ['Settings', 'Settings', 'settings'],
      ['Voice Agent', 'Voice Agent', 'voice-agent'],
      ['Webhooks', 'Webhooks', 'webhooks'],
      ['BYOK', 'Bring your own key', 'byok'],
      ['Team', 'Team', 'team'],
      ['Billing', 'Billing', 'billing'],
    ] as const) {
      await nav(page, link);
      await heading(page, title);
      await page.locator('.loading').first().waitFor({ state: 'detached', timeout: WAIT_MS });
      await shot(page, file);
    }
    assert.match(await page.locator('[data-usage]').innerText(), /^3\b/, 'three visitor messages this month');
    await page.getByRole('link', { name: /Profile/ }).click();
    await heading(page, 'Profile');
    await shot(page, 'profile');
    await page.getByRole('link', { name: 'All bots' }).click();
    await heading(page, 'Bots');
    await shot(page, 'bots');
    assert.deepEqual(problems, []);
  });

  it('invites an agent by link, with the Inbox tab only', async () => {
    const { page, problems } = ownerPage;
    await nav(page, 'Team');
    await heading(page, 'Team');
    await page.getByLabel('Email').fill(AGENT.email);
    assert.equal(await page.getByLabel('Role').inputValue(), 'agent');
    assert.ok(await page.getByRole('checkbox', { name: 'Inbox' }).isChecked());
    assert.ok(!(await page.getByRole('checkbox', { name: 'Knowledge' }).isChecked()));
    await page.getByRole('button', { name: 'Create invitation link' }).click();
    inviteLink = await page.locator('[data-secret]').inputValue();
    assert.match(inviteLink, new RegExp(`^${t.url}/app/invite#token=parley_inv_`));
    await shot(page, 'team-invitation');
    await page.getByRole('button', { name: 'Log out' }).click();
    await heading(page, 'Log in');
    assert.deepEqual(problems, []);
  });

  it('lets the agent in through the link, showing only the Inbox; another tab is out of reach, screen and API', async () => {
    const context = await newContext();
    const { page, problems } = await watchedPage(context, [SIGNED_OUT, /\b403\b.*\/api\/dashboard\/bots\/[^/]+\/knowledge$/]);
    await page.goto(inviteLink);
    await heading(page, 'Join your team');
    assert.equal(await page.getByLabel('Email').inputValue(), AGENT.email);
    await page.getByLabel('Your name').fill('Sam Agent');
    await page.getByLabel('Password').fill(AGENT.password);
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await heading(page, 'Inbox');
    assert.equal(new URL(page.url()).pathname, `/app/bots/${botId}/inbox`);
    assert.ok(!page.url().includes('token'), 'the invitation token leaves the address bar');

    const tabs = await page.locator('#sidebar li[data-tab]').evaluateAll((items) => items.map((li) => li.getAttribute('data-tab')));
    assert.deepEqual(tabs, ['inbox'], 'only the Inbox');
    assert.equal(await page.locator('#sidebar').getByRole('link', { name: 'Knowledge' }).count(), 0);
    await page.locator('.session-item').first().waitFor({ timeout: WAIT_MS });
    assert.equal(await page.locator('.session-item').count(), 1, 'the agent sees the conversation');
    await shot(page, 'agent-inbox');

    // The Knowledge screen by its address: refused, and so is its API.
    await page.goto(`${t.url}/app/bots/${botId}/knowledge`);
    await heading(page, 'No access to Knowledge');
    await shot(page, 'agent-no-access');
    const refused = await page.evaluate(async (id) => {
      const res = await fetch(`/api/dashboard/bots/${id}/knowledge`);
      return { status: res.status, detail: ((await res.json()) as { detail: string }).detail };
    }, botId);
    assert.deepEqual(refused, { status: 403, detail: 'This action needs access to the knowledge tab' });
    // Nor may the agent delete the conversation: the button is not there.
    await page.goto(`${t.url}/app/bots/${botId}/inbox`);
    await page.locator('.session-item a').first().click();
    await page.getByRole('button', { name: 'Take over' }).waitFor({ timeout: WAIT_MS });
    assert.equal(await page.getByRole('button', { name: 'Delete' }).count(), 0);
    assert.deepEqual(problems, []);
  });

  it("brings a signed-out user through the login back to the OAuth consent page, and never to another site", async () => {
    const client = await registerClient(t, { name: 'Kestrel CRM' });
    const params = new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
      scope: 'read',
      state: 'xyz',
    });
    const context = await newContext();
    const { page, problems } = await watchedPage(context, [SIGNED_OUT]);
    await page.goto(`${t.url}/oauth/authorize?${params}`);
    await heading(page, 'Log in');
    assert.equal(new URL(page.url()).pathname, '/app/login');
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Authorize Kestrel CRM?' }).waitFor({ timeout: WAIT_MS });
    assert.equal(new URL(page.url()).pathname, '/oauth/authorize');

    for (const next of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      await page.goto(`${t.url}/app/login?next=${encodeURIComponent(next)}`);
      await heading(page, 'You are signed in');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL((url) => url.pathname !== '/app/login', { timeout: WAIT_MS });
      assert.equal(new URL(page.url()).origin, new URL(t.url).origin, next);
    }
    assert.deepEqual(problems, []);
  });

  it('works on a phone: the menu folds, and the inbox shows one pane at a time', async () => {
    const context = await newContext({ width: 390, height: 844 });
    const { page, problems } = await watchedPage(context, [SIGNED_OUT]);
    await page.goto(`${t.url}/app/login`);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await heading(page, 'Inbox');
    assert.ok(!(await page.locator('#sidebar').isVisible()), 'the navigation is folded');
    await page.getByRole('button', { name: 'Menu' }).click();
    assert.ok(await page.locator('#sidebar').isVisible());
    await nav(page, 'Inbox');
    assert.ok(!(await page.locator('#sidebar').isVisible()), 'and folds again after a choice');
    await page.locator('.session-item a').first().click();
    await page.locator('article.conversation').waitFor({ timeout: WAIT_MS });
    assert.ok(!(await page.locator('.inbox-list').isVisible()), 'the list gives way to the conversation');
    await shot(page, 'phone-conversation');
    // No horizontal scrolling.
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));
    assert.deepEqual(problems, []);
  });
});

describe('Reading the Inbox and the Knowledge in a browser', { skip: dashboardBrowserSkip }, () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Owner;
  let botId = '';
  let chatKey = '';
  const contexts: BrowserContext[] = [];

  before(async () => {
    t = await startTestApp();
    browser = await launchDashboardBrowser();
    owner = await signUp(t, { name: 'Ada Owner' });
    botId = (await createBot(t, owner, { name: 'Kestrel Support' })).id;
    chatKey = (await createKey(t, owner, botId, { scopes: ['chat'] })).key;
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await t?.close();
  });

  async function ownerPage(): Promise<Watched> {
    const { context, ...watched } = await signedInPage(browser, t, owner.token);
    contexts.push(context);
    return watched;
  }

  /** A new conversation opened by a visitor's `text`: its session id. */
  async function startConversation(text: string): Promise<string> {
    const res = await t.request('POST', '/api/v1/chat', { token: chatKey, body: { text } });
    assert.equal(res.status, 200, res.text);
    return res.body.session_id;
  }

  const operatorReply = async (sessionId: string, content: string) => {
    const res = await t.request('POST', `/api/dashboard/bots/${botId}/inbox/${sessionId}/messages`, { token: owner.token, body: { content } });
    assert.equal(res.status, 201, res.text);
  };

  it('opens a long conversation at its newest message, follows new ones there, and leaves an operator reading older ones in place', async () => {
    const sessionId = await startConversation('When does my order leave the warehouse?');
    for (let i = 1; i <= 30; i++) await operatorReply(sessionId, `Update ${i} on your order.`);
    const { page, problems } = await ownerPage();
    await page.goto(`${t.url}/app/bots/${botId}/inbox/${sessionId}`);
    const list = page.locator('ol.messages');
    await list.locator('[data-author="operator"]', { hasText: 'Update 30 on' }).waitFor({ timeout: WAIT_MS });
    const below = () => list.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    assert.ok(await list.evaluate((el) => el.scrollHeight > el.clientHeight * 2), 'the list scrolls');
    assert.ok((await below()) <= 1, 'opened at the newest message');

    // At the bottom, a new message keeps the list there.
    await operatorReply(sessionId, 'Update 31 on your order.');
    await list.locator('[data-author="operator"]', { hasText: 'Update 31 on' }).waitFor({ timeout: WAIT_MS });
    assert.ok((await below()) <= 1, 'still at the newest message');

    // Scrolled up to read, the operator stays where they are, told that more came.
    await list.evaluate(
      (el) =>
        new Promise((resolve) => {
          el.addEventListener('scroll', resolve, { once: true });
          el.scrollTop = 0;
        }),
    );
    await operatorReply(sessionId, 'Update 32 on your order.');
    const more = page.getByRole('button', { name: '1 new message' });
    await more.waitFor({ timeout: WAIT_MS });
    assert.equal(await list.evaluate((el) => el.scrollTop), 0, 'not pulled down');
    await more.click();
    assert.ok((await below()) <= 1, 'the button goes to the newest message');
    await more.waitFor({ state: 'detached', timeout: WAIT_MS });
    await shot(page, 'inbox-long-conversation');
    assert.deepEqual(problems, []);
  });

  it("shows answers and operators' replies in the widget's Markdown, as elements and never as HTML; the visitor's words as typed", async () => {
    const sessionId = await startConversation('Is there **express** delivery?');
    const { page, problems } = await ownerPage();
    await page.goto(`${t.url}/app/bots/${botId}/inbox/${sessionId}`);
    await page.getByLabel('Reply as an operator').fill(
      'Our prices:\n- **Standard service**: 45 euros\n- **Express**: 60 euros\n\nSee [the price list](https://kestrel.example/prices), not [this](javascript:alert(1)) <img src=x onerror=alert(1)>',
    );
    await page.getByRole('button', { name: 'Send reply' }).click();
    const reply = page.locator('[data-author="operator"]');
    await reply.waitFor({ timeout: WAIT_MS });
    assert.deepEqual(await reply.locator('ul > li').allInnerTexts(), ['Standard service: 45 euros', 'Express: 60 euros']);
    assert.deepEqual(await reply.locator('li > strong').allInnerTexts(), ['Standard service', 'Express']);
    const links = await reply.locator('a').evaluateAll((anchors) => anchors.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')]));
    assert.deepEqual(links, [['the price list', 'https://kestrel.example/prices', '_blank', 'noopener noreferrer']], 'an http(s) link only');
    assert.equal(await reply.locator('img').count(), 0);
    assert.match(await reply.innerText(), /not this <img src=x onerror=alert\(1\)>/, 'HTML shows as the text it is');
    const visitor = page.locator('[data-author="visitor"]');
    assert.equal(await visitor.locator('strong').count(), 0);
    assert.match(await visitor.innerText(), /Is there \*\*express\*\* delivery\?/);
    // The conversation list previews the reply as plain words, its Markdown read.
    const preview = page.locator(`[data-session="${sessionId}"] .session-preview`);
    await preview.getByText('You: Our prices: Standard service: 45 euros Express: 60 euros').waitFor({ timeout: WAIT_MS });
    await shot(page, 'inbox-markdown');
    assert.deepEqual(problems, []);
  });

  it('keeps the Knowledge sources inside their box: every Delete button in view on a desktop, no sideways page on a phone', async () => {
    for (const [name, content] of [
      ['Shipping and delivery times for every country in the European Union', '# Shipping\nOrders leave our Leeds warehouse within 2 working days. Delivery to the EU takes 5 to 7 working days, longer to the islands.'],
      ['Returns', 'You can return any item within 30 days of delivery with the prepaid label in the parcel; refunds reach your card within a week.'],
    ]) {
      const res = await t.request('POST', `/api/dashboard/bots/${botId}/knowledge`, { token: owner.token, body: { type: 'text', name, content } });
      assert.equal(res.status, 201, res.text);
    }
    const { page, problems } = await ownerPage();
    await page.goto(`${t.url}/app/bots/${botId}/knowledge`);
    await heading(page, 'Knowledge');
    await page.locator('tr[data-source="Returns"]').waitFor({ timeout: WAIT_MS });
    const outside = await page.locator('.table-wrap').first().evaluate((wrap) => {
      const box = wrap.getBoundingClientRect();
      return [...wrap.querySelectorAll('button')]
        .filter((button) => {
          const b = button.getBoundingClientRect();
          return b.left < box.left || b.right > box.right;
        })
        .map((button) => button.getAttribute('aria-label'));
    });
    assert.deepEqual(outside, [], 'at 1280 px every button lies inside the table’s box');

    await page.setViewportSize({ width: 375, height: 812 });
    await page.waitForFunction(() => window.innerWidth === 375);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 375), 'no sideways scrolling at 375 px (the table scrolls in its own box)');
    await shot(page, 'knowledge-phone');
    assert.deepEqual(problems, []);
  });
});
