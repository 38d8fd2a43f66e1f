// How the widget looks and behaves for every visitor, in a real browser: the three style presets,
// light and dark (system or data-theme), the full-screen panel on phones, the colour's contrast,
// keyboard and screen-reader use (on phones too), the demo page's layout beside the panel, the
// widget's own words in the visitor's language, and a host page's hostile CSS. Screenshots of every
// preset, theme and device are kept under .tmp/artifacts/widget/.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { createBot, createKey, signUp, type Owner } from '../../testing/factories.ts';
import { readEventStream } from '../../testing/event-stream.ts';
import { ARTIFACT_DIR, browserSkip, launchChromium, startHostSite, WAIT_MS, watchedPage, widget, type HostSite, type WatchedPage } from '../../testing/widget-browser.ts';

const KNOWLEDGE = [
  '# Opening hours',
  '',
  'The Leipzig showroom is open Monday to Saturday from 10:00 to 19:00.',
  '',
  '# Repairs',
  '',
  'A standard service costs 89 EUR and includes brake and gear adjustment.',
].join('\n');

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const SMALL_PHONE = { width: 375, height: 667 };

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** WCAG contrast of white on an `rgb(r, g, b)` colour. */
function contrastWithWhite(css: string): number {
  const [r, g, b] = (css.match(/\d+/g) ?? []).map(Number).map((c) => {
    const v = c / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05);
}

describe('The chat widget: appearance and access', { skip: browserSkip }, () => {
  let t: TestApp;
  let site: HostSite;
  let browser: Browser;
  let owner: Owner;
  const pages: WatchedPage[] = [];

  before(async () => {
    t = await startTestApp({ env: { PARLEY_RATE_WIDGET_PER_MIN: '10000' } });
    site = await startHostSite(t.url);
    browser = await launchChromium();
    owner = await signUp(t);
  });
  after(async () => {
    for (const p of pages) await p.context.close();
    await browser?.close();
    await site?.close();
    await t?.close();
  });

  /** A bot with knowledge, shown on the host site (or any origin). */
  async function makeBot(body: Record<string, unknown> = {}) {
    const bot = await createBot(t, owner, { name: 'Velo Support', welcome_message: 'Hi! Ask me about opening hours and repairs.', ...body });
    const key = await createKey(t, owner, bot.id, { scopes: ['chat', 'read', 'write'] });
    const added = await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'text', name: 'Showroom', content: KNOWLEDGE } });
    assert.equal(added.status, 200, added.text);
    return bot;
  }

  /** A conversation made through the stream, which a page then finds in localStorage and shows. */
  async function seedConversation(botId: string) {
    const visitorId = randomUUID();
    const sessionId = randomUUID();
    for (const text of ['When is the showroom open?', 'How much is a standard service?']) {
      const res = await readEventStream(t, '/api/widget/chat/stream', { token: botId, body: { text, session_id: sessionId, visitor_id: visitorId } });
      assert.equal(res.events.at(-1)?.event, 'done');
    }
    return { visitorId, sessionId };
  }

  async function open(url: string, options: Parameters<typeof watchedPage>[1] = {}, stored?: { botId: string; visitorId: string; sessionId: string }) {
    const watched = await watchedPage(browser, options);
    pages.push(watched);
    if (stored) {
      await watched.context.addInitScript(
        ([key, value]) => localStorage.setItem(key!, value!),
        [`parley:${stored.botId}`, JSON.stringify({ visitorId: stored.visitorId, sessionId: stored.sessionId })],
      );
    }
    await watched.page.goto(url);
    // Loaded: the launcher shows, or (a session restored open on a phone) the panel that hides it.
    await watched.page.locator(widget.launcher).or(watched.page.locator(widget.panel)).filter({ visible: true }).first().waitFor({ timeout: WAIT_MS });
    return watched;
  }

  const box = async (page: Page, selector: string) => (await page.locator(selector).boundingBox())!;
  const computed = (page: Page, selector: string, property: string) =>
    page.locator(selector).first().evaluate((el, name) => getComputedStyle(el).getPropertyValue(name), property);

  it('draws each style preset in light and dark, on desktop and phone (screenshots kept)', async () => {
    const presets = [
      { style: 'classic', color: '#0f766e' },
      { style: 'bubble', color: '#7c3aed' },
      { style: 'minimal', color: '#2563eb' },
    ];
    const launchers = new Map<string, { width: number; height: number; radius: string }>();
    for (const { style, color } of presets) {
      const bot = await makeBot({ widget_style: style, primary_color: color });
      const conversation = await seedConversation(bot.id);
      for (const colorScheme of ['light', 'dark'] as const) {
        for (const [device, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
          const { page, offOrigin, problems } = await open(`${t.url}/demo/${bot.id}`, { viewport, colorScheme }, { botId: bot.id, ...conversation });
          await page.locator(widget.answers).nth(2).locator('.feedback').waitFor({ timeout: WAIT_MS });
          assert.equal(await page.locator(widget.host).getAttribute('data-style'), style);
          const panel = await box(page, widget.panel);
          if (device === 'phone') assert.deepEqual(panel, { x: 0, y: 0, ...PHONE }, 'the panel fills a phone screen');
          else assert.ok(panel.width < 420 && panel.height <= 600, `a corner panel on desktop: ${JSON.stringify(panel)}`);
          assert.equal(await computed(page, widget.panel, 'background-color'), colorScheme === 'dark' ? 'rgb(17, 24, 39)' : 'rgb(255, 255, 255)');
          await page.screenshot({ path: `${ARTIFACT_DIR}/${style}-${colorScheme}-${device}.png` });
          if (colorScheme === 'light' && device === 'desktop') {
            // Closed, to compare the launchers.
            await page.locator('parley-chat .header button').click();
            const launcher = await box(page, widget.launcher);
            launchers.set(style, { width: Math.round(launcher.width), height: Math.round(launcher.height), radius: await computed(page, widget.launcher, 'border-radius') });
            await page.screenshot({ path: `${ARTIFACT_DIR}/${style}-closed.png` });
          }
          assert.deepEqual(offOrigin, []);
          assert.deepEqual(problems, []);
        }
      }
    }
    assert.deepEqual(launchers.get('classic'), { width: 56, height: 56, radius: '50%' });
    assert.ok(launchers.get('bubble')!.width > 80, 'bubble: a labelled pill');
    assert.deepEqual(launchers.get('minimal'), { width: 48, height: 48, radius: '10px' });
  });

  it('shows an unknown style as classic, and follows data-theme over the system theme', async () => {
    const bot = await makeBot({ widget_style: 'fancy' });
    const light = await open(site.pageFor(bot.id, { theme: 'light' }), { colorScheme: 'dark' });
    assert.equal(await light.page.locator(widget.host).getAttribute('data-style'), 'classic');
    await light.page.evaluate(() => (window as unknown as { Parley: { open(): void } }).Parley.open());
    assert.equal(await computed(light.page, widget.panel, 'background-color'), 'rgb(255, 255, 255)');
    const dark = await open(site.pageFor(bot.id, { theme: 'dark' }), { colorScheme: 'light' });
    await dark.page.evaluate(() => (window as unknown as { Parley: { open(): void } }).Parley.open());
    assert.equal(await computed(dark.page, widget.panel, 'background-color'), 'rgb(17, 24, 39)');
    await dark.page.screenshot({ path: `${ARTIFACT_DIR}/data-theme-dark.png` });
  });

  it("darkens a bot colour that white text cannot be read on, and keeps one it can", async () => {
    const yellow = await makeBot({ primary_color: '#facc15' });
    const { page } = await open(site.pageFor(yellow.id));
    const darkened = await computed(page, widget.launcher, 'background-color');
    assert.notEqual(darkened, 'rgb(250, 204, 21)');
    assert.ok(contrastWithWhite(darkened) >= 4.5, `${darkened}: ${contrastWithWhite(darkened).toFixed(2)}:1`);
    assert.ok(contrastWithWhite('rgb(250, 204, 21)') < 4.5, 'the test colour needed it');

    const blue = await makeBot({ primary_color: '#1d4ed8' });
    const other = await open(site.pageFor(blue.id));
    assert.equal(await computed(other.page, widget.launcher, 'background-color'), 'rgb(29, 78, 216)');
  });

  it('works from the keyboard with a screen reader: named dialog and log, focus in and back, Escape', async () => {
    const bot = await makeBot();
    const { page, problems } = await open(site.pageFor(bot.id));
    const launcher = page.getByRole('button', { name: 'Open chat with Velo Support' });
    // The script loads async: wait for the launcher before moving the focus to it.
    await launcher.waitFor();
    assert.equal(await launcher.getAttribute('aria-expanded'), 'false');
    await page.keyboard.press('Tab');
    await page.waitForFunction(() => document.querySelector('parley-chat')?.shadowRoot?.activeElement?.className === 'launcher', undefined, { timeout: WAIT_MS });
    assert.notEqual(await computed(page, widget.launcher, 'outline-style'), 'none', 'the focus is visible');

    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Velo Support' });
    await dialog.waitFor();
    await page.waitForFunction(() => document.querySelector('parley-chat')?.shadowRoot?.activeElement?.tagName === 'TEXTAREA', undefined, { timeout: WAIT_MS });
    // Beside the page the launcher stays, named apart from the panel's own ×.
    assert.equal(await dialog.getAttribute('aria-modal'), 'false');
    assert.equal(await page.locator(widget.launcher).getAttribute('aria-label'), 'Hide chat');
    assert.equal(await page.locator(widget.launcher).getAttribute('aria-expanded'), 'true');
    const log = page.getByRole('log', { name: 'Conversation' });
    assert.equal(await log.getAttribute('aria-live'), 'polite');
    assert.equal(await page.getByRole('textbox', { name: 'Your message' }).count(), 1);
    for (const name of ['Close chat', 'Attach a file', 'Send message']) assert.ok((await dialog.getByRole('button', { name }).count()) >= 1, name);
    // Every button inside has a name.
    const unnamed = await page.locator('parley-chat button').evaluateAll((buttons) => buttons.filter((b) => !(b.getAttribute('aria-label') || b.textContent?.trim())).length);
    assert.equal(unnamed, 0);

    await page.keyboard.type('When is the showroom open?');
    await page.keyboard.press('Enter');
    await page.locator(widget.answers).nth(1).locator('.feedback').waitFor({ timeout: WAIT_MS });
    assert.match(await log.innerText(), /Monday to Saturday from 10:00 to 19:00/);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.waitForFunction(() => document.querySelector('parley-chat')?.shadowRoot?.activeElement?.className === 'launcher', undefined, { timeout: WAIT_MS });
    assert.equal(await page.getByRole('button', { name: 'Open chat with Velo Support' }).getAttribute('aria-expanded'), 'false');
    assert.deepEqual(problems, []);
  });

  it('keeps the keyboard in the panel where it fills a phone screen and covers the launcher', async () => {
    const bot = await makeBot();
    const { page, problems } = await open(site.pageFor(bot.id), { viewport: SMALL_PHONE });
    // The page beneath the panel has controls of its own, before and after the widget.
    await page.evaluate(() => {
      document.body.insertAdjacentHTML('afterbegin', '<a href="#top">Top</a>');
      document.body.insertAdjacentHTML('beforeend', '<a href="#end">End</a>');
    });
    await page.getByRole('button', { name: 'Open chat with Velo Support' }).click();
    const dialog = page.getByRole('dialog', { name: 'Velo Support' });
    await dialog.waitFor();
    assert.notEqual(await page.locator(widget.launcher).getAttribute('aria-label'), await dialog.getByRole('button', { name: 'Close chat' }).getAttribute('aria-label'));
    assert.equal(await page.getByRole('button', { name: 'Close chat', exact: true }).count(), 1);
    await page.locator(widget.input).fill('Hello');

    /** The focused control: its name, whether it is in the panel, and whether it is what lies on top at its centre. */
    const focused = () =>
      page.evaluate(() => {
        const root = document.querySelector('parley-chat')!.shadowRoot!;
        const el = root.activeElement as HTMLElement | null;
        if (document.activeElement !== root.host || !el) return { name: `page: ${document.activeElement?.outerHTML.slice(0, 40)}`, inPanel: false, onTop: false };
        const r = el.getBoundingClientRect();
        const hit = root.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return { name: el.getAttribute('aria-label') ?? el.tagName, inPanel: !!el.closest('.panel'), onTop: !!hit && el.contains(hit) };
      });
    const seen: string[] = [];
    for (const key of [...Array(7).fill('Tab'), ...Array(7).fill('Shift+Tab')]) {
      await page.keyboard.press(key);
      const now = await focused();
      assert.ok(now.inPanel && now.onTop, `${key} moved the focus to ${now.name}, under the panel or outside it`);
      seen.push(now.name);
    }
    // Round the panel's controls both ways, the send button (over the launcher) and the × included.
    assert.ok(seen.includes('Close chat') && seen.includes('Send message'), seen.join(' → '));
    assert.equal(await page.locator(widget.launcher).isVisible(), false, 'the launcher under the panel is hidden');
    assert.equal(await dialog.getAttribute('aria-modal'), 'true', 'the page beneath is out of reach');
    await page.screenshot({ path: `${ARTIFACT_DIR}/phone-keyboard.png` });

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.waitForFunction(() => document.querySelector('parley-chat')?.shadowRoot?.activeElement?.className === 'launcher', undefined, { timeout: WAIT_MS });
    const launcher = page.getByRole('button', { name: 'Open chat with Velo Support' });
    assert.equal(await launcher.isVisible(), true);
    assert.equal(await launcher.getAttribute('aria-expanded'), 'false');
    assert.deepEqual(problems, []);
  });

  it('lays the demo page out beside the open widget, so that the snippet to copy is not under it', async () => {
    const bot = await makeBot();
    const { page, problems } = await open(`${t.url}/demo/${bot.id}`, { viewport: DESKTOP });
    for (const viewport of [DESKTOP, { width: 1024, height: 768 }, { width: 1366, height: 768 }, { width: 1920, height: 1080 }]) {
      await page.setViewportSize(viewport);
      await page.locator(widget.panel).waitFor();
      const panel = await box(page, widget.panel);
      // The snippet, and the intro and every other part of the page.
      assert.ok(!intersects(await box(page, 'main pre'), panel), `${viewport.width}x${viewport.height}: the snippet is under the panel`);
      for (const part of await page.locator('main > *').all()) {
        const content = (await part.boundingBox())!;
        assert.ok(!intersects(content, panel), `${viewport.width}x${viewport.height}: ${await part.innerText()} ${JSON.stringify(content)} under the panel ${JSON.stringify(panel)}`);
      }
      if (viewport === DESKTOP) await page.screenshot({ path: `${ARTIFACT_DIR}/demo-page-desktop.png` });
    }
    // On a phone the snippet wraps within the screen.
    await page.setViewportSize(SMALL_PHONE);
    const snippet = await box(page, 'main pre');
    assert.ok(snippet.x >= 0 && snippet.x + snippet.width <= SMALL_PHONE.width, JSON.stringify(snippet));
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), SMALL_PHONE.width);
    assert.deepEqual(problems, []);
  });

  /** The session the page keeps for a bot (its localStorage entry). */
  const sessionOf = async (page: Page, botId: string) =>
    (await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{}') as { sessionId?: string }, `parley:${botId}`)).sessionId;

  it("speaks the bot's response_language in its own words, even in a browser set to another language", async () => {
    const bot = await makeBot({ response_language: 'de', lead_capture_enabled: true });
    const { page, offOrigin, problems } = await open(site.pageFor(bot.id), { locale: 'fr-FR' });
    assert.equal(await page.evaluate(() => navigator.language), 'fr-FR');
    assert.equal(await page.locator(widget.host).getAttribute('lang'), 'de');
    await page.getByRole('button', { name: 'Chat mit Velo Support öffnen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Velo Support' });
    await dialog.waitFor();
    assert.equal(await page.locator(widget.panel).evaluate((panel) => panel.matches(':lang(de)')), true, 'the language reaches into the shadow root');
    for (const name of ['Chat schließen', 'Datei anhängen', 'Nachricht senden', 'Kontaktdaten hinterlassen']) assert.equal(await dialog.getByRole('button', { name }).count(), 1, name);
    assert.equal(await page.getByRole('log', { name: 'Unterhaltung' }).count(), 1);
    const input = page.getByRole('textbox', { name: 'Ihre Nachricht' });
    assert.equal(await input.getAttribute('placeholder'), 'Nachricht schreiben …');

    await dialog.getByRole('button', { name: 'Kontaktdaten hinterlassen' }).click();
    const form = page.locator('parley-chat .lead-form');
    assert.equal(await form.locator('h3').innerText(), 'Hinterlassen Sie Ihre Kontaktdaten, wir melden uns bei Ihnen');
    assert.deepEqual(await form.locator('label').allInnerTexts(), ['Name', 'E-Mail', 'Telefon']);
    assert.deepEqual(await form.getByRole('button').allInnerTexts(), ['Nicht jetzt', 'Daten senden']);
    await form.getByRole('button', { name: 'Nicht jetzt' }).click();

    await input.fill('When is the showroom open?');
    await input.press('Enter');
    const answer = page.locator(widget.answers).nth(1);
    await answer.locator('.feedback').waitFor({ timeout: WAIT_MS });
    assert.equal(await answer.locator('.sources .author').innerText(), 'Quellen');
    const feedback = answer.getByRole('group', { name: 'War diese Antwort hilfreich?' });
    assert.equal(await feedback.getByRole('button', { name: 'Hilfreich', exact: true }).count(), 1);
    assert.equal(await feedback.getByRole('button', { name: 'Nicht hilfreich' }).count(), 1);

    await page.locator(widget.fileInput).setInputFiles({ name: 'tool.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ') });
    await page.locator('parley-chat .upload.failed').getByText(/^Dieser Dateityp kann nicht gesendet werden\. Erlaubt: \.\w+ /).waitFor();

    const sessionId = await sessionOf(page, bot.id);
    const takeover = await t.request('POST', `/api/dashboard/bots/${bot.id}/inbox/${sessionId}/takeover`, { token: owner.token });
    assert.equal(takeover.status, 200, takeover.text);
    await page.locator(widget.notice).getByText('Eine Person aus dem Team ist dem Gespräch beigetreten und antwortet Ihnen hier.').waitFor({ timeout: WAIT_MS });

    await page.screenshot({ path: `${ARTIFACT_DIR}/words-de.png` });
    await dialog.getByRole('button', { name: 'Chat schließen' }).click();
    await page.getByRole('button', { name: 'Chat mit Velo Support öffnen' }).waitFor();
    assert.deepEqual(offOrigin, []);
    assert.deepEqual(problems, []);
  });

  it("speaks the browser's language when the bot sets none", async () => {
    const bot = await makeBot();
    const { context, page, offOrigin, problems } = await open(site.pageFor(bot.id), { locale: 'fr-FR' });
    assert.equal(await page.locator(widget.host).getAttribute('lang'), 'fr');
    await page.getByRole('button', { name: 'Ouvrir la discussion avec Velo Support' }).click();
    const dialog = page.getByRole('dialog', { name: 'Velo Support' });
    await dialog.waitFor();
    for (const name of ['Fermer la discussion', 'Joindre un fichier', 'Envoyer le message']) assert.equal(await dialog.getByRole('button', { name }).count(), 1, name);
    const input = page.getByRole('textbox', { name: 'Votre message' });
    assert.equal(await input.getAttribute('placeholder'), 'Écrivez un message…');

    await context.setOffline(true);
    await input.fill('When is the showroom open?');
    await input.press('Enter');
    const failure = page.locator('parley-chat .failure');
    await failure.getByText('Le message n’a pas pu être envoyé : vous semblez être hors ligne.').waitFor({ timeout: WAIT_MS });
    await context.setOffline(false);
    await failure.getByRole('button', { name: 'Réessayer' }).click();
    await page.locator(widget.answers).nth(1).locator('.feedback').waitFor({ timeout: WAIT_MS });
    assert.equal(await page.locator(`${widget.answers} .sources .author`).innerText(), 'Sources');
    assert.equal(await page.getByRole('button', { name: 'Utile', exact: true }).count(), 1);
    await page.screenshot({ path: `${ARTIFACT_DIR}/words-fr.png` });
    assert.deepEqual(offOrigin, []);
    assert.deepEqual(
      problems.filter((p) => !/ERR_INTERNET_DISCONNECTED/.test(p)),
      [],
    );
  });

  it("is untouched by the host page's `* { all: unset !important; font-size: 72px !important }`", async () => {
    const bot = await makeBot();
    const conversation = await seedConversation(bot.id);
    const measure = async (aggressiveCss: boolean) => {
      const { page, problems } = await open(site.pageFor(bot.id, { aggressiveCss }), { viewport: DESKTOP }, { botId: bot.id, ...conversation });
      const closedLauncher = await box(page, widget.launcher);
      await page.evaluate(() => (window as unknown as { Parley: { open(): void } }).Parley.open());
      await page.locator(widget.answers).nth(2).locator('.feedback').waitFor({ timeout: WAIT_MS });
      const sizes: Record<string, string> = {};
      for (const selector of [widget.panel, 'parley-chat .title', widget.input, 'parley-chat .from-visitor', 'parley-chat .from-bot .content']) {
        sizes[selector] = `${await computed(page, selector, 'font-size')} ${await computed(page, selector, 'font-family')}`;
      }
      const result = {
        closedLauncher,
        launcher: await box(page, widget.launcher),
        panel: await box(page, widget.panel),
        header: await box(page, 'parley-chat .header'),
        input: await box(page, widget.input),
        sizes,
        pageFontSize: await computed(page, 'h1', 'font-size'),
      };
      await page.screenshot({ path: `${ARTIFACT_DIR}/host-css-${aggressiveCss ? 'aggressive' : 'plain'}.png` });
      assert.deepEqual(problems, []);
      return result;
    };
    const plain = await measure(false);
    const hostile = await measure(true);
    assert.equal(hostile.pageFontSize, '72px', "the host page's own text did change");
    assert.notEqual(plain.pageFontSize, '72px');
    const { pageFontSize: _a, ...widgetPlain } = plain;
    const { pageFontSize: _b, ...widgetHostile } = hostile;
    assert.deepEqual(widgetHostile, widgetPlain);
    assert.match(plain.sizes[widget.panel]!, /^15px /);
  });
});
