import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { botWithKey, inviteMember, type Owner } from '../../testing/factories.ts';
import { catalogSignature } from './catalog.service.ts';

describe('product catalog', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  async function catalogBot() {
    const made = await botWithKey(t, { scopes: ['chat', 'read', 'write'] });
    const rotated = await t.request('POST', `/api/dashboard/bots/${made.bot.id}/catalog/secret`, { token: made.owner.token });
    assert.equal(rotated.status, 201, rotated.text);
    return { ...made, secret: rotated.body.secret as string, deliveryUrl: rotated.body.delivery_url as string };
  }

  /** Sends a delivery over HTTP with the raw body signed by `secret` (or the signature given). */
  async function deliver(botId: string, secret: string, body: unknown, signature?: string) {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    const res = await fetch(`${t.url}/api/catalog/${botId}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-catalog-signature': signature ?? catalogSignature(secret, raw) },
      body: raw,
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  /** Sends raw bytes to the delivery URL with exactly the headers given (no signature unless given). */
  async function post(botId: string, raw: string | undefined, headers: Record<string, string>) {
    const res = await fetch(`${t.url}/api/catalog/${botId}/events`, { method: 'POST', headers, body: raw });
    const text = await res.text();
    return { status: res.status, detail: text ? ((JSON.parse(text) as { detail?: string }).detail ?? '') : '' };
  }

  async function ask(key: string, text: string) {
    const res = await t.request('POST', '/api/v1/chat', { token: key, body: { text } });
    assert.equal(res.status, 200, res.text);
    return res.body.reply as string;
  }

  it('gives a secret and delivery URL once, to an owner or admin; rotating makes the old secret fail', async () => {
    const { owner, bot, secret, deliveryUrl } = await catalogBot();
    assert.match(secret, /^parley_catsec_[A-Za-z0-9_-]{43}$/);
    assert.equal(deliveryUrl, `${t.env.PUBLIC_URL ?? new URL(deliveryUrl).origin}/api/catalog/${bot.id}/events`);
    const create = { event: 'product.created', external_id: 'SKU-1', item: { name: 'Trailhead 2 Tent', price: 249, currency: 'usd' } };
    assert.equal((await deliver(bot.id, secret, create)).status, 200);
    const rotated = await t.request('POST', `/api/dashboard/bots/${bot.id}/catalog/secret`, { token: owner.token });
    const update = { event: 'product.updated', external_id: 'SKU-1', item: { price: 229 } };
    assert.equal((await deliver(bot.id, secret, update)).status, 401, 'the old secret fails at once');
    assert.equal((await deliver(bot.id, rotated.body.secret, update)).status, 200);
    const agent = await inviteMember(t, owner as Owner, 'agent', ['knowledge']);
    assert.equal((await t.request('POST', `/api/dashboard/bots/${bot.id}/catalog/secret`, { token: agent.token })).status, 403);
  });

  it('checks in order: unknown bot 404, signature 401, body 400, match 404 and 409', async () => {
    const { bot, secret } = await catalogBot();
    const { bot: other } = await botWithKey(t);
    const good = { event: 'product.created', external_id: 'A-1', item: { name: 'Lantern' } };
    assert.equal((await deliver('00000000-0000-4000-8000-000000000000', secret, good)).status, 404);
    assert.equal((await deliver('not-a-bot', secret, good)).status, 404);
    assert.equal((await deliver(other.id, secret, good)).status, 401, 'a bot without a secret');
    assert.equal((await deliver(bot.id, secret, good, 'deadbeef')).status, 401);
    assert.equal((await deliver(bot.id, secret, 'not json', 'deadbeef')).status, 401, 'the signature is checked before the body');
    assert.equal((await deliver(bot.id, secret, '{"event":')).status, 400);
    const bad: [unknown, RegExp][] = [
      [{ event: 'product.renamed', external_id: 'A-1', item: {} }, /event/],
      [{ event: 'product.created', item: { name: 'X' } }, /external_id/],
      [{ event: 'product.created', external_id: 'x'.repeat(257), item: { name: 'X' } }, /external_id/],
      [{ event: 'product.created', external_id: 'A-2', item: { price: 'cheap', name: 'X' } }, /item\.price/],
      [{ event: 'product.created', external_id: 'A-2', item: { price: 3 } }, /item\.name/],
      [{ event: 'media.created', external_id: 'M-1', item: { title: 'Manual' } }, /item\.url/],
      [{ event: 'product.updated', external_id: 'A-1' }, /item/],
    ];
    for (const [body, detail] of bad) {
      const res = await deliver(bot.id, secret, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(res.body.detail, detail);
    }
    assert.equal((await deliver(bot.id, secret, { event: 'product.updated', external_id: 'missing', item: { price: 1 } })).status, 404);
    assert.equal((await deliver(bot.id, secret, { event: 'product.deleted', external_id: 'missing' })).status, 404);
    const created = await deliver(bot.id, secret, good);
    assert.equal(created.status, 200);
    assert.deepEqual(Object.keys(created.body).sort(), ['event', 'item_id', 'success']);
    assert.equal((await deliver(bot.id, secret, good)).status, 409, 'created twice');
    // external_id is case-sensitive and per kind.
    assert.equal((await deliver(bot.id, secret, { ...good, external_id: 'a-1' })).status, 200);
    assert.equal((await deliver(bot.id, secret, { event: 'media.created', external_id: 'A-1', item: { title: 'Lantern manual', url: 'https://example.com/m.pdf' } })).status, 200);
  });

  it('checks the bot (404) and signature (401) before the content type (415) or body (400)', async () => {
    const { owner, bot, secret } = await catalogBot();
    const { bot: other } = await botWithKey(t);
    const unknown = '00000000-0000-0000-0000-000000000000';
    assert.equal((await post(unknown, 'x', { 'content-type': 'text/plain' })).status, 404, 'text/plain to an unknown bot');
    assert.equal((await post(unknown, 'x', { 'content-type': 'application/octet-stream', 'x-catalog-signature': 'ab' })).status, 404);
    assert.equal((await post(unknown, undefined, {})).status, 404, 'no body at all');
    assert.equal((await post('b'.repeat(100), 'x', { 'content-type': 'text/plain' })).status, 404, 'an over-long id is no bot');
    assert.equal((await post(bot.id, 'x', { 'content-type': 'text/plain' })).status, 401, 'text/plain without a signature');
    assert.equal((await post(bot.id, 'x', { 'content-type': 'text/plain', 'x-catalog-signature': 'deadbeef' })).status, 401);
    assert.equal((await post(bot.id, undefined, {})).status, 401, 'no body and no signature');
    assert.equal((await post(other.id, 'x', { 'content-type': 'text/plain', 'x-catalog-signature': catalogSignature(secret, 'x') })).status, 401, 'a bot without a secret');

    const raw = JSON.stringify({ event: 'product.created', external_id: 'CT-1', item: { name: 'Stove' } });
    const signed = (body: string, contentType?: string) => ({ ...(contentType && { 'content-type': contentType }), 'x-catalog-signature': catalogSignature(secret, body) });
    assert.equal((await post(bot.id, raw, signed(raw, 'text/plain'))).status, 415, 'signed, but not sent as JSON');
    assert.equal((await post(bot.id, raw, signed(raw, 'application/jsonx'))).status, 415);
    assert.equal((await post(bot.id, '', signed(''))).status, 415, 'signed, without a type');
    assert.equal((await post(bot.id, '', signed('', 'application/json'))).status, 400, 'signed, empty');
    const items = await t.request('GET', `/api/dashboard/bots/${bot.id}/catalog/items`, { token: owner.token });
    assert.equal(items.body.total, 0, 'nothing was stored');
    assert.equal((await post(bot.id, raw, signed(raw, 'Application/JSON; charset=utf-8'))).status, 200);
  });

  it('ignores item on a delete, whatever it holds, and requires an object for created and updated', async () => {
    const { owner, bot, secret } = await catalogBot();
    for (const [n, item] of [null, 'x', 7, [1], {}, { price: 'not a number' }].entries()) {
      const externalId = `D-${n}`;
      assert.equal((await deliver(bot.id, secret, { event: 'product.created', external_id: externalId, item: { name: `Doomed ${n}` } })).status, 200);
      const res = await deliver(bot.id, secret, { event: 'product.deleted', external_id: externalId, item });
      assert.equal(res.status, 200, `${JSON.stringify(item)}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.event, 'product.deleted');
    }
    assert.equal((await deliver(bot.id, secret, { event: 'media.created', external_id: 'M-D', item: { title: 'Guide', url: 'https://example.com/g.pdf' } })).status, 200);
    assert.equal((await deliver(bot.id, secret, { event: 'media.deleted', external_id: 'M-D', item: null })).status, 200);
    assert.equal((await t.request('GET', `/api/dashboard/bots/${bot.id}/catalog/items`, { token: owner.token })).body.total, 0, 'every delete went through');
    // A delete still checks what it uses.
    assert.match((await deliver(bot.id, secret, { event: 'product.deleted', item: null })).body.detail, /external_id/);

    for (const event of ['product.created', 'product.updated', 'media.created', 'media.updated']) {
      for (const item of [null, 'x', [1]]) {
        const res = await deliver(bot.id, secret, { event, external_id: 'I-1', item });
        assert.equal(res.status, 400, `${event} ${JSON.stringify(item)}`);
        assert.equal(res.body.detail, "field 'item' must be object");
      }
      assert.equal((await deliver(bot.id, secret, { event, external_id: 'I-1' })).body.detail, "field 'item' is required");
    }
  });

  it('refuses a number that overflows to Infinity (400 naming the field) and stores nothing', async () => {
    const { owner, bot, key, secret } = await catalogBot();
    assert.equal((await deliver(bot.id, secret, { event: 'product.created', external_id: 'U-1', item: { name: 'Summit Kettle', price: 30, currency: 'EUR' } })).status, 200);
    // JSON.stringify cannot write 1e400: these bodies are written by hand, as a client's would be.
    const events: [string, RegExp][] = [
      ['{"event":"product.updated","external_id":"U-1","item":{"price":1e400}}', /^field 'item\.price' must be a finite number$/],
      ['{"event":"product.updated","external_id":"U-1","item":{"price":-1e400}}', /^field 'item\.price' must be a finite number$/],
      ['{"event":"product.created","external_id":"U-2","item":{"name":"Big","price":1E+999}}', /^field 'item\.price' must be a finite number$/],
      ['{"event":"product.updated","external_id":"U-1","item":{"metadata":{"volume":[1,1e400]}}}', /^field 'item\.metadata\.volume\.1' must be a finite number$/],
      ['{"event":"media.created","external_id":"M-1","item":{"title":"T","url":"https://example.com/t","metadata":{"pages":-1e400}}}', /^field 'item\.metadata\.pages' must be a finite number$/],
    ];
    for (const [raw, detail] of events) {
      const res = await deliver(bot.id, secret, raw);
      assert.equal(res.status, 400, raw);
      assert.match(res.body.detail, detail);
    }

    const items = `/api/dashboard/bots/${bot.id}/catalog/items`;
    const created = await t.request('POST', items, { token: owner.token, body: { kind: 'product', name: 'Camp Stove', price: 45 } });
    assert.equal(created.status, 201, created.text);
    const dashboard: [string, string, RegExp][] = [
      ['POST', '{"kind":"product","name":"Infinite Stove","price":1e400}', /^field 'price' must be a finite number$/],
      ['POST', '{"kind":"product","name":"Negative Stove","price":-1e400}', /^field 'price' must be a finite number$/],
      ['POST', '{"kind":"product","name":"Meta Stove","metadata":{"burn time":1e400}}', /^field 'metadata\.burn time' must be a finite number$/],
      ['PATCH', '{"price":1e400}', /^field 'price' must be a finite number$/],
    ];
    for (const [method, raw, detail] of dashboard) {
      const res = await t.request(method, method === 'PATCH' ? `${items}/${created.body.id}` : items, { token: owner.token, body: raw });
      assert.equal(res.status, 400, `${method} ${raw}: ${res.text}`);
      assert.match(res.body.detail, detail);
    }

    const list = await t.request('GET', items, { token: owner.token });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.body.items.map((item: { name: string; price: number; metadata: unknown }) => [item.name, item.price, item.metadata]).sort(),
      [['Camp Stove', 45, {}], ['Summit Kettle', 30, {}]],
      'nothing was stored or changed',
    );
    const reply = await ask(key.key, 'How much is the Summit Kettle?');
    assert.match(reply, /30 EUR/);
    assert.doesNotMatch(reply, /Infinity/);
  });

  it('answers 409 and changes nothing when two items share an external id', async () => {
    const { owner, bot, secret } = await catalogBot();
    for (const price of [10, 20]) {
      const res = await t.request('POST', `/api/dashboard/bots/${bot.id}/catalog/items`, { token: owner.token, body: { kind: 'product', external_id: 'DUP', name: `Mug ${price}`, price } });
      assert.equal(res.status, 201, res.text);
    }
    const before = await t.request('GET', `/api/dashboard/bots/${bot.id}/catalog/items`, { token: owner.token });
    assert.equal((await deliver(bot.id, secret, { event: 'product.updated', external_id: 'DUP', item: { price: 99 } })).status, 409);
    assert.equal((await deliver(bot.id, secret, { event: 'product.deleted', external_id: 'DUP' })).status, 409);
    const after = await t.request('GET', `/api/dashboard/bots/${bot.id}/catalog/items`, { token: owner.token });
    assert.deepEqual(after.body, before.body);
  });

  it('applies each event atomically: of concurrent creates of one external id, one wins and the rest get 409', async () => {
    const { owner, bot, secret } = await catalogBot();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => deliver(bot.id, secret, { event: 'product.created', external_id: 'RACE', item: { name: `Racer ${i}`, price: i } })),
    );
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 409, 409, 409, 409, 409]);
    const items = await t.request('GET', `/api/dashboard/bots/${bot.id}/catalog/items`, { token: owner.token });
    assert.equal(items.body.total, 1);
    const sources = await t.runtime.database.db.selectFrom('knowledge_sources').select('id').where('bot_id', '=', bot.id).where('type', '=', 'catalog').execute();
    assert.equal(sources.length, 1, 'one knowledge source, for the one item');
  });

  it('makes products knowledge: the bot answers a product and stops once it is deleted; updates replace only the fields sent', async () => {
    const { bot, key, secret, owner } = await catalogBot();
    const created = await deliver(bot.id, secret, {
      event: 'product.created',
      external_id: 'TENT-2',
      item: { name: 'Trailhead 2 Ultralight Tent', description: 'A two-person tent for long hikes.', price: 249.5, currency: 'usd', sku: 'HP-TN-2002', metadata: { weight: '1.2 kg' } },
    });
    assert.equal(created.status, 200);
    const price = await ask(key.key, 'How much is the Trailhead 2 Ultralight Tent?');
    assert.match(price, /249\.5 USD/);
    assert.match(await ask(key.key, 'What is the SKU of the Trailhead 2 tent?'), /HP-TN-2002/);
    assert.match(await ask(key.key, 'What is the weight of the Trailhead 2 Ultralight Tent?'), /1\.2 kg/);

    assert.equal((await deliver(bot.id, secret, { event: 'product.updated', external_id: 'TENT-2', item: { price: 199 } })).status, 200);
    const [item] = (await t.request('GET', `/api/dashboard/bots/${bot.id}/catalog/items`, { token: owner.token })).body.items;
    assert.equal(item.price, 199);
    assert.equal(item.sku, 'HP-TN-2002', 'fields not sent stay');
    assert.equal(item.currency, 'USD');
    assert.deepEqual(item.metadata, { weight: '1.2 kg' });
    assert.match(await ask(key.key, 'How much is the Trailhead 2 Ultralight Tent?'), /199 USD/);
    // Catalog sources are not knowledge sources to list or delete by hand.
    assert.equal((await t.request('GET', '/api/v1/knowledge', { token: key.key })).body.total ?? 0, 0);

    const deleted = await deliver(bot.id, secret, { event: 'product.deleted', external_id: 'TENT-2' });
    assert.deepEqual(deleted.body, { success: true, event: 'product.deleted', item_id: created.body.item_id });
    assert.doesNotMatch(await ask(key.key, 'How much is the Trailhead 2 Ultralight Tent?'), /199|HP-TN-2002/);
  });

  it('manages items by hand in the dashboard (Knowledge tab), each change answered at once', async () => {
    const { owner, bot, key } = await catalogBot();
    const created = await t.request('POST', `/api/dashboard/bots/${bot.id}/catalog/items`, {
      token: owner.token,
      body: { kind: 'product', name: 'Camp Mug', price: 12, currency: 'EUR', sku: 'MUG-1' },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.external_id, null);
    assert.match(await ask(key.key, 'What does the Camp Mug cost?'), /12 EUR/);
    const patched = await t.request('PATCH', `/api/dashboard/bots/${bot.id}/catalog/items/${created.body.id}`, { token: owner.token, body: { price: 14 } });
    assert.equal(patched.body.price, 14);
    assert.match(await ask(key.key, 'What does the Camp Mug cost?'), /14 EUR/);
    assert.equal((await t.request('POST', `/api/dashboard/bots/${bot.id}/catalog/items`, { token: owner.token, body: { kind: 'media', title: 'No URL' } })).status, 400);
    const list = await t.request('GET', `/api/dashboard/bots/${bot.id}/catalog/items?limit=1`, { token: owner.token });
    assert.deepEqual({ total: list.body.total, n: list.body.items.length }, { total: 1, n: 1 });
    const removed = await t.request('DELETE', `/api/dashboard/bots/${bot.id}/catalog/items/${created.body.id}`, { token: owner.token });
    assert.deepEqual(removed.body, { success: true, id: created.body.id });
    assert.doesNotMatch(await ask(key.key, 'What does the Camp Mug cost?'), /14 EUR/);
    const agent = await inviteMember(t, owner as Owner, 'agent');
    assert.equal((await t.request('GET', `/api/dashboard/bots/${bot.id}/catalog/items`, { token: agent.token })).status, 403);
  });
});
