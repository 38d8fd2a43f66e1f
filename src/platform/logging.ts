/**
 * The service's request log: what pino writes for each request, with credentials left out. Headers
 * that carry them are redacted, and so is a signed link's signature, which is a bearer credential
 * for a visitor's upload for as long as the link lives.
 */
import type { FastifyRequest } from 'fastify';

const SECRET_QUERY_PARAMETERS = ['signature'];

/** The request's path and query as logged: the values of secret parameters replaced. */
export function loggedUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const params = new URLSearchParams(url.slice(query + 1));
  let changed = false;
  for (const name of SECRET_QUERY_PARAMETERS) {
    if (params.has(name)) {
      params.set(name, '[redacted]');
      changed = true;
    }
  }
  return changed ? `${url.slice(0, query)}?${params.toString()}` : url;
}

/** Fastify's `logger` option for the running service. */
export function serviceLoggerOptions(level: string) {
  return {
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], censor: '[redacted]' },
    serializers: {
      req: (request: FastifyRequest) => ({ method: request.method, url: loggedUrl(request.url), host: request.host, remoteAddress: request.ip, remotePort: request.socket?.remotePort }),
    },
  };
}
