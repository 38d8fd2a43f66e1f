/**
 * Rules every response obeys: security headers, request ids, `{detail}` error bodies, 404 and 405,
 * and control characters stripped from text fields. They hold for every answer the port gives,
 * including those made before routing (`frameworkErrors`), for bytes Node's parser refuses
 * (`clientErrorHandler`) and while the service shuts down.
 */
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import FindMyWay from 'find-my-way';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, ValidationError } from './errors.ts';
import { describeValidationError } from './validation.ts';
import { timeOrderedUuid } from './ids.ts';
import { appendRouteHook } from './route-hooks.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * This route's Content-Security-Policy, in place of `default-src 'none'`: for the few pages
     * whose own scripts must run (the API documentation). Every other response keeps the default.
     */
    contentSecurityPolicy?: string;
  }
}

export const SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'strict-transport-security': 'max-age=31536000; includeSubDomains; preload',
  'content-security-policy': "default-src 'none'",
};

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Fastify `genReqId`: echo a well-formed incoming X-Request-ID, otherwise a fresh UUID. */
export function requestIdFor(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : timeOrderedUuid();
}

// Everything below U+0020 except tab and newline, plus DEL and the C1 controls.
const CONTROL_CHARS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/**
 * Removes control characters (keeping newline and tab) from every string in a parsed JSON body, in
 * place. A loop over an explicit stack, not recursion: the body is the client's to shape.
 */
export function stripControlChars<T>(value: T): T {
  if (typeof value === 'string') return value.replace(CONTROL_CHARS, '') as T;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const container = pending.pop();
    if (container === null || typeof container !== 'object') continue;
    const record = container as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const item = record[key];
      if (typeof item === 'string') record[key] = item.replace(CONTROL_CHARS, '');
      else if (item !== null && typeof item === 'object') pending.push(item);
    }
  }
  return value;
}

/** Deepest nesting of arrays and objects a JSON body may have. */
export const MAX_JSON_DEPTH = 32;

/**
 * True when the JSON text nests arrays and objects deeper than `limit`. One pass over the
 * characters, skipping strings, so that no parser or walker meets a body built to exhaust the stack.
 */
export function jsonNestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** The answer to a request refused before routing (`frameworkErrors`), e.g. a path with broken percent-encoding. */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const [status, detail] =
    error.code === 'FST_ERR_BAD_URL'
      ? [400, 'The request path is not a valid URL (malformed percent-encoding)']
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? [414, 'A path segment is too long']
        : [400, 'The request could not be routed'];
  void reply
    .code(status)
    .headers({ ...SECURITY_HEADERS, 'x-request-id': request.id })
    .send({ detail });
}

/**
 * The answer to bytes Node's HTTP parser refuses (`clientErrorHandler`): the same `{detail}` body
 * and headers as any other error, then the connection closes, since the rest of what the client
 * sent on it cannot be read as requests.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request was not received in time']
        : [400, 'The request is not valid HTTP'];
  const body = JSON.stringify({ detail });
  const headers = {
    ...SECURITY_HEADERS,
    'x-request-id': timeOrderedUuid(),
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
  if (socket.writable) {
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join('\r\n');
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n\r\n${body}`);
  }
  // A client that never reads or closes its end does not keep the socket.
  setTimeout(() => socket.destroy(), 1000).unref();
}

/** Installs the response rules on the root instance (call before routes are registered). */
export function installHttpRules(app: FastifyInstance): void {
  const headerNames = Object.keys(SECURITY_HEADERS);
  // Fastify's own 503 while closing has its own body: answer those requests here instead.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    for (const name of headerNames) reply.header(name, SECURITY_HEADERS[name]);
    reply.header('x-request-id', request.id);
    if (closing) {
      reply.code(503).header('connection', 'close').send({ detail: 'The service is shutting down; try again' });
      return;
    }
    done();
  });
  // Declared per route and attached when the route is, so no other request reads route options.
  // Only the page itself gets it: an error answered on that route keeps `default-src 'none'`.
  app.addHook('onRoute', (route) => {
    const policy = route.config?.contentSecurityPolicy;
    if (policy === undefined) return;
    appendRouteHook(route, 'onSend', (_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
      if (reply.statusCode < 400) reply.header('content-security-policy', policy);
      done(null, payload);
    });
  });

  // Bodies are JSON (or a route's own type, registered in its scope): Fastify's built-in text/plain
  // parser would hand a route a string, refused as "must be object" where any other type gets 415.
  app.removeContentTypeParser('text/plain');

  // JSON bodies: Fastify's parser (prototype poisoning refused) behind a nesting limit.
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // Many clients send the JSON content type on every request: an empty body is no body (a DELETE
    // stays a DELETE; a route that needs a body says which field is missing).
    if (String(body).trim() === '') {
      done(null, undefined);
      return;
    }
    if (jsonNestsDeeperThan(String(body), MAX_JSON_DEPTH)) {
      done(new ValidationError(`The JSON body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`), undefined);
      return;
    }
    parseJson(request, String(body), done);
  });

  app.addHook('preValidation', (request, _reply, done) => {
    if (request.body !== null && typeof request.body === 'object' && !Buffer.isBuffer(request.body)) {
      request.body = stripControlChars(request.body);
    }
    done();
  });

  // A second router, fed with every route, tells "wrong method" (405) from "no such path" (404).
  const knownRoutes = FindMyWay({ ignoreTrailingSlash: false });
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (!knownRoutes.hasRoute(method as never, route.url)) knownRoutes.on(method as never, route.url, () => {});
    }
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter(
      (method) => method !== request.method && knownRoutes.find(method as never, path) !== null,
    );
    if (allowed.length > 0) {
      return reply.code(405).header('allow', allowed.join(', ')).send({ detail: `Method ${request.method} not allowed` });
    }
    return reply.code(404).send({ detail: 'Not Found' });
  });

  app.setErrorHandler((error: FastifyError | DomainError, request, reply) => {
    if (error instanceof DomainError) {
      return sendError(reply, error.status, error.detail, error.headers);
    }
    if (error.validation) {
      return sendError(reply, 400, describeValidationError(error.validation as never, error.validationContext));
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendError(reply, 400, 'Request body is not valid JSON');
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendError(reply, 415, `Unsupported content type '${request.headers['content-type'] ?? ''}'`);
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendError(reply, 413, 'Request body is too large');
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return sendError(reply, status, error.message);
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, 500, 'Internal server error');
  });
}

function sendError(reply: FastifyReply, status: number, detail: string, headers: Record<string, string> = {}) {
  return reply.code(status).headers(headers).send({ detail });
}
