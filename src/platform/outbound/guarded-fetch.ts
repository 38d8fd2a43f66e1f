/**
 * The one guarded HTTP client for requests to addresses that users choose (crawls, webhooks):
 * http(s) only, every host resolved and checked against the address policy on the first request
 * and on every redirect, the connection made to exactly the address that was checked, one time-out
 * over the whole exchange, and a size cap applied while the body streams in. Failures come back
 * as a result object for the caller to decide about; nothing here throws for them.
 */
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import { Agent, request, type Dispatcher } from 'undici';
import { BlockedAddressError, createAddressGuard, parseOutboundUrl, refuseLiteral, type OutboundPolicy } from './outbound-target.ts';

export type { Resolver, ResolvedAddress } from './outbound-target.ts';

/** The address policy plus the limits of one guarded client. */
export interface GuardedFetchOptions extends OutboundPolicy {
  /** Whole exchange, from the first connection to the last body byte, redirects included. */
  timeoutMs?: number;
  /** Largest body accepted (after decompression). */
  maxBytes?: number;
  maxRedirects?: number;
  userAgent?: string;
}

/** What to send; GET with no body by default. */
export interface FetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** Why a fetch failed, for the caller to map to its own answer (a crawl's 502, a webhook retry). */
export type FetchFailureReason =
  | 'invalid_url'
  | 'blocked_address'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  | 'http_error'
  | 'network_error';

/** A 2xx answer with its whole body. */
export interface FetchSuccess {
  ok: true;
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  /** The Content-Type header as sent, or '' when there was none. */
  contentType: string;
  body: Buffer;
}

/** A refused or failed fetch; nothing is thrown for these. */
export interface FetchFailure {
  ok: false;
  reason: FetchFailureReason;
  detail: string;
  /** The HTTP status, for `http_error`. */
  status?: number;
  /** For `http_error`: the start of the answer's body as text (a receiver's own account of the failure). */
  bodyStart?: string;
}

/** What a guarded fetch resolves to. */
export type FetchResult = FetchSuccess | FetchFailure;

/** A guarded fetch; `close()` releases its pooled connections. */
export interface GuardedFetch {
  (url: string, init?: FetchInit): Promise<FetchResult>;
  close(): Promise<void>;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers that carry the caller's credentials and must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
const DEFAULT_USER_AGENT = 'ParleyBot/0.1 (+knowledge crawler)';

/** The time-out's abort reason, told apart from any other abort. */
class FetchTimeout extends Error {}

/** Builds the guarded client; the policy and the resolver are fixed for its lifetime. */
export function createGuardedFetch(options: GuardedFetchOptions): GuardedFetch {
  const {
    timeoutMs = 10_000,
    maxBytes = 5 * 1024 * 1024,
    maxRedirects = 5,
    userAgent = DEFAULT_USER_AGENT,
  } = options;

  const guard = createAddressGuard(options);
  const agent = new Agent({ connect: { lookup: guard.lookup, timeout: timeoutMs } });

  async function follow(start: string, init: FetchInit, signal: AbortSignal): Promise<FetchResult> {
    let url = start;
    let method = (init.method ?? 'GET').toUpperCase();
    let body = init.body;
    const headers: Record<string, string> = { 'user-agent': userAgent, accept: '*/*' };
    for (const [name, value] of Object.entries(init.headers ?? {})) headers[name.toLowerCase()] = value;

    for (let redirects = 0; ; redirects++) {
      const target = parseOutboundUrl(url);
      if (typeof target === 'string') return failure('invalid_url', target);
      // Host names are checked by the socket's lookup; IP literals never reach a lookup.
      const refused = refuseLiteral(target, guard);
      if (refused) return refused;

      const response = await request(target, { dispatcher: agent, method: method as Dispatcher.HttpMethod, headers, body, signal });
      const location = headerValue(response.headers.location);
      if (!REDIRECT_STATUSES.has(response.statusCode) || !location) {
        return readResponse(target.href, response, maxBytes);
      }
      await response.body.dump();
      if (redirects >= maxRedirects) return failure('too_many_redirects', `more than ${maxRedirects} redirects`);

      let next: URL;
      try {
        next = new URL(location, target);
      } catch {
        return failure('invalid_url', `redirect to an invalid URL: ${location.slice(0, 200)}`);
      }
      if (next.origin !== target.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
      const status = response.statusCode;
      if (status === 303 ? method !== 'HEAD' : (status === 301 || status === 302) && method === 'POST') {
        method = 'GET';
        body = undefined;
        delete headers['content-type'];
        delete headers['content-length'];
      }
      url = next.href;
    }
  }

  const guardedFetch = async (url: string, init: FetchInit = {}): Promise<FetchResult> => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new FetchTimeout()), timeoutMs);
    try {
      return await follow(url, init, controller.signal);
    } catch (err) {
      if (controller.signal.aborted) return failure('timeout', `no complete answer within ${timeoutMs} ms`);
      return classifyError(err);
    } finally {
      clearTimeout(timer);
    }
  };
  return Object.assign(guardedFetch, { close: () => agent.close() });
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

const decoders: Record<string, (input: Buffer, options: zlib.ZlibOptions | zlib.BrotliOptions) => Promise<Buffer>> = {
  gzip: promisify(zlib.gunzip),
  'x-gzip': promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
};

/** Reads the final response's body within the cap, or turns a failure status into a result. */
async function readResponse(url: string, response: Dispatcher.ResponseData, maxBytes: number): Promise<FetchResult> {
  const { statusCode: status } = response;
  if (status < 200 || status > 299) {
    const failed = failure('http_error', `the server answered ${status}`, status);
    const bodyStart = await readStart(response);
    return bodyStart === undefined ? failed : { ...failed, bodyStart };
  }
  const declared = Number(headerValue(response.headers['content-length']));
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.body.destroy();
    return failure('too_large', `the body is larger than ${maxBytes} bytes`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response.body) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) {
      response.body.destroy();
      return failure('too_large', `the body is larger than ${maxBytes} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  let body: Buffer = Buffer.concat(chunks, total);
  const encoding = headerValue(response.headers['content-encoding'])?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    const decode = decoders[encoding];
    if (!decode) return failure('network_error', `unsupported content encoding ${encoding}`);
    try {
      body = await decode(body, { maxOutputLength: maxBytes });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        return failure('too_large', `the decompressed body is larger than ${maxBytes} bytes`);
      }
      return failure('network_error', `the ${encoding} body could not be decoded`);
    }
  }
  const contentType = headerValue(response.headers['content-type']) ?? '';
  return { ok: true, url, status, contentType, body };
}

// Enough for a delivery log's excerpt; the rest of a failing answer is not read.
const FAILURE_BODY_BYTES = 2048;

/** The start of a failing answer's body as text, or undefined when it is empty or compressed. */
async function readStart(response: Dispatcher.ResponseData): Promise<string | undefined> {
  const encoding = headerValue(response.headers['content-encoding'])?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    await response.body.dump();
    return undefined;
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of response.body) {
      chunks.push(chunk as Buffer);
      total += (chunk as Buffer).length;
      if (total >= FAILURE_BODY_BYTES) break;
    }
  } catch {
    // The body is only a courtesy: a broken one leaves the failure as it is.
  }
  if (total >= FAILURE_BODY_BYTES) response.body.destroy();
  const text = Buffer.concat(chunks, total).subarray(0, FAILURE_BODY_BYTES).toString('utf8');
  return text === '' ? undefined : text;
}

function classifyError(err: unknown): FetchFailure {
  for (let cause: unknown = err, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof BlockedAddressError) return failure('blocked_address', cause.message);
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      return failure('timeout', cause.message);
    }
  }
  const error = err as NodeJS.ErrnoException;
  return failure('network_error', [error?.code, error?.message].filter(Boolean).join(': ') || String(err));
}

function failure(reason: FetchFailureReason, detail: string, status?: number): FetchFailure {
  return status === undefined ? { ok: false, reason, detail } : { ok: false, reason, detail, status };
}
