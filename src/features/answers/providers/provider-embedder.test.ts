import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import { createBot, createKey, signUp } from '../../../testing/factories.ts';
import { createKnowledgeService } from '../../knowledge/knowledge.service.ts';
import { createProviderEmbedder, embeddingTargetFor } from './provider-embedder.ts';
import { fakeEmbedding, FAKE_EMBEDDING_DIMS, startFakeOpenAiServer, type FakeOpenAiServer } from './fake-openai-server.ts';
import { NO_KEY_PLACEHOLDER } from './provider-engine.ts';

const API_KEY = 'sk-embed-pool-0123456789abcdefghijklmn';
const MODEL = 'openai:fake-embed';

const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).reduce((sum, x, i) => sum + x * b[i]!, 0);

describe('the provider embedder against an OpenAI-compatible server', () => {
  let server: FakeOpenAiServer;
  before(async () => {
    server = await startFakeOpenAiServer();
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    server.behaveEmbeddings({ kind: 'vectors' });
  });

  const embedder = () => createProviderEmbedder({ choice: { provider: 'openai', modelId: 'fake-embed' }, pool: { openaiApiKey: API_KEY, openaiBaseUrl: server.baseUrl } });

  it("is named provider:model and returns the provider's vectors in order, at unit length", async () => {
    const e = embedder();
    assert.equal(e.model, MODEL);
    const texts = ['Refunds are paid within 14 days', 'Orders ship from Leipzig', 'Opening hours'];
    const vectors = await e.embed(texts);
    assert.equal(vectors.length, 3);
    vectors.forEach((vector, i) => {
      assert.ok(vector instanceof Float32Array);
      assert.equal(vector.length, FAKE_EMBEDDING_DIMS);
      assert.ok(Math.abs(Math.hypot(...vector) - 1) < 1e-5);
      assert.ok(cosine(vector, fakeEmbedding(texts[i]!)) > 0.9999, `vector ${i} belongs to its text`);
    });
    const [call] = server.requests;
    assert.equal(server.requests.length, 1, 'one call for the batch');
    assert.equal(call!.url, '/v1/embeddings');
    assert.equal(call!.headers.authorization, `Bearer ${API_KEY}`);
    assert.deepEqual(call!.body.input, texts);
    assert.equal(call!.body.model, 'fake-embed');
    assert.deepEqual(await e.embed([]), [], 'nothing to embed, no call');
    assert.equal(server.requests.length, 1);
  });

  it('gives null for a text the provider returns no direction for', async () => {
    // The fake server leaves out stop words: "the" alone is a zero vector.
    assert.deepEqual(await embedder().embed(['the']), [null]);
  });

  it("stops when the caller's signal aborts, naming no key", async () => {
    server.behaveEmbeddings({ kind: 'silent' });
    const started = performance.now();
    await assert.rejects(embedder().embed(['anything'], AbortSignal.timeout(100)), (err: unknown) => {
      assert.ok(err instanceof Error);
      assert.match(err.message, /could not embed with 'fake-embed': no answer in time/);
      return true;
    });
    assert.ok(performance.now() - started < 2000);
  });

  it('reports a failure status once (no retries), without the key the provider echoed and without the request', async () => {
    server.behaveEmbeddings({ kind: 'status', status: 401, message: `Incorrect API key provided: ${API_KEY}` });
    await assert.rejects(embedder().embed(['Refunds are paid within 14 days']), (err: unknown) => {
      assert.ok(err instanceof Error);
      assert.match(err.message, /rejected \(HTTP 401\)/);
      assert.equal(err.cause, undefined, 'the AI SDK error (request body, response) stays behind');
      assert.ok(!JSON.stringify({ message: err.message, stack: err.stack }).includes(API_KEY.slice(0, 12)));
      return true;
    });
    server.behaveEmbeddings({ kind: 'status', status: 500, message: `Backend down (request by ${API_KEY})` });
    await assert.rejects(embedder().embed(['x y z']), (err: unknown) => err instanceof Error && /HTTP 500: Backend down/.test(err.message) && !err.message.includes(API_KEY));
    assert.equal(server.requests.length, 2);
  });

  it("uses the pool's key, the base URL, and a placeholder for a keyless compatible server", () => {
    assert.deepEqual(embeddingTargetFor({ provider: 'openai', modelId: 'nomic-embed-text' }, { openaiBaseUrl: 'http://ollama:11434/v1' }), {
      provider: 'openai',
      modelId: 'nomic-embed-text',
      apiKey: NO_KEY_PLACEHOLDER,
      baseUrl: 'http://ollama:11434/v1',
    });
    assert.deepEqual(embeddingTargetFor({ provider: 'mistral', modelId: 'mistral-embed' }, { mistralApiKey: 'm-key' }), { provider: 'mistral', modelId: 'mistral-embed', apiKey: 'm-key' });
    assert.deepEqual(embeddingTargetFor({ provider: 'google', modelId: 'gemini-embedding-001' }, { googleApiKey: 'g-key' }), {
      provider: 'google',
      modelId: 'gemini-embedding-001',
      apiKey: 'g-key',
    });
    assert.equal(embeddingTargetFor({ provider: 'mistral', modelId: 'mistral-embed' }, { openaiApiKey: 'o-key' }), undefined);
  });
});

