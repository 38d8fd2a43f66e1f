/** Webhook subscriptions and deliveries as the API shows them (interface.md section 2 "Webhook", decisions.md). */
import { Type } from 'typebox';
import { EXAMPLE, NullableTimestampSchema, TimestampSchema, withExamples } from '../../platform/schemas.ts';

/** The five events of interface.md section 6, and nothing else. */
export const WEBHOOK_EVENTS = ['lead.created', 'message.user', 'message.assistant', 'session.started', 'session.ended'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

// A union built from the list has no static type of its own: Unsafe names it.
const EventNameSchema = Type.Unsafe<WebhookEvent>(Type.Union(WEBHOOK_EVENTS.map((name) => Type.Literal(name))));
const EventListSchema = Type.Array(EventNameSchema, { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true });
const UrlSchema = Type.String({ minLength: 1, maxLength: 2048, description: 'http(s) receiver address; no credentials, no private address' });

export const CreateWebhookSchema = withExamples(Type.Object({ url: UrlSchema, events: EventListSchema }), {
  url: 'https://crm.example.com/hooks/parley',
  events: ['lead.created', 'message.assistant'],
});
export const UpdateWebhookSchema = withExamples(Type.Object({ url: Type.Optional(UrlSchema), events: Type.Optional(EventListSchema) }), {
  events: ['lead.created', 'session.ended'],
});

const webhookExample = { id: EXAMPLE.webhookId, url: 'https://crm.example.com/hooks/parley', events: ['lead.created', 'message.assistant'], created_at: EXAMPLE.time };

export const WebhookSchema = withExamples(
  Type.Object({
    id: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    created_at: TimestampSchema,
  }),
  webhookExample,
);
export const CreatedWebhookSchema = withExamples(Type.Object({ ...WebhookSchema.properties, secret: Type.String({ description: 'parley_whsec_…, shown once' }) }), {
  ...webhookExample,
  secret: 'parley_whsec_q3VtR8yLk2Zp5sXw7cNd1fHj4mGb6aTe9uYo0iPr',
});
export const WebhookListSchema = withExamples(Type.Object({ webhooks: Type.Array(WebhookSchema) }), { webhooks: [webhookExample] });
export const WebhookDeletedSchema = withExamples(Type.Object({ success: Type.Boolean(), id: Type.String() }), { success: true, id: EXAMPLE.webhookId });

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
const deliveryBody = {
  event: 'lead.created',
  bot_id: EXAMPLE.botId,
  session_id: EXAMPLE.sessionId,
  timestamp: EXAMPLE.time,
  data: { id: EXAMPLE.leadId, name: 'Ada Lovelace', email: 'ada@example.com', phone: '+14165550123', extra: {} },
};
export const DeliveryListSchema = withExamples(
  Type.Object({ deliveries: Type.Array(DeliverySchema), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() }),
  {
    deliveries: [
      {
        id: EXAMPLE.deliveryId,
        event: 'lead.created',
        status: 'delivered',
        attempts: 2,
        next_attempt_at: null,
        last_status_code: 200,
        last_error: null,
        created_at: EXAMPLE.time,
        delivered_at: '2026-03-02T09:30:01.318Z',
        body: JSON.stringify(deliveryBody),
        attempt_log: [
          { attempt: 1, status_code: 503, latency_ms: 87, error: 'http_error: the server answered 503', response_excerpt: 'Service Unavailable', created_at: '2026-03-02T09:30:00.204Z' },
          { attempt: 2, status_code: 200, latency_ms: 64, error: null, response_excerpt: 'ok', created_at: '2026-03-02T09:30:01.318Z' },
        ],
      },
    ],
    total: 1,
    limit: 50,
    offset: 0,
  },
);

/** The answer to a test event: how the receiver answered the one attempt. */
export const TestResultSchema = withExamples(
  Type.Object({
    success: Type.Boolean(),
    delivery_id: Type.String(),
    event: Type.String(),
    status_code: Type.Union([Type.Integer(), Type.Null()]),
    latency_ms: Type.Integer(),
    error: Type.Union([Type.String(), Type.Null()]),
  }),
  { success: true, delivery_id: EXAMPLE.deliveryId, event: 'lead.created', status_code: 200, latency_ms: 71, error: null },
);
export const RedeliveredSchema = withExamples(Type.Object({ success: Type.Boolean(), delivery_id: Type.String() }), { success: true, delivery_id: EXAMPLE.deliveryId });
