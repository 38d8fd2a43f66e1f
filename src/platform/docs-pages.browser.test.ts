// The documentation pages in a real browser (Debian's Chromium through playwright-core): they
// render, "Try it out" reaches the API with a bearer credential, and nothing asks for another
// origin, breaks the Content-Security-Policy or logs an error on the way.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../testing/test-app.ts';
import { botWithKey } from '../testing/factories.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const WAIT_MS = 20_000;

interface WatchedPage {
  page: Page;
  /** Requests to other origins (refused), CSP violations, console errors, failed requests. */
  problems: string[];
}

// A fresh clone may lack Chromium (`npm test` then says so and skips); CI installs it and sets
// PARLEY_REQUIRE_BROWSER=1, so that there a missing browser fails instead.
const browserMissing = !existsSync(CHROMIUM) && process.env.PARLEY_REQUIRE_BROWSER !== '1';

describe('Documentation pages in a browser', { skip: browserMissing ? `no Chromium at ${CHROMIUM}` : false }, () => {
  let t: TestApp;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  before(async () => {
    t = await startTestApp();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await t?.close();
  });

  /** A fresh page that refuses and records every request to another origin, and records anything that goes wrong. */
  async function watchedPage(): Promise<WatchedPage> {
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    const origin = new URL(t.url).origin;
    const problems: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (new URL(url).origin === origin) return route.continue();
      problems.push(`request to another origin: ${url}`);
      return route.abort('blockedbyclient');
    });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()} (${request.failure()?.errorText})`));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
    });
    await page.exposeFunction('reportCspViolation', (text: string) => problems.push(`CSP violation: ${text}`));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const report = (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation;
        report(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}`);
      });
    });
    return { page, problems };
  }

  it('renders /docs with the operations, and tries one out with an API key', async () => {
    const { key, bot } = await botWithKey(t);
    const { page, problems } = await watchedPage();
    await page.goto(`${t.url}/docs`);

    const chat = page.locator('#operations-chat-chat .opblock-summary');
    await chat.waitFor({ timeout: WAIT_MS });
    assert.match(await chat.innerText(), /\/api\/v1\/chat[\s\S]*Send a message and get the whole reply/);
    assert.ok((await page.locator('.opblock').count()) > 50, 'every operation is listed');

    // Authorize with the key (the document's apiKey scheme), then call GET /api/v1/bot from the page.
    await page.locator('.auth-wrapper button.authorize').click();
    const scheme = page.locator('.auth-container', { has: page.locator('h4 code', { hasText: /^apiKey$/ }) });
    await scheme.locator('input').fill(key.key);
    await scheme.locator('button.authorize').click();
    await page.locator('.modal-ux button.btn-done').first().click();

    const operation = page.locator('#operations-bot-getKeyBot');
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.try-out__btn').click();
    await operation.locator('button.execute').click();
    const answer = operation.locator('.live-responses-table tr.response');
    await answer.waitFor({ timeout: WAIT_MS });
    assert.equal((await answer.locator('.response-col_status').innerText()).trim(), '200');
    assert.ok((await answer.locator('.response-col_description').innerText()).includes(bot.id), 'the answer names the bot');

    assert.deepEqual(problems, []);
  });

  it('renders /redoc with the API title and its operations', async () => {
    const { page, problems } = await watchedPage();
    await page.goto(`${t.url}/redoc`);

    await page.locator('h1', { hasText: 'Parley API' }).waitFor({ timeout: WAIT_MS });
    const chat = page.locator('h2', { hasText: 'Send a message and get the whole reply' });
    await chat.waitFor({ timeout: WAIT_MS });
    assert.ok(await chat.isVisible(), 'the chat operation is shown');
    // The search runs in a worker made from a blob, which the page's policy allows.
    await page.locator('input[placeholder="Search..."]').fill('webhook');
    await page.locator('[data-role="search:results"] li').first().waitFor({ timeout: WAIT_MS });

    assert.deepEqual(problems, []);
  });
});
