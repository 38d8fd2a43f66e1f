// The chat widget in a real browser (Debian's Chromium through playwright-core) against a real
// Parley: the demo page, a streamed answer with its sources, the conversation after a reload,
// feedback, uploads with their progress and again after a reload, the takeover and operator messages over the live stream, the lead form
// and its refusals, errors with a retry, the host page's API, and Origin refusals. No request leaves 127.0.0.1.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { createBot, createKey, signUp, type Owner } from '../../testing/factories.ts';
import { freePort } from '../../testing/free-port.ts';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../answers/providers/fake-openai-server.ts';
import type { FetchedPage } from '../knowledge/knowledge.service.ts';
import {
  ARTIFACT_DIR,
  browserSkip,
  finishedAnswer,
  launchChromium,
  sendMessage,
  solidPng,
  startHostSite,
  WAIT_MS,
  watchedPage,
  widget,
  type HostSite,
  type WatchedPage,
} from '../../testing/widget-browser.ts';

const SHIPPING_URL = 'https://shop.example.com/shipping';
const fetchPage = async (url: string): Promise<FetchedPage> => ({
  ok: true,
  url,
  title: 'Shipping policy',
  text: 'Shipping. We ship to Canada within 5 to 7 business days. Shipping to Canada costs 12 EUR.',
});

