/**
 * Test support: a small OpenAI-compatible server on 127.0.0.1 that answers
 * `POST /v1/chat/completions` with real chat-completion SSE chunks (or a chosen failure) and
 * `POST /v1/embeddings` with deterministic bag-of-words vectors in OpenAI's wire format, and records
 * every request.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  /** The client's port: the same for requests that reused one connection. */
  remotePort: number | undefined;
}

export type FakeBehaviour =
  /** Streams each chunk as a `delta.content`, then `finish_reason: "stop"` and `[DONE]`. */
  | { kind: 'stream'; chunks: string[]; delayMs?: number }
  /** Answers a failure status with an OpenAI-style error body. */
  | { kind: 'status'; status: number; message: string }
  /** Streams these chunks, then destroys the connection. */
  | { kind: 'break'; chunks: string[] }
  /** Never answers. */
  | { kind: 'silent' }
  /** Sends the headers and these chunks, then goes quiet. */
  | { kind: 'stall'; chunks: string[] }
  /** Streams these chunks, then an error event (`data: {"error": {...}}`, as servers report a failure mid-way). */
  | { kind: 'error-event'; chunks: string[]; message: string };

export type FakeEmbeddingBehaviour =
  /**
   * Each word, after `synonyms` (word → the word it stands for), hashed into one of 64 signed
   * dimensions: texts are near when they share words or synonyms, so a test decides what "means" what.
   */
  | { kind: 'vectors'; synonyms?: Record<string, string> }
  /** Answers a failure status with an OpenAI-style error body. */
  | { kind: 'status'; status: number; message: string }
  /** Never answers. */
  | { kind: 'silent' };

export interface FakeOpenAiServer {
  /** `http://127.0.0.1:PORT/v1`, for OPENAI_BASE_URL. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** What the next chat completion requests get (until changed). */
  behave(behaviour: FakeBehaviour): void;
  /** What the next embedding requests get (until changed; vectors without synonyms at first). */
  behaveEmbeddings(behaviour: FakeEmbeddingBehaviour): void;
  close(): Promise<void>;
}

/** Dimensions of the fake embeddings. */
export const FAKE_EMBEDDING_DIMS = 64;

// Left out of the fake embeddings, so that questions do not look alike for their grammar alone.
const FAKE_STOP_WORDS = new Set(
  'a an the is are was were be been of to in on at by for from with and or not do does did i me my we our you your it its this that what which who how when where why can'.split(' '),
);

/** The fake server's embedding of a text: deterministic, unit length unless the text has no word. */
export function fakeEmbedding(text: string, synonyms: Record<string, string> = {}): number[] {
  const vector = new Array<number>(FAKE_EMBEDDING_DIMS).fill(0);
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (!raw || FAKE_STOP_WORDS.has(raw)) continue;
    const word = synonyms[raw] ?? raw;
    // FNV-1a: a stable hash, so a word always lands in the same dimension with the same sign.
    let hash = 0x811c9dc5;
    for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 0x01000193) >>> 0;
    vector[hash % FAKE_EMBEDDING_DIMS]! += (hash >>> 16) & 1 ? 1 : -1;
  }
  const norm = Math.hypot(...vector);
  return norm > 0 ? vector.map((x) => x / norm) : vector;
}

function sendError(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message, type: 'invalid_request_error', code: null } }));
}

/** `POST /v1/embeddings` as OpenAI answers it: `{object: 'list', data: [{object: 'embedding', index, embedding}], model, usage}`. */
function answerEmbeddings(body: any, behaviour: FakeEmbeddingBehaviour, res: http.ServerResponse): void {
  if (behaviour.kind === 'silent') return;
  if (behaviour.kind === 'status') return sendError(res, behaviour.status, behaviour.message);
  const input: unknown = typeof body?.input === 'string' ? [body.input] : body?.input;
  if (typeof body?.model !== 'string' || !Array.isArray(input) || input.length === 0 || !input.every((x) => typeof x === 'string')) {
    return sendError(res, 400, "'model' and 'input' (a string or an array of strings) are required");
  }
  if (body.encoding_format !== undefined && body.encoding_format !== 'float') {
    return sendError(res, 400, 'this fake server sends floats only');
  }
  const texts = input as string[];
  const words = texts.reduce((n, text) => n + text.split(/\s+/).filter(Boolean).length, 0);
  const data = texts.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text, behaviour.synonyms) }));
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: words, total_tokens: words } }));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function chunkEvent(id: string, model: string, delta: Record<string, unknown>, finishReason: string | null = null): string {
  const chunk = { id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finishReason }] };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

export async function startFakeOpenAiServer(): Promise<FakeOpenAiServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let behaviour: FakeBehaviour = { kind: 'stream', chunks: ['Hello', ' there'] };
  let embeddingBehaviour: FakeEmbeddingBehaviour = { kind: 'vectors' };
  let nextId = 1;

  const server = http.createServer(async (req, res) => {
    let raw = '';
    for await (const part of req) raw += part;
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
    }
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, remotePort: req.socket.remotePort });
    if (req.method === 'POST' && req.url === '/v1/embeddings') return answerEmbeddings(body, embeddingBehaviour, res);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return sendError(res, 404, 'not found');
    const current = behaviour;
    const id = `chatcmpl-${nextId++}`;
    const model = typeof body?.model === 'string' ? body.model : 'unknown';
    switch (current.kind) {
      case 'status':
        return sendError(res, current.status, current.message);
      case 'silent':
        return;
      default: {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
        res.write(chunkEvent(id, model, { role: 'assistant', content: '' }));
        for (const text of current.chunks) {
          res.write(chunkEvent(id, model, { content: text }));
          if (current.kind === 'stream' && current.delayMs) await sleep(current.delayMs);
        }
        if (current.kind === 'break') {
          await sleep(20);
          req.socket.destroy();
          return;
        }
        if (current.kind === 'stall') return;
        if (current.kind === 'error-event') {
          res.end(`data: ${JSON.stringify({ error: { message: current.message, type: 'server_error' } })}\n\n`);
          return;
        }
        res.write(chunkEvent(id, model, {}, 'stop'));
        res.end('data: [DONE]\n\n');
      }
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    behave(next) {
      behaviour = next;
    },
    behaveEmbeddings(next) {
      embeddingBehaviour = next;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
