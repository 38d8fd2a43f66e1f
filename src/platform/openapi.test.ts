import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../testing/test-app.ts';
import { escapeHtml, renderApiHtml, type ApiDocument } from './openapi-html.ts';

describe('API description', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(async () => {
    await t.close();
  });

  it('serves an OpenAPI 3.1 document of the routes, with their operation ids', async () => {
    const res = await t.request('GET', '/openapi.json');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.match(res.body.openapi, /^3\.1\.\d+$/);
    assert.equal(res.body.info.title, 'Parley API');
    const expected: Array<[string, string, string]> = [
      ['/api/v1/bot', 'get', 'getKeyBot'],
      ['/api/v1/api-keys', 'post', 'createApiKey'],
      ['/api/v1/api-keys', 'get', 'listApiKeys'],
      ['/api/keys', 'post', 'dashboardCreateKey'],
      ['/api/auth/signup', 'post', 'signup'],
      ['/api/dashboard/bots/{bot_id}', 'get', 'dashboardGetBot'],
      ['/api/dashboard/bots/{bot_id}', 'patch', 'dashboardUpdateBot'],
    ];
    for (const [path, method, operationId] of expected) {
      assert.equal(res.body.paths[path]?.[method]?.operationId, operationId, `${method.toUpperCase()} ${path}`);
    }
  });

  it('derives each operation security and scope from the route auth requirement', async () => {
    const { body } = await t.request('GET', '/openapi.json');
    const bot = body.paths['/api/v1/bot'].get;
    assert.deepEqual(bot.security, [{ apiKey: ['read'] }, { oauthToken: ['read'] }]);
    assert.match(bot.description, /Scope: read/);
    assert.deepEqual(body.paths['/api/keys'].post.security, [{ dashboardSession: [] }, { dashboardCookie: [] }]);
    assert.equal(body.paths['/api/auth/signup'].post.security, undefined);
    for (const name of ['apiKey', 'oauthToken', 'dashboardSession', 'dashboardCookie']) {
      assert.ok(body.components.securitySchemes[name], name);
    }
    assert.equal(body.paths['/api/v1/bot'].get.responses['200'].description, 'OK');
  });

  it('leaves the documentation routes out of the document', async () => {
    const { body } = await t.request('GET', '/openapi.json');
    for (const path of ['/openapi.json', '/docs', '/redoc']) assert.equal(body.paths[path], undefined, path);
  });

  for (const path of ['/docs', '/redoc']) {
    it(`renders ${path} as script-free HTML`, async () => {
      const res = await t.request('GET', path);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.ok(res.text.includes('/api/v1/bot'));
      assert.ok(res.text.includes('id="op-getKeyBot"'));
      assert.ok(res.text.includes('href="#op-getKeyBot"'));
      assert.doesNotMatch(res.text, /<script|<style|<link|\sstyle=/i);
    });
  }

  it('opens every operation on /redoc and none on /docs', async () => {
    const docs = await t.request('GET', '/docs');
    const redoc = await t.request('GET', '/redoc');
    assert.doesNotMatch(docs.text, /<details[^>]* open/);
    assert.doesNotMatch(redoc.text, /<details(?![^>]* open)[^>]*>/);
  });

  it('keeps the strict content security policy on all three', async () => {
    for (const path of ['/openapi.json', '/docs', '/redoc']) {
      const res = await t.request('GET', path);
      assert.equal(res.headers.get('content-security-policy'), "default-src 'none'", path);
    }
  });
});

describe('API description HTML', () => {
  it('escapes every text taken from the document', () => {
    const doc: ApiDocument = {
      openapi: '3.1.0',
      info: { title: '<b>T</b>', version: '1"', description: 'a `<i>` b' },
      paths: {
        '/x/<y>': {
          get: {
            operationId: 'op"><script>',
            tags: ['<t>'],
            parameters: [{ name: '<n>', in: 'query', schema: { type: 'string', pattern: '^<a>$', enum: ['"<e>"'] } }],
            responses: { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object', properties: { '<f>': { type: 'string', description: '<d>' } } } } } } },
          },
        },
      },
    };
    const html = renderApiHtml(doc, { layout: 'reference' });
    assert.doesNotMatch(html, /<(b|i|y|t|n|a|e|f|d|script)>/);
    assert.ok(html.includes('&lt;b&gt;T&lt;/b&gt;'));
    assert.ok(html.includes('<code>&lt;i&gt;</code>'));
    assert.ok(html.includes('id="op-op-script-"'));
    assert.equal(escapeHtml(`&<>"'`), '&amp;&lt;&gt;&quot;&#39;');
  });
});
