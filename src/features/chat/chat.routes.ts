/** `POST /api/v1/chat`: send a message, get the whole reply (interface.md section 4). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { apiAccess } from '../../platform/auth/auth.ts';
import { ErrorSchema, errorResponses } from '../../platform/schemas.ts';
import { InternalError, UpstreamError } from '../../platform/errors.ts';
import { AnswerError } from '../answers/answers.types.ts';
import { botScopeOf } from '../bots/bot-scope.ts';
import type { BotService } from '../bots/bots.service.ts';
import { ChatBodySchema, ChatResponseSchema } from './chat.schemas.ts';
import type { ChatService } from './chat.service.ts';

/** Maps an engine failure to the HTTP error of `POST /api/v1/chat`. */
export function httpErrorOf(err: AnswerError): Error {
  return err.code === 'provider_error' ? new UpstreamError(err.message) : new InternalError(err.message);
}

export function chatRoutes(deps: { chat: ChatService; bots: BotService }) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/api/v1/chat', {
      config: { auth: apiAccess('chat') },
      schema: {
        operationId: 'chat',
        tags: ['chat'],
        summary: 'Send a message and get the whole reply',
        description:
          "Stores the visitor's message in the session (`session_id` continues one, a new id starts one; omitted, a new id is returned) and answers with the bot's whole reply, grounded in its knowledge. `paused: true` with an empty reply means an operator holds the conversation. Answers 502 when the model provider fails (the message stays stored) and 429 `Monthly message quota exceeded` when the allowance is used up.",
        body: ChatBodySchema,
        response: { 200: ChatResponseSchema, ...errorResponses, 500: ErrorSchema, 502: ErrorSchema },
      },
      handler: async (request) => {
        const { bot, keyId } = await botScopeOf(request, deps.bots);
        const body = request.body;
        try {
          const result = await deps.chat.chat({
            bot,
            keyId,
            text: body.text,
            sessionKey: body.session_id,
            visitorTimezone: body.visitor_timezone,
            responseLanguage: body.response_language,
          });
          return result.paused ? { reply: '', session_id: result.sessionKey, paused: true } : { reply: result.reply, session_id: result.sessionKey };
        } catch (err) {
          throw err instanceof AnswerError ? httpErrorOf(err) : err;
        }
      },
    });
  };
}
