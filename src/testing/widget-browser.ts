/**
 * Browser-test support for the chat widget: Debian's Chromium through playwright-core (the flags of
 * docs-pages.browser.test.ts), pages that record every request to a host other than 127.0.0.1 (and
 * refuse it), script errors, Content-Security-Policy violations and dialogs; a second small server
 * on another port that plays a customer's site embedding the widget; and a real PNG to upload.
 */
import http from 'node:http';
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Why the browser tests are skipped (a fresh clone without Chromium), or false; CI sets PARLEY_REQUIRE_BROWSER=1 so that they fail instead. */
export const browserSkip = !existsSync(CHROMIUM) && process.env.PARLEY_REQUIRE_BROWSER !== '1' ? `no Chromium at ${CHROMIUM}` : false;

/** Where screenshots are kept (gitignored). */
export const ARTIFACT_DIR = '.tmp/artifacts/widget';

export const WAIT_MS = 20_000;

/** Chromium with a fresh temporary profile (playwright makes a new user-data dir per launch). */
export function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACT_DIR, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export interface WatchedPage {
  context: BrowserContext;
  page: Page;
  /** Requests to anything but 127.0.0.1 (refused). */
  offOrigin: string[];
  /** Script errors, console errors, CSP violations and dialogs. */
  problems: string[];
}

/** A new context and page that refuse and record requests off 127.0.0.1 and record what goes wrong. */
export async function watchedPage(browser: Browser, options: BrowserContextOptions = {}): Promise<WatchedPage> {
  const context = await browser.newContext({ reducedMotion: 'reduce', ...options });
  const page = await context.newPage();
  const offOrigin: string[] = [];
  const problems: string[] = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1') return route.continue();
    offOrigin.push(url.href);
    return route.abort('blockedbyclient');
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.type()} ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.exposeFunction('reportCspViolation', (text: string) => problems.push(`CSP violation: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation;
      report(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  return { context, page, offOrigin, problems };
}

export interface HostSite {
  /** `http://127.0.0.1:PORT`, another origin than the service's. */
  url: string;
  /** The address of a page embedding the bot's widget. */
  pageFor(botId: string, options?: { aggressiveCss?: boolean; theme?: 'light' | 'dark' }): string;
  close(): Promise<void>;
}

/** The host page's CSS at its most hostile: everything reset, huge text. */
export const AGGRESSIVE_CSS = '* { all: unset !important; font-size: 72px !important }';

/** A customer's site on its own port: a page with some text and the one-line snippet. */
export async function startHostSite(parleyUrl: string): Promise<HostSite> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const bot = url.searchParams.get('bot') ?? '';
    const theme = url.searchParams.get('theme');
    const css = url.searchParams.get('css') === 'aggressive' ? `<style>${AGGRESSIVE_CSS}</style>` : '';
    const themeAttribute = theme === 'light' || theme === 'dark' ? ` data-theme="${theme}"` : '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop</title>${css}</head>
<body><h1>Bicycle shop</h1><p>Welcome to our shop.</p>
<script src="${parleyUrl}/widget.js" data-bot-id="${encodeURIComponent(bot)}"${themeAttribute} async></script>
</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    pageFor(botId, options = {}) {
      const query = new URLSearchParams({ bot: botId });
      if (options.aggressiveCss) query.set('css', 'aggressive');
      if (options.theme) query.set('theme', options.theme);
      return `${url}/?${query}`;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** A real PNG: `size`×`size` pixels of one colour. */
export function solidPng(size = 8, rgb: [number, number, number] = [37, 99, 235]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

/** The widget's parts, reached through its open shadow root (playwright's CSS locators pierce it). */
export const widget = {
  host: 'parley-chat',
  launcher: 'parley-chat .launcher',
  panel: 'parley-chat .panel',
  input: 'parley-chat textarea',
  log: 'parley-chat .log',
  answers: 'parley-chat .log .from-bot',
  operator: 'parley-chat .log .from-operator',
  notice: 'parley-chat .notice',
  fileInput: 'parley-chat input[type=file]',
};

/** Types a message in the widget and sends it with Enter. */
export async function sendMessage(page: Page, text: string): Promise<void> {
  await page.locator(widget.input).fill(text);
  await page.locator(widget.input).press('Enter');
}

/** The last answer once finished (its feedback buttons shown): the locator. */
export async function finishedAnswer(page: Page, count: number) {
  const answer = page.locator(widget.answers).nth(count);
  await answer.locator('.feedback').waitFor({ timeout: WAIT_MS });
  return answer;
}
