// The HTTP edge under hostile input, over real sockets: every answer keeps the error contract
// ({detail}, security headers, a request id), nothing hangs, and a connection that cannot go on says so.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../testing/test-app.ts';
import { botWithKey, type Owner } from '../testing/factories.ts';
import { assertErrorContract, openRawConnection, rawRequest, type RawConnection, type RawResponse } from '../testing/raw-http.ts';
import { MAX_JSON_DEPTH } from './http-rules.ts';

async function exchange(t: TestApp, bytes: Buffer, timeoutMs = 3000): Promise<{ res: RawResponse; connection: RawConnection }> {
  const connection = await openRawConnection(t.url);
  connection.send(bytes);
  const res = await connection.nextResponse(timeoutMs);
  assert.ok(res, 'the server closed the connection without an answer');
  return { res, connection };
}

/** A multipart body that stops inside its file part: no closing boundary. */
function truncatedForm(fields: Record<string, string>): { body: string; contentType: string } {
  const boundary = 'parley-edge-boundary';
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  const file = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="notes.txt"\r\ncontent-type: text/plain\r\n\r\nThe file starts here and`;
  return { body: parts.join('') + file, contentType: `multipart/form-data; boundary=${boundary}` };
}

function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}

describe('HTTP edge', () => {
  let t: TestApp;
  let owner: Owner;
  let botId: string;
  let key: string;

  before(async () => {
    t = await startTestApp({ env: { PARLEY_REQUEST_TIMEOUT_MS: '1500', PARLEY_HEADERS_TIMEOUT_MS: '1000', PARLEY_KEEP_ALIVE_TIMEOUT_MS: '800', PARLEY_SSE_HEARTBEAT_MS: '300' } });
    const made = await botWithKey(t, { scopes: ['chat', 'read', 'write'] });
    owner = made.owner;
    botId = made.bot.id;
    key = made.key.key;
  });
  after(() => t.close());

  it('answers a path with broken percent-encoding in the contract, and the connection goes on', async () => {
    for (const path of ['/openapi.json%', '/api/v1/api-keys/%C0%AE%C0%AE%2F', `/api/v1/knowledge/%E0%A4%A`]) {
      const method = path.includes('api-keys') ? 'DELETE' : 'GET';
      const { res, connection } = await exchange(t, rawRequest(method, path, { authorization: `Bearer ${key}` }));
      assertErrorContract(res, 400);
      assert.match(JSON.parse(res.body).detail, /not a valid URL/);
      connection.send(rawRequest('GET', '/healthz'));
      const next = await connection.nextResponse();
      assert.equal(next?.status, 200, 'the next request on the same connection is answered');
      connection.destroy();
    }
    const { res, connection } = await exchange(t, rawRequest('GET', `/api/dashboard/bots/${'x'.repeat(2000)}/knowledge`, { authorization: `Bearer ${owner.token}` }));
    assertErrorContract(res, 414);
    connection.destroy();
  });

  it("answers bytes Node's parser refuses in the contract, says Connection: close and closes", async () => {
    const cases: [string, Buffer, number][] = [
      ['a header line without a colon', Buffer.from('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nno colon here\r\n\r\n'), 400],
      ['a control character in a header value', Buffer.from('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Bad: a\u0001b\r\n\r\n'), 400],
      ['a broken request line', Buffer.from('GET\r\n\r\n'), 400],
      ['headers larger than the parser takes', rawRequest('GET', '/healthz', { 'x-big': 'a'.repeat(20_000) }), 431],
      ['a chunked body with a broken chunk size', rawRequest('POST', '/api/auth/login', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, 'zz\r\n{}\r\n0\r\n\r\n'), 400],
    ];
    for (const [name, bytes, status] of cases) {
      const { res, connection } = await exchange(t, bytes);
      assertErrorContract(res, status);
      assert.equal(res.headers.connection, 'close', name);
      assert.equal(await connection.closed(2000), true, `${name}: the server closes the connection`);
    }
  });

  it(`refuses JSON nested deeper than ${MAX_JSON_DEPTH} levels with a 400 that names the limit, on every JSON route`, async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const deepObject = '{"a":'.repeat(3000) + '1' + '}'.repeat(3000);
    for (const [path, token] of [['/api/auth/login', undefined], ['/api/v1/chat', key], ['/api/v1/knowledge', key], [`/api/dashboard/bots/${botId}`, owner.token]] as const) {
      for (const body of [deep, deepObject]) {
        const method = path.startsWith('/api/dashboard/bots/') ? 'PATCH' : 'POST';
        const { res, connection } = await exchange(t, rawRequest(method, path, { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) }, body));
        assertErrorContract(res, 400);
        assert.match(JSON.parse(res.body).detail, new RegExp(`more than ${MAX_JSON_DEPTH} levels`));
        connection.destroy();
      }
    }
    // Nesting within the limit reaches the route's own validation.
    const fine = { text: 'hello', metadata: JSON.parse('{"a":'.repeat(10) + '1' + '}'.repeat(10)) };
    const res = await t.request('POST', '/api/v1/chat', { token: key, body: fine });
    assert.notEqual(res.status, 500);
    assert.doesNotMatch(String(res.body?.detail ?? ''), /levels/);
  });

  it('answers a multipart upload that ends before its closing boundary with a prompt 400 and leaves no file behind', async () => {
    const mediaDir = join(t.env.DATA_DIR!, 'media');
    const before = filesUnder(mediaDir).length;
    const media = truncatedForm({ session_id: 'edge-upload' });
    const started = Date.now();
    const one = await exchange(t, rawRequest('POST', '/api/widget/chat/media', { 'content-type': media.contentType, authorization: `Bearer ${botId}` }, media.body));
    assertErrorContract(one.res, 400);
    assert.match(JSON.parse(one.res.body).detail, /ends before its closing boundary/);
    one.connection.destroy();

    const knowledge = truncatedForm({ name: 'Notes' });
    const two = await exchange(t, rawRequest('POST', `/api/dashboard/bots/${botId}/knowledge/files`, { 'content-type': knowledge.contentType, authorization: `Bearer ${owner.token}` }, knowledge.body));
    assertErrorContract(two.res, 400);
    assert.match(JSON.parse(two.res.body).detail, /ends before its closing boundary/);
    two.connection.destroy();
    assert.ok(Date.now() - started < 2000, 'both answered at once');
    assert.equal(filesUnder(mediaDir).length, before, 'no partial file is kept');
    const sources = await t.request('GET', `/api/dashboard/bots/${botId}/knowledge`, { token: owner.token });
    assert.equal(sources.body.total, 0);
  });

  it('answers 408 and closes when a body or the headers never finish arriving (slow clients)', async () => {
    const form = truncatedForm({ session_id: 'edge-slow' });
    // Announces more bytes than it sends, then waits.
    const connection = await openRawConnection(t.url);
    connection.send(rawRequest('POST', '/api/widget/chat/media', { 'content-type': form.contentType, 'content-length': '100000', authorization: `Bearer ${botId}` }, form.body));
    const started = Date.now();
    const res = await connection.nextResponse(6000);
    assert.ok(res, 'an answer arrives');
    assertErrorContract(res, 408);
    assert.equal(await connection.closed(2000), true);
    assert.ok(Date.now() - started < 5000);

    const slowHeaders = await openRawConnection(t.url);
    slowHeaders.send('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n');
    const late = await slowHeaders.nextResponse(6000);
    assert.ok(late === null || late.status === 408, `headers that never end get 408 or a closed socket, not ${late?.status}`);
    assert.equal(await slowHeaders.closed(2000), true);
  });

  it('closes a kept-alive connection that stays idle past the keep-alive timeout', async () => {
    const connection = await openRawConnection(t.url);
    connection.send(rawRequest('GET', '/healthz'));
    assert.equal((await connection.nextResponse())?.status, 200);
    assert.equal(await connection.closed(3000), true);
  });

  it('keeps an event stream open past the request and keep-alive timeouts', async () => {
    const chat = await t.request('POST', '/api/v1/chat', { token: key, body: { text: 'Hello', session_id: 'edge-stream' } });
    assert.equal(chat.status, 200, chat.text);
    const connection = await openRawConnection(t.url);
    // The session was opened with the API key, which follows it (a bot id reaches only visitors' sessions).
    connection.send(rawRequest('GET', '/api/widget/sessions/edge-stream/events', { accept: 'text/event-stream', authorization: `Bearer ${key}` }));
    const res = await connection.nextResponse();
    assert.equal(res?.status, 200);
    const atStart = connection.bytesReceived();
    assert.equal(await connection.closed(3000), false, 'the stream is still open after twice the request timeout');
    assert.ok(connection.bytesReceived() > atStart, 'heartbeats kept arriving');
    connection.destroy();
  });
});
