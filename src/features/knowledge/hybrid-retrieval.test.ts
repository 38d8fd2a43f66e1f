import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { botWithKey } from '../../testing/factories.ts';
import { createKnowledgeService } from './knowledge.service.ts';
import { LOCAL_EMBEDDING_MODEL } from '../answers/semantic/embeddings.ts';
import { retrieveForQuestion } from '../answers/question-retrieval.ts';

describe('knowledge: hybrid retrieval (full text and offline embeddings)', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  const knowledgeOf = (t: TestApp, weights?: { fullText: number; local: number; provider: number }) => {
    const { db, dialect } = t.runtime.database;
    return createKnowledgeService({ db, dialect, clock: t.clock, rankingWeights: weights });
  };
  const vectorRows = (botId: string) =>
    t.runtime.database.db.selectFrom('knowledge_vectors').select(['passage_id', 'model']).where('bot_id', '=', botId).execute();

  it('stores an offline embedding for every passage, and removes them with their source', async () => {
    const { key, bot } = await botWithKey(t, { scopes: ['read', 'write'] });
    const res = await t.request('POST', '/api/v1/knowledge', {
      token: key.key,
      body: { type: 'text', name: 'Opening hours', content: '# Opening hours\n\nThe shop is open Monday to Friday from 9 am to 6 pm.\n\n# Parking\n\nCustomers park free of charge in the yard.' },
    });
    assert.equal(res.status, 200);
    const { db } = t.runtime.database;
    const passages = await db.selectFrom('knowledge_passages').select('id').where('bot_id', '=', bot.id).execute();
    const vectors = await vectorRows(bot.id);
    assert.ok(passages.length >= 2);
    assert.deepEqual(new Set(vectors.map((v) => v.passage_id)), new Set(passages.map((p) => p.id)));
    assert.ok(vectors.every((v) => v.model === LOCAL_EMBEDDING_MODEL));

    const sourceId = res.body.source.id;
    const deleted = await t.request('DELETE', `/api/v1/knowledge/${sourceId}`, { token: key.key });
    assert.ok(deleted.status < 300, `delete answered ${deleted.status}`);
    assert.equal((await vectorRows(bot.id)).length, 0);
  });

  it('finds a passage that shares no word with the question by meaning, which full text alone misses', async () => {
    const { key, bot } = await botWithKey(t, { scopes: ['read', 'write'] });
    const notes = [
      'Our showroom is closed on Saturday and Sunday.',
      'Bicycles are serviced in the workshop behind the showroom.',
      'Gift cards can be bought at the counter.',
    ];
    for (const [i, content] of notes.entries()) {
      const res = await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'text', name: `Note ${i}`, content } });
      assert.equal(res.status, 200);
    }
    const question = 'weekend';
    const fullTextOnly = await knowledgeOf(t, { fullText: 1, local: 0, provider: 0 }).retriever.search(bot.id, question, 3);
    assert.equal(fullTextOnly.length, 0);
    const hybrid = await knowledgeOf(t).retriever.search(bot.id, question, 3);
    assert.equal(hybrid[0]?.text, notes[0]);
  });

  it('tells a bot without any knowledge from one with some, and searches the first only once for an English question', async () => {
    const { key, bot } = await botWithKey(t, { scopes: ['read', 'write'] });
    const knowledge = knowledgeOf(t);
    const searches: string[] = [];
    const counted = { ...knowledge.retriever, search: (...args: Parameters<typeof knowledge.retriever.search>) => (searches.push(args[1]), knowledge.retriever.search(...args)) };
    assert.equal(await knowledge.retriever.hasKnowledge!(bot.id), false);
    assert.equal((await retrieveForQuestion(counted, bot.id, 'When does the shop open?', [], 'en', 5)).retrieved.length, 0);
    assert.equal(searches.length, 1, 'no second search with translations');

    // With knowledge (here in German), an English question that finds nothing is searched again, translated.
    const res = await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'text', name: 'Öffnungszeiten', content: 'Der Laden öffnet montags bis freitags um 9 Uhr.' } });
    assert.equal(res.status, 200);
    assert.equal(await knowledge.retriever.hasKnowledge!(bot.id), true);
    searches.length = 0;
    const found = await retrieveForQuestion(counted, bot.id, 'When does the shop open?', [], 'en', 5);
    assert.equal(searches.length, 2);
    assert.match(found.retrieved[0]?.text ?? '', /öffnet/);
  });

  it('back-fills embeddings of passages stored without one (before embeddings existed)', async () => {
    const { key, bot } = await botWithKey(t, { scopes: ['read', 'write'] });
    const res = await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'text', name: 'Returns', content: 'Returns are accepted within 45 days.' } });
    assert.equal(res.status, 200);
    const { db } = t.runtime.database;
    await db.deleteFrom('knowledge_vectors').where('bot_id', '=', bot.id).execute();
    const filled = await knowledgeOf(t).embedMissing();
    assert.ok(filled >= 1);
    assert.equal((await vectorRows(bot.id)).length, 1);
  });

  it('marks a passage without any word it knows as embedded (an empty vector), so the back-fill never comes back to it', async () => {
    const { key, bot } = await botWithKey(t, { scopes: ['read', 'write'] });
    const res = await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'text', name: '4711', content: '4711 0815 2024' } });
    assert.equal(res.status, 200);
    const { db } = t.runtime.database;
    const rows = await db.selectFrom('knowledge_vectors').select('vector').where('bot_id', '=', bot.id).execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.vector.byteLength, 0);
    const missing = await db
      .selectFrom('knowledge_passages as p')
      .leftJoin('knowledge_vectors as v', 'v.passage_id', 'p.id')
      .select('p.id')
      .where('p.bot_id', '=', bot.id)
      .where('v.passage_id', 'is', null)
      .execute();
    assert.equal(missing.length, 0);
    // Searching meets the empty vector and skips it.
    assert.deepEqual(await knowledgeOf(t).retriever.search(bot.id, 'weekend', 3), []);
  });
});

