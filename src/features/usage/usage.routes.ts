/** GET /api/v1/usage: the calling key's daily usage. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { apiAccess, principalOf } from '../../platform/auth/auth.ts';
import { ValidationError } from '../../platform/errors.ts';
import { errorResponses, EXAMPLE, withExamples } from '../../platform/schemas.ts';
import type { UsageService } from './usage.service.ts';

const Counts = { messages: Type.Integer(), api_calls: Type.Integer() };

export const UsageReportSchema = withExamples(
  Type.Object({
    key_id: Type.String(),
    days: Type.Integer(),
    totals: Type.Object(Counts),
    daily: Type.Array(Type.Object({ date: Type.String({ description: 'YYYY-MM-DD (UTC)' }), ...Counts }), { description: 'every day of the window, newest first' }),
  }),
  {
    key_id: EXAMPLE.keyId,
    days: 3,
    totals: { messages: 41, api_calls: 118 },
    daily: [
      { date: '2026-03-02', messages: 12, api_calls: 30 },
      { date: '2026-03-01', messages: 0, api_calls: 4 },
      { date: '2026-02-28', messages: 29, api_calls: 84 },
    ],
  },
);

export function usageRoutes(deps: { usage: UsageService }) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/api/v1/usage', {
      config: { auth: apiAccess('read') },
      schema: {
        operationId: 'getUsage',
        tags: ['usage'],
        summary: "The calling API key's daily usage",
        description: 'Calls and chat messages of the calling API key per day (UTC) over the last `days` days; an OAuth token gets 400, since usage is counted per key.',
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
