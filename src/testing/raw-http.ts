/**
 * HTTP over a bare TCP socket, for requests that fetch refuses to send (broken encodings, truncated
 * bodies, lying headers) and for checking what happens to the connection afterwards.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { SECURITY_HEADERS } from '../platform/http-rules.ts';

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The whole body; empty for an event stream, which is returned as soon as its headers arrive. */
  body: string;
}

/** A connection that sends raw bytes and reads whole responses in order. */
export interface RawConnection {
  send(bytes: string | Buffer): void;
  /**
   * The next response, or null when the server closed the connection first; rejects after
   * `timeoutMs`. `bodiless` for the answer to HEAD, which announces a length it does not send.
   */
  nextResponse(timeoutMs?: number, bodiless?: boolean): Promise<RawResponse | null>;
  /** Bytes received so far. */
  bytesReceived(): number;
  /** Resolves when the server has closed the connection (or after `timeoutMs`, with false). */
  closed(timeoutMs?: number): Promise<boolean>;
  destroy(): void;
}

export async function openRawConnection(url: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = net.connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let buffer: Buffer = Buffer.alloc(0);
  let ended = false;
  let received = 0;
  let wake: (() => void) | undefined;
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    received += chunk.length;
    wake?.();
  });
  const onEnd = () => {
    ended = true;
    wake?.();
  };
  socket.on('end', onEnd).on('close', onEnd).on('error', onEnd);

  const waitForData = (deadline: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no response in time')), Math.max(0, deadline - Date.now()));
      wake = () => {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      };
    });

  function takeResponse(bodiless: boolean): RawResponse | undefined {
    const headEnd = buffer.indexOf('\r\n\r\n');
    if (headEnd < 0) return undefined;
    const [statusLine, ...lines] = buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const start = headEnd + 4;
    const status = Number(statusLine!.split(' ')[1]);
    if (bodiless || status === 204 || status === 304 || headers['content-type']?.startsWith('text/event-stream')) {
      buffer = buffer.subarray(start);
      return { status, headers, body: '' };
    }
    let body: Buffer;
    let rest: Buffer;
    if (headers['transfer-encoding'] === 'chunked') {
      const parts: Buffer[] = [];
      let at = start;
      for (;;) {
        const lineEnd = buffer.indexOf('\r\n', at);
        if (lineEnd < 0) return undefined;
        const size = parseInt(buffer.subarray(at, lineEnd).toString('latin1'), 16);
        if (buffer.length < lineEnd + 2 + size + 2) return undefined;
        parts.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
        if (size === 0) break;
      }
      body = Buffer.concat(parts);
      rest = buffer.subarray(at);
    } else {
      const length = Number(headers['content-length'] ?? (ended ? buffer.length - start : NaN));
      if (Number.isNaN(length) || buffer.length < start + length) return undefined;
      body = buffer.subarray(start, start + length);
      rest = buffer.subarray(start + length);
    }
    buffer = rest;
    return { status, headers, body: body.toString('utf8') };
  }

  return {
    send: (bytes) => void socket.write(bytes),
    bytesReceived: () => received,
    async nextResponse(timeoutMs = 5000, bodiless = false) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const response = takeResponse(bodiless);
        if (response) return response;
        if (ended) return null;
        await waitForData(deadline);
      }
    },
    async closed(timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (!ended) {
        try {
          await waitForData(deadline);
        } catch {
          return false;
        }
      }
      return true;
    },
    destroy: () => socket.destroy(),
  };
}

/** A request's bytes, with Host and (for a body) Content-Length filled in unless given. */
export function rawRequest(method: string, target: string, headers: Record<string, string> = {}, body: string | Buffer = ''): Buffer {
  const all: Record<string, string> = { host: '127.0.0.1', ...headers };
  if (body.length > 0 && !Object.keys(all).some((h) => h.toLowerCase() === 'content-length' || h.toLowerCase() === 'transfer-encoding')) {
    all['content-length'] = String(Buffer.byteLength(body));
  }
  const head = `${method} ${target} HTTP/1.1\r\n${Object.entries(all).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), Buffer.isBuffer(body) ? body : Buffer.from(body)]);
}

/** The error contract: a JSON `{detail}` body, the security headers and a request id. */
export function assertErrorContract(res: RawResponse, status?: number): void {
  if (status !== undefined) assert.equal(res.status, status, res.body);
  assert.ok(res.status >= 400 && res.status < 500, `status ${res.status}: ${res.body}`);
  assert.equal(typeof JSON.parse(res.body).detail, 'string', res.body);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) assert.equal(res.headers[name], value, name);
  assert.match(res.headers['x-request-id'] ?? '', /^[A-Za-z0-9._-]{1,128}$/);
}
