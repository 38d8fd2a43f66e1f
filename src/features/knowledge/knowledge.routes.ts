/** The knowledge endpoints of interface.md section 4 ("Knowledge") and `POST /api/v1/bots/{bot_id}/knowledge`. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { apiAccess } from '../../platform/auth/auth.ts';
import { errorResponses } from '../../platform/schemas.ts';
import { botScopeOf, pathBotOf } from '../bots/bot-scope.ts';
import type { BotService } from '../bots/bots.service.ts';
import { BotIdParamsSchema } from '../bots/bots.schemas.ts';
import type { KnowledgeService } from './knowledge.service.ts';
import { parseKnowledgeBody } from './knowledge.forms.ts';
import {
  BotKnowledgeBodySchema,
  Form1ResponseSchema,
  Form2ResponseSchema,
  KnowledgeBodySchema,
  SourceIdParamsSchema,
  SourceListSchema,
  sourceView,
} from './knowledge.schemas.ts';

const fetchErrors = { 422: errorResponses[400], 502: errorResponses[400] };

export function knowledgeRoutes(deps: { knowledge: KnowledgeService; bots: BotService }) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const { knowledge, bots } = deps;
    const tags = ['knowledge'];

    app.post('/api/v1/knowledge', {
      config: { auth: apiAccess('write') },
      schema: {
        operationId: 'addKnowledge',
        tags,
        description: 'Form 1 (`name` with `content` or `url`) answers 200 once indexed; Form 2 (`title`, or a URL in `content`) answers 201 and indexes URLs in the background.',
        body: KnowledgeBodySchema,
        response: { 200: Form1ResponseSchema, 201: Form2ResponseSchema, ...errorResponses, ...fetchErrors },
      },
      handler: async (request, reply) => {
        const command = parseKnowledgeBody(request.body);
        const { bot } = await botScopeOf(request, bots);
        if (command.form === 2) {
          const source =
            command.type === 'text'
              ? await knowledge.addText(bot.id, { name: command.title, content: command.content }, 'ready')
              : await knowledge.queueUrl(bot.id, { name: command.title, url: command.url });
          const message = command.type === 'text' ? 'Text source added and indexed' : 'URL queued for indexing';
          return reply.code(201).send({ id: source.id, status: source.status, message });
        }
        if (command.type === 'text') {
          return { success: true, source: sourceView(await knowledge.addText(bot.id, command)) };
        }
        const { source, chars } = await knowledge.addUrl(bot.id, command);
        return { success: true, chars, source: sourceView(source) };
      },
    });

    app.get('/api/v1/knowledge', {
      config: { auth: apiAccess('read') },
      schema: {
        operationId: 'listKnowledge',
        tags,
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
          offset: Type.Optional(Type.Integer({ minimum: 0 })),
        }),
        response: { 200: SourceListSchema, ...errorResponses },
      },
      handler: async (request) => {
        const { bot } = await botScopeOf(request, bots);
        const { limit, offset } = request.query;
        const paged = limit !== undefined || offset !== undefined;
        const { sources, total } = await knowledge.list(bot.id, paged ? { limit: limit ?? 50, offset: offset ?? 0 } : undefined);
        return { sources: sources.map(sourceView), total };
      },
    });

    app.delete('/api/v1/knowledge/:source_id', {
      config: { auth: apiAccess('write') },
      schema: {
        operationId: 'deleteKnowledge',
        tags,
        params: SourceIdParamsSchema,
        response: { 200: Type.Object({ success: Type.Boolean(), deleted_id: Type.String() }), ...errorResponses },
      },
      handler: async (request) => {
        const { bot } = await botScopeOf(request, bots);
        await knowledge.remove(bot.id, request.params.source_id);
        return { success: true, deleted_id: request.params.source_id };
      },
    });

    app.post('/api/v1/bots/:bot_id/knowledge', {
      config: { auth: apiAccess('write') },
      schema: {
        operationId: 'addBotKnowledge',
        tags,
        params: BotIdParamsSchema,
        body: BotKnowledgeBodySchema,
        response: { 201: Type.Object({ success: Type.Boolean(), source: Form1ResponseSchema.properties.source }), ...errorResponses },
      },
      handler: async (request, reply) => {
        const bot = await pathBotOf(request, request.params.bot_id, bots);
        const source = await knowledge.addText(bot.id, { name: request.body.name.trim(), content: request.body.content });
        return reply.code(201).send({ success: true, source: sourceView(source) });
      },
    });
  };
}
