/**
 * The operators' live inbox (`/api/dashboard/bots/{bot_id}/inbox…`), human takeover and bot
 * pause. Every route needs a dashboard session with the Inbox tab; deleting a conversation also
 * needs the owner or admin role.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { dashboardAccess, principalOf } from '../../platform/auth/auth.ts';
import { errorResponses, EXAMPLE, mediaResponse } from '../../platform/schemas.ts';
import { openEventStream, type EventStream } from '../../platform/sse.ts';
import { assertRole, assertTab } from '../auth/roles.ts';
import type { BotService } from '../bots/bots.service.ts';
import type { InboxService } from './inbox.service.ts';
import {
  BotParamsSchema,
  BotPauseSchema,
  InboxListSchema,
  InboxMessageSchema,
  InboxQuerySchema,
  InboxSessionDetailSchema,
  InboxSessionSchema,
  OperatorMessageBodySchema,
  SessionDeletedSchema,
  SessionParamsSchema,
} from './inbox.schemas.ts';

export interface InboxRouteDeps {
  inbox: InboxService;
  bots: BotService;
  heartbeatMs: number;
}

export function inboxRoutes(deps: InboxRouteDeps) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const { inbox, bots, heartbeatMs } = deps;
    const tags = ['dashboard: inbox'];

    /** The signed-in operator and the bot, refused without the Inbox tab, "not found" for another account's bot. */
    async function inboxBot(request: FastifyRequest, botId: string) {
      const user = principalOf(request, 'dashboard');
      assertTab(user, 'inbox');
      return { user, bot: await bots.getForAccount(user.accountId, botId) };
    }

    // Operators' live streams never end by themselves: a shutting-down instance closes them so the
    // dashboard reconnects to another one.
    const liveStreams = new Set<EventStream>();
    fastify.addHook('preClose', (done) => {
      for (const stream of liveStreams) stream.close();
      done();
    });

    app.get('/api/dashboard/bots/:bot_id/inbox', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardListInbox',
        tags,
        summary: "List a bot's sessions",
        description: "The bot's sessions, most recent activity first, each with its latest message.",
        params: BotParamsSchema,
        querystring: InboxQuerySchema,
        response: { 200: InboxListSchema, ...errorResponses },
      },
      handler: async (request) => {
        const { bot } = await inboxBot(request, request.params.bot_id);
        const { status, limit = 50, offset = 0 } = request.query;
        return { ...(await inbox.list(bot.id, { status, limit, offset })), limit, offset };
      },
    });

    app.get('/api/dashboard/bots/:bot_id/inbox-events', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardInboxEvents',
        tags,
        summary: "Follow a bot's live activity (Server-Sent Events)",
        description:
          "Server-Sent Events of the bot's live activity: `message` {session_id, message} for each stored message (visitor, bot or operator), `status` {session_id, taken_over} when a session is taken over or released, and {session_id: null, taken_over} when the whole bot is paused or resumed.",
        params: BotParamsSchema,
        response: {
          200: mediaResponse(
            'text/event-stream',
            "The bot's messages and takeover changes as Server-Sent Events",
            Type.String({
              examples: [
                `event: message\ndata: {"session_id":"${EXAMPLE.sessionId}","message":{"id":"${EXAMPLE.messageId}","role":"user","author":"visitor","content":"Do you ship to Canada?","feedback_rating":null,"created_at":"${EXAMPLE.time}"}}\n\nevent: status\ndata: {"session_id":"${EXAMPLE.sessionId}","taken_over":true}\n\n`,
              ],
            }),
          ),
          ...errorResponses,
        },
      },
      handler: async (request, reply) => {
        const { bot } = await inboxBot(request, request.params.bot_id);
        const stream = openEventStream(reply, { heartbeatMs });
        const unsubscribe = inbox.watch(bot.id, (activity) => {
          if (activity.type === 'message') stream.send('message', { session_id: activity.sessionKey, message: activity.message });
          else stream.send('status', { session_id: activity.sessionKey, taken_over: activity.takenOver });
        });
        liveStreams.add(stream);
        stream.onClose(() => {
          unsubscribe();
          liveStreams.delete(stream);
        });
      },
    });

    app.get('/api/dashboard/bots/:bot_id/inbox/:session_id', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardGetInboxSession',
        tags,
        summary: 'Read a session with its messages',
        description: 'One session with all its messages, oldest first.',
        params: SessionParamsSchema,
        response: { 200: InboxSessionDetailSchema, ...errorResponses },
      },
      handler: async (request) => {
        const { bot } = await inboxBot(request, request.params.bot_id);
        return inbox.get(bot.id, request.params.session_id);
      },
    });

    app.post('/api/dashboard/bots/:bot_id/inbox/:session_id/takeover', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardTakeOverSession',
        tags,
        summary: 'Take a session over',
        description: "An operator takes the session over: the visitor's next messages get a `paused` event and no AI reply until it is released.",
        params: SessionParamsSchema,
        response: { 200: InboxSessionSchema, ...errorResponses },
      },
      handler: async (request) => {
        const { bot } = await inboxBot(request, request.params.bot_id);
        return inbox.takeOver(bot, request.params.session_id);
      },
    });

    app.post('/api/dashboard/bots/:bot_id/inbox/:session_id/release', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardReleaseSession',
        tags,
        summary: 'Hand a session back to the bot',
        description: 'Hands the session back to the bot, which answers its next message.',
        params: SessionParamsSchema,
        response: { 200: InboxSessionSchema, ...errorResponses },
      },
      handler: async (request) => {
        const { bot } = await inboxBot(request, request.params.bot_id);
        return inbox.release(bot, request.params.session_id);
      },
    });

    app.post('/api/dashboard/bots/:bot_id/inbox/:session_id/messages', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardSendOperatorMessage',
        tags,
        summary: 'Reply to the visitor as an operator',
        description:
          "Stores an operator's reply (role `assistant`, author `operator`) and sends it to the visitor's live stream. Replying takes the session over, so the bot stops answering it until it is released.",
        params: SessionParamsSchema,
        body: OperatorMessageBodySchema,
        response: { 201: InboxMessageSchema, ...errorResponses },
      },
      handler: async (request, reply) => {
        const { bot } = await inboxBot(request, request.params.bot_id);
        return reply.code(201).send(await inbox.sendOperatorMessage(bot, request.params.session_id, request.body.content));
      },
    });

    app.delete('/api/dashboard/bots/:bot_id/inbox/:session_id', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardDeleteInboxSession',
        tags,
        summary: 'Delete a session',
        description: 'Deletes the session, its messages and uploads (owner or admin), as `DELETE /api/v1/conversations/{session_id}` does.',
        params: SessionParamsSchema,
        response: { 200: SessionDeletedSchema, ...errorResponses },
      },
      handler: async (request) => {
        const { user, bot } = await inboxBot(request, request.params.bot_id);
        assertRole(user, ['owner', 'admin']);
        await inbox.remove(bot.id, request.params.session_id);
        return { success: true, session_id: request.params.session_id };
      },
    });

    for (const [action, paused] of [['pause', true], ['resume', false]] as const) {
      app.post(`/api/dashboard/bots/:bot_id/${action}`, {
        config: { auth: dashboardAccess },
        schema: {
          operationId: paused ? 'dashboardPauseBot' : 'dashboardResumeBot',
          tags,
          summary: paused ? 'Pause the bot (human takeover)' : 'Resume the bot',
          description: paused
            ? 'Human takeover of the whole bot: every streamed message gets a `paused` event and no AI reply until it is resumed.'
            : 'Lets the bot answer again (sessions taken over one by one stay with their operator).',
          params: BotParamsSchema,
          response: { 200: BotPauseSchema, ...errorResponses },
        },
        handler: async (request) => {
          const { user, bot } = await inboxBot(request, request.params.bot_id);
          return inbox.setPaused(user.accountId, bot.id, paused);
        },
      });
    }
  };
}
