/** Webhook subscriptions and deliveries as the API shows them (interface.md section 2 "Webhook", decisions.md). */
import { Type } from 'typebox';
import { NullableTimestampSchema, TimestampSchema } from '../../platform/schemas.ts';

/** The five events of interface.md section 6, and nothing else. */
export const WEBHOOK_EVENTS = ['lead.created', 'message.user', 'message.assistant', 'session.started', 'session.ended'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

const EventNameSchema = Type.Union(WEBHOOK_EVENTS.map((name) => Type.Literal(name)));
const EventListSchema = Type.Array(EventNameSchema, { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true });
const UrlSchema = Type.String({ minLength: 1, maxLength: 2048, description: 'http(s) receiver address; no credentials, no private address' });

export const CreateWebhookSchema = Type.Object({ url: UrlSchema, events: EventListSchema });
export const UpdateWebhookSchema = Type.Object({ url: Type.Optional(UrlSchema), events: Type.Optional(EventListSchema) });

export const WebhookSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  created_at: TimestampSchema,
});
export const CreatedWebhookSchema = Type.Object({ ...WebhookSchema.properties, secret: Type.String({ description: 'parley_whsec_…, shown once' }) });
export const WebhookListSchema = Type.Object({ webhooks: Type.Array(WebhookSchema) });

export const AttemptSchema = Type.Object({
  attempt: Type.Integer(),
  status_code: Type.Union([Type.Integer(), Type.Null()]),
  latency_ms: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
  response_excerpt: Type.Union([Type.String(), Type.Null()]),
  created_at: TimestampSchema,
});

export const DeliverySchema = Type.Object({
  id: Type.String({ description: 'also the X-Service-Delivery header of every attempt' }),
  event: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('dropped')]),
  attempts: Type.Integer(),
  next_attempt_at: NullableTimestampSchema,
  last_status_code: Type.Union([Type.Integer(), Type.Null()]),
  last_error: Type.Union([Type.String(), Type.Null()]),
  created_at: TimestampSchema,
  delivered_at: NullableTimestampSchema,
  body: Type.String({ description: 'the exact JSON body every attempt sends' }),
  attempt_log: Type.Array(AttemptSchema, { description: 'every attempt of the last 30 days, oldest first' }),
});
export const DeliveryListSchema = Type.Object({ deliveries: Type.Array(DeliverySchema), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() });

/** The answer to a test event: how the receiver answered the one attempt. */
export const TestResultSchema = Type.Object({
  success: Type.Boolean(),
  delivery_id: Type.String(),
  event: Type.String(),
  status_code: Type.Union([Type.Integer(), Type.Null()]),
  latency_ms: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
});
