import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { botWithKey, createKey } from '../../testing/factories.ts';
import { createKnowledgeService } from './knowledge.service.ts';
import { createLocalEngine } from '../answers/local/local-engine.ts';
import { fullTextFor } from '../../db/full-text.ts';

/** Retrieval over the app's database, as the answer engines see it. */
function retrieverOf(t: TestApp) {
  const { db, dialect } = t.runtime.database;
  return createKnowledgeService({ db, dialect, clock: t.clock }).retriever;
}

const SOURCE_FIELDS = ['bot_id', 'char_count', 'content_preview', 'crawl_schedule', 'created_at', 'id', 'last_crawled_at', 'name', 'next_crawl_at', 'status', 'status_detail', 'title', 'type', 'url'];

describe('knowledge: text sources', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  async function writer() {
    const setup = await botWithKey(t, { scopes: ['chat', 'read', 'write'] });
    return { ...setup, token: setup.key.key };
  }

  it('Form 1 text: 200, trained, searchable when the call returns', async () => {
    const { bot, token } = await writer();
    const res = await t.request('POST', '/api/v1/knowledge', {
      token,
      body: { type: 'text', name: 'Refund policy', content: '# Refunds\n\nRefunds are paid within 14 days to the original card.' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.success, true);
    assert.equal(res.body.chars, undefined);
    assert.deepEqual(Object.keys(res.body.source).sort(), SOURCE_FIELDS);
    assert.equal(res.body.source.status, 'trained');
    assert.equal(res.body.source.type, 'text');
    assert.equal(res.body.source.name, 'Refund policy');
    assert.equal(res.body.source.bot_id, bot.id);
    assert.equal(res.body.source.char_count, '# Refunds\n\nRefunds are paid within 14 days to the original card.'.length);

    const found = await retrieverOf(t).search(bot.id, 'how long do refunds take', 5);
    assert.equal(found[0]?.sourceId, res.body.source.id);
    assert.equal(found[0]?.sourceTitle, 'Refund policy');
    assert.equal(found[0]?.heading, 'Refunds');
  });

  it('Form 2 text: 201 ready, title defaulting to the first 80 characters', async () => {
    const { token } = await writer();
    const content = 'Our support team answers every day from 8am to 8pm CET, including public holidays in Germany and Austria.';
    const res = await t.request('POST', '/api/v1/knowledge', { token, body: { type: 'text', content, title: undefined } });
    // Without name and without title a text body is Form 1, which needs a name.
    assert.equal(res.status, 400);
    assert.match(res.body.detail, /name/);

    const titled = await t.request('POST', '/api/v1/knowledge', { token, body: { type: 'text', title: 'Hours', content } });
    assert.equal(titled.status, 201);
    assert.deepEqual(Object.keys(titled.body).sort(), ['id', 'message', 'status']);
    assert.equal(titled.body.status, 'ready');

    const untitled = await t.request('POST', '/api/v1/knowledge', { token, body: { type: 'text', title: '', content } });
    assert.equal(untitled.status, 201);
    const list = await t.request('GET', '/api/v1/knowledge', { token });
    const source = list.body.sources.find((s: { id: string }) => s.id === untitled.body.id);
    assert.equal(source.title, content.slice(0, 80));
    assert.equal(source.content_preview, content);
  });

  it('counts characters as people do: an emoji is one, toward the limits, char_count, the title and the preview', async () => {
    const { token } = await writer();
    const emoji = '😀';
    // 50,001 emoji are 50,001 characters (100,002 UTF-16 units): within Form 1's 100,000.
    const many = await t.request('POST', '/api/v1/knowledge', { token, body: { type: 'text', name: 'Emoji', content: emoji.repeat(50_001) } });
    assert.equal(many.status, 200, many.text);
    assert.equal(many.body.source.char_count, 50_001);
    const over = await t.request('POST', '/api/v1/knowledge', { token, body: { type: 'text', title: 'Too many', content: emoji.repeat(50_001) } });
    assert.equal(over.status, 400);
    assert.match(over.body.detail, /'content' must be at most 50000 characters/);
    // The default title and the preview never end in half an emoji.
    const untitled = await t.request('POST', '/api/v1/knowledge', { token, body: { type: 'text', title: '', content: `a${emoji.repeat(300)}` } });
    assert.equal(untitled.status, 201);
    const source = (await t.request('GET', '/api/v1/knowledge', { token })).body.sources.find((s: { id: string }) => s.id === untitled.body.id);
    assert.equal(source.title, `a${emoji.repeat(79)}`);
    assert.equal(source.content_preview, `a${emoji.repeat(199)}`);
  });

  it('refuses every Form 1 and Form 2 body error of section 7 with 400 naming the field', async () => {
    const { token } = await writer();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ type: 'pdf', name: 'x', content: 'y' }, /type/],
      [{ name: 'x', content: 'y' }, /type/],
      [{ type: 'text', content: 'y' }, /name/],
      [{ type: 'text', name: '   ', content: 'y' }, /name/],
      [{ type: 'text', name: 'x' }, /content/],
      [{ type: 'text', name: 'x', content: '' }, /content/],
      [{ type: 'text', name: 'x', content: 'a'.repeat(100_001) }, /content.*100000/],
      [{ type: 'url', name: 'x' }, /url/],
      [{ type: 'url', name: 'x', url: '' }, /url/],
      [{ type: 'url', name: 'x', url: 'not a url' }, /url/],
      [{ type: 'url', name: 'x', url: 'ftp://example.com/file' }, /url/],
      [{ type: 'text', title: 'x', content: 'a'.repeat(50_001) }, /content.*50000/],
      [{ type: 'url', title: 'x', content: 'http://example.com/' }, /https/],
      [{ type: 'url', content: 'https://' }, /content/],
      [{ type: 'text', title: 'T'.repeat(201), content: 'y' }, /'title' must be at most 200 characters/],
      [{ type: 'url', title: 'T'.repeat(5000), content: 'https://example.com/' }, /'title'/],
      [{ type: 'text', name: 42, content: 'y' }, /name/],
    ];
    for (const [body, field] of cases) {
      const res = await t.request('POST', '/api/v1/knowledge', { token, body });
      assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
      assert.match(res.body.detail, field, JSON.stringify(body).slice(0, 80));
    }
    assert.equal((await t.request('POST', '/api/v1/knowledge', { token, body: { type: 'text', name: 'x', content: 'a'.repeat(100_000) } })).status, 200);
    assert.equal((await t.request('GET', '/api/v1/knowledge', { token })).body.total, 1);
  });

  it('lists all sources newest first, or one page; total always', async () => {
    const { token } = await writer();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      t.clock.advance(1);
      const res = await t.request('POST', '/api/v1/knowledge', { token, body: { type: 'text', name: `doc ${i}`, content: `content number ${i}` } });
      ids.push(res.body.source.id);
    }
    const all = await t.request('GET', '/api/v1/knowledge', { token });
    assert.deepEqual(all.body.sources.map((s: { id: string }) => s.id), [...ids].reverse());
    assert.equal(all.body.total, 5);
    const page = await t.request('GET', '/api/v1/knowledge?limit=2&offset=1', { token });
    assert.deepEqual(page.body.sources.map((s: { id: string }) => s.id), [ids[3], ids[2]]);
    assert.equal(page.body.total, 5);
    for (const bad of ['limit=0', 'limit=201', 'offset=-1', 'limit=abc', 'limit=0x10', 'offset=1e2', 'offset=9223372036854775807']) {
      const res = await t.request('GET', `/api/v1/knowledge?${bad}`, { token });
      assert.equal(res.status, 400, bad);
    }
  });

  it('deletes a source permanently: 404 unknown, 403 another bot’s, and its content leaves retrieval', async () => {
    const a = await writer();
    const b = await writer();
    const created = await t.request('POST', '/api/v1/knowledge', { token: a.token, body: { type: 'text', name: 'Secret', content: 'The warehouse code is ZEBRA-42.' } });
    const id = created.body.source.id;
    const search = () => retrieverOf(t).search(a.bot.id, 'warehouse code', 5);
    assert.equal((await search()).length, 1);

    const foreign = await t.request('DELETE', `/api/v1/knowledge/${id}`, { token: b.token });
    assert.equal(foreign.status, 403);
    assert.deepEqual(foreign.body, { detail: 'Source belongs to a different bot' });
    const missing = await t.request('DELETE', '/api/v1/knowledge/00000000-0000-4000-8000-000000000000', { token: a.token });
    assert.deepEqual([missing.status, missing.body], [404, { detail: 'Source not found' }]);
    // Not a UUID at all: 400 naming the parameter, as for a bot id.
    const malformed = await t.request('DELETE', '/api/v1/knowledge/not-a-uuid', { token: a.token });
    assert.equal(malformed.status, 400);
    assert.match(malformed.body.detail, /source_id/);

    const deleted = await t.request('DELETE', `/api/v1/knowledge/${id}`, { token: a.token });
    assert.deepEqual([deleted.status, deleted.body], [200, { success: true, deleted_id: id }]);
    assert.deepEqual(await search(), []);
    assert.equal((await t.request('DELETE', `/api/v1/knowledge/${id}`, { token: a.token })).status, 404);
  });

  it('needs write to add or delete and read to list', async () => {
    const { owner, bot } = await botWithKey(t);
    const reader = await createKey(t, owner, bot.id, { scopes: ['read'] });
    assert.equal((await t.request('POST', '/api/v1/knowledge', { token: reader.key, body: { type: 'text', name: 'x', content: 'y' } })).status, 403);
    assert.equal((await t.request('DELETE', '/api/v1/knowledge/x', { token: reader.key })).status, 403);
    assert.equal((await t.request('GET', '/api/v1/knowledge', { token: reader.key })).status, 200);
    const chatter = await createKey(t, owner, bot.id, { scopes: ['chat'] });
    assert.equal((await t.request('GET', '/api/v1/knowledge', { token: chatter.key })).status, 403);
  });

  it('POST /api/v1/bots/{bot_id}/knowledge adds text for the key’s own bot only', async () => {
    const a = await writer();
    const b = await writer();
    const res = await t.request('POST', `/api/v1/bots/${a.bot.id}/knowledge`, { token: a.token, body: { name: 'FAQ', content: 'Yes, we deliver on Sundays.' } });
    assert.equal(res.status, 201);
    assert.equal(res.body.success, true);
    assert.equal(res.body.source.status, 'trained');
    assert.equal(res.body.source.name, 'FAQ');
    const other = await t.request('POST', `/api/v1/bots/${b.bot.id}/knowledge`, { token: a.token, body: { name: 'FAQ', content: 'x' } });
    assert.equal(other.status, 403);
    const tooLong = await t.request('POST', `/api/v1/bots/${a.bot.id}/knowledge`, { token: a.token, body: { name: 'FAQ', content: 'a'.repeat(100_001) } });
    assert.equal(tooLong.status, 400);
    assert.match(tooLong.body.detail, /content/);
  });

  it('answers from a source until it is deleted, then no longer', async () => {
    const { bot, token } = await writer();
    const added = await t.request('POST', '/api/v1/knowledge', {
      token,
      body: { type: 'text', name: 'Warranty', content: '# Warranty\n\nEvery frame carries a lifetime warranty against cracks. Paint is covered for two years.' },
    });
    const engine = createLocalEngine({ retriever: retrieverOf(t) });
    const ask = async () => {
      const stream = await engine.answer({
        bot: { id: bot.id, name: 'Bot', welcome_message: 'Hi', selected_model: 'parley-local', system_instructions: '', response_language: 'en', strict_mode: true, lead_capture_enabled: false },
        question: 'How long is the warranty on a frame?',
        history: [],
      });
      let text = '';
      for await (const chunk of stream.chunks) text += chunk;
      return { text, sources: stream.sources() };
    };
    const before = await ask();
    assert.match(before.text, /Every frame carries a lifetime warranty against cracks\./);
    assert.deepEqual(before.sources, [{ title: 'Warranty', url: '' }]);

    await t.request('DELETE', `/api/v1/knowledge/${added.body.source.id}`, { token });
    const after = await ask();
    assert.doesNotMatch(after.text, /lifetime/);
    assert.deepEqual(after.sources, []);
  });

  it('leaves nothing of a deleted bot in the index', async () => {
    const { owner, bot, token } = await writer();
    await t.request('POST', '/api/v1/knowledge', { token, body: { type: 'text', name: 'Gone', content: 'Tandem bicycles are rented by the hour.' } });
    assert.equal((await t.request('DELETE', `/api/dashboard/bots/${bot.id}`, { token: owner.token })).status, 200);
    const { db, dialect } = t.runtime.database;
    assert.equal((await db.selectFrom('knowledge_passages').select('id').where('bot_id', '=', bot.id).execute()).length, 0);
    if (dialect.name === 'sqlite') {
      const { sql } = await import('kysely');
      const key = `b${bot.id.replace(/-/g, '')}`;
      let left = 1;
      for (let i = 0; i < 50 && left > 0; i++) {
        left = (await sql<{ n: number }>`select count(*) as n from knowledge_fts where knowledge_fts match ${`bot_key : ${key}`}`.execute(db)).rows[0]!.n;
        if (left > 0) await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(left, 0);
    }
  });

  it('compacts the full-text index after writes without changing what retrieval finds', async () => {
    const { bot, token } = await writer();
    for (let i = 0; i < 12; i++) {
      const content = `Model ${i} frames are welded in workshop ${i}. Spare wheels for model ${i} ship within ${i + 2} days.`;
      await t.request('POST', '/api/v1/knowledge', { token, body: { type: 'text', name: `Model ${i}`, content } });
    }
    const { db, dialect } = t.runtime.database;
    const search = () => retrieverOf(t).search(bot.id, 'spare wheels workshop model 7', 8);
    const found = await search();
    assert.ok(found.length > 0);
    await fullTextFor(dialect.name).compact(db);
    assert.deepEqual(await search(), found);
    if (dialect.name === 'sqlite') {
      // Nothing is left to merge: one more merge step reports no work (fewer than two changes).
      const { sql } = await import('kysely');
      const step = await db.transaction().execute(async (trx) => {
        const before = (await sql<{ n: number }>`select total_changes() as n`.execute(trx)).rows[0]!.n;
        await sql`insert into knowledge_fts(knowledge_fts, rank) values ('merge', -100)`.execute(trx);
        return (await sql<{ n: number }>`select total_changes() as n`.execute(trx)).rows[0]!.n - before;
      });
      assert.ok(step < 2, `a merge step after compaction still changed ${step} rows`);
    }
  });

  it('keeps each bot’s retrieval to its own passages', async () => {
    const a = await writer();
    const b = await writer();
    await t.request('POST', '/api/v1/knowledge', { token: a.token, body: { type: 'text', name: 'A', content: 'Bicycles are repaired in the Leeds workshop.' } });
    await t.request('POST', '/api/v1/knowledge', { token: b.token, body: { type: 'text', name: 'B', content: 'Bicycles are sold in the Paris store.' } });
    const fromA = await retrieverOf(t).search(a.bot.id, 'bicycles', 10);
    assert.deepEqual(fromA.map((p) => p.sourceTitle), ['A']);
  });
});

