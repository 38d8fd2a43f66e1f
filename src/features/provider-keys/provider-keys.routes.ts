/**
 * Bring-your-own provider keys of a bot (`/api/dashboard/bots/{bot_id}/provider-keys`): any member
 * sees which providers have one; the owner, or an admin with the BYOK tab, stores and removes them.
 * No response schema has a field for the key, so it cannot leave the server.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { dashboardAccess, principalOf } from '../../platform/auth/auth.ts';
import type { DashboardPrincipal } from '../../platform/auth/principal.ts';
import { errorResponses } from '../../platform/schemas.ts';
import { assertRole, assertTab } from '../auth/roles.ts';
import type { BotService } from '../bots/bots.service.ts';
import type { ProviderKeyService } from './provider-keys.service.ts';
import {
  BotIdParamsSchema,
  ProviderKeyListSchema,
  ProviderKeyParamsSchema,
  ProviderKeyPutSchema,
  ProviderKeyRemovedSchema,
  ProviderKeyViewSchema,
} from './provider-keys.schemas.ts';

function assertKeyManager(user: DashboardPrincipal): void {
  assertRole(user, ['owner', 'admin']);
  assertTab(user, 'byok');
}

export function providerKeyRoutes(deps: { providerKeys: ProviderKeyService; bots: BotService }) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const { providerKeys, bots } = deps;
    const tags = ['dashboard: provider keys'];

    app.get('/api/dashboard/bots/:bot_id/provider-keys', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardListProviderKeys',
        tags,
        summary: 'Which providers have a key of their own',
        description: 'The providers (openai, anthropic, google, mistral) with a bring-your-own key for this bot, never the key. Any member.',
        params: BotIdParamsSchema,
        response: { 200: ProviderKeyListSchema, ...errorResponses },
      },
      handler: async (request) => {
        const bot = await bots.getForAccount(principalOf(request, 'dashboard').accountId, request.params.bot_id);
        return { providers: await providerKeys.list(bot.id) };
      },
    });

    app.put('/api/dashboard/bots/:bot_id/provider-keys/:provider', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardPutProviderKey',
        tags,
        summary: "Store the bot's key for a provider",
        description: 'Encrypted at rest and never returned; replaces any key stored before. Owner, or admin with the BYOK tab.',
        params: ProviderKeyParamsSchema,
        body: ProviderKeyPutSchema,
        response: { 200: ProviderKeyViewSchema, ...errorResponses },
      },
      handler: async (request) => {
        const user = principalOf(request, 'dashboard');
        assertKeyManager(user);
        const bot = await bots.getForAccount(user.accountId, request.params.bot_id);
        return providerKeys.put(bot.id, request.params.provider, request.body.api_key);
      },
    });

    app.delete('/api/dashboard/bots/:bot_id/provider-keys/:provider', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardDeleteProviderKey',
        tags,
        summary: "Remove the bot's key for a provider",
        description: 'The bot goes back to the shared pool of the service. Owner, or admin with the BYOK tab.',
        params: ProviderKeyParamsSchema,
        response: { 200: ProviderKeyRemovedSchema, ...errorResponses },
      },
      handler: async (request) => {
        const user = principalOf(request, 'dashboard');
        assertKeyManager(user);
        const bot = await bots.getForAccount(user.accountId, request.params.bot_id);
        await providerKeys.remove(bot.id, request.params.provider);
        return { success: true, provider: request.params.provider };
      },
    });
  };
}
