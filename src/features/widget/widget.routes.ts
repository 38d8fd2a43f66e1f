/**
 * The widget's endpoints: its public configuration, the streamed chat (interface.md sections 4 and
 * 6), the visitor's history, message feedback, the visitor's live stream of operator messages, and
 * CORS preflights for all of them.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ErrorSchema, errorResponses, EXAMPLE, isUuid, mediaResponse, withExamples } from '../../platform/schemas.ts';
import { ForbiddenError, UnsupportedMediaTypeError, ValidationError, DomainError } from '../../platform/errors.ts';
import { openEventStream, type EventStream } from '../../platform/sse.ts';
import { AnswerError } from '../answers/answers.types.ts';
import type { BotService } from '../bots/bots.service.ts';
import type { ChatService } from '../chat/chat.service.ts';
import { PAUSED_MESSAGE } from '../chat/chat.service.ts';
import { CHAT_STREAM_EXAMPLE, MAX_METADATA_BYTES, SessionKeySchema, StreamBodySchema } from '../chat/chat.schemas.ts';
import { QuotaExceededError, type ConversationService } from '../conversations/conversations.service.ts';
import type { LiveSessions } from '../conversations/live-sessions.ts';
import { ALLOWED_UPLOADS } from '../media/media-types.ts';
import type { MediaService } from '../media/media.service.ts';
import { HistorySchema, WidgetConfigSchema } from './widget.schemas.ts';
import { allowWidgetOrigin, isOriginAllowed, widgetAccess, widgetCallerOf, widgetOnlyAccess } from './widget-access.ts';

export interface WidgetRouteDeps {
  chat: ChatService;
  bots: BotService;
  conversations: ConversationService;
  live: LiveSessions;
  /** The session's uploads, shown again in the history. */
  media: Pick<MediaService, 'sessionAttachments'>;
  heartbeatMs: number;
  /** The media upload limit, told to the widget so that it refuses a large file before sending it. */
  maxUploadBytes: number;
}

/** How long browsers may keep a bot's widget configuration: a change shows within a minute. */
const CONFIG_MAX_AGE_SEC = 60;

/** Paths a browser on the customer's site calls (each gets a CORS preflight). */
export const WIDGET_PATHS = [
  '/api/widget/config',
  '/api/widget/chat/stream',
  '/api/widget/chat/media',
  '/api/widget/messages/:message_id/feedback',
  '/api/widget/sessions/:session_id/messages',
  '/api/widget/sessions/:session_id/events',
];

/** 406 unless the client accepts an event stream. */
function requireEventStream(request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
  const accept = request.headers.accept ?? '';
  if (!/text\/event-stream/i.test(accept)) {
    return done(new NotAcceptableError("This endpoint streams Server-Sent Events: send 'Accept: text/event-stream'"));
  }
  done();
}

/** 415 unless the body is JSON (Fastify would also parse text/plain). */
function requireJson(request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
  const type = request.headers['content-type'] ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
    return done(new UnsupportedMediaTypeError(`The body must be JSON ('Content-Type: application/json'), not '${type || 'none'}'`));
  }
  done();
}

export class NotAcceptableError extends DomainError {
  override readonly status = 406;
}

