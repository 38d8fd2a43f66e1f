/**
 * The account API's bots (interface.md section 4 "Bots"): creating and listing need an OAuth
 * access token (it acts for a whole account); reading and changing one bot also take an API key
 * for its own bot.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { apiAccess, principalOf } from '../../platform/auth/auth.ts';
import { ForbiddenError } from '../../platform/errors.ts';
import { EXAMPLE, errorResponses, withExamples } from '../../platform/schemas.ts';
import { pathBotOf } from './bot-scope.ts';
import type { BotService } from './bots.service.ts';
import { BotAccountViewSchema, BotCreateFields, BotIdParamsSchema, BotListItemSchema, BotPublicPatchFields, type Bot } from './bots.schemas.ts';

const ApiBotCreateSchema = withExamples(Type.Object(BotCreateFields), {
  name: 'Support',
  welcome_message: 'Hi! Ask me about orders, shipping and returns.',
  primary_color: '#2563eb',
  response_language: '',
});
const ApiBotPatchSchema = withExamples(Type.Object(BotPublicPatchFields), { welcome_message: 'Hello! How can we help today?', strict_mode: false, lead_capture_enabled: true });

const accountViewExample = {
  id: EXAMPLE.botId,
  name: 'Support',
  welcome_message: 'Hi! Ask me about orders, shipping and returns.',
  primary_color: '#2563eb',
  selected_model: 'parley-local',
  system_instructions: '',
  widget_style: 'classic',
  response_language: '',
  strict_mode: true,
  lead_capture_enabled: false,
  created_at: EXAMPLE.time,
  updated_at: EXAMPLE.time,
};
const AccountView = withExamples(BotAccountViewSchema, accountViewExample);
const BotListSchema = withExamples(Type.Object({ bots: Type.Array(BotListItemSchema) }), {
  bots: [{ id: EXAMPLE.botId, name: 'Support', welcome_message: accountViewExample.welcome_message, primary_color: '#2563eb', selected_model: 'parley-local', created_at: EXAMPLE.time }],
});

/** The account-level view: a bot without the settings only the dashboard changes. */
function accountView(bot: Bot) {
  return {
    id: bot.id,
    name: bot.name,
    welcome_message: bot.welcome_message,
    primary_color: bot.primary_color,
    selected_model: bot.selected_model,
    system_instructions: bot.system_instructions,
    widget_style: bot.widget_style,
    response_language: bot.response_language,
    strict_mode: bot.strict_mode,
    lead_capture_enabled: bot.lead_capture_enabled,
    created_at: bot.created_at,
    updated_at: bot.updated_at,
  };
}

/**
 * The fields of `fields` present in a body. Unknown fields pass validation (decisions.md) but
 * must not reach the service: it also takes the dashboard-only settings (quota, allowed domains).
 */
function pickFields<T extends object>(body: T, fields: Record<string, unknown>): T {
  return Object.fromEntries(Object.entries(body).filter(([name]) => Object.hasOwn(fields, name))) as T;
}

function listItem(bot: Bot) {
  return { id: bot.id, name: bot.name, welcome_message: bot.welcome_message, primary_color: bot.primary_color, selected_model: bot.selected_model, created_at: bot.created_at };
}

/** The account of an OAuth token; an API key (bound to one bot) is refused with 403. */
function oauthAccountOf(request: FastifyRequest): string {
  const principal = principalOf(request);
  if (principal.kind !== 'oauth') throw new ForbiddenError('Creating and listing bots needs an OAuth access token: an API key belongs to one bot');
  return principal.accountId;
}

export function botApiRoutes(deps: { bots: BotService }) {
  const { bots } = deps;
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['bots'];

    app.post('/api/v1/bots', {
      config: { auth: apiAccess('write') },
      schema: {
        operationId: 'createBot',
        tags,
        summary: 'Create a bot',
        description: 'OAuth access token only (an API key gets 403). Fields left out take their defaults: a generic welcome message, the account default model, `#2563eb`, and an empty `response_language` (mirror the visitor).',
        body: ApiBotCreateSchema,
        response: { 201: AccountView, ...errorResponses },
      },
      handler: async (request, reply) => {
        const accountId = oauthAccountOf(request);
        return reply.code(201).send(accountView(await bots.create(accountId, pickFields(request.body, BotCreateFields))));
      },
    });

    app.get('/api/v1/bots', {
      config: { auth: apiAccess('read') },
      schema: {
        operationId: 'listBots',
        tags,
        summary: "List the account's bots",
        description: 'OAuth access token only (an API key gets 403). Every bot of the account, newest first, with the list fields.',
        response: { 200: BotListSchema, ...errorResponses },
      },
      handler: async (request) => ({ bots: (await bots.list(oauthAccountOf(request))).map(listItem) }),
    });

    app.get('/api/v1/bots/:bot_id', {
      config: { auth: apiAccess('read') },
      schema: {
        operationId: 'getBot',
        tags,
        summary: 'Read a bot',
        description: 'The account-level view. An OAuth token reads any bot of its account; an API key its own bot only (403 for another).',
        params: BotIdParamsSchema,
        response: { 200: AccountView, ...errorResponses },
      },
      handler: async (request) => accountView(await pathBotOf(request, request.params.bot_id, bots)),
    });

    app.patch('/api/v1/bots/:bot_id', {
      config: { auth: apiAccess('write', 'settings') },
      schema: {
        operationId: 'updateBot',
        tags,
        summary: 'Change a bot',
        description: 'Only the fields sent change. An OAuth token changes any bot of its account; an API key its own bot only (403 for another).',
        params: BotIdParamsSchema,
        body: ApiBotPatchSchema,
        response: { 200: AccountView, ...errorResponses },
      },
      handler: async (request) => {
        const bot = await pathBotOf(request, request.params.bot_id, bots);
        return accountView(await bots.update(bot.account_id, bot.id, pickFields(request.body, BotPublicPatchFields)));
      },
    });
  };
}