describe('knowledge: full-text search after the index grows', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('weighs a word by the index as it is now, not as it was before the last sources were added', async () => {
    const { db, dialect } = t.runtime.database;
    const fullText = createKnowledgeService({ db, dialect, clock: t.clock, rankingWeights: { fullText: 1, local: 0, provider: 0 } });
    const add = async (token: string, content: string, i: number) => {
      const res = await t.request('POST', '/api/v1/knowledge', { token, body: { type: 'text', name: `Note ${i}`, content } });
      assert.equal(res.status, 200);
    };
    const a = await botWithKey(t, { scopes: ['read', 'write'] });
    const both = 'Parking is in the garage.';
    const fillers = ['Opening hours are nine to five.', 'Refunds take five days.', 'Gift cards never expire.', 'Dogs are welcome inside.', 'Lockers cost one dollar.', 'Towels are provided.', 'Showers have hot water.'];
    for (const [i, content] of ['Parking is free.', both, 'Parking permits are sold at the desk.', ...fillers].entries()) await add(a.key.key, content, i);
    // A search reads how common each word is (SQLite leaves out words found in half the rows or more).
    assert.equal((await fullText.retriever.search(a.bot.id, 'parking', 3)).length, 3);
    // The index grows: another bot's sources, and more of this bot's that name the garage.
    const b = await botWithKey(t, { scopes: ['read', 'write'] });
    for (let i = 0; i < 40; i++) await add(b.key.key, `Item number ${i} is a blue widget of size ${i}.`, i);
    for (let i = 0; i < 5; i++) await add(a.key.key, `The garage level ${i} closes at midnight.`, 100 + i);
    // "garage" is rare in the grown index: the passage holding both words leads.
    const [top] = await fullText.retriever.search(a.bot.id, 'garage parking', 1);
    assert.equal(top?.text, both);
  });
});
