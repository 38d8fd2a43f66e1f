/**
 * Applies the per-IP-per-endpoint limit to every route (unless it opts out with
 * `config.rateLimit: false`) and to unmatched requests. The hook is attached to each route when it
 * is declared, with its endpoint name worked out once.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimiter } from './rate-limiter.ts';
import { appendRouteHook } from '../route-hooks.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: exempt from the per-IP limit (health checks, docs). */
    rateLimit?: boolean;
    /** true: widget callers (bot id) also count against PARLEY_RATE_WIDGET_PER_MIN per visitor IP and bot. */
    widgetRateLimit?: boolean;
  }
}

export function installIpRateLimit(app: FastifyInstance, limiter: RateLimiter): void {
  // Callback style: the in-process store decides synchronously, so no promise is made per request.
  const limitIp = (endpoint: string) =>
    function ipRateLimit(request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) {
      let pending;
      try {
        pending = limiter.checkIp(request.ip, endpoint);
      } catch (err) {
        return done(err as Error);
      }
      if (pending) pending.then(() => done(), done);
      else done();
    };

  app.addHook('onRoute', (route) => {
    if (route.config?.rateLimit === false) return;
    const methods = Array.isArray(route.method) ? route.method.join(',') : route.method;
    appendRouteHook(route, 'onRequest', limitIp(`${methods} ${route.url}`));
  });

  const unmatched = limitIp('(unmatched)');
  app.addHook('onRequest', (request, reply, done) => {
    if (request.is404) unmatched(request, reply, done);
    else done();
  });
}
