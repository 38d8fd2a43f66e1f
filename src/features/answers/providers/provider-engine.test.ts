import { describe, it, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProviderPool } from '../../../config/config.ts';
import { AnswerError, type AnswerBot, type AnswerEngine, type AnswerRequest, type RetrievedPassage, type Retriever, type SearchOptions } from '../answers.types.ts';
import { startFakeOpenAiServer, type FakeOpenAiServer } from './fake-openai-server.ts';
import { createProviderEngine, NO_KEY_PLACEHOLDER, PASSAGE_LIMIT, resolveModelTarget } from './provider-engine.ts';
import { CONFIDENTIALITY_GUARDRAIL, OPEN_GUARDRAIL, STRICT_GUARDRAIL } from './prompts.ts';
import type { KeyProvider } from './provider-routing.ts';

const POOL_KEY = 'sk-pool-0123456789abcdefghijklmnop';
const BOT_KEY = 'sk-bot-own-9876543210zyxwvutsrqpon';

function makeBot(overrides: Partial<AnswerBot> = {}): AnswerBot {
  return {
    id: 'bot-1',
    name: 'Kestrel Helper',
    welcome_message: 'Hi!',
    selected_model: 'llama3.2',
    system_instructions: 'Sign every answer with "— the Kestrel team".',
    response_language: 'es',
    strict_mode: true,
    lead_capture_enabled: false,
    ...overrides,
  };
}

const PASSAGES: RetrievedPassage[] = [
  { passageId: 'p1', sourceId: 's1', sourceTitle: 'Shipping policy', sourceUrl: 'https://kestrel.example/shipping', heading: 'Costs', text: 'Shipping is free on orders over 50 EUR.', score: 3 },
  { passageId: 'p2', sourceId: 's2', sourceTitle: 'Returns FAQ', sourceUrl: '', heading: '', text: 'Returns are accepted within 30 days.', score: 2 },
  { passageId: 'p3', sourceId: 's1', sourceTitle: 'Shipping policy', sourceUrl: 'https://kestrel.example/shipping', heading: 'Times', text: 'Orders ship within 2 business days.', score: 1 },
];

function fakeRetriever(passages: RetrievedPassage[] = PASSAGES) {
  const calls: { botId: string; query: string; limit: number; options?: SearchOptions }[] = [];
  const retriever: Retriever = {
    async search(botId, query, limit, options) {
      calls.push({ botId, query, limit, options });
      return passages;
    },
  };
  return { retriever, calls };
}

/** The fallback engine of these tests: a tiny stand-in for parley-local. */
function fakeFallback() {
  const asked: AnswerRequest[] = [];
  const engine: AnswerEngine = {
    async answer(request) {
      asked.push(request);
      return {
        engine: 'parley-local',
        sources: () => [],
        chunks: (async function* () {
          yield 'local answer';
        })(),
      };
    },
  };
  return { engine, asked };
}

function request(overrides: Partial<AnswerRequest> = {}): AnswerRequest {
  return {
    bot: makeBot(),
    question: '¿Cuánto cuesta el envío?',
    history: [
      { role: 'user', content: 'Hola, ¿hacen envíos a Madrid?' },
      { role: 'assistant', content: 'Sí, enviamos a toda España.' },
    ],
    ...overrides,
  };
}