// Made-up words, so that neither the full-text index nor parley-local's word vectors know them: only
// the provider's embedding (the fake server's synonym table) says what they mean.
const WAX_PASSAGE = 'Blorptane wax keeps every zinthium frame from rusting.';
const MEANING_QUESTION = 'Which glorbish quexes?';
const SYNONYMS = { glorbish: 'blorptane', quexes: 'rusting' };

describe('POST /api/v1/chat with provider embeddings', () => {
  let t: TestApp;
  let provider: FakeOpenAiServer;
  const logs: string[] = [];

  before(async () => {
    provider = await startFakeOpenAiServer();
    const stream = new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk));
        done();
      },
    });
    t = await startTestApp({
      env: { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: provider.baseUrl, PARLEY_EMBEDDING_MODEL: MODEL, PARLEY_PROVIDER_TIMEOUT_MS: '2000' },
      app: { logger: { level: 'warn', stream } },
    });
  });
  after(async () => {
    await t.close();
    await provider.close();
  });

  /** A bot on an OpenAI model with two sources: the wax note and an unrelated shipping note. */
  async function llmBot() {
    const owner = await signUp(t);
    const bot = await createBot(t, owner, { selected_model: 'gpt-4o-mini' });
    const key = await createKey(t, owner, bot.id, { scopes: ['chat', 'read', 'write'] });
    for (const [name, content] of [
      ['Workshop notes', WAX_PASSAGE],
      ['Shipping guide', 'Orders ship from our warehouse in Leipzig within 2 business days.'],
    ]) {
      const added = await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'text', name, content } });
      assert.equal(added.status, 200, added.text);
    }
    return { bot, token: key.key };
  }

  const lastChatPrompt = () => provider.requests.filter((r) => r.url === '/v1/chat/completions').at(-1)!.body.messages[0].content as string;

  it('puts a passage that shares no word with the question in the prompt, matched by meaning', async () => {
    provider.behaveEmbeddings({ kind: 'vectors', synonyms: SYNONYMS });
    const { bot, token } = await llmBot();
    const { db, dialect } = t.runtime.database;
    const embedded = async () =>
      (await db.selectFrom('knowledge_vectors').select('passage_id').where('bot_id', '=', bot.id).where('model', '=', MODEL).execute()).length;
    for (let i = 0; (await embedded()) < 2; i++) {
      assert.ok(i < 400, 'the passages were embedded in the background');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }

    // Without the provider's embeddings (full text and offline vectors only) nothing is found.
    const wordsOnly = createKnowledgeService({ db, dialect, clock: t.clock }).retriever;
    assert.deepEqual(await wordsOnly.search(bot.id, MEANING_QUESTION, 6), []);

    provider.behave({ kind: 'stream', chunks: ['Blorptane wax.'] });
    const res = await t.request('POST', '/api/v1/chat', { token, body: { text: MEANING_QUESTION } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.reply, 'Blorptane wax.');
    const prompt = lastChatPrompt();
    assert.ok(prompt.includes(WAX_PASSAGE), 'the passage found by meaning is in the prompt');
    assert.ok(!prompt.includes('Leipzig'), 'an unrelated passage is not');
    const queryCall = provider.requests.filter((r) => r.url === '/v1/embeddings').at(-1)!;
    assert.deepEqual(queryCall.body.input, [MEANING_QUESTION], 'the question was embedded by the provider');
  });

  it('answers from full text and offline vectors when the embeddings endpoint fails, and logs no key', async () => {
    provider.behaveEmbeddings({ kind: 'status', status: 500, message: `Embedding backend failed for key ${API_KEY}` });
    const { token } = await llmBot();
    for (let i = 0; !logs.some((line) => line.includes('knowledge: embedding passages failed')); i++) {
      assert.ok(i < 400, 'the failed background embedding was logged');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }

    provider.behave({ kind: 'stream', chunks: ['From Leipzig.'] });
    const res = await t.request('POST', '/api/v1/chat', { token, body: { text: 'Where do orders ship from?' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.reply, 'From Leipzig.');
    assert.ok(lastChatPrompt().includes('Orders ship from our warehouse in Leipzig'), 'the full-text match is in the prompt');

    assert.ok(logs.some((line) => line.includes('the question could not be embedded')), 'the failed question embedding was logged');
    const logged = logs.join('\n');
    assert.match(logged, /HTTP 500: Embedding backend failed/);
    for (const secret of [API_KEY, API_KEY.slice(0, 16), API_KEY.slice(-16)]) assert.ok(!logged.includes(secret), `no part of the key in the logs: ${secret}`);
  });
});