describe('The chat widget in a browser', { skip: browserSkip }, () => {
  let t: TestApp;
  let provider: FakeOpenAiServer;
  let site: HostSite;
  let browser: Browser;
  const pages: WatchedPage[] = [];

  before(async () => {
    provider = await startFakeOpenAiServer();
    // PUBLIC_URL names the port the service listens on: the browser loads the signed media links.
    const port = await freePort();
    t = await startTestApp({ port, env: { PUBLIC_URL: `http://127.0.0.1:${port}`, OPENAI_BASE_URL: provider.baseUrl, PARLEY_RATE_WIDGET_PER_MIN: '10000' }, app: { fetchPage } });
    site = await startHostSite(t.url);
    browser = await launchChromium();
  });
  after(async () => {
    for (const p of pages) await p.context.close();
    await browser?.close();
    await site?.close();
    await t?.close();
    await provider?.close();
  });

  async function open(url: string, options?: Parameters<typeof watchedPage>[1]): Promise<WatchedPage> {
    const watched = await watchedPage(browser, options);
    pages.push(watched);
    await watched.page.goto(url);
    return watched;
  }

  /** The demo page with its widget open and ready. */
  async function openDemo(botId: string): Promise<WatchedPage> {
    const watched = await open(`${t.url}/demo/${botId}`);
    await watched.page.locator(widget.input).waitFor({ timeout: WAIT_MS });
    return watched;
  }

  /** A bot with text knowledge, answering with parley-local (or the given model). */
  async function botWithKnowledge(body: Record<string, unknown> = {}, knowledge?: string) {
    const owner = await signUp(t);
    const bot = await createBot(t, owner, { selected_model: 'parley-local', ...body });
    const key = await createKey(t, owner, bot.id, { scopes: ['chat', 'read', 'write'] });
    if (knowledge) {
      const added = await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'text', name: 'Office notes', content: knowledge } });
      assert.equal(added.status, 200, added.text);
    }
    return { owner, bot, key };
  }

  const sessionOf = (page: Page, botId: string) =>
    page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{}') as { visitorId?: string; sessionId?: string }, `parley:${botId}`);

  it('streams an answer as it is written, shows its sources, keeps it over a reload, and stores feedback', async () => {
    const { bot, key } = await botWithKnowledge({ selected_model: 'gpt-4o-mini', welcome_message: 'Hi! Ask me about shipping.' });
    const added = await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'url', name: 'Shipping policy', url: SHIPPING_URL } });
    assert.equal(added.status, 200, added.text);
    const note = await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'text', name: 'Returns', content: 'Returns to Canada are free within 30 days of shipping.' } });
    assert.equal(note.status, 200, note.text);
    provider.behave({ kind: 'stream', chunks: ['**Yes.** ', 'We ship ', 'to *Canada* ', 'within 5 to 7 ', 'business days.'], delayMs: 120 });

    const { page, offOrigin, problems } = await openDemo(bot.id);
    // The demo page opens the widget, and focus is in its message box.
    assert.equal(await page.evaluate(() => document.querySelector('parley-chat')?.shadowRoot?.activeElement?.tagName), 'TEXTAREA');
    await page.locator(widget.answers).first().getByText('Hi! Ask me about shipping.').waitFor();

    // Sample the answer's length once per frame: it must be seen growing, not appear whole.
    // (A string, so that the test's compiler adds no helpers the page lacks.)
    await page.evaluate(`(() => {
      const seen = (window.seenLengths = []);
      const sample = () => {
        const answers = document.querySelector('parley-chat').shadowRoot.querySelectorAll('.from-bot');
        const length = answers.length > 1 ? (answers[answers.length - 1].querySelector('.content')?.textContent ?? '').length : 0;
        if (length !== seen[seen.length - 1]) seen.push(length);
        requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    })()`);
    await sendMessage(page, 'Do you ship to Canada?');
    const answer = await finishedAnswer(page, 1);
    assert.equal((await answer.locator('.content').innerText()).trim(), 'Yes. We ship to Canada within 5 to 7 business days.');
    assert.equal(await answer.locator('.content strong').innerText(), 'Yes.');
    assert.equal(await answer.locator('.content em').innerText(), 'Canada');
    const lengths = (await page.evaluate(() => (window as unknown as { seenLengths: number[] }).seenLengths)).filter((n) => n > 0);
    assert.ok(lengths.length >= 3, `the answer grew over several frames: ${lengths.join(' → ')}`);
    assert.deepEqual(lengths, [...lengths].sort((a, b) => a - b), 'and only grew');

    // Sources: the page's URL as a link opening elsewhere, the text source as plain text.
    const link = answer.locator('.sources a');
    assert.equal(await link.count(), 1);
    assert.equal(await link.innerText(), 'Shipping policy');
    assert.equal(await link.getAttribute('href'), SHIPPING_URL);
    assert.equal(await link.getAttribute('target'), '_blank');
    assert.equal(await link.getAttribute('rel'), 'noopener noreferrer');
    assert.match(await answer.locator('.sources').innerText(), /Returns/);

    // A reload continues the conversation from the service's history.
    const stored = await sessionOf(page, bot.id);
    assert.match(stored.visitorId ?? '', /^[0-9a-f-]{36}$/);
    await page.reload();
    const restored = await finishedAnswer(page, 1);
    assert.equal((await restored.locator('.content').innerText()).trim(), 'Yes. We ship to Canada within 5 to 7 business days.');
    assert.equal(await page.locator('parley-chat .from-visitor').textContent(), 'You: Do you ship to Canada?');
    assert.equal(await restored.locator('.sources a').getAttribute('href'), SHIPPING_URL);
    assert.deepEqual(await sessionOf(page, bot.id), stored);

    // Thumbs up is stored with the answer.
    const up = restored.getByRole('button', { name: 'Helpful', exact: true });
    await up.click();
    await page.locator('parley-chat .feedback button[aria-pressed=true]').waitFor();
    let conversation: any;
    for (let i = 0; i < 50; i++) {
      conversation = (await t.request('GET', `/api/v1/conversations/${stored.sessionId}`, { token: key.key })).body;
      if (conversation.messages[1].feedback_rating === 'up') break;
      await page.waitForTimeout(100);
    }
    assert.equal(conversation.messages[1].feedback_rating, 'up');
    assert.equal(conversation.messages[0].content, 'Do you ship to Canada?');
    assert.deepEqual(offOrigin, []);
    assert.deepEqual(problems, []);
  });

  it('uploads an image and a document with progress, shows them again in time order after a reload, and refuses a file type before sending it', async () => {
    const { bot } = await botWithKnowledge();
    const { context, page, offOrigin, problems } = await openDemo(bot.id);
    let uploads = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/widget/chat/media')) uploads++;
    });

    await page.locator(widget.fileInput).setInputFiles({ name: 'tool.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ') });
    await page.locator('parley-chat .upload.failed').getByText(/This type of file cannot be sent/).waitFor();
    assert.equal(uploads, 0, 'refused in the browser');

    const png = solidPng(16);
    await page.locator(widget.fileInput).setInputFiles({ name: 'broken bike.png', mimeType: 'image/png', buffer: png });
    const sent = page.locator('parley-chat .upload.sent');
    await sent.waitFor({ timeout: WAIT_MS });
    assert.match(await sent.innerText(), /broken bike\.png · 1?\d+ B[\s\S]*Sent/);
    assert.equal(await sent.locator('img').getAttribute('src').then((src) => src?.startsWith('blob:')), true);
    assert.equal(uploads, 1);

    // The upload named a session made in the browser; the next message continues it.
    const { sessionId } = await sessionOf(page, bot.id);
    assert.match(sessionId ?? '', /^[0-9a-f-]{36}$/);
    // (The service's clock moves only when told: a second between steps gives them their order.)
    t.clock.advance(1000);
    await sendMessage(page, 'Hello!');
    await finishedAnswer(page, 1);
    assert.equal((await sessionOf(page, bot.id)).sessionId, sessionId);
    t.clock.advance(1000);

    // A document of a few hundred kB over a slow uplink (Chromium's network emulation): the
    // progress bar is seen part of the way, rising, before the upload completes.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 200 * 1024 });
    await page.evaluate(`(() => {
      const seen = (window.seenProgress = []);
      const sample = () => {
        const bar = document.querySelector('parley-chat').shadowRoot.querySelector('.upload [role=progressbar]');
        const value = bar ? Number(bar.getAttribute('aria-valuenow')) : null;
        if (value !== null && value !== seen[seen.length - 1]) seen.push(value);
        requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    })()`);
    const notes = Buffer.from('The rear brake squeaks when it rains, and the chain skips on the third gear.\n'.repeat(5000));
    await page.locator(widget.fileInput).setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: notes });
    await page.locator('parley-chat .upload.sent').nth(1).waitFor({ timeout: WAIT_MS });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const progress = await page.evaluate(() => (window as unknown as { seenProgress: number[] }).seenProgress);
    assert.ok(progress.some((value) => value > 0 && value < 100), `seen part of the way: ${progress.join(' → ')}`);
    assert.ok(progress.length >= 3, `rising in steps: ${progress.join(' → ')}`);
    assert.deepEqual(progress, [...progress].sort((a, b) => a - b), 'and only rising');
    assert.equal(await page.locator('parley-chat .upload [role=progressbar]').count(), 0, 'gone once sent');
    assert.equal(uploads, 2);

    // After a reload the uploads are in the conversation again, in time order: the image shown
    // from its signed link, the document as a chip linking to it.
    await page.reload();
    await finishedAnswer(page, 1);
    const log = await page.locator(`${widget.log} > *`).evaluateAll((items) => items.map((item) => item.className));
    assert.deepEqual(log, ['message from-bot', 'upload sent', 'message from-visitor', 'message from-bot', 'upload sent']);
    const [image, file] = [page.locator('parley-chat .upload').nth(0), page.locator('parley-chat .upload').nth(1)];
    const shown = image.locator('img');
    assert.ok((await shown.getAttribute('src'))?.startsWith(`${t.url}/api/widget/media/`), 'the signed link');
    await page.waitForFunction(() => (document.querySelector('parley-chat')!.shadowRoot!.querySelector('.upload img') as HTMLImageElement | null)?.naturalWidth === 16);
    assert.match(await image.innerText(), /broken bike\.png · 1?\d+ B/);
    assert.equal(await file.locator('img').count(), 0);
    assert.equal(await file.locator('.chip svg').count(), 1);
    const link = file.getByRole('link', { name: 'notes.txt' });
    assert.match(String(await link.getAttribute('href')), new RegExp(`^${t.url}/api/widget/media/[0-9a-f-]{36}/notes\\.txt\\?expires=\\d+&signature=[0-9a-f]{64}$`));
    assert.equal(await link.getAttribute('target'), '_blank');
    assert.match(await file.innerText(), /notes\.txt · 385 kB/);
    await page.screenshot({ path: `${ARTIFACT_DIR}/attachments-after-reload.png` });
    const served = await fetch(String(await link.getAttribute('href')));
    assert.equal(served.status, 200);
    assert.equal((await served.arrayBuffer()).byteLength, notes.length);
    assert.deepEqual(offOrigin, []);
    assert.deepEqual(problems, []);
  });

  it("shows an operator's takeover and messages from the live stream, reconnecting after it drops, as text", async () => {
    const { owner, bot } = await botWithKnowledge();
    const { page, offOrigin, problems } = await openDemo(bot.id);
    // The first two connections of the live stream fail: the widget tries again after a pause.
    let liveAttempts = 0;
    await page.route('**/api/widget/sessions/*/events*', (route) => (++liveAttempts <= 2 ? route.abort('connectionreset') : route.continue()));
    await sendMessage(page, 'Hello there');
    await finishedAnswer(page, 1);
    await page.locator('parley-chat[data-live=open]').waitFor({ state: 'attached', timeout: WAIT_MS });
    assert.equal(liveAttempts, 3);
    const { sessionId } = await sessionOf(page, bot.id);

    const inbox = `/api/dashboard/bots/${bot.id}/inbox/${sessionId}`;
    assert.equal((await t.request('POST', `${inbox}/takeover`, { token: owner.token })).status, 200);
    await page.locator(widget.notice).getByText('A person from the team has joined').waitFor({ timeout: WAIT_MS });

    const hostile = 'Hi, **Sam** here. <img src=x onerror="alert(1)"><script>window.pwned = 2</script> [docs](javascript:alert(3))';
    assert.equal((await t.request('POST', `${inbox}/messages`, { token: owner.token, body: { content: hostile } })).status, 201);
    const operatorMessage = page.locator(widget.operator);
    await operatorMessage.waitFor({ timeout: WAIT_MS });
    const text = await operatorMessage.innerText();
    assert.match(text, /^Team\s+Hi, Sam here\. <img src=x onerror="alert\(1\)"><script>window\.pwned = 2<\/script> docs$/);
    assert.equal(await operatorMessage.locator('strong').innerText(), 'Sam');
    assert.equal(await operatorMessage.locator('img, script, a').count(), 0, 'no element made from the text, no javascript: link');
    // No script ran: nothing was set, and no alert opened (watchedPage records any dialog as a problem).
    assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);

    // While taken over, the visitor's message gets no answer from the bot.
    await sendMessage(page, 'Thanks, Sam');
    await page.locator('parley-chat .from-visitor').nth(1).waitFor();
    await page.waitForFunction(() => !document.querySelector('parley-chat')!.shadowRoot!.querySelector('[aria-busy=true]'));
    assert.equal(await page.locator(widget.answers).count(), 2, 'the welcome and the one answer');

    // After a reload the history says who holds the conversation; releasing it is announced live.
    await page.reload();
    await page.locator(widget.notice).waitFor({ timeout: WAIT_MS });
    assert.equal(await page.locator(widget.operator).count(), 1);
    assert.match(await page.locator(widget.operator).innerText(), /<script>window\.pwned = 2<\/script>/);
    await page.locator('parley-chat[data-live=open]').waitFor({ state: 'attached', timeout: WAIT_MS });
    assert.equal((await t.request('POST', `${inbox}/release`, { token: owner.token })).status, 200);
    await page.locator(widget.notice).waitFor({ state: 'detached', timeout: WAIT_MS });
    assert.deepEqual(offOrigin, []);
    // The refused live connections are the only failures.
    assert.deepEqual(
      problems.filter((p) => !/ERR_CONNECTION_RESET/.test(p)),
      [],
    );
  });

  it('keeps a hand-back that arrives live while the catch-up history it overtook is still on its way', async () => {
    const { owner, bot } = await botWithKnowledge();
    const { page, problems } = await openDemo(bot.id);
    await sendMessage(page, 'Hello there');
    await finishedAnswer(page, 1);
    const { sessionId } = await sessionOf(page, bot.id);
    const inbox = `/api/dashboard/bots/${bot.id}/inbox/${sessionId}`;
    assert.equal((await t.request('POST', `${inbox}/takeover`, { token: owner.token })).status, 200);
    await page.locator(widget.notice).waitFor({ timeout: WAIT_MS });

    // After a reload the widget loads the history, opens the live stream and then fetches the history
    // again to catch up. That catch-up is read now, while the conversation is still taken over, and
    // delivered only after the hand-back has arrived on the live stream.
    let historyCalls = 0;
    let deliverCatchUp: () => void = () => {};
    const catchUpHeld = new Promise<void>((resolve) => (deliverCatchUp = resolve));
    let caughtUp: () => void = () => {};
    const catchUpRead = new Promise<void>((resolve) => (caughtUp = resolve));
    await page.route('**/api/widget/sessions/*/messages*', async (route) => {
      if (++historyCalls !== 2) return route.continue();
      const response = await route.fetch();
      caughtUp();
      await catchUpHeld;
      await route.fulfill({ response });
    });
    await page.reload();
    await page.locator('parley-chat[data-live=open]').waitFor({ state: 'attached', timeout: WAIT_MS });
    await catchUpRead;
    assert.equal((await t.request('POST', `${inbox}/release`, { token: owner.token })).status, 200);
    await page.locator(widget.notice).waitFor({ state: 'detached', timeout: WAIT_MS });
    deliverCatchUp();
    await page.waitForFunction(() => !document.querySelector('parley-chat')!.shadowRoot!.querySelector('[aria-busy=true]'));
    await page.waitForTimeout(300);
    assert.equal(await page.locator(widget.notice).count(), 0, 'the older catch-up does not bring the takeover back');
    assert.deepEqual(problems, []);
  });

  it('shows what the knowledge says about <script> and <img onerror> as text, and no javascript: link', async () => {
    const knowledge = [
      'The door code of the back office is <script>window.pwned = 1</script> 4711 <img src=x onerror="alert(2)">, changed every Monday.',
      '',
      'Our support portal is [the help desk](javascript:alert(3)) and it is open all day.',
    ].join('\n');
    const { bot } = await botWithKnowledge({}, knowledge);
    const { page, offOrigin, problems } = await openDemo(bot.id);
    await sendMessage(page, 'What is the door code of the back office?');
    const answer = await finishedAnswer(page, 1);
    assert.match(await answer.locator('.content').innerText(), /<script>window\.pwned = 1<\/script> 4711 <img src=x onerror="alert\(2\)">/);
    await sendMessage(page, 'Where is the support portal?');
    const second = await finishedAnswer(page, 2);
    assert.match(await second.locator('.content').innerText(), /Our support portal is the help desk and it is open all day/);
    assert.equal(await page.locator('parley-chat .log').locator('img, script, .content a').count(), 0);
    assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
    assert.deepEqual(offOrigin, []);
    assert.deepEqual(problems, []);
  });

  it('offers the lead form when the bot asks for contact details, and the lead reaches the API', async () => {
    const { bot, key } = await botWithKnowledge({ lead_capture_enabled: true }, 'We repair bicycles of every brand within two days.');
    const { page, offOrigin, problems } = await openDemo(bot.id);
    const events = page.evaluate(
      () => new Promise<unknown>((resolve) => (window as unknown as { Parley: { on(name: string, handler: (detail: unknown) => void): void } }).Parley.on('lead', resolve)),
    );
    assert.equal(await page.locator('parley-chat .lead-action button').innerText(), 'Leave your details');
    await sendMessage(page, 'Can someone contact me about a repair?');
    await finishedAnswer(page, 1);
    const form = page.locator('parley-chat .lead-form');
    await form.waitFor({ timeout: WAIT_MS });
    assert.deepEqual(await form.locator('input').evaluateAll((inputs) => inputs.map((i) => [(i as HTMLInputElement).name, (i as HTMLInputElement).type])), [
      ['name', 'text'],
      ['email', 'email'],
      ['phone', 'tel'],
    ]);
    await form.getByLabel('Name').fill('Ada Lovelace');
    await form.getByLabel('Email').fill('ada@example.com');
    await form.getByRole('button', { name: 'Send details' }).click();
    await page.locator('parley-chat .note').getByText('Thank you! We will be in touch.').waitFor({ timeout: WAIT_MS });
    assert.equal(await form.count(), 0);
    assert.deepEqual(await events, { name: 'Ada Lovelace', email: 'ada@example.com' });

    const leads = await t.request('GET', '/api/v1/leads', { token: key.key });
    assert.equal(leads.status, 200);
    assert.equal(leads.body.total, 1);
    assert.equal(leads.body.leads[0].email, 'ada@example.com');
    assert.equal(leads.body.leads[0].name, 'Ada Lovelace');
    assert.equal(leads.body.leads[0].session_id, (await sessionOf(page, bot.id)).sessionId);
    assert.deepEqual(offOrigin, []);
    assert.deepEqual(problems, []);
  });

  it("tells a refused lead form in the widget's words beside the field, which gets the focus", async () => {
    const { bot, key } = await botWithKnowledge({ lead_capture_enabled: true, response_language: 'fr' });
    const { page, offOrigin, problems } = await openDemo(bot.id);
    await page.getByRole('button', { name: 'Laisser vos coordonnées' }).click();
    const form = page.locator('parley-chat .lead-form');
    const email = form.getByLabel('E-mail');
    const send = form.getByRole('button', { name: 'Envoyer mes coordonnées' });

    /** The message the field is described by, and whether it is marked invalid and has the focus. */
    const stateOf = (field: string) =>
      page.evaluate((name) => {
        const root = document.querySelector('parley-chat')!.shadowRoot!;
        const input = root.querySelector<HTMLInputElement>(`.lead-form input[name=${name}]`)!;
        const describedBy = input.getAttribute('aria-describedby');
        const message = describedBy ? root.getElementById(describedBy) : null;
        return {
          invalid: input.getAttribute('aria-invalid'),
          message: message?.textContent ?? null,
          // Right under the field's label, not at the end of the form.
          besideField: message?.previousElementSibling === input.closest('label'),
          focused: root.activeElement === input,
        };
      }, field);

    // Neither an email address nor a phone number.
    await send.click();
    await form.locator('.problem').waitFor({ timeout: WAIT_MS });
    assert.deepEqual(await stateOf('email'), { invalid: 'true', message: 'Veuillez indiquer une adresse e-mail ou un numéro de téléphone.', besideField: true, focused: true });

    // The browser accepts `ada@example`; the service does not.
    await email.fill('ada@example');
    await send.click();
    await form.getByText('Veuillez saisir une adresse e-mail valide.').waitFor({ timeout: WAIT_MS });
    assert.deepEqual(await stateOf('email'), { invalid: 'true', message: 'Veuillez saisir une adresse e-mail valide.', besideField: true, focused: true });
    assert.deepEqual(await stateOf('phone'), { invalid: null, message: null, besideField: false, focused: false });
    assert.equal(await form.locator('.problem').count(), 1);
    assert.doesNotMatch(await form.innerText(), /field|not an email/);
    await page.screenshot({ path: `${ARTIFACT_DIR}/lead-form-invalid-email.png` });

    await email.fill('ada@example.com');
    await send.click();
    await page.locator('parley-chat .note').getByText('Merci ! Nous vous recontacterons.').waitFor({ timeout: WAIT_MS });
    const leads = await t.request('GET', '/api/v1/leads', { token: key.key });
    assert.equal(leads.body.leads[0].email, 'ada@example.com');
    assert.deepEqual(offOrigin, []);
    // The browser logs the two refused requests; nothing else may go wrong.
    assert.deepEqual(
      problems.filter((p) => !/status of 400/.test(p)),
      [],
    );
  });

  it('says kindly when the quota is used up, the provider fails or the network is down, and retries', async () => {
    const { owner, bot } = await botWithKnowledge({ selected_model: 'gpt-4o-mini' });
    const { context, page, offOrigin, problems } = await openDemo(bot.id);

    provider.behave({ kind: 'status', status: 500, message: 'The model is overloaded' });
    await sendMessage(page, 'First question');
    const failure = page.locator('parley-chat .failure');
    await failure.getByText('Sorry, something went wrong while answering.').waitFor({ timeout: WAIT_MS });
    provider.behave({ kind: 'stream', chunks: ['Here ', 'it is.'] });
    await failure.getByRole('button', { name: 'Try again' }).click();
    assert.equal((await (await finishedAnswer(page, 1)).locator('.content').innerText()).trim(), 'Here it is.');
    assert.equal(await failure.count(), 0);

    await context.setOffline(true);
    await sendMessage(page, 'Second question');
    await failure.getByText('you seem to be offline').waitFor({ timeout: WAIT_MS });
    await context.setOffline(false);
    await failure.getByRole('button', { name: 'Try again' }).click();
    await finishedAnswer(page, 2);

    const patched = await t.request('PATCH', `/api/dashboard/bots/${bot.id}`, { token: owner.token, body: { monthly_message_quota: 1 } });
    assert.equal(patched.status, 200, patched.text);
    await sendMessage(page, 'Third question');
    await failure.getByText('answered all the messages it can for now').waitFor({ timeout: WAIT_MS });
    assert.equal(await failure.getByRole('button', { name: 'Try again' }).count(), 1);
    assert.deepEqual(offOrigin, []);
    assert.deepEqual(
      problems.filter((p) => !/ERR_INTERNET_DISCONNECTED/.test(p)),
      [],
    );
  });

  it('gives the host page window.Parley: open, close, send, metadata and events', async () => {
    const { owner, bot } = await botWithKnowledge({}, 'The showroom opens at 10:00.');
    const patched = await t.request('PATCH', `/api/dashboard/bots/${bot.id}`, { token: owner.token, body: { allowed_domains: [new URL(site.url).host] } });
    assert.equal(patched.status, 200, patched.text);
    const { page, offOrigin, problems } = await open(site.pageFor(bot.id));
    await page.waitForFunction(() => 'Parley' in window);
    await page.locator(widget.launcher).waitFor({ timeout: WAIT_MS });
    assert.equal(await page.locator(widget.panel).isVisible(), false, 'closed until opened');

    const seen = await page.evaluate(async () => {
      const parley = (window as unknown as { Parley: any }).Parley;
      const events: string[] = [];
      for (const name of ['opened', 'closed', 'message']) parley.on(name, (detail: any) => events.push(name === 'message' ? `message:${detail.author}` : name));
      parley.setMetadata({ customer_id: 'c-42', plan: 'pro' });
      parley.open();
      await parley.send('When does the showroom open?');
      const open = parley.isOpen();
      parley.close();
      return { events, open };
    });
    assert.deepEqual(seen, { events: ['opened', 'message:visitor', 'message:bot', 'closed'], open: true });
    assert.equal(await page.locator(widget.panel).isVisible(), false);
    assert.match(await page.locator(widget.answers).nth(1).innerText(), /10:00/);

    const { sessionId } = await sessionOf(page, bot.id);
    const session = await t.request('GET', `/api/dashboard/bots/${bot.id}/inbox/${sessionId}`, { token: owner.token });
    assert.deepEqual(session.body.metadata, { customer_id: 'c-42', plan: 'pro' });
    assert.deepEqual(offOrigin, []);
    assert.deepEqual(problems, []);
  });

  it("renders nothing on a page whose origin is not in the bot's allowed_domains", async () => {
    const owner: Owner = await signUp(t);
    const bot = await createBot(t, owner);
    const patched = await t.request('PATCH', `/api/dashboard/bots/${bot.id}`, { token: owner.token, body: { allowed_domains: ['shop.example.com'] } });
    assert.equal(patched.status, 200, patched.text);
    const watched = await watchedPage(browser);
    pages.push(watched);
    const refused = watched.page.waitForResponse((response) => response.url().includes('/api/widget/config'));
    await watched.page.goto(site.pageFor(bot.id));
    assert.equal((await refused).status(), 403);
    await watched.page.waitForFunction(() => !document.querySelector('parley-chat'));
    await watched.page.waitForTimeout(200);
    assert.equal(await watched.page.locator('parley-chat').count(), 0);
    assert.deepEqual(watched.offOrigin, []);
    // The browser logs the refused request; nothing else may go wrong.
    assert.deepEqual(
      watched.problems.filter((p) => !/status of 403/.test(p)),
      [],
    );
  });
});
