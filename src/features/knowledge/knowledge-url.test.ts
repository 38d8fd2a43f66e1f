import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { botWithKey, createBot, signUp, uniqueEmail } from '../../testing/factories.ts';
import { createKnowledgeService } from './knowledge.service.ts';
import { createPageFetcher } from './page-fetcher.ts';
import { claimSource } from './knowledge.repository.ts';

const ARTICLE = `<!doctype html><html><head><title>Shipping times | Kestrel</title><style>.x{color:red}</style></head>
<body><nav><a href="/">Home</a> <a href="/shop">Shop</a> Navigation menu text</nav>
<main><article><h1>Shipping times</h1>
<p>Orders placed before 2pm ship the same working day from our Leeds warehouse.</p>
<p>Standard delivery within the UK takes 2 to 3 working days and costs £4.95, free over £50.</p>
<h2>International</h2><p>Deliveries to the EU take 5 to 7 working days with tracking number prefix KX.</p>
</article></main><script>var tracking = "script text must vanish";</script>
<footer>Footer links and copyright</footer></body></html>`;

/** A small site on 127.0.0.1 whose pages the tests change. */
function startSite() {
  let version = 1;
  const server = http.createServer((req, res) => {
    if (req.url === '/article') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
    if (req.url === '/empty') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><nav>Menu</nav></body></html>');
    if (req.url === '/broken') return res.writeHead(500).end('oops');
    if (req.url === '/changing') {
      return res.writeHead(200, { 'content-type': 'text/plain' }).end(`Opening hours version ${version}: the shop opens at ${8 + version} o'clock.`);
    }
    res.writeHead(404).end();
  });
  return {
    server,
    setVersion: (v: number) => (version = v),
    listen: () => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))),
  };
}

