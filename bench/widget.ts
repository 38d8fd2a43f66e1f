/**
 * Widget figures for `npm run bench`: the size of `/widget.js` as served (raw and gzipped; the
 * budget is 50 kB gzipped) and, in headless Chromium against the running service, the time from
 * the start of a page load to the widget's launcher answering clicks (the `parley:launcher-ready`
 * mark the widget sets once it has rendered with its handlers), over loads of the demo page in a
 * fresh browser context each (cold: script and configuration fetched) and reloads in one context
 * (warm: the script from the HTTP cache).
 */
import http from 'node:http';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../src/testing/widget-browser.ts';
import { row, type LatencyRow } from './knowledge.ts';
import type { Fixtures } from './bench.ts';

const LOADS = Number(process.env.BENCH_WIDGET_LOADS ?? 20);
const WARM_UPS = 2;
/** The size budget of the embed script, gzipped. */
export const WIDGET_GZIP_BUDGET_BYTES = 50 * 1024;

export interface WidgetFigures {
  rawBytes: number;
  gzipBytes: number;
  /** Navigation start to launcher ready; empty when Chromium is missing. */
  latency: LatencyRow[];
  skipped?: string;
}

/** The body's length on the wire for this Accept-Encoding. */
function servedBytes(url: string, encoding: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': encoding } }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      })
      .on('error', reject);
  });
}

/** Milliseconds from navigation start to the launcher being ready, and from the load event to it. */
async function launcherTimes(page: Page): Promise<{ fromStart: number; fromLoad: number }> {
  await page.locator('parley-chat .launcher').waitFor({ timeout: 20_000 });
  return page.evaluate(async () => {
    while (performance.getEntriesByName('parley:launcher-ready').length === 0) await new Promise((r) => setTimeout(r, 5));
    const ready = performance.getEntriesByName('parley:launcher-ready')[0]!.startTime;
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    while (navigation.loadEventEnd === 0) await new Promise((r) => setTimeout(r, 5));
    return { fromStart: ready, fromLoad: ready - navigation.loadEventEnd };
  });
}

export async function measureWidget(fixtures: Fixtures): Promise<WidgetFigures> {
  // The bench measures the current sources: rebuild the browser code if it is older.
  spawnSync(process.execPath, ['scripts/build-web.mjs', '--if-stale'], { cwd: fileURLToPath(new URL('..', import.meta.url)), stdio: 'inherit' });
  const raw = await servedBytes(`${fixtures.parleyUrl}/widget.js`, 'identity');
  if (raw.status !== 200) throw new Error(`widget bench: /widget.js answered ${raw.status} (run npm run build:web)`);
  const gzipped = await servedBytes(`${fixtures.parleyUrl}/widget.js`, 'gzip');
  const figures: WidgetFigures = { rawBytes: raw.bytes, gzipBytes: gzipped.bytes, latency: [] };
  if (!existsSync(CHROMIUM)) return { ...figures, skipped: `no Chromium at ${CHROMIUM}` };

  const bot = await fixtures.api<{ id: string }>('POST', '/api/dashboard/bots', { token: fixtures.token, body: { name: 'Widget bench' } });
  const demo = `${fixtures.parleyUrl}/demo/${bot.id}`;
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const cold: number[] = [];
    const coldFromLoad: number[] = [];
    for (let i = 0; i < LOADS + WARM_UPS; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(demo);
      const times = await launcherTimes(page);
      if (i >= WARM_UPS) cold.push(times.fromStart), coldFromLoad.push(times.fromLoad);
      await context.close();
    }
    const warm: number[] = [];
    const context = await browser.newContext();
    const page = await context.newPage();
    for (let i = 0; i < LOADS + WARM_UPS; i++) {
      await page.goto(demo);
      const times = await launcherTimes(page);
      if (i >= WARM_UPS) warm.push(times.fromStart);
    }
    await context.close();
    figures.latency = [
      row('widget: page start to launcher ready (new context)', cold),
      row('widget: load event to launcher ready (new context)', coldFromLoad),
      row('widget: page start to launcher ready (reload, cached script)', warm),
    ];
  } finally {
    await browser?.close();
  }
  return figures;
}

/** Prints the figures; returns the size target (PASS/FAIL) and the `widget` part of BENCH_JSON. */
export function reportWidget(figures: WidgetFigures) {
  const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
  console.log(`widget.js: ${figures.rawBytes} bytes (${kB(figures.rawBytes)}) raw, ${figures.gzipBytes} bytes (${kB(figures.gzipBytes)}) gzipped`);
  const pass = figures.gzipBytes < WIDGET_GZIP_BUDGET_BYTES;
  console.log(`  target: widget.js gzipped < 50 kB ... ${kB(figures.gzipBytes)}  ${pass ? 'PASS' : 'FAIL'}`);
  if (figures.skipped) console.log(`  launcher timing skipped: ${figures.skipped}`);
  for (const l of figures.latency) console.log(`${l.name}: p50 ${l.p50.toFixed(1)} ms, p95 ${l.p95.toFixed(1)} ms (${l.samples} loads)`);
  return {
    target: { scenario: 'widget.js', target: 'gzipped < 50 kB (51,200 bytes)', value: figures.gzipBytes, pass },
    json: {
      raw_bytes: figures.rawBytes,
      gzip_bytes: figures.gzipBytes,
      ...(figures.skipped && { skipped: figures.skipped }),
      launcher_ready: figures.latency.map((l) => ({ name: l.name, samples: l.samples, p50_ms: Math.round(l.p50 * 10) / 10, p95_ms: Math.round(l.p95 * 10) / 10 })),
    },
  };
}
