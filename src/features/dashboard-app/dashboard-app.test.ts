// The dashboard's pages and files as the service serves them: `/` sends to `/app`, every `/app`
// path answers the HTML shell under the strict policy, the built files come from a fixed list with
// versions, ETags and gzip; and the dashboard's typed API description matches the live document.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { dashboardApiTypes, type OpenApiDocument } from '../../../scripts/dashboard-api-types.ts';
import { SHELL_POLICY } from './dashboard-app.routes.ts';

const SCRIPT = 'console.log("dashboard");\n';

/** A GET whose body is not decompressed (fetch would). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}
const STYLE = 'body { color: black; }\n';
const GENERATED = new URL('../../../web/dashboard/src/api/schema.gen.ts', import.meta.url);

describe('dashboard web app: pages and files', () => {
  let t: TestApp;
  let dist: string;
  before(async () => {
    dist = mkdtempSync(join(tmpdir(), 'parley-dashboard-dist-'));
    writeFileSync(join(dist, 'app.js'), SCRIPT);
    writeFileSync(join(dist, 'app.css'), STYLE);
    t = await startTestApp({ app: { dashboardDistDir: dist } });
  });
  after(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(t.url + path, { redirect: 'manual', headers });

  it('sends / to /app', async () => {
    const res = await get('/');
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/app');
  });

  it('answers the shell at /app and every path under it, under the strict policy', async () => {
    for (const path of ['/app', '/app/', '/app/login?next=%2Foauth%2Fauthorize', '/app/bots/0195f2d1-4e8a-7b3c-9d2e-6f1a8b3c5d7e/inbox/some%20session', '/app/team']) {
      const res = await get(path);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(res.headers.get('content-security-policy'), SHELL_POLICY);
      assert.equal(res.headers.get('x-frame-options'), 'DENY');
      assert.equal(res.headers.get('cache-control'), 'no-cache');
      const html = await res.text();
      assert.match(html, /<div id="app">/);
      assert.match(html, /<script src="\/app\/assets\/app\.js\?v=[A-Za-z0-9_-]{16}" defer><\/script>/);
      assert.match(html, /<link rel="stylesheet" href="\/app\/assets\/app\.css\?v=[A-Za-z0-9_-]{16}">/);
      assert.doesNotMatch(html, /<script>|<style>| style=/, 'no inline script or style');
    }
    assert.match(SHELL_POLICY, /script-src 'self'; style-src 'self';/);
    assert.match(SHELL_POLICY, /frame-ancestors 'none'/);
  });

  it('serves the built files with versions, ETags, gzip and a fixed list', async () => {
    const html = await (await get('/app')).text();
    const scriptUrl = /src="([^"]+app\.js[^"]+)"/.exec(html)![1]!;
    const pinned = await get(scriptUrl);
    assert.equal(pinned.status, 200);
    assert.match(pinned.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.equal(pinned.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(pinned.headers.get('content-security-policy'), "default-src 'none'");
    assert.equal(await pinned.text(), SCRIPT);

    const plain = await get('/app/assets/app.css', { 'accept-encoding': 'identity' });
    assert.equal(plain.headers.get('cache-control'), 'no-cache');
    const etag = plain.headers.get('etag')!;
    assert.equal(await plain.text(), STYLE);
    const again = await get('/app/assets/app.css', { 'if-none-match': etag, 'accept-encoding': 'identity' });
    assert.equal(again.status, 304);

    const zipped = await rawGet(`${t.url}/app/assets/app.js`, { 'accept-encoding': 'gzip' });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(zipped.body).toString(), SCRIPT);

    for (const path of ['/app/assets/index.html', '/app/assets/app.js.map', '/app/assets/..%2Fapp.js', '/app/assets/sub/app.js']) {
      const res = await get(path);
      assert.equal(res.status, 404, path);
      assert.deepEqual(await res.json(), { detail: 'Not Found' });
    }
  });

  it('serves a rebuilt file at once, under its new version', async () => {
    const before = /app\.css\?v=([^"]+)"/.exec(await (await get('/app')).text())![1];
    writeFileSync(join(dist, 'app.css'), 'body { color: navy; }\n');
    const after = /app\.css\?v=([^"]+)"/.exec(await (await get('/app')).text())![1];
    assert.notEqual(after, before);
    assert.equal(await (await get(`/app/assets/app.css?v=${after}`)).text(), 'body { color: navy; }\n');
    writeFileSync(join(dist, 'app.css'), STYLE);
  });

  it('says plainly when the dashboard has not been built', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'parley-dashboard-empty-'));
    const bare = await startTestApp({ app: { dashboardDistDir: empty } });
    try {
      const res = await fetch(`${bare.url}/app/bots`);
      assert.equal(res.status, 503);
      assert.match(await res.text(), /The dashboard has not been built[\s\S]*npm run build:web/);
      assert.equal((await fetch(`${bare.url}/app/assets/app.js`)).status, 404);
    } finally {
      await bare.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("keeps the dashboard's typed API description in step with the API document", async () => {
    const res = await t.request('GET', '/openapi.json');
    const expected = dashboardApiTypes(res.body as OpenApiDocument);
    const actual = readFileSync(GENERATED, 'utf8');
    assert.ok(actual === expected, 'web/dashboard/src/api/schema.gen.ts is stale: run `npm run generate:dashboard-api`');
  });
});
