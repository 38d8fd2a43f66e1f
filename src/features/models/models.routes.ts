/** `GET /api/dashboard/models`: the models the Settings screen offers. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { dashboardAccess, principalOf } from '../../platform/auth/auth.ts';
import { errorResponses, EXAMPLE, withExamples } from '../../platform/schemas.ts';
import type { BotService } from '../bots/bots.service.ts';
import type { ModelService } from './models.service.ts';

const ModelListSchema = withExamples(
  Type.Object({
    default_model: Type.String({ description: 'the model new bots get' }),
    models: Type.Array(
      Type.Object({
        id: Type.String({ description: 'the value of `selected_model`' }),
        provider: Type.Union([Type.Literal('local'), Type.Literal('openai'), Type.Literal('anthropic'), Type.Literal('google'), Type.Literal('mistral'), Type.Literal('openai-compatible')]),
        key: Type.Union([Type.Literal('none'), Type.Literal('pool'), Type.Literal('bot')], {
          description: "where the key comes from: none needed (parley-local), the deployment's shared pool, or the bot's own key",
        }),
      }),
    ),
  }),
  {
    default_model: 'gpt-4o-mini',
    models: [
      { id: 'parley-local', provider: 'local', key: 'none' },
      { id: 'gpt-4o-mini', provider: 'openai', key: 'pool' },
      { id: 'claude-3-5-haiku-latest', provider: 'anthropic', key: 'bot' },
    ],
  },
);

export function modelRoutes(deps: { models: ModelService; bots: BotService }) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/api/dashboard/models', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardListModels',
        tags: ['dashboard: bots'],
        summary: 'The models a bot can answer with',
        description:
          "`parley-local` (always), the well-known chat models of each provider with a shared key (environment) or, with `bot_id`, the bot's own key, and the models an OpenAI-compatible server at OPENAI_BASE_URL lists. Any other model id may still be set; it goes to the provider its name implies. Any member.",
        querystring: Type.Object({ bot_id: Type.Optional(Type.String({ format: 'uuid', examples: [EXAMPLE.botId] })) }),
        response: { 200: ModelListSchema, ...errorResponses },
      },
      handler: async (request) => {
        const user = principalOf(request, 'dashboard');
        const botId = request.query.bot_id;
        if (botId) await deps.bots.getForAccount(user.accountId, botId);
        return deps.models.list(botId);
      },
    });
  };
}
