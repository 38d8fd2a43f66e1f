/** GET /healthz (the process is up) and GET /readyz (its database and Redis answer). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { withExamples } from '../../platform/schemas.ts';

export function healthRoutes(deps: { checkReady: () => Promise<void> }) {
  return async function (app: FastifyInstance) {
    const Status = Type.Object({ status: Type.String() });
    app.get('/healthz', {
      config: { rateLimit: false },
      schema: {
        operationId: 'healthz',
        tags: ['health'],
        summary: 'Is the process up',
        description: 'No authentication, no rate limit.',
        response: { 200: withExamples(Status, { status: 'ok' }) },
      },
      handler: async () => ({ status: 'ok' }),
    });
    app.get('/readyz', {
      config: { rateLimit: false },
      schema: {
        operationId: 'readyz',
        tags: ['health'],
        summary: 'Can it serve requests',
        description: 'Answers 200 once the database (and Redis, when configured) answers, else 503. No authentication, no rate limit.',
        response: {
          200: withExamples(Status, { status: 'ready' }),
          503: withExamples(Type.Object({ status: Type.String(), detail: Type.String() }), {
            status: 'unavailable',
            detail: 'A backing service (database or Redis) does not answer',
          }),
        },
      },
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