async function collect(chunks: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

/** Consumes the stream and returns the AnswerError it ends with, plus the chunks before it. */
async function failure(chunks: AsyncIterable<string>): Promise<{ error: AnswerError; received: string[] }> {
  const received: string[] = [];
  try {
    for await (const chunk of chunks) received.push(chunk);
  } catch (err) {
    assert.ok(err instanceof AnswerError, `expected an AnswerError, got ${String(err)}`);
    return { error: err, received };
  }
  assert.fail('the stream did not fail');
}

function noKeys(): (botId: string, provider: KeyProvider) => Promise<string | undefined> {
  return async () => undefined;
}

describe('the LLM engine against an OpenAI-compatible server', () => {
  let server: FakeOpenAiServer;
  let pool: ProviderPool;

  before(async () => {
    server = await startFakeOpenAiServer();
    pool = { openaiApiKey: POOL_KEY, openaiBaseUrl: server.baseUrl };
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  it('streams the chunks in order as they arrive, and cites the distinct sources of the passages', async () => {
    server.behave({ kind: 'stream', chunks: ['El envío', ' es gratis', ' desde 50 EUR.', ' — the Kestrel team'], delayMs: 60 });
    const { retriever, calls } = fakeRetriever();
    const engine = createProviderEngine({ pool, timeoutMs: 5000, keyFor: noKeys(), retriever, fallback: fakeFallback().engine });

    const stream = await engine.answer(request());
    assert.equal(stream.engine, 'openai-compatible:llama3.2');
    const arrivals: number[] = [];
    const chunks: string[] = [];
    for await (const chunk of stream.chunks) {
      chunks.push(chunk);
      arrivals.push(performance.now());
    }
    assert.deepEqual(chunks, ['El envío', ' es gratis', ' desde 50 EUR.', ' — the Kestrel team']);
    // Delivered one by one, not all at the end.
    assert.ok(arrivals.at(-1)! - arrivals[0]! >= 120, `chunks arrived together (${arrivals.at(-1)! - arrivals[0]!} ms)`);
    assert.deepEqual(stream.sources(), [
      { title: 'Shipping policy', url: 'https://kestrel.example/shipping' },
      { title: 'Returns FAQ', url: '' },
    ]);
    // Searched as parley-local searches (its words, with the help-desk concept's English word and
    // synonyms), and by meaning too: the provider's embeddings of the question as written.
    assert.equal(calls.length, 1);
    const [call] = calls;
    assert.deepEqual({ ...call, query: undefined }, { botId: 'bot-1', query: undefined, limit: PASSAGE_LIMIT, options: { providerEmbeddings: true, meaningText: '¿Cuánto cuesta el envío?' } });
    assert.deepEqual(call!.query.split(' ').slice(0, 4), ['cuesta', 'envío', 'cost', 'precio']);
    assert.ok(call!.query.split(' ').includes('ship'), call!.query);
  });

  it('searches knowledge in another language again with the English question\'s translations, as parley-local does', async () => {
    server.behave({ kind: 'stream', chunks: ['Checkout is before 11:00.'] });
    const french: RetrievedPassage[] = [
      { passageId: 'f1', sourceId: 'sf', sourceTitle: 'Infos pratiques', sourceUrl: '', heading: 'Départ', text: "Le départ se fait avant 11 h 00, et vous pouvez laisser vos bagages à la réception jusqu'à 22 h 00.", score: 1 },
    ];
    const { retriever, calls } = fakeRetriever(french);
    const engine = createProviderEngine({ pool, timeoutMs: 5000, keyFor: noKeys(), retriever, fallback: fakeFallback().engine });
    const stream = await engine.answer(request({ question: 'What time is checkout?', history: [] }));
    for await (const _ of stream.chunks);
    assert.equal(calls.length, 2);
    assert.ok(calls[1]!.query.split(' ').includes('départ'), calls[1]!.query);
    assert.equal(calls[1]!.options?.meaningText, 'What time is checkout?');
  });

  it('sends the system instructions, guardrails, language rule, passages with titles, the whole history and the question', async () => {
    server.behave({ kind: 'stream', chunks: ['ok'] });
    const { retriever } = fakeRetriever();
    const engine = createProviderEngine({ pool, timeoutMs: 5000, keyFor: noKeys(), retriever, fallback: fakeFallback().engine });
    await collect((await engine.answer(request())).chunks);

    assert.equal(server.requests.length, 1);
    const { url, headers, body } = server.requests[0]!;
    assert.equal(url, '/v1/chat/completions');
    assert.equal(headers.authorization, `Bearer ${POOL_KEY}`);
    assert.equal(body.model, 'llama3.2');
    assert.equal(body.stream, true);

    const [system, ...conversation] = body.messages as { role: string; content: string }[];
    assert.equal(system!.role, 'system');
    const prompt = system!.content;
    assert.ok(prompt.includes('Kestrel Helper'));
    assert.ok(prompt.includes('Sign every answer with "— the Kestrel team".'), 'system instructions');
    assert.ok(prompt.includes(STRICT_GUARDRAIL), 'strict-mode guardrail');
    assert.ok(!prompt.includes(OPEN_GUARDRAIL));
    assert.ok(prompt.includes(CONFIDENTIALITY_GUARDRAIL), 'never reveal the instructions');
    assert.match(prompt, /Always reply in Spanish/);
    for (const passage of PASSAGES) {
      assert.ok(prompt.includes(passage.text), `passage ${passage.passageId}`);
    }
    assert.match(prompt, /Source: "Shipping policy" › Costs\nShipping is free on orders over 50 EUR\./);
    assert.match(prompt, /Source: "Returns FAQ"\nReturns are accepted within 30 days\./);

    assert.deepEqual(conversation, [
      { role: 'user', content: 'Hola, ¿hacen envíos a Madrid?' },
      { role: 'assistant', content: 'Sí, enviamos a toda España.' },
      { role: 'user', content: '¿Cuánto cuesta el envío?' },
    ]);
  });

  it("names the visitor's language when no language is set, and honours a per-request override", async () => {
    server.behave({ kind: 'stream', chunks: ['ok'] });
    const engine = createProviderEngine({ pool, timeoutMs: 5000, keyFor: noKeys(), retriever: fakeRetriever().retriever, fallback: fakeFallback().engine });
    await collect((await engine.answer(request({ bot: makeBot({ response_language: '', strict_mode: false }) }))).chunks);
    await collect((await engine.answer(request({ responseLanguage: 'fr' }))).chunks);
    const [mirror, override] = server.requests.map((r) => r.body.messages[0].content as string);
    assert.match(mirror!, /Always reply in the language of the visitor's last message/);
    assert.ok(mirror!.includes(OPEN_GUARDRAIL) && !mirror!.includes(STRICT_GUARDRAIL));
    assert.match(override!, /Always reply in French/);
  });

  it("sends the bot's own key instead of the pool's (BYOK), to OPENAI_BASE_URL", async () => {
    server.behave({ kind: 'stream', chunks: ['ok'] });
    const asked: [string, KeyProvider][] = [];
    const keyFor = async (botId: string, provider: KeyProvider) => {
      asked.push([botId, provider]);
      return provider === 'openai' ? BOT_KEY : undefined;
    };
    const engine = createProviderEngine({ pool, timeoutMs: 5000, keyFor, retriever: fakeRetriever().retriever, fallback: fakeFallback().engine });
    const stream = await engine.answer(request({ bot: makeBot({ selected_model: 'gpt-4o-mini' }) }));
    assert.equal(stream.engine, 'openai:gpt-4o-mini');
    await collect(stream.chunks);
    assert.deepEqual(asked, [['bot-1', 'openai']]);
    assert.equal(server.requests[0]!.headers.authorization, `Bearer ${BOT_KEY}`);
    assert.equal(server.requests[0]!.body.model, 'gpt-4o-mini');
  });

  it('reaches a server configured without a key with a placeholder key', async () => {
    server.behave({ kind: 'stream', chunks: ['ok'] });
    const engine = createProviderEngine({
      pool: { openaiBaseUrl: server.baseUrl },
      timeoutMs: 5000,
      keyFor: noKeys(),
      retriever: fakeRetriever().retriever,
      fallback: fakeFallback().engine,
    });
    assert.deepEqual(await collect((await engine.answer(request({ bot: makeBot({ selected_model: 'qwen2.5:7b' }) }))).chunks), ['ok']);
    assert.equal(server.requests[0]!.headers.authorization, `Bearer ${NO_KEY_PLACEHOLDER}`);
    assert.equal(server.requests[0]!.body.model, 'qwen2.5:7b');
  });

  it('keeps the connection to the provider open for the next answer', async () => {
    server.behave({ kind: 'stream', chunks: ['one', ' two'] });
    const engine = createProviderEngine({ pool, timeoutMs: 5000, keyFor: noKeys(), retriever: fakeRetriever().retriever, fallback: fakeFallback().engine });
    for (let i = 0; i < 3; i++) {
      // The pool takes a connection back a moment after the answer's last byte.
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(await collect((await engine.answer(request())).chunks), ['one', ' two']);
    }
    assert.equal(server.requests.length, 3);
    assert.equal(new Set(server.requests.map((r) => r.remotePort)).size, 1, `one connection for the three answers: ${server.requests.map((r) => r.remotePort).join(', ')}`);
  });

  it('does not count the time the consumer spends on a chunk as provider silence', async () => {
    server.behave({ kind: 'stream', chunks: ['one', 'two', 'three'] });
    const engine = createProviderEngine({ pool, timeoutMs: 100, keyFor: noKeys(), retriever: fakeRetriever().retriever, fallback: fakeFallback().engine });
    const received: string[] = [];
    for await (const chunk of (await engine.answer(request())).chunks) {
      received.push(chunk);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.deepEqual(received, ['one', 'two', 'three']);
  });

  describe('provider errors end the stream with AnswerError provider_error, naming the problem and no key', () => {
    async function failWith(behaviour: Parameters<FakeOpenAiServer['behave']>[0], timeoutMs = 5000, keyFor = noKeys()) {
      server.behave(behaviour);
      const engine = createProviderEngine({ pool, timeoutMs, keyFor, retriever: fakeRetriever().retriever, fallback: fakeFallback().engine });
      const result = await failure((await engine.answer(request())).chunks);
      assert.equal(result.error.code, 'provider_error');
      for (const key of [POOL_KEY, BOT_KEY, 'sk-pool', 'sk-bot']) assert.ok(!result.error.message.includes(key), result.error.message);
      return result;
    }

    it('a rejected key (401), even when the provider echoes part of it', async () => {
      const { error } = await failWith({ kind: 'status', status: 401, message: `Incorrect API key provided: ${POOL_KEY}. Masked: sk-pool-01****mnop` });
      assert.match(error.message, /rejected the API key \(HTTP 401\)/);
      assert.ok(!error.message.includes('****'));
    });

    it("a BYOK key the provider refuses is not echoed either", async () => {
      const { error } = await failWith({ kind: 'status', status: 403, message: `Key ${BOT_KEY} is disabled` }, 5000, async () => BOT_KEY);
      assert.match(error.message, /rejected the API key \(HTTP 403\)/);
      assert.equal(server.requests.at(-1)!.headers.authorization, `Bearer ${BOT_KEY}`);
    });

    it('a rate limit (429), reported at once without retries', async () => {
      const started = performance.now();
      const { error } = await failWith({ kind: 'status', status: 429, message: 'Rate limit reached for requests' });
      assert.match(error.message, /rate limit.*429/);
      assert.equal(server.requests.length, 1);
      assert.ok(performance.now() - started < 1000);
    });

    it('a failure status, with the provider message (key-shaped text removed)', async () => {
      const { error } = await failWith({ kind: 'status', status: 503, message: `The server is overloaded (request by ${POOL_KEY})` });
      assert.match(error.message, /HTTP 503: The server is overloaded/);
    });

    it('a stream that breaks off mid-way, after the chunks that did arrive', async () => {
      const { error, received } = await failWith({ kind: 'break', chunks: ['Partial', ' answer'] });
      assert.deepEqual(received, ['Partial', ' answer']);
      assert.match(error.message, /broke off/);
    });

    it('an error event in the stream, after the chunks that did arrive', async () => {
      const { error, received } = await failWith({ kind: 'error-event', chunks: ['Half'], message: 'The model ran out of memory' });
      assert.deepEqual(received, ['Half']);
      assert.match(error.message, /broke off the answer: The model ran out of memory/);
    });

    it('a server that sends nothing within the time-out', async () => {
      const started = performance.now();
      const { error } = await failWith({ kind: 'silent' }, 150);
      assert.match(error.message, /sent nothing for 150 ms/);
      assert.ok(performance.now() - started < 2000);
    });

    it('a server that goes quiet between chunks', async () => {
      const { error, received } = await failWith({ kind: 'stall', chunks: ['First words'] }, 150);
      assert.deepEqual(received, ['First words']);
      assert.match(error.message, /sent nothing for 150 ms/);
    });

    it('a server that cannot be reached', async () => {
      const closed = http.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const { port } = closed.address() as AddressInfo;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const engine = createProviderEngine({
        pool: { openaiApiKey: POOL_KEY, openaiBaseUrl: `http://127.0.0.1:${port}/v1` },
        timeoutMs: 5000,
        keyFor: noKeys(),
        retriever: fakeRetriever().retriever,
        fallback: fakeFallback().engine,
      });
      const { error } = await failure((await engine.answer(request())).chunks);
      assert.equal(error.code, 'provider_error');
      assert.match(error.message, /could not be reached/);
      assert.ok(!error.message.includes(POOL_KEY));
    });
  });

  it("stops when the caller's signal aborts", async () => {
    server.behave({ kind: 'stream', chunks: ['a', 'b', 'c', 'd'], delayMs: 100 });
    const controller = new AbortController();
    const engine = createProviderEngine({ pool, timeoutMs: 5000, keyFor: noKeys(), retriever: fakeRetriever().retriever, fallback: fakeFallback().engine });
    const stream = await engine.answer(request({ signal: controller.signal }));
    const received: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const chunk of stream.chunks) {
          received.push(chunk);
          controller.abort();
        }
      })(),
      (err: unknown) => err instanceof AnswerError && err.code === 'provider_error',
    );
    assert.deepEqual(received, ['a']);
  });
});

describe('choosing the engine', () => {
  it('answers with the fallback engine when the provider has neither a BYOK key nor a pool', async () => {
    const fallback = fakeFallback();
    const { retriever, calls } = fakeRetriever();
    const engine = createProviderEngine({ pool: {}, timeoutMs: 1000, keyFor: noKeys(), retriever, fallback: fallback.engine });
    for (const model of ['gpt-4o-mini', 'claude-3-5-haiku-latest', 'gemini-2.0-flash', 'mistral-small-latest', 'llama3.2', 'parley-local']) {
      const stream = await engine.answer(request({ bot: makeBot({ selected_model: model }) }));
      assert.equal(stream.engine, 'parley-local', model);
      assert.deepEqual(await collect(stream.chunks), ['local answer']);
    }
    assert.equal(fallback.asked.length, 6);
    assert.equal(calls.length, 0, 'the fallback retrieves for itself');
  });

  it("uses parley-local for 'parley-local' even with a pool, and another provider's pool never serves a bot", async () => {
    const fallback = fakeFallback();
    const engine = createProviderEngine({
      pool: { openaiApiKey: POOL_KEY },
      timeoutMs: 1000,
      keyFor: noKeys(),
      retriever: fakeRetriever().retriever,
      fallback: fallback.engine,
    });
    assert.equal((await engine.answer(request({ bot: makeBot({ selected_model: 'parley-local' }) }))).engine, 'parley-local');
    assert.equal((await engine.answer(request({ bot: makeBot({ selected_model: 'claude-3-5-haiku-latest' }) }))).engine, 'parley-local');
  });

  it('resolves each provider with the BYOK key first, then the pool', async () => {
    const pool: ProviderPool = { openaiApiKey: 'pool-openai', anthropicApiKey: 'pool-anthropic', googleApiKey: 'pool-google', mistralApiKey: 'pool-mistral' };
    const own = async (_bot: string, provider: KeyProvider) => (provider === 'google' ? 'own-google' : undefined);
    const target = (model: string) => resolveModelTarget(makeBot({ selected_model: model }), pool, own);
    assert.deepEqual(await target('claude-3-5-haiku-latest'), { provider: 'anthropic', modelId: 'claude-3-5-haiku-latest', apiKey: 'pool-anthropic' });
    assert.deepEqual(await target('gemini-2.0-flash'), { provider: 'google', modelId: 'gemini-2.0-flash', apiKey: 'own-google' });
    assert.deepEqual(await target('ministral-8b-latest'), { provider: 'mistral', modelId: 'ministral-8b-latest', apiKey: 'pool-mistral' });
    assert.deepEqual(await target('o3-mini'), { provider: 'openai', modelId: 'o3-mini', apiKey: 'pool-openai', baseUrl: undefined });
    assert.equal(await target('parley-local'), undefined);
  });

  it('reports a stored key that cannot be decrypted as an AnswerError', async () => {
    const engine = createProviderEngine({
      pool: {},
      timeoutMs: 1000,
      keyFor: async () => {
        throw new Error('The stored secret cannot be decrypted');
      },
      retriever: fakeRetriever().retriever,
      fallback: fakeFallback().engine,
    });
    await assert.rejects(engine.answer(request({ bot: makeBot({ selected_model: 'gpt-4o' }) })), (err: unknown) => err instanceof AnswerError && /PARLEY_SECRET_KEY/.test(err.message));
  });
});
