/**
 * A webhook receiver on 127.0.0.1 for tests: it checks each request's signature with its own HMAC
 * (as interface.md section 6 tells receivers to), records what arrived, and answers as the test
 * tells it: a status, a delay, a hang, a redirect, garbage, or a closed connection.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ReceivedDelivery {
  path: string;
  body: string;
  json: any;
  deliveryId: string;
  event: string;
  signatureValid: boolean;
  at: number;
}

export type ReceiverBehaviour = 'ok' | 'fail' | 'hang' | 'redirect' | 'garbage' | 'close';

export interface WebhookReceiver {
  url(path?: string): string;
  received: ReceivedDelivery[];
  /** How to answer requests to a path (default 'ok'); a function is asked per request. */
  behave(path: string, behaviour: ReceiverBehaviour | ((n: number) => ReceiverBehaviour)): void;
  /** The secret a path's signatures are checked with. */
  secret(path: string, secret: string): void;
  /** Resolves once `count` requests have arrived at the path (rejects after `timeoutMs`). */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const behaviours = new Map<string, ReceiverBehaviour | ((n: number) => ReceiverBehaviour)>();
  const secrets = new Map<string, string>();
  const counts = new Map<string, number>();
  const sockets = new Set<Socket>();
  let notify: (() => void)[] = [];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const body = Buffer.concat(chunks).toString('utf8');
      const secret = secrets.get(path) ?? '';
      const expected = createHmac('sha256', secret).update(body).digest();
      const given = Buffer.from(String(req.headers['x-service-signature'] ?? ''), 'hex');
      const signatureValid = given.length === expected.length && timingSafeEqual(given, expected);
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {
        // recorded as null
      }
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      received.push({ path, body, json, deliveryId: String(req.headers['x-service-delivery'] ?? ''), event: String(req.headers['x-service-event'] ?? ''), signatureValid, at: Date.now() });
      const pending = notify;
      notify = [];
      for (const wake of pending) wake();

      const rule = behaviours.get(path) ?? 'ok';
      const behaviour = typeof rule === 'function' ? rule(n) : rule;
      if (!signatureValid && behaviour === 'ok') return void res.writeHead(401).end('bad signature');
      switch (behaviour) {
        case 'ok':
          return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
        case 'fail':
          return void res.writeHead(500).end('receiver error');
        case 'redirect':
          return void res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
        case 'garbage':
          return void req.socket.end('NOT HTTP AT ALL\r\n\r\n');
        case 'close':
          return void req.socket.destroy();
        case 'hang':
          return; // never answers
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    behave: (path, behaviour) => void behaviours.set(path, behaviour),
    secret: (path, secret) => void secrets.set(path, secret),
    async waitFor(path, count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const got = received.filter((r) => r.path === path);
        if (got.length >= count) return got;
        if (Date.now() > deadline) throw new Error(`${path}: ${got.length} of ${count} requests arrived in ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          notify.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
