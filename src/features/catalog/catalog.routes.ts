/**
 * The catalog: the signed delivery URL (no Authorization; the body is read raw to check its
 * signature before it is parsed), the secret's rotation (owner or admin) and the dashboard's item
 * management (Knowledge tab).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { dashboardAccess, principalOf } from '../../platform/auth/auth.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { ErrorSchema, errorResponses, EXAMPLE, isUuid, pageQuery, TimestampSchema, withExamples, withNamedExamples } from '../../platform/schemas.ts';
import { assertRole } from '../auth/roles.ts';
import { dashboardBotOf } from '../bots/bot-scope.ts';
import type { BotService } from '../bots/bots.service.ts';
import type { CatalogService } from './catalog.service.ts';
import { CATALOG_EVENTS, CatalogEventSchema, CatalogItemSchema, CreateItemSchema, UpdateItemSchema } from './catalog.schemas.ts';

const BotParams = Type.Object({ bot_id: Type.String({ format: 'uuid' }) });
const ItemParams = Type.Object({ bot_id: Type.String({ format: 'uuid' }), item_id: Type.String({ format: 'uuid' }) });
const ItemDeletedSchema = withExamples(Type.Object({ success: Type.Boolean(), id: Type.String() }), { success: true, id: EXAMPLE.itemId });

/** The delivery's body as documented (the route reads it raw, to check the signature over its exact bytes). */
const DocumentedEventSchema = withNamedExamples(CatalogEventSchema, {
  productCreated: {
    summary: 'A new product',
    value: {
      event: 'product.created',
      external_id: 'SKU-1042',
      item: { name: 'Trail running shoes', description: 'Light shoes for rocky trails.', price: 129, currency: 'EUR', sku: 'TR-1042', url: 'https://shop.example.com/p/1042', metadata: { sizes: [40, 41, 42, 43] } },
    },
  },
  productUpdated: { summary: 'A price change', value: { event: 'product.updated', external_id: 'SKU-1042', item: { price: 109, metadata: { sale: true } } } },
  mediaDeleted: { summary: 'A media item removed', value: { event: 'media.deleted', external_id: 'video-size-guide' } },
});

export function catalogRoutes(deps: { catalog: CatalogService; bots: BotService }) {
  const { catalog, bots } = deps;
  return async function (fastify: FastifyInstance) {
    // The delivery route reads its body as text, whatever its type: the signature covers the exact
    // bytes, and the bot (404) and signature (401) are checked before the type (415) or body (400).
    await fastify.register(async function signedDelivery(scope) {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
      scope.withTypeProvider<TypeBoxTypeProvider>().post('/api/catalog/:bot_id/events', {
        schema: {
          operationId: 'catalogEvent',
          tags: ['catalog'],
          summary: 'Deliver a product or media change',
          description: `A change from the business's own system, signed: \`X-Catalog-Signature\` is the lowercase hex HMAC-SHA256 of the raw body keyed with the catalog secret. Body \`{event, external_id, item}\`; events ${CATALOG_EVENTS.join(', ')}. Checked in this order: unknown bot 404, signature 401, \`Content-Type\` other than application/json 415, body 400, match 404 (none) or 409 (several, or a create that exists).`,
          // Any text: an id that is no bot's, however long, is a 404 before anything else is looked at.
          params: Type.Object({ bot_id: Type.String() }),
          headers: Type.Object({
            'x-catalog-signature': Type.Optional(Type.String({ description: 'lowercase hex HMAC-SHA256 of the raw body, keyed with the catalog secret (required: 401 without it)' })),
          }),
          // No `body` schema: a missing or odd body must not answer 400 before the bot and signature.
          documentedBody: { 'application/json': DocumentedEventSchema },
          response: {
            200: withExamples(Type.Object({ success: Type.Boolean(), event: Type.String(), item_id: Type.String({ description: 'the internal id, for diagnostics' }) }), {
              success: true,
              event: 'product.updated',
              item_id: EXAMPLE.itemId,
            }),
            ...errorResponses,
            409: ErrorSchema,
            415: ErrorSchema,
          },
        },
        handler: async (request) => {
          const botId = request.params.bot_id;
          if (!isUuid(botId)) throw new NotFoundError('Bot not found');
          await bots.get(botId);
          const body = typeof request.body === 'string' ? request.body : '';
          const json = /^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '');
          return catalog.receive(botId, { body, signature: request.headers['x-catalog-signature'], json });
        },
      });
    });

    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.post('/api/dashboard/bots/:bot_id/catalog/secret', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardRotateCatalogSecret',
        tags: ['dashboard: catalog'],
        summary: 'Create or rotate the catalog signing secret',
        description: 'Creates or replaces the catalog signing secret (shown only here); the old one stops working at once.',
        params: BotParams,
        response: { 201: Type.Object({ secret: Type.String(), delivery_url: Type.String(), created_at: TimestampSchema }), ...errorResponses },
      },
      handler: async (request, reply) => {
        const user = principalOf(request, 'dashboard');
        assertRole(user, ['owner', 'admin']);
        const bot = await bots.getForAccount(user.accountId, request.params.bot_id);
        return reply.code(201).send(await catalog.rotateSecret(bot.id));
      },
    });

    const tags = ['dashboard: catalog'];

    app.get('/api/dashboard/bots/:bot_id/catalog/items', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardListCatalogItems',
        tags,
        summary: "List a bot's catalog items",
        params: BotParams,
        querystring: Type.Object(pageQuery()),
        response: { 200: Type.Object({ items: Type.Array(CatalogItemSchema), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() }), ...errorResponses },
      },
      handler: async (request) => {
        const bot = await dashboardBotOf(request, request.params.bot_id, bots, 'knowledge');
        const page = { limit: request.query.limit ?? 50, offset: request.query.offset ?? 0 };
        return { ...(await catalog.list(bot.id, page)), ...page };
      },
    });

    app.post('/api/dashboard/bots/:bot_id/catalog/items', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardCreateCatalogItem',
        tags,
        summary: 'Add a catalog item',
        description: 'A product (`name` required) or media item (`title` and `url` required); `external_id` is optional here.',
        params: BotParams,
        body: CreateItemSchema,
        response: { 201: CatalogItemSchema, ...errorResponses },
      },
      handler: async (request, reply) => reply.code(201).send(await catalog.create((await dashboardBotOf(request, request.params.bot_id, bots, 'knowledge')).id, request.body)),
    });

    app.patch('/api/dashboard/bots/:bot_id/catalog/items/:item_id', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardUpdateCatalogItem',
        tags,
        summary: 'Change a catalog item',
        description: 'Changes the fields sent (`metadata` whole).',
        params: ItemParams,
        body: UpdateItemSchema,
        response: { 200: CatalogItemSchema, ...errorResponses },
      },
      handler: async (request) => catalog.update((await dashboardBotOf(request, request.params.bot_id, bots, 'knowledge')).id, request.params.item_id, request.body),
    });

    app.delete('/api/dashboard/bots/:bot_id/catalog/items/:item_id', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardDeleteCatalogItem',
        tags,
        summary: 'Delete a catalog item',
        description: 'The bot stops answering from it at once.',
        params: ItemParams,
        response: { 200: ItemDeletedSchema, ...errorResponses },
      },
      handler: async (request) => catalog.remove((await dashboardBotOf(request, request.params.bot_id, bots, 'knowledge')).id, request.params.item_id),
    });
  };
}
