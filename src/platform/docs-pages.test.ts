// The documentation pages over HTTP: what they load, from where, and under which
// Content-Security-Policy. docs-pages.browser.test.ts renders them in Chromium.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../testing/test-app.ts';
import { assertErrorContract, openRawConnection, rawRequest } from '../testing/raw-http.ts';
import { botWithKey } from '../testing/factories.ts';
import { SECURITY_HEADERS } from './http-rules.ts';
import { REDOC_POLICY, SWAGGER_UI_POLICY } from './docs-pages.ts';

const STRICT = "default-src 'none'";
const TYPES: Record<string, RegExp> = {
  js: /^text\/javascript; charset=utf-8$/,
  css: /^text\/css; charset=utf-8$/,
  png: /^image\/png$/,
  json: /^application\/json; charset=utf-8$/,
};

/** Every URL a page names in `src` or `href`. */
function referencesOf(html: string): string[] {
  return [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
}

/** A CSP as directive name → sources. */
function parsePolicy(policy: string): Map<string, string[]> {
  return new Map(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name!, sources]));
}

describe('Documentation pages', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => {
    await t.close();
  });

  for (const [path, policy, script] of [
    ['/docs', SWAGGER_UI_POLICY, 'swagger-ui-bundle.js'],
    ['/redoc', REDOC_POLICY, 'redoc.standalone.js'],
  ] as const) {
    it(`serves ${path} with a policy that runs its own scripts and reaches no other origin`, async () => {
      const res = await t.request('GET', path);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html; charset=utf-8$/);
      assert.equal(res.headers.get('content-security-policy'), policy);
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (name !== 'content-security-policy') assert.equal(res.headers.get(name), value, name);

      const directives = parsePolicy(policy);
      assert.deepEqual(directives.get('default-src'), ["'none'"]);
      assert.deepEqual(directives.get('script-src'), ["'self'"]);
      assert.deepEqual(directives.get('connect-src'), ["'self'"]);
      assert.deepEqual(directives.get('frame-ancestors'), ["'none'"]);
      for (const [name, sources] of directives) {
        for (const source of sources) {
          assert.match(source, /^(?:'none'|'self'|'unsafe-inline'|data:|blob:)$/, `${name} ${source}`);
        }
      }

      // No inline script, no handler attribute: everything that runs is a file of this service.
      assert.doesNotMatch(res.text, /<script(?![^>]*\ssrc=)[^>]*>/i);
      assert.doesNotMatch(res.text, /<script[^>]*>[^<]+<\/script>/i);
      assert.doesNotMatch(res.text, /\son[a-z]+=/i);
      assert.ok(res.text.includes(`/docs/assets/${script}?v=`), `${path} loads ${script}`);
    });

    it(`names only same-origin assets on ${path}, which answer with their content type`, async () => {
      const page = await t.request('GET', path);
      const references = referencesOf(page.text);
      assert.ok(references.length >= 4, references.join(' '));
      for (const reference of references) {
        assert.match(reference, /^\/(?!\/)/, `${reference} is a path on this origin`);
        const res = await fetch(t.url + reference);
        const extension = new URL(reference, t.url).pathname.split('.').pop()!;
        assert.equal(res.status, 200, reference);
        assert.match(res.headers.get('content-type') ?? '', TYPES[extension]!, reference);
        assert.equal(res.headers.get('x-content-type-options'), 'nosniff', reference);
        assert.ok((await res.arrayBuffer()).byteLength > 0, reference);
      }
    });
  }

  it("keeps default-src 'none' on every other response, the assets included", async () => {
    const { key } = await botWithKey(t);
    const requests: Array<[string, string, string | undefined, number]> = [
      ['GET', '/openapi.json', undefined, 200],
      ['GET', '/healthz', undefined, 200],
      ['GET', '/api/v1/bot', key.key, 200],
      ['GET', '/api/v1/bot', undefined, 401],
      ['GET', '/docs/assets/swagger-ui-bundle.js', undefined, 200],
      ['GET', '/docs/assets/swagger-ui-init.js', undefined, 200],
      ['GET', '/docs/assets/redoc.standalone.js', undefined, 200],
      ['GET', '/docs/assets/', undefined, 404],
      ['GET', '/redoc/anything', undefined, 404],
      ['POST', '/docs', undefined, 405],
    ];
    for (const [method, path, token, status] of requests) {
      const res = await t.request(method, path, { token });
      assert.equal(res.status, status, `${method} ${path}`);
      assert.equal(res.headers.get('content-security-policy'), STRICT, `${method} ${path}`);
    }
  });

  it('sends /docs/ and /redoc/ to the page', async () => {
    for (const path of ['/docs', '/redoc']) {
      const res = await fetch(`${t.url}${path}/`, { redirect: 'manual' });
      assert.equal(res.status, 301, path);
      assert.equal(res.headers.get('location'), path);
      assert.equal(res.headers.get('content-security-policy'), STRICT, path);
    }
  });

  it('serves only the files on its list', async () => {
    const connection = await openRawConnection(t.url);
    try {
      for (const target of [
        '/docs/assets/../../package.json',
        '/docs/assets/%2e%2e/%2e%2e/package.json',
        '/docs/assets/..%2f..%2fpackage.json',
        '/docs/assets/index.html',
        '/docs/assets/swagger-initializer.js',
        '/docs/assets/swagger-ui-bundle.js.map',
        '/docs/assets/oauth2-redirect.html',
        '/docs/assets/SWAGGER-UI.CSS',
      ]) {
        connection.send(rawRequest('GET', target));
        const res = await connection.nextResponse(5000);
        assert.ok(res, target);
        assertErrorContract(res, 404);
      }
    } finally {
      connection.destroy();
    }
  });

  it('lets browsers keep a versioned asset for good and revalidate the others', async () => {
    const page = await t.request('GET', '/docs');
    assert.equal(page.headers.get('cache-control'), 'no-cache');
    const versioned = referencesOf(page.text).find((r) => r.includes('swagger-ui-init.js'))!;
    const pinned = await fetch(t.url + versioned);
    assert.equal(pinned.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    const plain = await fetch(t.url + '/docs/assets/swagger-ui-init.js', { headers: { 'accept-encoding': 'identity' } });
    assert.equal(plain.headers.get('cache-control'), 'no-cache');
    const etag = plain.headers.get('etag');
    assert.match(etag ?? '', /^"[\w-]+"$/);
    const again = await fetch(t.url + '/docs/assets/swagger-ui-init.js', { headers: { 'accept-encoding': 'identity', 'if-none-match': etag! } });
    assert.equal(again.status, 304);
    const other = await fetch(t.url + '/docs/assets/swagger-ui-init.js?v=stale', { headers: { 'accept-encoding': 'identity' } });
    assert.equal(other.headers.get('cache-control'), 'no-cache');
    assert.equal(other.status, 200);
  });

  it('compresses text assets for clients that accept gzip', async () => {
    const connection = await openRawConnection(t.url);
    try {
      connection.send(rawRequest('GET', '/docs/assets/swagger-ui-init.js', { 'accept-encoding': 'gzip, br' }));
      const zipped = await connection.nextResponse(5000);
      assert.equal(zipped?.headers['content-encoding'], 'gzip');
      assert.equal(zipped?.headers.vary, 'accept-encoding');
      connection.send(rawRequest('GET', '/docs/assets/swagger-ui-init.js', { 'accept-encoding': 'gzip;q=0, identity' }));
      const plain = await connection.nextResponse(5000);
      assert.equal(plain?.headers['content-encoding'], undefined);
      assert.match(plain?.body ?? '', /SwaggerUIBundle\(/);
    } finally {
      connection.destroy();
    }
    const res = await fetch(t.url + '/docs/assets/redoc-init.js', { headers: { 'accept-encoding': 'gzip' } });
    assert.match(res.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.match(await res.text(), /Redoc\.init\(\s*'\/openapi\.json'/);
  });

  it('points the Redoc bundle at no other origin', async () => {
    const res = await fetch(t.url + '/docs/assets/redoc.standalone.js');
    const text = await res.text();
    assert.ok(text.length > 500_000, 'the whole bundle');
    assert.doesNotMatch(text, /cdn\.redoc\.ly/);
  });
});
