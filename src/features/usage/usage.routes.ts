/** GET /api/v1/usage: the calling key's daily usage. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { apiAccess, principalOf } from '../../platform/auth/auth.ts';
import { ValidationError } from '../../platform/errors.ts';
import { errorResponses } from '../../platform/schemas.ts';
import type { UsageService } from './usage.service.ts';

const Counts = { messages: Type.Integer(), api_calls: Type.Integer() };

export const UsageReportSchema = Type.Object({
  key_id: Type.String(),
  days: Type.Integer(),
  totals: Type.Object(Counts),
  daily: Type.Array(Type.Object({ date: Type.String(), ...Counts })),
});

export function usageRoutes(deps: { usage: UsageService }) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/api/v1/usage', {
      config: { auth: apiAccess('read') },
      schema: {
        operationId: 'getUsage',
        tags: ['usage'],
        querystring: Type.Object({ days: Type.Optional(Type.Integer({ minimum: 1, maximum: 90, default: 30 })) }),
        response: { 200: UsageReportSchema, ...errorResponses },
      },
      handler: async (request) => {
        const principal = principalOf(request);
        if (principal.kind !== 'api_key') throw new ValidationError('Usage is counted per API key: call this endpoint with an API key');
        return deps.usage.report(principal.keyId, request.query.days ?? 30);
      },
    });
  };
}
