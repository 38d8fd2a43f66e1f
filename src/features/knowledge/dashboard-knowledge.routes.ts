/**
 * Dashboard knowledge management: text and web pages (a page is fetched in the background, so the
 * dashboard can show its status change), document uploads, crawl schedules, deletion, and a search
 * preview of what the bot would find for a question.
 */
import type { FastifyInstance } from 'fastify';
import multipart, { type MultipartFile } from '@fastify/multipart';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { dashboardAccess, principalOf } from '../../platform/auth/auth.ts';
import { firstCharacters } from '../../platform/characters.ts';
import { UnprocessableError, ValidationError } from '../../platform/errors.ts';
import { multipartError } from '../../platform/multipart-errors.ts';
import { extractTextIsolated } from './extract/isolated-extract.ts';
import { errorResponses } from '../../platform/schemas.ts';
import { assertTab } from '../auth/roles.ts';
import type { BotService } from '../bots/bots.service.ts';
import type { KnowledgeService } from './knowledge.service.ts';
import { LOCAL_MODEL } from '../answers/providers/provider-routing.ts';
import { searchForQuestion } from '../answers/question-retrieval.ts';
import { composeLocalAnswer } from '../answers/local/local-engine.ts';
import { SourceSchema, sourceView } from './knowledge.schemas.ts';
import { DashboardKnowledgeBodySchema, DashboardSourceCreatedSchema, KnowledgeSearchQuerySchema, KnowledgeSearchResultSchema, parseDashboardKnowledge } from './dashboard-knowledge.schemas.ts';

const MAX_FIELDS = 10;

const Params = Type.Object({ bot_id: Type.String({ format: 'uuid' }), source_id: Type.String() });
const BotParams = Type.Object({ bot_id: Type.String({ format: 'uuid' }) });

