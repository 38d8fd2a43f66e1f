/** Dashboard knowledge management: crawl schedules of URL sources (and, with extraction, document uploads). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { dashboardAccess, principalOf } from '../../platform/auth/auth.ts';
import { ValidationError } from '../../platform/errors.ts';
import { errorResponses } from '../../platform/schemas.ts';
import { assertTab } from '../auth/roles.ts';
import type { BotService } from '../bots/bots.service.ts';
import type { KnowledgeService } from './knowledge.service.ts';
import { SourceSchema, sourceView } from './knowledge.schemas.ts';

const Params = Type.Object({ bot_id: Type.String({ format: 'uuid' }), source_id: Type.String() });

export function dashboardKnowledgeRoutes(deps: { knowledge: KnowledgeService; bots: BotService }) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const { knowledge, bots } = deps;
    const tags = ['dashboard: knowledge'];

    app.get('/api/dashboard/bots/:bot_id/knowledge', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardListKnowledge',
        tags,
        params: Type.Object({ bot_id: Type.String({ format: 'uuid' }) }),
        response: { 200: Type.Object({ sources: Type.Array(SourceSchema), total: Type.Integer() }), ...errorResponses },
      },
      handler: async (request) => {
        const user = principalOf(request, 'dashboard');
        assertTab(user, 'knowledge');
        const bot = await bots.getForAccount(user.accountId, request.params.bot_id);
        const { sources, total } = await knowledge.list(bot.id);
        return { sources: sources.map(sourceView), total };
      },
    });

    app.patch('/api/dashboard/bots/:bot_id/knowledge/:source_id', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardUpdateKnowledge',
        tags,
        params: Params,
        body: Type.Object({
          crawl_schedule: Type.Union([Type.Literal('hourly'), Type.Literal('daily'), Type.Literal('weekly'), Type.Null()]),
        }),
        response: { 200: SourceSchema, ...errorResponses },
      },
      handler: async (request) => {
        const user = principalOf(request, 'dashboard');
        assertTab(user, 'knowledge');
        const bot = await bots.getForAccount(user.accountId, request.params.bot_id);
        const source = await knowledge.requireOwn(bot.id, request.params.source_id);
        if (source.type !== 'url') throw new ValidationError("field 'crawl_schedule' applies to URL sources only");
        return sourceView(await knowledge.setSchedule(source, request.body.crawl_schedule));
      },
    });
  };
}