describe('knowledge: search skips terms that half the index holds', () => {
  let t: TestApp;
  before(async () => {
    // A database of its own: which terms are common depends on every row of the index.
    t = await startTestApp();
  });
  after(() => t.close());

  it('ranks as bm25 over every term does, and still finds rows that hold only the common term', async () => {
    const { key, bot } = await botWithKey(t, { scopes: ['read', 'write'] });
    const texts = [
      'Every wheel is trued by hand before the bicycle leaves the wheel workshop.',
      'A tandem needs a stronger rear wheel.',
      'Tandem frames are long, and tandem riders share one chain.',
      'Order a spare wheel with your bicycle and we fit it for free.',
      'Our wheel warranty lasts two years on every wheel we build, wheel after wheel.',
      'Wheel bearings are greased once a year.',
      'Bicycle bells ring in three tones.',
    ];
    for (const [i, content] of texts.entries()) {
      const res = await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'text', name: `Note ${i}`, content } });
      assert.equal(res.status, 200);
    }
    // The full-text ranking alone (the retriever fuses it with the embeddings' ranking).
    const { db, dialect } = t.runtime.database;
    const { fullTextFor, queryTerms } = await import('../../db/full-text.ts');
    const hits = await fullTextFor(dialect.name).search(db, bot.id, queryTerms('tandem wheel'), 8);
    const bodies = new Map((await db.selectFrom('knowledge_passages').select(['id', 'body']).where('bot_id', '=', bot.id).execute()).map((r) => [r.id, r.body]));
    const found = hits.map((h) => ({ text: bodies.get(h.id)! }));
    // Every row holding either word, the common one ("wheel", in 5 of 7 rows) included.
    assert.deepEqual(new Set(found.map((p) => p.text)), new Set(texts.filter((x) => /tandem|wheel/i.test(x))));

    if (dialect.name === 'sqlite') {
      const { sql } = await import('kysely');
      const match = `bot_key : b${bot.id.replace(/-/g, '')} AND ("tandem" OR "wheel")`;
      const { rows } = await sql<{ body: string }>`
        select p.body from knowledge_fts f join knowledge_passages p on p.id = f.passage_id
        where knowledge_fts match ${match} order by bm25(knowledge_fts, 0, 0, 2.0, 1.5, 1.0) limit 8`.execute(db);
      assert.deepEqual(found.map((p) => p.text), rows.map((r) => r.body));
    }
  });
});