export function dashboardKnowledgeRoutes(deps: { knowledge: KnowledgeService; bots: BotService; maxUploadBytes: number }) {
  return async function (fastify: FastifyInstance) {
    // Registered here, not on the root: its hooks then run only on these routes.
    await fastify.register(multipart, { limits: { fileSize: deps.maxUploadBytes, files: 1, fields: MAX_FIELDS } });
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const { knowledge, bots } = deps;
    const tags = ['dashboard: knowledge'];

    app.get('/api/dashboard/bots/:bot_id/knowledge', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardListKnowledge',
        tags,
        summary: "List a bot's knowledge sources",
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

    app.post('/api/dashboard/bots/:bot_id/knowledge', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardAddKnowledge',
        tags,
        summary: 'Add a text or a web page',
        description:
          'Text (`name`, `content` up to 100,000 characters) is indexed before the answer (`trained`). A page (`url`, http or https; `name` defaults to the URL) is answered at once as `processing` and fetched in the background: it becomes `ready`, or `failed` with the reason in `status_detail`. `crawl_schedule` sets how often the page is fetched again.',
        params: BotParams,
        body: DashboardKnowledgeBodySchema,
        response: { 201: DashboardSourceCreatedSchema, ...errorResponses },
      },
      handler: async (request, reply) => {
        const user = principalOf(request, 'dashboard');
        assertTab(user, 'knowledge');
        const command = parseDashboardKnowledge(request.body);
        const bot = await bots.getForAccount(user.accountId, request.params.bot_id);
        if (command.type === 'text') {
          const source = await knowledge.addText(bot.id, { name: command.name, content: command.content });
          return reply.code(201).send({ success: true, source: sourceView(source) });
        }
        const source = await knowledge.queueUrl(bot.id, { name: command.name, url: command.url, crawlSchedule: command.crawlSchedule });
        return reply.code(201).send({ success: true, source: sourceView(source) });
      },
    });

    app.get('/api/dashboard/bots/:bot_id/knowledge/search', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardSearchKnowledge',
        tags,
        summary: 'What the bot would find for a question',
        description:
          "The passages retrieval gives the answer engines for `q`, best first, with their source and fused score (higher is better; comparable only within one answer), and what a parley-local bot would reply. The same search the bot runs, catalog items included; a bot answering with a provider model also uses the provider's embeddings when they are configured.",
        params: BotParams,
        querystring: KnowledgeSearchQuerySchema,
        response: { 200: KnowledgeSearchResultSchema, ...errorResponses },
      },
      handler: async (request) => {
        const user = principalOf(request, 'dashboard');
        assertTab(user, 'knowledge');
        const bot = await bots.getForAccount(user.accountId, request.params.bot_id);
        const query = request.query.q.trim();
        if (!query) throw new ValidationError("query 'q' must not be blank");
        const passages = await searchForQuestion(knowledge.retriever, bot.id, query, [], request.query.limit ?? 8, {
          providerEmbeddings: bot.selected_model !== LOCAL_MODEL,
        });
        // The bot's own reply too: passages are found for nearly any question, and only the answer
        // decision tells whether the bot would quote them or say it does not know.
        const local = bot.selected_model === LOCAL_MODEL ? await composeLocalAnswer(knowledge.retriever, { bot, question: query, history: [] }) : null;
        return {
          query,
          reply: local && { kind: local.kind === 'answer' || local.kind === 'refusal' ? local.kind : ('small_talk' as const), text: local.text },
          passages: passages.map((p) => ({
            source_id: p.sourceId,
            source_name: p.sourceTitle,
            source_url: p.sourceUrl || null,
            heading: p.heading,
            text: p.text,
            score: p.score,
          })),
        };
      },
    });

    app.delete('/api/dashboard/bots/:bot_id/knowledge/:source_id', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardDeleteKnowledge',
        tags,
        summary: 'Delete a knowledge source',
        description: "The source, its passages and index entries go at once; the bot stops answering from it. Another bot's source answers 403; catalog items are deleted through the catalog.",
        params: Params,
        response: { 200: Type.Object({ success: Type.Boolean(), deleted_id: Type.String() }), ...errorResponses },
      },
      handler: async (request) => {
        const user = principalOf(request, 'dashboard');
        assertTab(user, 'knowledge');
        const bot = await bots.getForAccount(user.accountId, request.params.bot_id);
        await knowledge.remove(bot.id, request.params.source_id);
        return { success: true, deleted_id: request.params.source_id };
      },
    });

    app.post('/api/dashboard/bots/:bot_id/knowledge/files', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardUploadKnowledgeFile',
        tags,
        summary: 'Upload a document as a knowledge source',
        description: 'multipart/form-data with a `file` (PDF, TXT, CSV, Markdown or DOCX, recognised by content) and an optional `name`.',
        params: Type.Object({ bot_id: Type.String({ format: 'uuid' }) }),
        documentedBody: {
          'multipart/form-data': Type.Object({
            file: Type.String({ format: 'binary', description: 'PDF, TXT, CSV, Markdown or DOCX' }),
            name: Type.Optional(Type.String({ maxLength: 200, description: "the source's name (default: the document's title, else the file name)" })),
          }),
        },
        response: {
          201: Type.Object({ success: Type.Boolean(), source: SourceSchema }),
          ...errorResponses,
          413: errorResponses[400],
          415: errorResponses[400],
          422: errorResponses[400],
        },
      },
      handler: async (request, reply) => {
        const user = principalOf(request, 'dashboard');
        assertTab(user, 'knowledge');
        const bot = await bots.getForAccount(user.accountId, request.params.bot_id);
        if (!request.isMultipart()) throw new ValidationError("the body must be multipart/form-data with a 'file' field");
        const limits = { maxBytes: deps.maxUploadBytes, maxFields: MAX_FIELDS };
        let file: MultipartFile | undefined;
        let body: Buffer;
        try {
          file = await request.file({ limits: { fileSize: deps.maxUploadBytes, files: 1, fields: MAX_FIELDS } });
          if (!file || file.fieldname !== 'file') throw new ValidationError("field 'file' is required");
          body = await file.toBuffer();
        } catch (err) {
          throw multipartError(err, limits);
        }
        const nameField = file.fields.name;
        const givenName = nameField && 'value' in nameField ? String(nameField.value).trim() : '';
        const extracted = await extractTextIsolated({ body, contentType: file.mimetype, fileName: file.filename });
        if (!extracted.text.trim()) throw new UnprocessableError('The document has no usable text');
        const name = firstCharacters(givenName || extracted.title || file.filename || 'Document', 200);
        const source = await knowledge.addDocument(bot.id, { name, content: extracted.text });
        return reply.code(201).send({ success: true, source: sourceView(source) });
      },
    });

    app.patch('/api/dashboard/bots/:bot_id/knowledge/:source_id', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardUpdateKnowledge',
        tags,
        summary: "Set a web page source's crawl schedule",
        description: 'How often the page is fetched again and re-indexed (`null`: never). URL sources only.',
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
