/** The Conversations endpoints of interface.md section 4: every message, one session, and clearing one. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { apiAccess } from '../../platform/auth/auth.ts';
import { errorResponses, pageQuery } from '../../platform/schemas.ts';
import { botScopeOf } from '../bots/bot-scope.ts';
import type { BotService } from '../bots/bots.service.ts';
import type { ConversationService } from './conversations.service.ts';
import { ConversationDeletedSchema, ConversationSchema, MessageListSchema, SessionParamsSchema } from './conversations.schemas.ts';

export interface ConversationRouteDeps {
  conversations: ConversationService;
  bots: BotService;
  /** Removes a cleared session's stored files (media). */
  onSessionCleared?: (botId: string, sessionId: string) => Promise<void>;
}

export function conversationRoutes(deps: ConversationRouteDeps) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const { conversations, bots } = deps;
    const tags = ['conversations'];

    app.get('/api/v1/conversations', {
      config: { auth: apiAccess('read', 'inbox') },
      schema: {
        operationId: 'listMessages',
        tags,
        summary: 'List messages across all sessions',
        description: 'Messages across all sessions of the bot, newest first.',
        querystring: Type.Object(pageQuery()),
        response: { 200: MessageListSchema, ...errorResponses },
      },
      handler: async (request) => {
        const { bot } = await botScopeOf(request, bots);
        const limit = request.query.limit ?? 50;
        const offset = request.query.offset ?? 0;
        return { messages: await conversations.recentMessages(bot.id, { limit, offset }), limit, offset };
      },
    });

    app.get('/api/v1/conversations/:session_id', {
      config: { auth: apiAccess('read', 'inbox') },
      schema: {
        operationId: 'getConversation',
        tags,
        summary: "Read one session's messages",
        description: "One session's messages, oldest first. 404 `Session not found or belongs to a different bot` for an unknown session or another bot's.",
        params: SessionParamsSchema,
        response: { 200: ConversationSchema, ...errorResponses },
      },
      handler: async (request) => {
        const { bot } = await botScopeOf(request, bots);
        const messages = await conversations.messages(bot.id, request.params.session_id);
        return { session_id: request.params.session_id, messages };
      },
    });

    app.delete('/api/v1/conversations/:session_id', {
      config: { auth: apiAccess('write', 'inbox') },
      schema: {
        operationId: 'deleteConversation',
        tags,
        summary: 'Delete a session',
        description: 'Deletes the session, its messages and uploads; the next message with the same session_id starts a fresh conversation.',
        params: SessionParamsSchema,
        response: { 200: ConversationDeletedSchema, ...errorResponses },
      },
      handler: async (request) => {
        const { bot } = await botScopeOf(request, bots);
        const { sessionId } = await conversations.clear(bot.id, request.params.session_id);
        await deps.onSessionCleared?.(bot.id, sessionId);
        return { success: true, session_id: request.params.session_id };
      },
    });
  };
}
