/**
 * Rules every response obeys: security headers, request ids, `{detail}` error bodies, 404 and 405,
 * and control characters stripped from text fields.
 */
import type { IncomingMessage } from 'node:http';
import FindMyWay from 'find-my-way';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { DomainError } from './errors.ts';
import { describeValidationError } from './validation.ts';
import { timeOrderedUuid } from './ids.ts';

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

/** Removes control characters (keeping newline and tab) from every string in a JSON value. */
export function stripControlChars<T>(value: T): T {
  if (typeof value === 'string') return value.replace(CONTROL_CHARS, '') as T;
  if (Array.isArray(value)) return value.map(stripControlChars) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = stripControlChars(v);
    return out as T;
  }
  return value;
}

/** Installs the response rules on the root instance (call before routes are registered). */
export function installHttpRules(app: FastifyInstance): void {
  const headerNames = Object.keys(SECURITY_HEADERS);
  app.addHook('onRequest', (request, reply, done) => {
    for (const name of headerNames) reply.header(name, SECURITY_HEADERS[name]);
    reply.header('x-request-id', request.id);
    done();
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
