// Property-based test of the whole HTTP surface (fast-check): generated requests against every
// documented route, over real keep-alive sockets. After each one: an answer arrives within a few
// seconds, it is never 5xx, an error keeps the contract ({detail}, security headers, request id),
// the next request on the same connection is answered (or the server said Connection: close and
// closed it), and a refused request changed no stored row.
//
// CI runs FUZZ_RUNS cases (default 120) with a fixed seed; `npm run fuzz` runs many more, and
// FUZZ_SEED replays a failure.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from '../testing/test-app.ts';
import { botWithKey } from '../testing/factories.ts';
import { assertErrorContract, openRawConnection, rawRequest, type RawConnection } from '../testing/raw-http.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 120);
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);

const TABLES = [
  'accounts', 'users', 'memberships', 'invitations', 'dashboard_sessions', 'bots', 'api_keys', 'knowledge_sources', 'knowledge_passages',
  'knowledge_vectors', 'bot_provider_keys', 'chat_sessions', 'chat_messages', 'media_files', 'monthly_messages',
];

interface Credentials {
  key: string;
  ownerToken: string;
  botId: string;
  sourceId: string;
  keyId: string;
}

/** Odd text for a path parameter or a query value: broken or overlong encodings, dots, nulls, unicode. */
const oddSegment = fc.oneof(
  fc.constantFrom('%', '%C0%AE%C0%AE%2F', '%00', '%E0%A4%A', '..%2F..%2F', '%2e%2e', '%ZZ', '\u00e9t\u00e9', '%F0%9F%98%80', 'a%2Fb', '-1', '0', 'null'),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.string({ unit: 'binary', maxLength: 20 }).map((s) => encodeURIComponent(s).replace(/%2F/g, '/')),
  fc.constant('x'.repeat(3000)),
);

const jsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v)),
  fc.dictionary(fc.constantFrom('text', 'session_id', 'name', 'content', 'url', 'scopes', 'bot_id', 'rating', 'metadata', '__proto__', 'constructor'), fc.jsonValue({ maxDepth: 3 })).map((v) => JSON.stringify(v)),
  fc.integer({ min: 33, max: 4000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.constantFrom('{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}', '{', '', 'null', '"\\ud800"', '{"text":"\u0000\u0001\u009f"}'),
);

const multipartBody = fc.record({ field: fc.string({ maxLength: 20 }), file: fc.string({ maxLength: 200 }), cut: fc.nat(400) }).map(({ field, file, cut }) => {
  const boundary = 'fuzz-boundary';
  const whole = `--${boundary}\r\ncontent-disposition: form-data; name="session_id"\r\n\r\n${field}\r\n--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="f.txt"\r\ncontent-type: text/plain\r\n\r\n${file}\r\n--${boundary}--\r\n`;
  return { body: whole.slice(0, Math.min(whole.length, cut + 10)), contentType: `multipart/form-data; boundary=${boundary}` };
});

interface FuzzRequest {
  method: string;
  route: string;
  params: (string | null)[];
  query: string;
  auth: 'none' | 'key' | 'owner' | 'bot' | 'garbage' | 'basic';
  body: { kind: 'none' } | { kind: 'json'; text: string; contentType: string } | { kind: 'multipart'; body: string; contentType: string } | { kind: 'bytes'; bytes: Uint8Array; contentType: string };
  extraHeaders: Record<string, string>;
}

function requestArbitrary(routes: { method: string; path: string }[]): fc.Arbitrary<FuzzRequest> {
  return fc.record({
    method: fc.oneof({ weight: 4, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND') }),
    route: fc.constantFrom(...routes.map((r) => `${r.method} ${r.path}`)),
    // null: the real id of the thing the parameter names.
    params: fc.array(fc.option(oddSegment, { nil: null, freq: 2 }), { minLength: 3, maxLength: 3 }),
    query: fc.oneof(fc.constant(''), oddSegment.map((v) => `?days=${v}&limit=${v}&bot_id=${v}`), fc.constant('?%%%=1&a[b]=2')),
    auth: fc.constantFrom('none', 'key', 'owner', 'bot', 'garbage', 'basic'),
    body: fc.oneof(
      fc.constant({ kind: 'none' as const }),
      fc.record({ kind: fc.constant('json' as const), text: jsonBody, contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'application/vnd.api+json') }),
      multipartBody.map((m) => ({ kind: 'multipart' as const, ...m })),
      fc.record({ kind: fc.constant('bytes' as const), bytes: fc.uint8Array({ maxLength: 300 }), contentType: fc.constantFrom('application/octet-stream', 'application/json', 'multipart/form-data', 'multipart/form-data; boundary=') }),
    ),
    extraHeaders: fc.dictionary(fc.constantFrom('x-request-id', 'origin', 'accept', 'x-forwarded-for', 'x-bot-id', 'cookie', 'accept-encoding'), fc.string({ unit: 'grapheme-ascii', maxLength: 60 }), { maxKeys: 3 }),
  });
}

function credentialFor(auth: FuzzRequest['auth'], c: Credentials): string | undefined {
  switch (auth) {
    case 'key':
      return `Bearer ${c.key}`;
    case 'owner':
      return `Bearer ${c.ownerToken}`;
    case 'bot':
      return `Bearer ${c.botId}`;
    case 'garbage':
      return 'Bearer parley_sk_not-a-real-key';
    case 'basic':
      return 'Basic dXNlcjpwYXNz';
    case 'none':
      return undefined;
  }
}

/** The request's bytes: the route's template with its parameters filled in, and the generated body. */
function bytesOf(r: FuzzRequest, c: Credentials): { bytes: Buffer; method: string; target: string } {
  const [routeMethod, template] = r.route.split(' ') as [string, string];
  const method = r.method || routeMethod;
  let i = 0;
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const odd = r.params[i++ % r.params.length];
    if (odd !== null && odd !== undefined) return odd;
    return name === 'bot_id' ? c.botId : name === 'source_id' ? c.sourceId : name === 'key_id' ? c.keyId : 'fuzz-session';
  });
  const target = path + r.query;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(r.extraHeaders)) headers[name] = value.replace(/[\r\n]/g, '');
  const credential = credentialFor(r.auth, c);
  if (credential) headers.authorization = credential;
  let body: Buffer | string = '';
  if (r.body.kind === 'json') {
    headers['content-type'] = r.body.contentType;
    body = r.body.text;
  } else if (r.body.kind === 'multipart') {
    headers['content-type'] = r.body.contentType;
    body = r.body.body;
  } else if (r.body.kind === 'bytes') {
    headers['content-type'] = r.body.contentType;
    body = Buffer.from(r.body.bytes);
  }
  if (method !== 'GET' && method !== 'HEAD' && body.length === 0) headers['content-length'] = '0';
  return { bytes: rawRequest(method, target, headers, body), method, target };
}

