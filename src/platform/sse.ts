/**
 * Server-Sent Events on a Fastify reply: the headers (the security headers already set on the
 * reply included), `event:`/`data:` frames, comment heartbeats that keep proxies from closing an
 * idle stream, and knowing when the client has gone.
 */
import type { FastifyReply } from 'fastify';

export interface EventStream {
  /** Sends one frame; does nothing once the client has gone. */
  send(event: string, data: unknown): void;
  /** Ends the response (idempotent). */
  close(): void;
  /** True once the client disconnected or the stream was closed. */
  readonly closed: boolean;
  /** Called once when the client disconnects or the stream is closed. */
  onClose(listener: () => void): void;
}

export interface EventStreamOptions {
  /** Milliseconds between `: keep-alive` comments. */
  heartbeatMs: number;
}

/** Takes over the reply and starts an SSE response with status 200. */
export function openEventStream(reply: FastifyReply, { heartbeatMs }: EventStreamOptions): EventStream {
  reply.hijack();
  const res = reply.raw;
  const headers: Record<string, string | number | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value as string;
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  // Send the headers now: a client waiting for the first token should see the stream open.
  res.flushHeaders();
  res.socket?.setNoDelay(true);

  let closed = false;
  const listeners: (() => void)[] = [];
  const finish = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    for (const listener of listeners.splice(0)) listener();
  };
  const heartbeat = setInterval(() => {
    if (!closed) res.write(': keep-alive\n\n');
  }, heartbeatMs);
  heartbeat.unref();
  res.on('close', finish);

  return {
    send(event, data) {
      if (closed || res.destroyed) return;
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    close() {
      if (closed) return;
      finish();
      res.end();
    },
    get closed() {
      return closed || res.destroyed;
    },
    onClose(listener) {
      if (closed) listener();
      else listeners.push(listener);
    },
  };
}
