/**
 * Test support: a small OpenAI-compatible server on 127.0.0.1 that answers
 * `POST /v1/chat/completions` with real chat-completion SSE chunks (or a chosen failure) and
 * records every request.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: any;
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
  | { kind: 'stall'; chunks: string[] };

export interface FakeOpenAiServer {
  /** `http://127.0.0.1:PORT/v1`, for OPENAI_BASE_URL. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** What the next requests get (until changed). */
  behave(behaviour: FakeBehaviour): void;
  close(): Promise<void>;
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
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));
      return;
    }
    const current = behaviour;
    const id = `chatcmpl-${nextId++}`;
    const model = typeof body?.model === 'string' ? body.model : 'unknown';
    switch (current.kind) {
      case 'status':
        res.writeHead(current.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: current.message, type: 'invalid_request_error', code: null } }));
        return;
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
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
