/** Applies the per-IP-per-endpoint limit to every route (unless it opts out with `config.rateLimit: false`). */
import type { FastifyInstance } from 'fastify';
import type { RateLimiter } from './rate-limiter.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: exempt from the per-IP limit (health checks). */
    rateLimit?: boolean;
  }
}

export function installIpRateLimit(app: FastifyInstance, limiter: RateLimiter): void {
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.rateLimit === false) return;
    const endpoint = `${request.method} ${request.routeOptions.url ?? '(unmatched)'}`;
    await limiter.checkIp(request.ip, endpoint);
  });
}
