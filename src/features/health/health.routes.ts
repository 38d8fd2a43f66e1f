/** GET /healthz (the process is up) and GET /readyz (its database and Redis answer). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';

export function healthRoutes(deps: { checkReady: () => Promise<void> }) {
  return async function (app: FastifyInstance) {
    const Status = Type.Object({ status: Type.String() });
    app.get('/healthz', {
      config: { rateLimit: false },
      schema: { operationId: 'healthz', tags: ['health'], response: { 200: Status } },
      handler: async () => ({ status: 'ok' }),
    });
    app.get('/readyz', {
      config: { rateLimit: false },
      schema: { operationId: 'readyz', tags: ['health'], response: { 200: Status, 503: Type.Object({ status: Type.String(), detail: Type.String() }) } },
      handler: async (request, reply) => {
        try {
          await deps.checkReady();
          return { status: 'ready' };
        } catch (err) {
          request.log.warn({ err }, 'readiness check failed');
          return reply.code(503).send({ status: 'unavailable', detail: 'A backing service (database or Redis) does not answer' });
        }
      },
    });
  };
}
