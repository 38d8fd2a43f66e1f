// The dashboard's knowledge endpoints added for the web app: a text or a page (fetched in the
// background, so its status changes), deletion, and the search preview of what the bot would find.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { createBot, inviteMember, signUp, type Owner } from '../../testing/factories.ts';
import { PHRASES } from '../answers/local/phrases.ts';

const SHIPPING = 'Orders leave our Leeds warehouse within 2 working days. Delivery to the EU takes 5 to 7 working days with tracking number prefix KX.';

function startSite() {
  const server = http.createServer((req, res) => {
    if (req.url === '/faq') return res.writeHead(200, { 'content-type': 'text/plain' }).end('Our returns window is 30 days from delivery, with a prepaid label.');
    res.writeHead(500).end('broken');
  });
  return new Promise<{ server: http.Server; base: string }>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })),
  );
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('dashboard knowledge: add, search, delete', () => {
  let t: TestApp;
  let site: { server: http.Server; base: string };
  let owner: Owner;
  let botId: string;
  before(async () => {
    site = await startSite();
    t = await startTestApp({ env: { PARLEY_ALLOW_PRIVATE_NETWORK: '1' } });
    owner = await signUp(t);
    botId = (await createBot(t, owner)).id;
  });
  after(async () => {
    await t.close();
    site.server.close();
  });

  const base = () => `/api/dashboard/bots/${botId}/knowledge`;
  const sourceNamed = async (name: string) => {
    const list = await t.request('GET', base(), { token: owner.token });
    return (list.body.sources as Array<{ name: string; status: string; status_detail: string | null; crawl_schedule: string | null; next_crawl_at: string | null }>).find((s) => s.name === name);
  };

  it('adds a text, indexed when the call returns, and the search preview finds it with its source and score', async () => {
    const res = await t.request('POST', base(), { token: owner.token, body: { type: 'text', name: 'Shipping', content: SHIPPING } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.success, true);
    assert.equal(res.body.source.status, 'trained');
    assert.equal(res.body.source.type, 'text');

    const search = await t.request('GET', `${base()}/search?q=${encodeURIComponent('How long does delivery to the EU take?')}`, { token: owner.token });
    assert.equal(search.status, 200, search.text);
    assert.equal(search.body.query, 'How long does delivery to the EU take?');
    const [best] = search.body.passages;
    assert.equal(best.source_id, res.body.source.id);
    assert.equal(best.source_name, 'Shipping');
    assert.equal(best.source_url, null);
    assert.match(best.text, /5 to 7 working days/);
    assert.ok(best.score > 0);
    // And what the bot would reply: its answer, or that it does not know, though passages are found.
    assert.equal(search.body.reply.kind, 'answer');
    assert.match(search.body.reply.text, /5 to 7 working days/);
    const unknown = await t.request('GET', `${base()}/search?q=${encodeURIComponent('Do you sell bicycle helmets?')}`, { token: owner.token });
    assert.deepEqual(unknown.body.reply, { kind: 'refusal', text: PHRASES.en.dontKnow });
  });

  it('searches as the bot does: a question in German finds the English text through its words’ translations', async () => {
    // Its German function word "die" is in this title as written; its "Lieferung" and "Lager" are in
    // no passage, but their translations "delivery" and "warehouse" are.
    await t.request('POST', base(), { token: owner.token, body: { type: 'text', name: 'Film night', content: 'Die Hard screens in the staff room on Friday at 8 pm.' } });
    const german = await t.request('GET', `${base()}/search?q=${encodeURIComponent('Wie lange braucht die Lieferung aus dem Lager?')}`, { token: owner.token });
    assert.equal(german.status, 200, german.text);
    assert.equal(german.body.query, 'Wie lange braucht die Lieferung aus dem Lager?');
    assert.match(german.body.passages[0]?.text ?? '', /Leeds warehouse/);
  });

  it('adds a page as processing, which becomes ready once fetched, with its crawl schedule', async () => {
    const res = await t.request('POST', base(), { token: owner.token, body: { type: 'url', url: `${site.base}/faq`, crawl_schedule: 'daily' } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.source.status, 'processing');
    assert.equal(res.body.source.name, `${site.base}/faq`, 'named by its URL');
    assert.equal(res.body.source.crawl_schedule, 'daily');
    const ready = await until(() => sourceNamed(`${site.base}/faq`), (s) => s?.status !== 'processing');
    assert.equal(ready?.status, 'ready');
    assert.ok(ready?.next_crawl_at, 'the next crawl is planned');
    const search = await t.request('GET', `${base()}/search?q=returns+window`, { token: owner.token });
    assert.equal(search.body.passages[0].source_url, `${site.base}/faq`);
  });

  it('marks a page that cannot be fetched as failed, saying why', async () => {
    const res = await t.request('POST', base(), { token: owner.token, body: { type: 'url', url: `${site.base}/broken`, name: 'Broken page' } });
    assert.equal(res.status, 201);
    const failed = await until(() => sourceNamed('Broken page'), (s) => s?.status !== 'processing');
    assert.equal(failed?.status, 'failed');
    assert.match(failed?.status_detail ?? '', /500/);
  });

  it('refuses bodies that lack what their type needs, naming the field', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ type: 'text', content: 'x' }, /'name'/],
      [{ type: 'text', name: 'x', content: '   ' }, /'content'/],
      [{ type: 'url' }, /'url'/],
      [{ type: 'url', url: 'ftp://example.com/x' }, /'url'/],
      [{ type: 'pdf', name: 'x' }, /type/],
      [{ type: 'text', name: 'x', content: 'x'.repeat(100_001) }, /content/],
    ];
    for (const [body, detail] of cases) {
      const res = await t.request('POST', base(), { token: owner.token, body });
      assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
      assert.match(res.body.detail, detail);
    }
    const blank = await t.request('GET', `${base()}/search?q=%20%20`, { token: owner.token });
    assert.equal(blank.status, 400);
  });

  it('deletes a source: the search no longer finds it; unknown and foreign sources are refused', async () => {
    const { body } = await t.request('POST', base(), { token: owner.token, body: { type: 'text', name: 'Gift cards', content: 'Gift cards never expire and work in every Kestrel shop.' } });
    const res = await t.request('DELETE', `${base()}/${body.source.id}`, { token: owner.token });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { success: true, deleted_id: body.source.id });
    const search = await t.request('GET', `${base()}/search?q=gift+cards+expire`, { token: owner.token });
    assert.ok(!search.body.passages.some((p: { source_id: string }) => p.source_id === body.source.id));
    assert.equal((await t.request('DELETE', `${base()}/${body.source.id}`, { token: owner.token })).status, 404);

    const otherBot = await createBot(t, owner, { name: 'Other' });
    const foreign = await t.request('POST', `/api/dashboard/bots/${otherBot.id}/knowledge`, { token: owner.token, body: { type: 'text', name: 'x', content: 'y' } });
    const refused = await t.request('DELETE', `${base()}/${foreign.body.source.id}`, { token: owner.token });
    assert.equal(refused.status, 403);
  });

  it("needs the Knowledge tab, and another account's bot is not found", async () => {
    const agent = await inviteMember(t, owner, 'agent');
    for (const [method, path, body] of [
      ['POST', base(), { type: 'text', name: 'x', content: 'y' }],
      ['GET', `${base()}/search?q=delivery`, undefined],
      ['DELETE', `${base()}/0195f2d1-4e8a-7b3c-9d2e-6f1a8b3c5d7e`, undefined],
    ] as const) {
      const res = await t.request(method, path, { token: agent.token, body });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.match(res.body.detail, /knowledge tab/);
    }
    const stranger = await signUp(t);
    assert.equal((await t.request('GET', `${base()}/search?q=delivery`, { token: stranger.token })).status, 404);
  });

  it('takes the session cookie from this origin only', async () => {
    const cookie = `parley_session=${owner.token}`;
    const body = { type: 'text', name: 'Cookie', content: 'Added with the session cookie.' };
    assert.equal((await t.request('POST', base(), { headers: { cookie, origin: 'https://evil.example' }, body })).status, 403);
    assert.equal((await t.request('POST', base(), { headers: { cookie, origin: t.url }, body })).status, 201);
  });
});
