/**
 * Webhooks, in two forms on one service: `/api/v1/webhooks…` for API keys and OAuth tokens (the
 * bot of the credential), and `/api/dashboard/bots/{bot_id}/webhooks…` for members with the
 * Webhooks tab.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type TSchema } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { apiAccess, dashboardAccess, type AuthRequirement } from '../../platform/auth/auth.ts';
import { errorResponses, pageQuery } from '../../platform/schemas.ts';
import { botScopeOf, dashboardBotOf } from '../bots/bot-scope.ts';
import type { BotService } from '../bots/bots.service.ts';
import type { WebhookService } from './webhooks.service.ts';
import {
  CreateWebhookSchema,
  CreatedWebhookSchema,
  DeliveryListSchema,
  RedeliveredSchema,
  TestResultSchema,
  UpdateWebhookSchema,
  WebhookDeletedSchema,
  WebhookListSchema,
  WebhookSchema,
} from './webhooks.schemas.ts';

const EVENTS_DOC = [
  'Events are POSTed as `{event, bot_id, session_id, timestamp, data}` with `X-Service-Signature` (lowercase hex HMAC-SHA256 of the raw body keyed with the secret), `X-Service-Delivery` (the delivery id, the same on every attempt) and `X-Service-Event`.',
  '`data` by event: `session.started` {visitor_id, metadata, started_at}; `message.user` {message_id, role, content};',
  '`message.assistant` {message_id, role, content, latency_ms, author? ("operator" for an operator\'s reply)}; `lead.created` {id, name, email, phone, extra};',
  '`session.ended` {started_at, ended_at, message_count}.',
  'A non-2xx answer, a redirect or a time-out is retried after each delay of PARLEY_WEBHOOK_RETRY_DELAYS; the eighth failed attempt drops the delivery.',
].join(' ');

/** Where a form's routes live and how they find the bot. */
interface RouteForm {
  prefix: string;
  params: Record<string, TSchema>;
  auth(scope: 'read' | 'write'): AuthRequirement;
  botOf(request: FastifyRequest): Promise<string>;
  tag: string;
  operation: string;
}

export function webhookRoutes(deps: { webhooks: WebhookService; bots: BotService }) {
  const { webhooks, bots } = deps;

  const apiForm: RouteForm = {
    prefix: '/api/v1/webhooks',
    params: {},
    auth: (scope) => apiAccess(scope, 'webhooks'),
    botOf: async (request) => (await botScopeOf(request, bots)).bot.id,
    tag: 'webhooks',
    operation: '',
  };
  const dashboardForm: RouteForm = {
    prefix: '/api/dashboard/bots/:bot_id/webhooks',
    params: { bot_id: Type.String({ format: 'uuid' }) },
    auth: () => dashboardAccess,
    botOf: async (request) => (await dashboardBotOf(request, (request.params as { bot_id: string }).bot_id, bots, 'webhooks')).id,
    tag: 'dashboard: webhooks',
    operation: 'dashboard',
  };

  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    for (const form of [apiForm, dashboardForm]) {
      const op = (name: string) => (form.operation ? form.operation + name[0]!.toUpperCase() + name.slice(1) : name);
      const tags = [form.tag];
      const one = Type.Object({ ...form.params, webhook_id: Type.String({ format: 'uuid' }) });

      app.post(form.prefix, {
        config: { auth: form.auth('write') },
        schema: {
          operationId: op('createWebhook'),
          tags,
          summary: 'Register a webhook',
          description: `Registers a receiver for some of the five events. The \`secret\` is shown only here. ${EVENTS_DOC}`,
          params: Type.Object(form.params),
          body: CreateWebhookSchema,
          response: { 201: CreatedWebhookSchema, ...errorResponses },
        },
        handler: async (request, reply) => reply.code(201).send(await webhooks.create(await form.botOf(request), request.body)),
      });

      app.get(form.prefix, {
        config: { auth: form.auth('read') },
        schema: {
          operationId: op('listWebhooks'),
          tags,
          summary: 'List webhooks',
          description: 'Their URLs and events, never their secrets.',
          params: Type.Object(form.params),
          response: { 200: WebhookListSchema, ...errorResponses },
        },
        handler: async (request) => ({ webhooks: await webhooks.list(await form.botOf(request)) }),
      });

      app.patch(`${form.prefix}/:webhook_id`, {
        config: { auth: form.auth('write') },
        schema: {
          operationId: op('updateWebhook'),
          tags,
          summary: "Change a webhook's URL or events",
          description: 'Changes the URL or the events (only the fields sent). The secret stays.',
          params: one,
          body: UpdateWebhookSchema,
          response: { 200: WebhookSchema, ...errorResponses },
        },
        handler: async (request) => webhooks.update(await form.botOf(request), request.params.webhook_id, request.body),
      });

      app.delete(`${form.prefix}/:webhook_id`, {
        config: { auth: form.auth('write') },
        schema: {
          operationId: op('deleteWebhook'),
          tags,
          summary: 'Delete a webhook',
          description: 'Deletes the webhook and its queued deliveries.',
          params: one,
          response: { 200: WebhookDeletedSchema, ...errorResponses },
        },
        handler: async (request) => webhooks.remove(await form.botOf(request), request.params.webhook_id),
      });

      app.post(`${form.prefix}/:webhook_id/test`, {
        config: { auth: form.auth('write') },
        schema: {
          operationId: op('testWebhook'),
          tags,
          summary: 'Send a test event',
          description: "Sends a sample of the webhook's first event (its `data` has `test: true`) once, now, and reports the receiver's answer. The attempt is listed with the deliveries.",
          params: one,
          response: { 200: TestResultSchema, ...errorResponses },
        },
        handler: async (request) => webhooks.test(await form.botOf(request), request.params.webhook_id),
      });

      app.get(`${form.prefix}/:webhook_id/deliveries`, {
        config: { auth: form.auth('read') },
        schema: {
          operationId: op('listWebhookDeliveries'),
          tags,
          summary: "List a webhook's deliveries",
          description: 'Deliveries of the last 30 days, newest first, each with every attempt (status, latency, error, the start of the answer).',
          params: one,
          querystring: Type.Object(pageQuery()),
          response: { 200: DeliveryListSchema, ...errorResponses },
        },
        handler: async (request) =>
          webhooks.deliveries(await form.botOf(request), request.params.webhook_id, { limit: request.query.limit ?? 50, offset: request.query.offset ?? 0 }),
      });

      app.post(`${form.prefix}/:webhook_id/deliveries/:delivery_id/redeliver`, {
        config: { auth: form.auth('write') },
        schema: {
          operationId: op('redeliverWebhook'),
          tags,
          summary: 'Send a delivery again',
          description: 'Queues a delivery again from its first attempt, with the same id and body.',
          params: Type.Object({ ...one.properties, delivery_id: Type.String({ format: 'uuid' }) }),
          response: { 202: RedeliveredSchema, ...errorResponses },
        },
        handler: async (request, reply) =>
          reply.code(202).send(await webhooks.redeliver(await form.botOf(request), request.params.webhook_id, request.params.delivery_id)),
      });
    }
  };
}
