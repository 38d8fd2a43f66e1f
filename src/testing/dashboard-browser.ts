/**
 * Browser-test support for the dashboard: Debian's Chromium through playwright-core, contexts that
 * refuse every request to another origin than the test app's, pages that record what goes wrong
 * (a request elsewhere, a CSP violation, a console or page error, a failed request, a 4xx or 5xx
 * answer not expected), signing a member in with their session cookie, and a few locators.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { TestApp } from './test-app.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where screenshots are kept (not committed). */
export const ARTIFACTS = fileURLToPath(new URL('../../.tmp/artifacts/dashboard/', import.meta.url));
export const WAIT_MS = 20_000;

/** Why the browser tests are skipped (a fresh clone without Chromium), or false; CI sets PARLEY_REQUIRE_BROWSER=1 so that they fail instead. */
export const dashboardBrowserSkip = !existsSync(CHROMIUM) && process.env.PARLEY_REQUIRE_BROWSER !== '1' ? `no Chromium at ${CHROMIUM}` : false;

/** Builds the browser code older than its sources (as `npm test` does), then starts Chromium. */
export async function launchDashboardBrowser(): Promise<Browser> {
  const built = spawnSync(process.execPath, ['scripts/build-web.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  assert.equal(built.status, 0, 'the browser code builds');
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** A context that lets requests reach the test app's origin only. */
export async function sameOriginContext(browser: Browser, t: TestApp, viewport = { width: 1280, height: 900 }): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport });
  const origin = new URL(t.url).origin;
  await context.route('**/*', (route) => {
    if (new URL(route.request().url()).origin === origin) return route.continue();
    return route.abort('blockedbyclient');
  });
  return context;
}

export interface Watched {
  page: Page;
  /** Requests to other origins, CSP violations, console and page errors, failed requests, 4xx/5xx answers. */
  problems: string[];
}

/** A page that records everything that goes wrong; `expected` lists answers the test provokes on purpose. */
export async function watchedPage(context: BrowserContext, t: TestApp, expected: RegExp[] = []): Promise<Watched> {
  const page = await context.newPage();
  const origin = new URL(t.url).origin;
  const problems: string[] = [];
  const note = (text: string) => {
    if (!expected.some((re) => re.test(text))) problems.push(text);
  };
  page.on('request', (request) => {
    if (new URL(request.url()).origin !== origin) note(`request to another origin: ${request.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') note(`console error: ${message.text()} at ${message.location().url}`);
  });
  page.on('pageerror', (error) => note(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    // Requests still open when the page moves on (event streams, the preview frame, a list
    // loading) are aborted by the browser: that is not a failure.
    const reason = request.failure()?.errorText ?? '';
    if (reason === 'net::ERR_ABORTED') return;
    note(`failed: ${request.url()} (${reason})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) note(`${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  await page.exposeFunction('reportCspViolation', (text: string) => note(`CSP violation: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation;
      report(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  return { page, problems };
}

/** A watched page in a new context where the member with session `token` is signed in (the cookie the login sets). */
export async function signedInPage(browser: Browser, t: TestApp, token: string, expected: RegExp[] = []): Promise<Watched & { context: BrowserContext }> {
  const context = await sameOriginContext(browser, t);
  await context.addCookies([{ name: 'parley_session', value: token, url: t.url, httpOnly: true, sameSite: 'Lax' }]);
  return { context, ...(await watchedPage(context, t, expected)) };
}

/** Waits for the screen's title. */
export const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name }).waitFor({ timeout: WAIT_MS });

/** Follows a navigation link. */
export const nav = (page: Page, name: string) => page.locator('#sidebar').getByRole('link', { name, exact: true }).click();

/** Keeps a screenshot of the whole page under ARTIFACTS. */
export const shot = (page: Page, name: string) => page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
