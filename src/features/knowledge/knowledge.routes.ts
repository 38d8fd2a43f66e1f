/** The knowledge endpoints of interface.md section 4 ("Knowledge") and `POST /api/v1/bots/{bot_id}/knowledge`. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { apiAccess } from '../../platform/auth/auth.ts';
import { errorResponses, EXAMPLE, withExamples } from '../../platform/schemas.ts';
import { botScopeOf, pathBotOf } from '../bots/bot-scope.ts';
import type { BotService } from '../bots/bots.service.ts';
import { BotIdParamsSchema } from '../bots/bots.schemas.ts';
import type { KnowledgeService } from './knowledge.service.ts';
import { parseKnowledgeBody } from './knowledge.forms.ts';
import {
  BotKnowledgeBodySchema,
  BotKnowledgeCreatedSchema,
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
      config: { auth: apiAccess('write', 'knowledge') },
      schema: {
        operationId: 'addKnowledge',
        tags,
        summary: 'Add a text or a web page to the bot\'s knowledge',
        description:
          'Two forms. Form 1 (`type` and `name`, with `content` for text or `url` for a page) answers 200 once the source is indexed, with `chars` for a page. Form 2 (no `name`; `title`, or `type: "url"` with the URL in `content`) answers 201: text is `ready` at once, a page `processing` until it is fetched in the background (`https://` only). A page that cannot be fetched answers 502, one without usable text 422.',
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
      config: { auth: apiAccess('read', 'knowledge') },
      schema: {
        operationId: 'listKnowledge',
        tags,
        summary: "List the bot's knowledge sources",
        description: 'Newest first. Without `limit` and `offset`, every source; with either, one page. `total` counts them all.',
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
          offset: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
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
      config: { auth: apiAccess('write', 'knowledge') },
      schema: {
        operationId: 'deleteKnowledge',
        tags,
        summary: 'Delete a knowledge source',
        description: 'Deletes the source and its index entries for good; the bot stops answering from it at once. Another bot\'s source answers 403.',
        params: SourceIdParamsSchema,
        response: {
          200: withExamples(Type.Object({ success: Type.Boolean(), deleted_id: Type.String() }), { success: true, deleted_id: EXAMPLE.sourceId }),
          ...errorResponses,
        },
      },
      handler: async (request) => {
        const { bot } = await botScopeOf(request, bots);
        await knowledge.remove(bot.id, request.params.source_id);
        return { success: true, deleted_id: request.params.source_id };
      },
    });

    app.post('/api/v1/bots/:bot_id/knowledge', {
      config: { auth: apiAccess('write', 'knowledge') },
      schema: {
        operationId: 'addBotKnowledge',
        tags,
        summary: "Add text to a bot's knowledge",
        description: 'Text only (up to 100,000 characters), indexed before the answer. An API key works for its own bot only.',
        params: BotIdParamsSchema,
        body: BotKnowledgeBodySchema,
        response: { 201: BotKnowledgeCreatedSchema, ...errorResponses },
      },
      handler: async (request, reply) => {
        const bot = await pathBotOf(request, request.params.bot_id, bots);
        const source = await knowledge.addText(bot.id, { name: request.body.name.trim(), content: request.body.content });
        return reply.code(201).send({ success: true, source: sourceView(source) });
      },
    });
  };
}