export function widgetRoutes(deps: WidgetRouteDeps) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const { chat, bots, conversations, live, media, heartbeatMs, maxUploadBytes } = deps;
    const tags = ['widget'];

    // Visitors' live streams never end by themselves: a shutting-down instance closes them (the
    // browser reconnects to another one), while chat streams in progress finish their answer.
    const liveStreams = new Set<EventStream>();
    fastify.addHook('preClose', (done) => {
      for (const stream of liveStreams) stream.close();
      done();
    });

    // Widget responses name the caller's origin, errors included, so the widget can read them;
    // requests from origins a bot does not allow are refused by widget access itself.
    app.addHook('onRequest', (request, reply, done) => {
      allowWidgetOrigin(request, reply);
      done();
    });

    for (const url of WIDGET_PATHS) {
      app.options(url, {
        config: { rateLimit: true },
        schema: { hide: true, querystring: Type.Object({ bot_id: Type.Optional(Type.String()) }) } as never,
        handler: async (request, reply) => {
          const botId = (request.query as { bot_id?: string }).bot_id;
          // With the bot named in the URL, only its allowed origins get a preflight.
          if (botId && isUuid(botId)) {
            const bot = await bots.get(botId).catch(() => undefined);
            if (bot && !isOriginAllowed(request.headers.origin, bot.allowed_domains)) {
              throw new ForbiddenError(`Origin '${request.headers.origin ?? ''}' is not allowed for this bot`);
            }
          }
          return reply
            .code(204)
            .header('access-control-allow-methods', 'GET, POST, OPTIONS')
            .header('access-control-allow-headers', 'authorization, content-type, accept, x-request-id')
            .header('access-control-max-age', '600')
            .send();
        },
      });
    }

    app.get('/api/widget/config', {
      config: { auth: widgetOnlyAccess },
      schema: {
        operationId: 'widgetConfig',
        tags,
        summary: "The bot's widget configuration",
        description:
          'What the embedded widget shows and checks: name, welcome message, colour, style, languages, lead capture and the upload rules. Public (the bot id in `bot_id`, or as bearer), checked against `allowed_domains` like every widget call, and cacheable for a minute.',
        querystring: Type.Object({ bot_id: Type.Optional(Type.String({ maxLength: 64 })) }),
        response: { 200: WidgetConfigSchema, ...errorResponses },
      },
      handler: async (request, reply) => {
        const bot = await bots.get(widgetCallerOf(request).botId);
        reply.header('cache-control', `public, max-age=${CONFIG_MAX_AGE_SEC}`);
        return {
          bot_id: bot.id,
          name: bot.name,
          welcome_message: bot.welcome_message,
          primary_color: bot.primary_color,
          widget_style: bot.widget_style,
          response_language: bot.response_language,
          lead_capture_enabled: bot.lead_capture_enabled,
          lead_fields: bot.lead_fields,
          calendar_scheduling_enabled: bot.calendar_scheduling_enabled,
          meeting_url: bot.calendar_scheduling_enabled ? bot.meeting_url : null,
          uploads: { max_bytes: maxUploadBytes, types: [...ALLOWED_UPLOADS] },
        };
      },
    });

    app.get('/api/widget/sessions/:session_id/messages', {
      config: { auth: widgetAccess },
      schema: {
        operationId: 'widgetHistory',
        tags,
        summary: "A visitor's conversation so far",
        description:
          "The session's messages, oldest first, with each answer's sources and rating, the visitor's uploads (each with a fresh signed `url`, valid for PARLEY_MEDIA_URL_TTL seconds), and whether an operator holds the conversation: what the widget shows after a reload, messages and uploads merged by `created_at`. With a bot id, only a session a visitor opened (not one the business's server holds through an API key), and once started with a `visitor_id` only to that `visitor_id` (404 otherwise).",
        params: Type.Object({ session_id: SessionKeySchema }),
        querystring: Type.Object({ bot_id: Type.Optional(Type.String({ maxLength: 64 })), visitor_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })) }),
        response: { 200: HistorySchema, ...errorResponses },
      },
      handler: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const { botId, asVisitor } = widgetCallerOf(request);
        const caller = { asVisitor, visitorId: request.query.visitor_id };
        return conversations.visitorHistory(botId, request.params.session_id, caller, (sessionId) => media.sessionAttachments(botId, sessionId));
      },
    });

    app.post('/api/widget/chat/stream', {
      config: { auth: widgetAccess, widgetRateLimit: true },
      onRequest: [requireEventStream, requireJson],
      schema: {
        operationId: 'chatStream',
        tags,
        summary: 'Send a message and stream the reply (Server-Sent Events)',
        description:
          'Streams the reply as Server-Sent Events: `token` {token} per chunk, then `done` {session_id, sources, message_id (the stored answer, for feedback), lead_form? {fields} (when the answer asked for contact details: the widget offers its form)}; or `paused` {reason, message, session_id} when an operator holds the conversation (the message is stored); or `error` {code, message, session_id?} (`quota_exceeded`, nothing stored; `provider_error`, `internal_error`, with the `session_id` the message was stored in). Comment lines keep idle streams alive.',
        body: StreamBodySchema,
        response: {
          200: mediaResponse('text/event-stream', 'The reply as Server-Sent Events', Type.String({ examples: [CHAT_STREAM_EXAMPLE] })),
          ...errorResponses,
          406: ErrorSchema,
          415: ErrorSchema,
        },
      },
      handler: async (request, reply) => {
        const principal = widgetCallerOf(request);
        const body = request.body;
        if (body.metadata && Buffer.byteLength(JSON.stringify(body.metadata)) > MAX_METADATA_BYTES) {
          throw new ValidationError(`field 'metadata' is larger than ${MAX_METADATA_BYTES} bytes of JSON`);
        }
        const bot = await bots.get(principal.botId);
        // Told before the stream opens, as a 404 (the turn checks again as it stores the message).
        if (principal.asVisitor && body.session_id) await conversations.checkVisitorOf(bot.id, body.session_id, body.visitor_id);

        const stream = openEventStream(reply, { heartbeatMs });
        try {
          const result = await chat.chat(
            {
              bot,
              keyId: principal.keyId,
              text: body.text,
              sessionKey: body.session_id,
              visitorId: body.visitor_id,
              asVisitor: principal.asVisitor,
              visitorTimezone: body.visitor_timezone,
              metadata: body.metadata,
              responseLanguage: body.response_language,
              // The widget opens on the welcome message.
              welcomeShown: true,
            },
            (token) => stream.send('token', { token }),
          );
          if (result.paused) stream.send('paused', { reason: 'human_takeover', message: PAUSED_MESSAGE, session_id: result.sessionKey });
          else {
            stream.send('done', {
              session_id: result.sessionKey,
              sources: result.sources,
              message_id: result.messageId,
              ...(result.leadFieldsAsked && { lead_form: { fields: result.leadFieldsAsked } }),
            });
          }
        } catch (err) {
          stream.send('error', streamErrorOf(err, request));
        } finally {
          stream.close();
        }
      },
    });

    app.post('/api/widget/messages/:message_id/feedback', {
      config: { auth: widgetAccess },
      schema: {
        operationId: 'rateMessage',
        tags,
        summary: "Rate one of the bot's answers",
        description: 'Sets (`up`, `down`) or clears (`null`) the feedback of an assistant message of the same session and bot; 404 otherwise.',
        params: Type.Object({ message_id: Type.String({ format: 'uuid' }) }),
        body: withExamples(
          Type.Object({
            session_id: SessionKeySchema,
            rating: Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Null()]),
            bot_id: Type.Optional(Type.String({ maxLength: 64 })),
          }),
          { session_id: EXAMPLE.sessionId, rating: 'up' },
        ),
        response: {
          200: withExamples(Type.Object({ success: Type.Boolean(), message_id: Type.String(), feedback_rating: Type.Union([Type.String(), Type.Null()]) }), {
            success: true,
            message_id: EXAMPLE.replyId,
            feedback_rating: 'up',
          }),
          ...errorResponses,
        },
      },
      handler: async (request) => {
        const principal = widgetCallerOf(request);
        const rated = await conversations.rateMessage(principal.botId, request.body.session_id, request.params.message_id, request.body.rating);
        return { success: true, message_id: rated.id, feedback_rating: rated.feedback_rating };
      },
    });

    app.get('/api/widget/sessions/:session_id/events', {
      config: { auth: widgetAccess },
      onRequest: [requireEventStream],
      schema: {
        operationId: 'sessionEvents',
        tags,
        summary: "Follow a session's operator messages (Server-Sent Events)",
        description:
          "The visitor's live stream: `message` {id, role, author, content, created_at} for each operator message, and `status` {taken_over} when an operator takes the conversation or hands it back. `bot_id` may be given in the query (EventSource cannot send headers). With a bot id, only a session a visitor opened, and with a `visitor_id` the one it was started with (404 otherwise).",
        params: Type.Object({ session_id: SessionKeySchema }),
        querystring: Type.Object({ bot_id: Type.Optional(Type.String({ maxLength: 64 })), visitor_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })) }),
        response: {
          200: mediaResponse(
            'text/event-stream',
            'Operator messages and takeover changes as Server-Sent Events',
            Type.String({
              examples: [
                `event: status\ndata: {"taken_over":true}\n\nevent: message\ndata: {"id":"${EXAMPLE.replyId}","role":"assistant","author":"operator","content":"Hi, I'm Sam from the support team. Let me check your order.","created_at":"${EXAMPLE.later}"}\n\n`,
              ],
            }),
          ),
          ...errorResponses,
          406: ErrorSchema,
        },
      },
      handler: async (request, reply) => {
        const principal = widgetCallerOf(request);
        const sessionKey = request.params.session_id;
        await conversations.getCallerSession(principal.botId, sessionKey, { asVisitor: principal.asVisitor, visitorId: request.query.visitor_id });
        const stream = openEventStream(reply, { heartbeatMs });
        const unsubscribe = live.subscribe(principal.botId, sessionKey, (activity) => {
          if (activity.type === 'message' && activity.message.author === 'operator') stream.send('message', activity.message);
          if (activity.type === 'status') stream.send('status', { taken_over: activity.takenOver });
        });
        liveStreams.add(stream);
        stream.onClose(() => {
          unsubscribe();
          liveStreams.delete(stream);
        });
      },
    });
  };
}

/** The `error` event for a failure once the stream is open. */
function streamErrorOf(err: unknown, request: FastifyRequest): { code: string; message: string; session_id?: string } {
  if (err instanceof QuotaExceededError) return { code: 'quota_exceeded', message: err.detail };
  if (err instanceof AnswerError) return { code: err.code, message: err.message, ...(err.sessionKey && { session_id: err.sessionKey }) };
  request.log.error({ err }, 'chat stream failed');
  return { code: 'internal_error', message: 'The answer could not be generated' };
}
