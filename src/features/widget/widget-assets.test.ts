// The widget's files over HTTP: the built script (type, caching, gzip, size budget, 503 when not
// built) and the demo page (the snippet, its Content-Security-Policy, escaping).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { createBot, signUp } from '../../testing/factories.ts';
import { DEMO_PAGE_POLICY, NOT_BUILT_DETAIL, WIDGET_MAX_AGE_SEC, widgetAssetRoutes } from './widget-assets.routes.ts';

/** The size the embed script must stay under, gzipped (the budget). */
const MAX_GZIPPED_BYTES = 50 * 1024;

describe('GET /widget.js', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('serves the built script with a short cache life, an ETag, and any origin allowed', async () => {
    const res = await fetch(`${t.url}/widget.js`, { headers: { 'accept-encoding': 'identity' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(res.headers.get('cache-control'), `public, max-age=${WIDGET_MAX_AGE_SEC}`);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.equal(res.headers.get('content-encoding'), null);
    assert.match(res.headers.get('etag') ?? '', /^"[\w-]{16}"$/);
    const body = await res.text();
    assert.match(body, /data-bot-id/, 'the embed script');
    assert.match(body, /^"use strict";\(\(\)=>\{/, 'one minified IIFE');

    const again = await fetch(`${t.url}/widget.js`, { headers: { 'accept-encoding': 'identity', 'if-none-match': res.headers.get('etag')! } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
  });

  it('is gzipped when the client accepts it, and stays under 50 kB gzipped', async () => {
    const raw = Buffer.from(await (await fetch(`${t.url}/widget.js`, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer());
    // Node's fetch would inflate the body itself; a bare request shows the bytes on the wire.
    const res = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
      import('node:http').then(({ get }) => get(`${t.url}/widget.js`, { headers: { 'accept-encoding': 'gzip, deflate' } }, resolve).on('error', reject));
    });
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    const wire = Buffer.concat(chunks);
    assert.equal(res.headers['content-encoding'], 'gzip');
    assert.equal(res.headers.vary, 'accept-encoding');
    assert.match(String(res.headers.etag), /-gz"$/, 'the gzipped bytes have their own ETag');
    assert.deepEqual(gunzipSync(wire), raw);
    assert.ok(wire.length < MAX_GZIPPED_BYTES, `${wire.length} bytes gzipped`);
    assert.ok(gzipSync(raw, { level: 9 }).length < MAX_GZIPPED_BYTES);
  });

  it('answers HEAD like GET, without the body', async () => {
    const res = await fetch(`${t.url}/widget.js`, { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/javascript; charset=utf-8');
  });

  it('answers 503 with what to run when the widget has not been built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'parley-no-widget-'));
    const app = Fastify();
    await app.register(widgetAssetRoutes({ bots: { get: async () => assert.fail('no bot is read') }, publicUrl: 'http://127.0.0.1:3000', distDir: empty }));
    try {
      const res = await app.inject({ method: 'GET', url: '/widget.js' });
      assert.equal(res.statusCode, 503);
      assert.deepEqual(res.json(), { detail: NOT_BUILT_DETAIL });
      assert.match(NOT_BUILT_DETAIL, /npm run build:web/);
    } finally {
      await app.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('GET /demo/{bot_id}', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { PUBLIC_URL: 'https://chat.example.com' } });
  });
  after(() => t.close());

  it('embeds the widget with the one-line snippet and shows the snippet with PUBLIC_URL', async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner, { name: 'Shop <b>"&" Co</b>' });
    const res = await t.request('GET', `/demo/${bot.id}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.ok(res.text.includes(`<script src="/widget.js" data-bot-id="${bot.id}" data-open async></script>`), 'the widget is embedded');
    assert.ok(res.text.includes(`&lt;script src=&quot;https://chat.example.com/widget.js&quot; data-bot-id=&quot;${bot.id}&quot; async&gt;&lt;/script&gt;`), 'the snippet is shown');
    assert.ok(res.text.includes('<h1>Shop &lt;b&gt;&quot;&amp;&quot; Co&lt;/b&gt;</h1>'), 'the name is escaped');
    assert.ok(!res.text.includes('allowed_domains</code> does not include'), 'no note when any origin is allowed');
    // One <script> (the widget's), no inline script or handler.
    assert.equal(res.text.match(/<script/g)?.length, 1);
    assert.doesNotMatch(res.text, /\son\w+=/);
  });

  it("has a policy with this origin's scripts only, and the page's own style by its hash", async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner);
    const res = await t.request('GET', `/demo/${bot.id}`);
    const policy = res.headers.get('content-security-policy') ?? '';
    assert.equal(policy, DEMO_PAGE_POLICY);
    const directives = new Map(policy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    assert.deepEqual(directives.get('script-src'), ["'self'"]);
    assert.deepEqual(directives.get('connect-src'), ["'self'"]);
    assert.deepEqual(directives.get('img-src'), ["'self'", 'data:', 'blob:']);
    assert.deepEqual(directives.get('default-src'), ["'none'"]);
    const style = /<style>([\s\S]*?)<\/style>/.exec(res.text)![1]!;
    const hash = createHash('sha256').update(style).digest('base64');
    assert.deepEqual(directives.get('style-src'), ["'self'", `'sha256-${hash}'`]);
    // The dashboard may frame it as a preview; other sites may not.
    assert.deepEqual(directives.get('frame-ancestors'), ["'self'"]);
    assert.equal(res.headers.get('x-frame-options'), 'SAMEORIGIN');
  });

  it("says why the widget stays away when the bot's allowed_domains leaves out this service", async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner);
    const patched = await t.request('PATCH', `/api/dashboard/bots/${bot.id}`, { token: owner.token, body: { allowed_domains: ['shop.example.com'] } });
    assert.equal(patched.status, 200, patched.text);
    const res = await t.request('GET', `/demo/${bot.id}`);
    assert.equal(res.status, 200);
    assert.match(res.text, /allowed_domains<\/code> does not include this service/);
  });

  it('answers 404 for an unknown bot and 400 for an id that is not one', async () => {
    const unknown = await t.request('GET', '/demo/00000000-0000-4000-8000-000000000000');
    assert.equal(unknown.status, 404);
    assert.equal(typeof unknown.body.detail, 'string');
    const invalid = await t.request('GET', '/demo/not-a-bot');
    assert.equal(invalid.status, 400);
    assert.match(invalid.body.detail, /bot_id/);
  });
});
