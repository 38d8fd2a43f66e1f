import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import { createGuardedFetch, type FetchResult, type GuardedFetch, type Resolver } from './guarded-fetch.ts';
import { blockedRangeOf, isPublicAddress } from './address-policy.ts';
import { BlockedAddressError, checkOutboundUrl, createAddressGuard } from './outbound-target.ts';

// Safety rule for this file: only checks that cannot connect (checkOutboundUrl, the guard's lookup)
// see private, link-local or public addresses. Every fetch points at loopback addresses only, so
// even a broken guard sends nothing off this machine.

/** A resolver that answers from a fixed table and records what it was asked. */
function tableResolver(table: Record<string, string[]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: net.isIP(address) }));
  };
  return Object.assign(resolve, { calls });
}

function assertFailure(result: FetchResult, reason: string): asserts result is Extract<FetchResult, { ok: false }> {
  assert.equal(result.ok, false, `expected ${reason}, got a ${result.ok ? `success from ${result.url}` : ''}`);
  assert.equal(result.reason, reason, `expected ${reason}, got ${result.reason}: ${result.detail}`);
}

/** A local server whose routes exercise redirects, slowness and size; it counts the requests it gets. */
function startServer(): Promise<{ server: http.Server; port: number; hits: string[] }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    hits.push(`${req.method} ${req.headers.host} ${path}`);
    const port = (server.address() as net.AddressInfo).port;
    const chain = /^\/chain\/(\d+)$/.exec(path);
    if (chain) {
      const left = Number(chain[1]);
      if (left === 0) return res.end('end of chain');
      res.writeHead(302, { location: `/chain/${left - 1}` });
      return res.end();
    }
    switch (path) {
      case '/page':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end('<h1>Hello</h1>');
      case '/echo': {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ method: req.method, body: Buffer.concat(chunks).toString(), auth: req.headers.authorization ?? null }));
        });
        return;
      }
      case '/missing':
        res.writeHead(404, { 'content-type': 'text/plain' });
        return res.end('not here');
      case '/to-other-loopback':
        res.writeHead(302, { location: `http://127.0.0.2:${port}/page` });
        return res.end();
      case '/to-v6-loopback':
        res.writeHead(301, { location: `http://[::1]:${port}/page` });
        return res.end();
      case '/to-internal-name':
        res.writeHead(307, { location: `http://internal.test:${port}/page` });
        return res.end();
      case '/to-file':
        res.writeHead(302, { location: 'file:///etc/passwd' });
        return res.end();
      case '/to-page':
        res.writeHead(303, { location: '/echo' });
        return res.end();
      case '/hang':
        return; // never answers
      case '/slow-body':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('first bytes, then nothing');
        return;
      case '/big': {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 'a');
        let sent = 0;
        // Writes until the client goes away, bounded so a broken guard cannot run forever.
        const pump = () => {
          while (sent < 50 * 1024 * 1024 && !res.destroyed) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        return pump();
      }
      case '/big-declared':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(10 * 1024 * 1024) });
        return res.write('a');
      case '/gzip-bomb':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
        return res.end(zlib.gzipSync(Buffer.alloc(10 * 1024 * 1024)));
      case '/gzip-small':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
        return res.end(zlib.gzipSync('compressed hello'));
      default:
        res.writeHead(404);
        return res.end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as net.AddressInfo).port, hits })));
}