describe('HTTP surface under generated requests', () => {
  let t: TestApp;
  let credentials: Credentials;
  let routes: { method: string; path: string }[];

  before(async () => {
    t = await startTestApp();
    const { owner, bot, key } = await botWithKey(t, { scopes: ['chat', 'read', 'write'] });
    const source = await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'text', name: 'Hours', content: 'We open at nine on weekdays.' } });
    assert.equal(source.status, 200, source.text);
    credentials = { key: key.key, ownerToken: owner.token, botId: bot.id, keyId: key.id, sourceId: source.body.source.id };
    const doc = await t.request('GET', '/openapi.json');
    routes = Object.entries(doc.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).filter((m) => m !== 'parameters').map((m) => ({ method: m.toUpperCase(), path })),
    );
    routes.push({ method: 'GET', path: '/openapi.json' }, { method: 'GET', path: '/docs' }, { method: 'GET', path: '/healthz' }, { method: 'GET', path: '/nowhere/{x}' });
    assert.ok(routes.length > 30, `the OpenAPI document lists the routes (${routes.length})`);
  });
  after(() => t.close());

  async function snapshot(): Promise<string> {
    const db = t.runtime.database.db;
    const counts = await Promise.all(TABLES.map((table) => sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db).then((r) => Number(r.rows[0]!.n))));
    const bots = await db.selectFrom('bots').select(['id', 'updated_at', 'paused']).orderBy('id').execute();
    const keys = await db.selectFrom('api_keys').select(['id', 'revoked_at']).orderBy('id').execute();
    return JSON.stringify({ counts, bots, keys });
  }

  it(`answers ${RUNS} generated requests within the contract (seed ${SEED})`, async () => {
    let connection: RawConnection | undefined;
    try {
      await fc.assert(
        fc.asyncProperty(requestArbitrary(routes), async (generated) => {
          connection ??= await openRawConnection(t.url);
          const { bytes, method, target } = bytesOf(generated, credentials);
          const label = `${method} ${target.slice(0, 120)}`;
          const before = await snapshot();
          connection.send(bytes);
          const res = await connection.nextResponse(5000, method === 'HEAD');
          assert.ok(res, `${label}: the connection closed without an answer`);
          assert.ok(res.status < 500, `${label}: ${res.status} ${res.body.slice(0, 200)}`);
          if (res.status >= 400 && method !== 'HEAD') assertErrorContract(res);
          if (res.status >= 400) assert.equal(await snapshot(), before, `${label}: a refused request changed stored data`);

          const streaming = res.headers['content-type']?.startsWith('text/event-stream');
          if (res.headers.connection === 'close' || streaming) {
            if (!streaming) assert.equal(await connection.closed(2000), true, `${label}: said Connection: close but kept the socket`);
            connection.destroy();
            connection = await openRawConnection(t.url);
          }
          // The same connection still carries a request.
          connection.send(rawRequest('GET', '/healthz'));
          const next = await connection.nextResponse(5000);
          assert.equal(next?.status, 200, `${label}: the next request on the connection was not answered`);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    } finally {
      connection?.destroy();
    }
  });
});
