/**
 * API key management in its two forms: the dashboard form (`/api/keys`, dashboard session) and the
 * API form (`/api/v1/api-keys`, `admin` scope, acting on the calling credential's bot).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { apiAccess, dashboardAccess, principalOf } from '../../platform/auth/auth.ts';
import { ForbiddenError } from '../../platform/errors.ts';
import { errorResponses } from '../../platform/schemas.ts';
import { assertRole } from '../auth/roles.ts';
import { botScopeOf } from '../bots/bot-scope.ts';
import type { BotService } from '../bots/bots.service.ts';
import type { Principal } from '../../platform/auth/principal.ts';
import type { KeyGranter, KeyService } from './keys.service.ts';
import {
  ApiKeyCreatedSchema,
  ApiKeyCreateSchema,
  ApiKeyListSchema,
  ApiKeyPatchSchema,
  ApiKeyViewSchema,
  DashboardKeyCreateSchema,
  KeyIdParamsSchema,
  KeyRevokedSchema,
} from './keys.schemas.ts';

const conflict = { 409: errorResponses[400] };

/**
 * A credential mints keys within its own scopes, acting for the member it acts for. A key made
 * before makers were recorded acts for no member: the keys it minted would be bound by no tab and
 * outlive it, so it mints none until it is rotated in the dashboard.
 */
function granterOf(caller: Principal): KeyGranter {
  if (caller.kind === 'api_key') {
    if (caller.makerId === null) {
      throw new ForbiddenError('This API key was made before keys recorded their maker and cannot create keys: replace it with a key made in the dashboard');
    }
    return { scopes: caller.scopes, makerId: caller.makerId };
  }
  if (caller.kind === 'oauth') return { scopes: caller.scopes, makerId: caller.userId };
  return { scopes: [], makerId: null };
}

export function keyRoutes(deps: { keys: KeyService; bots: BotService }) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const { keys, bots } = deps;
    const dashboardTags = ['dashboard: api keys'];
    const apiTags = ['api keys'];

    // Dashboard form: owners and admins manage the keys of their account's bots.
    app.post('/api/keys', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardCreateKey',
        tags: dashboardTags,
        summary: 'Create an API key for a bot',
        description: 'The `key` is shown only in this answer. `scopes` default to `["chat", "read"]`, `allowed_ips` to `[]` (anywhere). Owner or admin.',
        body: DashboardKeyCreateSchema,
        response: { 201: ApiKeyCreatedSchema, ...errorResponses },
      },
      handler: async (request, reply) => {
        const user = principalOf(request, 'dashboard');
        assertRole(user, ['owner', 'admin']);
        const bot = await bots.getForAccount(user.accountId, request.body.bot_id);
        return reply.code(201).send(await keys.create(bot, request.body, { scopes: null, makerId: user.userId }));
      },
    });

    app.get('/api/keys', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardListKeys',
        tags: dashboardTags,
        summary: "List a bot's API keys",
        description: 'Newest first, revoked keys included; never the secret. Owner or admin.',
        querystring: Type.Object({ bot_id: Type.String({ format: 'uuid' }) }),
        response: { 200: ApiKeyListSchema, ...errorResponses },
      },
      handler: async (request) => {
        const user = principalOf(request, 'dashboard');
        assertRole(user, ['owner', 'admin']);
        const bot = await bots.getForAccount(user.accountId, request.query.bot_id);
        return { keys: await keys.list(bot.id) };
      },
    });

    app.patch('/api/keys/:id', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardUpdateKey',
        tags: dashboardTags,
        summary: "Change a key's name, scopes or allowed IPs",
        description: 'Only the fields sent change. A revoked key answers 409. Owner or admin.',
        params: KeyIdParamsSchema,
        body: ApiKeyPatchSchema,
        response: { 200: ApiKeyViewSchema, ...errorResponses, ...conflict },
      },
      handler: async (request) => {
        const user = principalOf(request, 'dashboard');
        assertRole(user, ['owner', 'admin']);
        const botId = await keys.botOfAccountKey(user.accountId, request.params.id);
        return keys.update(botId, request.params.id, request.body, null);
      },
    });

    app.delete('/api/keys/:id', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardRevokeKey',
        tags: dashboardTags,
        summary: 'Revoke an API key',
        description: 'For good: the key answers 401 from now on. Owner or admin.',
        params: KeyIdParamsSchema,
        response: { 200: KeyRevokedSchema, ...errorResponses },
      },
      handler: async (request) => {
        const user = principalOf(request, 'dashboard');
        assertRole(user, ['owner', 'admin']);
        const botId = await keys.botOfAccountKey(user.accountId, request.params.id);
        await keys.revoke(botId, request.params.id);
        return { success: true, id: request.params.id };
      },
    });

    // API form: an admin credential manages the keys of its own bot, never beyond its own scopes.
    const apiKeyParams = Type.Object({ key_id: Type.String({ format: 'uuid' }) });

    app.post('/api/v1/api-keys', {
      config: { auth: apiAccess('admin') },
      schema: {
        operationId: 'createApiKey',
        tags: apiTags,
        summary: "Create an API key for the caller's bot",
        description: 'The `key` is shown only in this answer. It can hold no scope the calling credential lacks (403).',
        body: ApiKeyCreateSchema,
        response: { 201: ApiKeyCreatedSchema, ...errorResponses },
      },
      handler: async (request, reply) => {
        const { bot } = await botScopeOf(request, bots);
        return reply.code(201).send(await keys.create(bot, request.body, granterOf(principalOf(request))));
      },
    });

    app.get('/api/v1/api-keys', {
      config: { auth: apiAccess('admin') },
      schema: {
        operationId: 'listApiKeys',
        tags: apiTags,
        summary: "List the caller's bot's API keys",
        description: 'Newest first, revoked keys included; never the secret.',
        response: { 200: ApiKeyListSchema, ...errorResponses },
      },
      handler: async (request) => ({ keys: await keys.list((await botScopeOf(request, bots)).bot.id) }),
    });

    app.patch('/api/v1/api-keys/:key_id', {
      config: { auth: apiAccess('admin') },
      schema: {
        operationId: 'updateApiKey',
        tags: apiTags,
        summary: "Change a key's name, scopes or allowed IPs",
        description: 'Only the fields sent change; never beyond the calling credential\'s own scopes (403). A revoked key answers 409.',
        params: apiKeyParams,
        body: ApiKeyPatchSchema,
        response: { 200: ApiKeyViewSchema, ...errorResponses, ...conflict },
      },
      handler: async (request) => {
        const { bot } = await botScopeOf(request, bots);
        const caller = principalOf(request);
        return keys.update(bot.id, request.params.key_id, request.body, 'scopes' in caller ? caller.scopes : []);
      },
    });

    app.delete('/api/v1/api-keys/:key_id', {
      config: { auth: apiAccess('admin') },
      schema: {
        operationId: 'revokeApiKey',
        tags: apiTags,
        summary: 'Revoke an API key',
        description: 'For good: the key answers 401 from now on.',
        params: apiKeyParams,
        response: { 200: KeyRevokedSchema, ...errorResponses },
      },
      handler: async (request) => {
        const { bot } = await botScopeOf(request, bots);
        await keys.revoke(bot.id, request.params.key_id);
        return { success: true, id: request.params.key_id };
      },
    });
  };
}
