import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { botWithKey } from '../../testing/factories.ts';
import { decodeVector } from '../answers/semantic/embeddings.ts';
import { createProviderEmbedder } from '../answers/providers/provider-embedder.ts';
import { fakeEmbedding, FAKE_EMBEDDING_DIMS, startFakeOpenAiServer, type FakeOpenAiServer } from '../answers/providers/fake-openai-server.ts';
import { createKnowledgeService, type FetchedPage } from './knowledge.service.ts';

const API_KEY = 'sk-embed-pool-0123456789abcdefghijklmn';
const MODEL = 'openai:fake-embed';

const GUIDE = [
  '# Shipping',
  '',
  'Orders ship from our warehouse in Leipzig within 2 business days.',
  '',
  '# Returns',
  '',
  'You can return any bike within 30 days for a full refund.',
].join('\n');

/** Polls until `done` holds for what `read` returns (background embedding has no completion signal over HTTP). */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('knowledge: provider embeddings of passages', () => {
  let t: TestApp;
  let provider: FakeOpenAiServer;
  let page = { title: 'Opening hours', text: 'The shop opens at nine.' };
  const fetchPage = async (url: string): Promise<FetchedPage> => ({ ok: true, url, ...page });

  before(async () => {
    provider = await startFakeOpenAiServer();
    t = await startTestApp({
      env: { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: provider.baseUrl, PARLEY_EMBEDDING_MODEL: MODEL },
      app: { fetchPage },
    });
  });
  after(async () => {
    await t.close();
    await provider.close();
  });

  /** The source's passages, each with its provider vector (undefined while not embedded). */
  async function passagesOf(sourceId: string) {
    const { db } = t.runtime.database;
    const passages = await db.selectFrom('knowledge_passages').select(['id', 'title', 'heading', 'body']).where('source_id', '=', sourceId).execute();
    const vectors = passages.length
      ? await db
          .selectFrom('knowledge_vectors')
          .select(['passage_id', 'vector'])
          .where('model', '=', MODEL)
          .where('passage_id', 'in', passages.map((p) => p.id))
          .execute()
      : [];
    const byPassage = new Map(vectors.map((v) => [v.passage_id, decodeVector(v.vector)]));
    return passages.map((p) => ({ ...p, vector: byPassage.get(p.id) }));
  }

  const providerRowsOf = async (botId: string) =>
    (await t.runtime.database.db.selectFrom('knowledge_vectors').select('passage_id').where('bot_id', '=', botId).where('model', '=', MODEL).execute()).map((r) => r.passage_id);

  it("adding a text source stores the provider's unit vector of every passage; deleting it leaves none", async () => {
    const { bot, key } = await botWithKey(t, { scopes: ['read', 'write'] });
    const added = await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'text', name: 'Shipping guide', content: GUIDE } });
    assert.equal(added.status, 200, added.text);
    const sourceId = added.body.source.id as string;

    const passages = await eventually(() => passagesOf(sourceId), (ps) => ps.length > 0 && ps.every((p) => p.vector), 'provider vectors');
    assert.equal(passages.length, 2, 'one passage per heading');
    for (const p of passages) {
      const vector = p.vector!;
      assert.equal(vector.length, FAKE_EMBEDDING_DIMS);
      assert.ok(Math.abs(Math.hypot(...vector) - 1) < 1e-5, 'unit length');
      // The vector is the provider's embedding of the passage's title, heading and text.
      const expected = fakeEmbedding(`${p.title}\n${p.heading}\n${p.body}`);
      const cosine = vector.reduce((sum, x, i) => sum + x * expected[i]!, 0);
      assert.ok(cosine > 0.9999, `the stored vector is the provider's (cosine ${cosine})`);
    }

    const calls = provider.requests.filter((r) => r.url === '/v1/embeddings');
    assert.ok(calls.length >= 1);
    assert.equal(calls[0]!.headers.authorization, `Bearer ${API_KEY}`, "the pool's key");
    assert.equal(calls[0]!.body.model, 'fake-embed');
    assert.ok(calls.some((c) => c.body.input.some((text: string) => text.includes('Leipzig'))));

    const removed = await t.request('DELETE', `/api/v1/knowledge/${sourceId}`, { token: key.key });
    assert.equal(removed.status, 200, removed.text);
    assert.deepEqual(await providerRowsOf(bot.id), [], 'no vector outlives its passage');
  });

  it('a re-crawl that replaces the content drops the old passages’ vectors and embeds the new passages', async () => {
    const { owner, bot, key } = await botWithKey(t, { scopes: ['read', 'write'] });
    page = { title: 'Opening hours', text: 'The shop opens at nine and closes at six.' };
    const added = await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'url', name: 'Hours', url: 'https://shop.example/hours' } });
    assert.equal(added.status, 200, added.text);
    const sourceId = added.body.source.id as string;
    const before = await eventually(() => passagesOf(sourceId), (ps) => ps.length > 0 && ps.every((p) => p.vector), 'provider vectors');

    const schedule = await t.request('PATCH', `/api/dashboard/bots/${bot.id}/knowledge/${sourceId}`, { token: owner.token, body: { crawl_schedule: 'daily' } });
    assert.equal(schedule.status, 200, schedule.text);
    page = { title: 'Opening hours', text: 'From May the shop opens at eight. On Sundays it stays closed.' };
    t.clock.advance(86_400_000 + 1);
    // The crawl job of another instance with the same configuration.
    const { db, dialect } = t.runtime.database;
    const config = t.runtime.config;
    const crawler = createKnowledgeService({
      db,
      dialect,
      clock: t.clock,
      fetchPage,
      providerEmbedder: createProviderEmbedder({ choice: config.embeddingModel!, pool: config.providers }),
    });
    assert.equal(await crawler.crawlDue(), 1);
    await crawler.drain();

    const after = await passagesOf(sourceId);
    assert.ok(after.length > 0);
    assert.ok(after.every((p) => p.body.includes('eight')), 'the new content');
    assert.ok(after.every((p) => p.vector), 'every new passage has its provider vector');
    const stale = before.map((p) => p.id);
    assert.deepEqual((await providerRowsOf(bot.id)).filter((id) => stale.includes(id)), [], 'the replaced passages’ vectors are gone');
    assert.deepEqual((await providerRowsOf(bot.id)).sort(), after.map((p) => p.id).sort());
  });
});