describe('address policy', () => {
  const blocked = [
    '127.0.0.1', '127.255.255.254', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254',
    '100.64.0.1', '0.0.0.0', '224.0.0.1', '239.255.255.250', '255.255.255.255', '192.0.2.1', '198.51.100.7',
    '203.0.113.9', '198.18.0.1', '240.0.0.1',
    '::', '::1', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '2001:db8::1', 'fec0::1', '::7f00:1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::ffff:0:127.0.0.1',
    '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe', '64:ff9b:1::1', '2002:7f00:1::1', '2002:c0a8:101::1', '2001::1',
  ];
  for (const address of blocked) {
    it(`refuses ${address}`, () => {
      assert.equal(isPublicAddress(address), false);
      assert.notEqual(blockedRangeOf(address), null);
    });
  }

  const allowed = ['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '::ffff:93.184.215.14', '64:ff9b::5db8:d70e', '2002:5db8:d70e::1'];
  for (const address of allowed) {
    it(`allows public ${address}`, () => assert.equal(isPublicAddress(address), true, String(blockedRangeOf(address))));
  }

  it('treats anything that is not an IP address as refused', () => {
    assert.equal(blockedRangeOf('example.com'), 'invalid');
    assert.equal(blockedRangeOf('0x7f.1'), 'invalid');
  });
});

describe('checkOutboundUrl (no connection)', () => {
  const blockedNames: Record<string, string[]> = {
    'loopback.test': ['127.0.0.1'],
    'ten.test': ['10.1.2.3'],
    'one-seven-two.test': ['172.16.0.1'],
    'one-nine-two.test': ['192.168.1.1'],
    'metadata.test': ['169.254.169.254'],
    'cgnat.test': ['100.64.0.1'],
    'zero.test': ['0.0.0.0'],
    'multicast.test': ['224.0.0.1'],
    'broadcast.test': ['255.255.255.255'],
    'v6-loopback.test': ['::1'],
    'v6-link-local.test': ['fe80::1'],
    'v6-unique-local.test': ['fc00::1'],
    'mapped-loopback.test': ['::ffff:127.0.0.1'],
    'mapped-metadata.test': ['::ffff:169.254.169.254'],
    'nat64-loopback.test': ['64:ff9b::7f00:1'],
    // One bad address among good ones is enough to refuse the host.
    'mixed.test': ['93.184.215.14', '10.0.0.1'],
  };
  const resolve = tableResolver({ ...blockedNames, 'public.test': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'] });
  const policy = { allowPrivateNetwork: false, resolve };

  for (const [name, addresses] of Object.entries(blockedNames)) {
    it(`refuses ${name} resolving to ${addresses.join(', ')}`, async () => {
      const result = await checkOutboundUrl(`https://${name}/hook`, policy);
      assert.equal(result.ok, false);
      assert.equal(!result.ok && result.reason, 'blocked_address');
      assert.match(!result.ok ? result.detail : '', new RegExp(name.replace('.', '\\.')));
    });
  }

  const literals = [
    'http://127.0.0.1/', 'http://127.1/', 'http://0x7f.1/', 'http://2130706433/', 'http://017700000001/', 'http://0/',
    'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://[0:0:0:0:0:ffff:7f00:1]/', 'http://169.254.169.254/latest/meta-data/',
    'http://[fe80::1]/', 'http://[fc00::1]/', 'http://[64:ff9b::7f00:1]/', 'https://10.0.0.1/', 'http://100.64.0.1/',
    'http://224.0.0.1/', 'http://255.255.255.255/', 'http://[::ffff:a9fe:a9fe]/',
  ];
  for (const url of literals) {
    it(`refuses the literal address in ${url} without resolving it`, async () => {
      const before = resolve.calls.length;
      const result = await checkOutboundUrl(url, policy);
      assert.equal(!result.ok && result.reason, 'blocked_address');
      assert.equal(resolve.calls.length, before);
    });
  }

  for (const url of ['file:///etc/passwd', 'ftp://example.com/', 'gopher://example.com/', 'javascript:alert(1)', 'data:text/plain,hi', 'not a url', '', 'http://user:pass@example.com/', 'http://[fe80::1%25eth0]/']) {
    it(`refuses ${JSON.stringify(url)} as an invalid URL`, async () => {
      const result = await checkOutboundUrl(url, policy);
      assert.equal(!result.ok && result.reason, 'invalid_url');
    });
  }

  it('allows a host whose addresses are all public', async () => {
    assert.deepEqual(await checkOutboundUrl('https://public.test/page', policy), { ok: true, url: 'https://public.test/page' });
    assert.deepEqual(await checkOutboundUrl('http://93.184.215.14/', policy), { ok: true, url: 'http://93.184.215.14/' });
  });

  it('allows private addresses with allowPrivateNetwork', async () => {
    const open = { allowPrivateNetwork: true, resolve };
    assert.equal((await checkOutboundUrl('http://ten.test/', open)).ok, true);
    assert.equal((await checkOutboundUrl('http://169.254.169.254/', open)).ok, true);
    assert.equal((await checkOutboundUrl('ftp://ten.test/', open)).ok, false);
  });

  it('refuses localhost through the real resolver', async () => {
    const result = await checkOutboundUrl('http://localhost:9/', { allowPrivateNetwork: false });
    assert.equal(!result.ok && result.reason, 'blocked_address');
  });

  it('answers the socket lookup with checked addresses only', async () => {
    const guard = createAddressGuard(policy);
    const lookup = (hostname: string, options: { all?: boolean; family?: number }) =>
      new Promise<unknown>((done, fail) => guard.lookup(hostname, options, (err, address, family) => (err ? fail(err) : done(options.all ? address : [address, family]))));
    assert.deepEqual(await lookup('public.test', { all: true }), [
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ]);
    assert.deepEqual(await lookup('public.test', { family: 6 }), ['2606:2800:21f:cb07:6820:80da:af6b:8b2c', 6]);
    await assert.rejects(lookup('mixed.test', { all: true }), BlockedAddressError);
    await assert.rejects(lookup('metadata.test', { family: 4 }), BlockedAddressError);
  });
});

describe('guarded fetch: a real server on 127.0.0.1', () => {
  let server: http.Server;
  let port: number;
  let hits: string[];
  // 127.0.0.1 stands in for a public address here: only this exact address is allowed, and
  // `public.test` resolves to it, so everything else the server points at (other loopback
  // addresses, so that a broken guard still stays on this machine) must be refused.
  const resolve = tableResolver({ 'public.test': ['127.0.0.1'], 'internal.test': ['127.0.0.3'] });
  const policy = (address: string) => address === '127.0.0.1';
  let open: GuardedFetch;
  let strict: GuardedFetch;
  let allowed: GuardedFetch;

  before(async () => {
    ({ server, port, hits } = await startServer());
    open = createGuardedFetch({ allowPrivateNetwork: false, resolve, isAllowedAddress: policy, timeoutMs: 2_000 });
    strict = createGuardedFetch({ allowPrivateNetwork: false });
    allowed = createGuardedFetch({ allowPrivateNetwork: true });
  });
  after(async () => {
    await Promise.all([open.close(), strict.close(), allowed.close()]);
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  });

  it('blocks the loopback server when the private network is off limits, without sending it anything', async () => {
    const before = hits.length;
    for (const host of ['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]', '0x7f.1', '2130706433', '127.1', '[::1]']) {
      assertFailure(await strict(`http://${host}:${port}/page`), 'blocked_address');
    }
    assert.equal(hits.length, before);
  });

  it('blocks names that resolve to loopback in any spelling', async () => {
    const aliases = tableResolver({ 'alias.test': ['127.0.0.1'], 'v6.test': ['::1'], 'mapped.test': ['::ffff:127.0.0.1'] });
    const client = createGuardedFetch({ allowPrivateNetwork: false, resolve: aliases });
    try {
      const before = hits.length;
      for (const name of ['alias.test', 'v6.test', 'mapped.test']) {
        const result = await client(`http://${name}:${port}/page`);
        assertFailure(result, 'blocked_address');
        assert.match(result.detail, new RegExp(`^${name.replace('.', '\\.')} resolves to`));
      }
      assert.equal(hits.length, before);
    } finally {
      await client.close();
    }
  });

  it('fetches from it with allowPrivateNetwork', async () => {
    const result = await allowed(`http://127.0.0.1:${port}/page`);
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.status, 200);
    assert.equal(result.contentType, 'text/html; charset=utf-8');
    assert.equal(result.body.toString(), '<h1>Hello</h1>');
    assert.equal(result.url, `http://127.0.0.1:${port}/page`);
  });

  it('connects to the address it checked, resolving once (no rebinding gap)', async () => {
    // A rebinding DNS server: an allowed answer first, a refused one for every later question.
    let calls = 0;
    const rebinding: Resolver = async () => (calls++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '127.0.0.4', family: 4 }]);
    const client = createGuardedFetch({ allowPrivateNetwork: false, resolve: rebinding, isAllowedAddress: policy });
    try {
      const result = await client(`http://public.test:${port}/page`);
      assert.ok(result.ok, JSON.stringify(result));
      assert.equal(result.body.toString(), '<h1>Hello</h1>');
      assert.equal(hits.at(-1), `GET public.test:${port} /page`);
      assert.equal(calls, 1);
    } finally {
      await client.close();
    }
  });

  it('refuses a redirect to another loopback address', async () => {
    const result = await open(`http://public.test:${port}/to-other-loopback`);
    assertFailure(result, 'blocked_address');
    assert.match(result.detail, /127\.0\.0\.2/);
  });

  it('refuses a redirect to IPv6 loopback', async () => {
    assertFailure(await open(`http://public.test:${port}/to-v6-loopback`), 'blocked_address');
  });

  it('refuses a redirect to a name that resolves to a refused address', async () => {
    const before = hits.length;
    assertFailure(await open(`http://public.test:${port}/to-internal-name`), 'blocked_address');
    assert.equal(hits.length, before + 1);
  });

  it('refuses a redirect to a file: URL', async () => {
    assertFailure(await open(`http://public.test:${port}/to-file`), 'invalid_url');
  });

  it('follows five redirects and refuses the sixth', async () => {
    const five = await open(`http://public.test:${port}/chain/5`);
    assert.ok(five.ok, JSON.stringify(five));
    assert.equal(five.url, `http://public.test:${port}/chain/0`);
    assert.equal(five.body.toString(), 'end of chain');
    assertFailure(await open(`http://public.test:${port}/chain/6`), 'too_many_redirects');
  });

  it('turns a POST into a GET on 303 and keeps credentials on the same origin', async () => {
    const result = await open(`http://public.test:${port}/to-page`, { method: 'POST', body: '{"a":1}', headers: { Authorization: 'Bearer x', 'content-type': 'application/json' } });
    assert.ok(result.ok, JSON.stringify(result));
    assert.deepEqual(JSON.parse(result.body.toString()), { method: 'GET', body: '', auth: 'Bearer x' });
  });

  it('sends a POST body', async () => {
    const result = await open(`http://public.test:${port}/echo`, { method: 'POST', body: Buffer.from('payload') });
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(JSON.parse(result.body.toString()).body, 'payload');
  });

  it('reports 404 as an http error with its status', async () => {
    const result = await open(`http://public.test:${port}/missing`);
    assertFailure(result, 'http_error');
    assert.equal(result.status, 404);
  });

  it('times out a server that never answers', async () => {
    const quick = createGuardedFetch({ allowPrivateNetwork: true, timeoutMs: 200 });
    try {
      const started = Date.now();
      assertFailure(await quick(`http://127.0.0.1:${port}/hang`), 'timeout');
      assertFailure(await quick(`http://127.0.0.1:${port}/slow-body`), 'timeout');
      assert.ok(Date.now() - started < 2_000);
    } finally {
      await quick.close();
    }
  });

  it('stops reading a body once it passes the cap', async () => {
    const small = createGuardedFetch({ allowPrivateNetwork: true, maxBytes: 100_000 });
    try {
      const result = await small(`http://127.0.0.1:${port}/big`);
      assertFailure(result, 'too_large');
      assertFailure(await small(`http://127.0.0.1:${port}/big-declared`), 'too_large');
      assertFailure(await small(`http://127.0.0.1:${port}/gzip-bomb`), 'too_large');
      const gz = await small(`http://127.0.0.1:${port}/gzip-small`);
      assert.ok(gz.ok, JSON.stringify(gz));
      assert.equal(gz.body.toString(), 'compressed hello');
    } finally {
      await small.close();
    }
  });

  it('reports a refused connection as a network error', async () => {
    const closed = await new Promise<number>((done) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as net.AddressInfo).port;
        probe.close(() => done(p));
      });
    });
    assertFailure(await allowed(`http://127.0.0.1:${closed}/`), 'network_error');
  });
});