describe('knowledge: URL sources', () => {
  let t: TestApp;
  let site: ReturnType<typeof startSite>;
  let base: string;
  before(async () => {
    site = startSite();
    base = await site.listen();
    t = await startTestApp({ env: { PARLEY_ALLOW_PRIVATE_NETWORK: '1' } });
  });
  after(async () => {
    await t.close();
    site.server.close();
  });

  const writer = () => botWithKey(t, { scopes: ['read', 'write'] });
  const retrieval = () => createKnowledgeService({ db: t.runtime.database.db, dialect: t.runtime.database.dialect, clock: t.clock }).retriever;

  it('Form 1 url: fetched, extracted without navigation or scripts, trained and searchable when the call returns', async () => {
    const { bot, key } = await writer();
    const res = await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'url', name: 'Shipping', url: `${base}/article` } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.success, true);
    assert.equal(res.body.source.status, 'trained');
    assert.equal(res.body.source.type, 'url');
    assert.equal(res.body.source.url, `${base}/article`);
    assert.ok(res.body.chars > 100);
    assert.equal(res.body.chars, res.body.source.char_count);
    assert.ok(res.body.source.last_crawled_at);

    const passages = await retrieval().search(bot.id, 'delivery EU tracking', 5);
    const text = passages.map((p) => p.text).join('\n');
    assert.match(text, /5 to 7 working days/);
    assert.doesNotMatch(text, /script text must vanish|Navigation menu|Footer links/);
    assert.equal(passages[0]!.sourceUrl, `${base}/article`);
  });

  it('Form 1 url: 502 when the page cannot be fetched, 422 when it has no usable text', async () => {
    const { key } = await writer();
    const broken = await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'url', name: 'x', url: `${base}/broken` } });
    assert.equal(broken.status, 502);
    assert.match(broken.body.detail, /could not be fetched/);
    const empty = await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'url', name: 'x', url: `${base}/empty` } });
    assert.equal(empty.status, 422);
    assert.match(empty.body.detail, /usable text/);
    const list = await t.request('GET', '/api/v1/knowledge', { token: key.key });
    assert.equal(list.body.total, 0, 'a failed Form 1 call stores nothing');
  });

  it('Form 2 url: processing, then ready once indexed; or failed with a reason', async () => {
    const { bot, key } = await writer();
    // Form 2 requires https://, so the test service is reached through a redirecting stub only in the unit below;
    // here the background path is driven through the service with the same fetcher.
    const https = await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'url', content: 'https://127.0.0.1:1/never' } });
    assert.equal(https.status, 201);
    assert.equal(https.body.status, 'processing');
    assert.match(https.body.message, /queued/i);

    const knowledge = createKnowledgeService({
      db: t.runtime.database.db,
      dialect: t.runtime.database.dialect,
      clock: t.clock,
      fetchPage: createPageFetcher({ allowPrivateNetwork: true }),
    });
    const good = await knowledge.queueUrl(bot.id, { name: `${base}/article`, url: `${base}/article` });
    const bad = await knowledge.queueUrl(bot.id, { name: 'Broken', url: `${base}/broken` });
    assert.equal(good.status, 'processing');
    await knowledge.drain();
    const sources = (await t.request('GET', '/api/v1/knowledge', { token: key.key })).body.sources as any[];
    const ready = sources.find((s) => s.id === good.id);
    assert.equal(ready.status, 'ready');
    assert.equal(ready.title, `${base}/article`);
    assert.ok(ready.char_count > 100);
    const failed = sources.find((s) => s.id === bad.id);
    assert.equal(failed.status, 'failed');
    assert.match(failed.status_detail, /500/);
    // The API's own queued https source fails too (nothing listens there) and says why.
    let queued;
    for (let i = 0; i < 100; i++) {
      queued = ((await t.request('GET', '/api/v1/knowledge', { token: key.key })).body.sources as any[]).find((s) => s.id === https.body.id);
      if (queued.status !== 'processing') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(queued.status, 'failed');
    assert.ok(queued.status_detail);
  });

  it('re-crawls on schedule, swaps the content atomically, and only one instance claims a source', async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner);
    const key = (await t.request('POST', '/api/keys', { token: owner.token, body: { bot_id: bot.id, name: 'w', scopes: ['read', 'write'] } })).body;
    site.setVersion(1);
    const created = await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'url', name: 'Hours', url: `${base}/changing` } });
    const id = created.body.source.id;

    const patch = await t.request('PATCH', `/api/dashboard/bots/${bot.id}/knowledge/${id}`, { token: owner.token, body: { crawl_schedule: 'daily' } });
    assert.equal(patch.status, 200);
    assert.equal(patch.body.crawl_schedule, 'daily');
    assert.equal(patch.body.next_crawl_at, new Date(t.clock.now() + 86_400_000).toISOString());
    const bad = await t.request('PATCH', `/api/dashboard/bots/${bot.id}/knowledge/${id}`, { token: owner.token, body: { crawl_schedule: 'monthly' } });
    assert.equal(bad.status, 400);

    const make = () =>
      createKnowledgeService({ db: t.runtime.database.db, dialect: t.runtime.database.dialect, clock: t.clock, fetchPage: createPageFetcher({ allowPrivateNetwork: true }) });
    const [first, second] = [make(), make()];
    assert.equal(await first.crawlDue(), 0, 'nothing is due yet');

    site.setVersion(2);
    t.clock.advance(86_400_001);
    const [a, b] = await Promise.all([first.crawlDue(), second.crawlDue()]);
    assert.ok(a + b >= 1);
    const passages = await retrieval().search(bot.id, 'opening hours shop', 5);
    assert.equal(passages.length, 1, 'the old passages were replaced, not added to');
    assert.match(passages[0]!.text, /version 2/);
    const source = ((await t.request('GET', '/api/v1/knowledge', { token: key.key })).body.sources as any[])[0];
    assert.equal(source.last_crawled_at, new Date(t.clock.now()).toISOString());
    assert.equal(source.next_crawl_at, new Date(t.clock.now() + 86_400_000).toISOString());
    // An instance that found the source due just before another crawled it and let the lease go
    // comes to claim it too late: it is no longer due, so it is not crawled twice.
    const lateClaim = await claimSource(t.runtime.database.db, id, 'late-instance', new Date(t.clock.now()).toISOString(), new Date(t.clock.now() + 60_000).toISOString());
    assert.equal(lateClaim, false);

    // A held lease keeps a second instance off the source.
    site.setVersion(3);
    t.clock.advance(86_400_001);
    await t.runtime.database.db
      .updateTable('knowledge_sources')
      .set({ lease_owner: 'other-instance', lease_until: new Date(t.clock.now() + 60_000).toISOString() })
      .where('id', '=', id)
      .execute();
    assert.equal(await first.crawlDue(), 0);
    assert.match((await retrieval().search(bot.id, 'opening hours', 5))[0]!.text, /version 2/);
    t.clock.advance(60_001);
    assert.equal(await first.crawlDue(), 1);
    assert.match((await retrieval().search(bot.id, 'opening hours', 5))[0]!.text, /version 3/);
  });

  it('lets only members with the Knowledge tab change schedules, on their own account’s URL sources', async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner);
    const key = (await t.request('POST', '/api/keys', { token: owner.token, body: { bot_id: bot.id, name: 'w', scopes: ['read', 'write'] } })).body;
    const text = await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'text', name: 'T', content: 'plain text' } });
    const onText = await t.request('PATCH', `/api/dashboard/bots/${bot.id}/knowledge/${text.body.source.id}`, { token: owner.token, body: { crawl_schedule: 'weekly' } });
    assert.equal(onText.status, 400);
    assert.match(onText.body.detail, /crawl_schedule/);

    const stranger = await signUp(t);
    const foreign = await t.request('PATCH', `/api/dashboard/bots/${bot.id}/knowledge/${text.body.source.id}`, { token: stranger.token, body: { crawl_schedule: null } });
    assert.equal(foreign.status, 404);

    const email = uniqueEmail('agent');
    const inv = await t.request('POST', '/api/dashboard/invitations', { token: owner.token, body: { email, role: 'agent' } });
    const agent = await t.request('POST', '/api/auth/signup', { body: { email, password: 'agent password', invite_token: inv.body.token } });
    const denied = await t.request('PATCH', `/api/dashboard/bots/${bot.id}/knowledge/${text.body.source.id}`, { token: agent.body.token, body: { crawl_schedule: null } });
    assert.equal(denied.status, 403);
  });
});

describe('knowledge: URL sources with the private network closed', () => {
  it('refuses to crawl a loopback address', async () => {
    const site = startSite();
    const base = await site.listen();
    const t = await startTestApp();
    try {
      const { key } = await botWithKey(t, { scopes: ['read', 'write'] });
      const res = await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'url', name: 'x', url: `${base}/article` } });
      assert.equal(res.status, 502);
      assert.match(res.body.detail, /127\.0\.0\.1|loopback|private|blocked|not allowed/i);
    } finally {
      await t.close();
      site.server.close();
    }
  });
});
