/** Dashboard bot management (`/api/dashboard/bots`) and the key-bound view (`GET /api/v1/bot`). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { apiAccess, dashboardAccess, principalOf } from '../../platform/auth/auth.ts';
import { errorResponses } from '../../platform/schemas.ts';
import { assertRole, assertTab, hasTab } from '../auth/roles.ts';
import { botScopeOf } from './bot-scope.ts';
import type { BotService } from './bots.service.ts';
import {
  BotDashboardViewSchema,
  BotIdParamsSchema,
  BotKeyViewSchema,
  DashboardBotCreateSchema,
  DashboardBotPatchSchema,
} from './bots.schemas.ts';

/** What the dashboard's Customizer screen saves: the widget's look, which its tab may change without Settings. */
const CUSTOMIZER_FIELDS = new Set(['name', 'welcome_message', 'primary_color', 'widget_style']);

export function botRoutes(deps: { bots: BotService }) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const { bots } = deps;
    const tags = ['dashboard: bots'];

    app.post('/api/dashboard/bots', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardCreateBot',
        tags,
        summary: 'Create a bot',
        description: 'Fields left out take their defaults (see the README). Owner or admin.',
        body: DashboardBotCreateSchema,
        response: { 201: BotDashboardViewSchema, ...errorResponses },
      },
      handler: async (request, reply) => {
        const user = principalOf(request, 'dashboard');
        assertRole(user, ['owner', 'admin']);
        return reply.code(201).send(await bots.create(user.accountId, request.body));
      },
    });

    app.get('/api/dashboard/bots', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardListBots',
        tags,
        summary: "List the account's bots",
        description: 'Newest first.',
        response: { 200: Type.Object({ bots: Type.Array(BotDashboardViewSchema) }), ...errorResponses },
      },
      handler: async (request) => ({ bots: await bots.list(principalOf(request, 'dashboard').accountId) }),
    });

    app.get('/api/dashboard/bots/:bot_id', {
      config: { auth: dashboardAccess },
      schema: { operationId: 'dashboardGetBot', tags, summary: 'Read a bot', params: BotIdParamsSchema, response: { 200: BotDashboardViewSchema, ...errorResponses } },
      handler: async (request) => bots.getForAccount(principalOf(request, 'dashboard').accountId, request.params.bot_id),
    });

    app.patch('/api/dashboard/bots/:bot_id', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardUpdateBot',
        tags,
        summary: "Change a bot's settings",
        description:
          'Only the fields sent change. A member with the Settings tab; the Customizer tab alone may change the widget\'s look (`name`, `welcome_message`, `primary_color`, `widget_style`).',
        params: BotIdParamsSchema,
        body: DashboardBotPatchSchema,
        response: { 200: BotDashboardViewSchema, ...errorResponses },
      },
      handler: async (request) => {
        const user = principalOf(request, 'dashboard');
        const lookOnly = Object.keys(request.body).every((field) => CUSTOMIZER_FIELDS.has(field));
        assertTab(user, lookOnly && hasTab(user, 'customizer') ? 'customizer' : 'settings');
        return bots.update(user.accountId, request.params.bot_id, request.body);
      },
    });

    app.delete('/api/dashboard/bots/:bot_id', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardDeleteBot',
        tags,
        summary: 'Delete a bot',
        description: 'With its API keys (they answer 401 at once), usage counters, knowledge and provider keys. Owner or admin.',
        params: BotIdParamsSchema,
        response: { 200: Type.Object({ success: Type.Boolean(), id: Type.String() }), ...errorResponses },
      },
      handler: async (request) => {
        const user = principalOf(request, 'dashboard');
        assertRole(user, ['owner', 'admin']);
        await bots.remove(user.accountId, request.params.bot_id);
        return { success: true, id: request.params.bot_id };
      },
    });

    app.get('/api/v1/bot', {
      config: { auth: apiAccess('read') },
      schema: { operationId: 'getKeyBot', tags: ['bot'], summary: 'Read the bot of the credential', response: { 200: BotKeyViewSchema, ...errorResponses } },
      handler: async (request) => (await botScopeOf(request, bots)).bot,
    });
  };
}
