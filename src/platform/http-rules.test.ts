import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp, type TestResponse } from '../testing/test-app.ts';
import { botWithKey, signUp } from '../testing/factories.ts';
import { SECURITY_HEADERS, stripControlChars } from './http-rules.ts';

function assertSecurityHeaders(res: TestResponse): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) assert.equal(res.headers.get(name), value, name);
  assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
}

describe('rules for every response', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('puts the security headers on a 200, 401, 404 and 405', async () => {
    const { key } = await botWithKey(t);
    const ok = await t.request('GET', '/api/v1/bot', { token: key.key });
    assert.equal(ok.status, 200);
    assertSecurityHeaders(ok);

    const unauthorized = await t.request('GET', '/api/v1/bot');
    assert.equal(unauthorized.status, 401);
    assertSecurityHeaders(unauthorized);

    const notFound = await t.request('GET', '/api/v1/nothing-here');
    assert.equal(notFound.status, 404);
    assert.deepEqual(notFound.body, { detail: 'Not Found' });
    assertSecurityHeaders(notFound);

    const wrongMethod = await t.request('DELETE', '/api/v1/bot', { token: key.key });
    assert.equal(wrongMethod.status, 405);
    assert.equal(typeof wrongMethod.body.detail, 'string');
    assert.match(wrongMethod.headers.get('allow') ?? '', /GET/);
    assertSecurityHeaders(wrongMethod);
  });

  it('echoes a well-formed X-Request-ID and replaces a malformed one', async () => {
    const echoed = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'trace-42.abc_DEF' } });
    assert.equal(echoed.headers.get('x-request-id'), 'trace-42.abc_DEF');

    for (const bad of ['has spaces', 'x'.repeat(129), 'semi;colon', '']) {
      const replaced = await t.request('GET', '/healthz', { headers: { 'x-request-id': bad } });
      const id = replaced.headers.get('x-request-id') ?? '';
      assert.notEqual(id, bad);
      // A fresh UUID, time-ordered (version 7) so that the audit log's index on it grows at one end.
      assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('generates a distinct id for every request', async () => {
    const a = await t.request('GET', '/healthz');
    const b = await t.request('GET', '/healthz');
    assert.notEqual(a.headers.get('x-request-id'), b.headers.get('x-request-id'));
  });

  it('answers a validation failure with 400 and a detail naming the field', async () => {
    const owner = await signUp(t);
    const res = await t.request('POST', '/api/dashboard/bots', { token: owner.token, body: { name: 'ok', primary_color: 'blue' } });
    assert.equal(res.status, 400);
    assert.match(res.body.detail, /primary_color/);

    const missing = await t.request('POST', '/api/dashboard/bots', { token: owner.token, body: {} });
    assert.equal(missing.status, 400);
    assert.match(missing.body.detail, /'name' is required/);

    const wrongType = await t.request('POST', '/api/dashboard/bots', { token: owner.token, body: { name: 42 } });
    assert.equal(wrongType.status, 400);
    assert.match(wrongType.body.detail, /name/);
  });

  it('answers malformed JSON with 400 and an unsupported content type with 415', async () => {
    const owner = await signUp(t);
    const broken = await t.request('POST', '/api/dashboard/bots', { token: owner.token, body: '{"name": ' });
    assert.equal(broken.status, 400);
    assert.equal(broken.body.detail, 'Request body is not valid JSON');

    // Many clients send the JSON content type on every request: with no body, a DELETE is a DELETE,
    // and a route that needs a body names the field.
    const bot = await t.request('POST', '/api/dashboard/bots', { token: owner.token, body: { name: 'Empty body' } });
    const emptyDelete = await t.request('DELETE', `/api/dashboard/bots/${bot.body.id}`, { token: owner.token, headers: { 'content-type': 'application/json' } });
    assert.ok(emptyDelete.status < 300, emptyDelete.text);
    const emptyCreate = await t.request('POST', '/api/dashboard/bots', { token: owner.token, body: '' });
    assert.deepEqual([emptyCreate.status, emptyCreate.body.detail], [400, "field 'name' is required"]);
    const key = await t.request('POST', '/api/keys', { token: owner.token, body: { bot_id: (await t.request('POST', '/api/dashboard/bots', { token: owner.token, body: { name: 'Chat' } })).body.id, name: 'k' } });
    const emptyChat = await t.request('POST', '/api/v1/chat', { token: key.body.key, body: '' });
    assert.deepEqual([emptyChat.status, emptyChat.body.detail], [400, "field 'text' is required"]);

    const xml = await t.request('POST', '/api/dashboard/bots', { token: owner.token, body: '<bot/>', headers: { 'content-type': 'application/xml' } });
    assert.equal(xml.status, 415);
    assert.equal(typeof xml.body.detail, 'string');
    // Plain text is no exception: JSON written as text/plain is an unsupported type too.
    const plain = await t.request('POST', '/api/dashboard/bots', { token: owner.token, body: '{"name":"x"}', headers: { 'content-type': 'text/plain' } });
    assert.equal(plain.status, 415);
    assert.match(plain.body.detail, /text\/plain/);
  });

  it('strips control characters from text fields but keeps newlines and tabs', async () => {
    const owner = await signUp(t);
    const res = await t.request('POST', '/api/dashboard/bots', {
      token: owner.token,
      body: { name: 'Sup\u0000port\u0007 bot', welcome_message: 'Hello\n\tthere\u001b[31m\u007f' },
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.name, 'Support bot');
    assert.equal(res.body.welcome_message, 'Hello\n\tthere[31m');
  });

  it('strips control characters inside nested values', () => {
    assert.deepEqual(stripControlChars({ a: ['x\u0001y', { b: 'c\u0085d' }], n: 1, z: null }), { a: ['xy', { b: 'cd' }], n: 1, z: null });
  });
});
