/** Bot fields, their rules, and the three views of a bot (account-level, key-bound, dashboard). */
import { Type, type Static } from 'typebox';
import { EXAMPLE, TimestampSchema, withExamples } from '../../platform/schemas.ts';

const HexColor = Type.String({ pattern: '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$', description: 'hex color, e.g. #2563eb', examples: ['#2563eb'] });
const LanguageCode = Type.String({ pattern: '^(?:[a-zA-Z]{2,3}(?:-[A-Za-z0-9]{2,8})*)?$', maxLength: 35, description: 'language code; empty = mirror the visitor', examples: ['en'] });
const ModelId = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9][A-Za-z0-9._:/-]*$', examples: ['parley-local'] });
const HostPattern = Type.String({
  maxLength: 253,
  pattern: '^(?:\\*\\.)?(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*(?::\\d{1,5})?$',
  examples: ['shop.example.com'],
});
const LeadField = Type.String({ pattern: '^[a-z][a-z0-9_]{0,39}$', examples: ['email'] });
export const MEETING_PROVIDERS = ['calendly', 'cal_com'] as const;

/** Fields any bot-creating call accepts (`POST /api/v1/bots` and the dashboard). */
export const BotCreateFields = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  welcome_message: Type.Optional(Type.String({ maxLength: 1000 })),
  system_instructions: Type.Optional(Type.String({ maxLength: 20000 })),
  selected_model: Type.Optional(ModelId),
  primary_color: Type.Optional(HexColor),
  response_language: Type.Optional(LanguageCode),
};

/** Fields `PATCH /api/v1/bots/{bot_id}` changes. */
export const BotPublicPatchFields = {
  ...BotCreateFields,
  name: Type.Optional(BotCreateFields.name),
  widget_style: Type.Optional(Type.String({ minLength: 1, maxLength: 50, pattern: '^[a-z0-9_-]+$' })),
  strict_mode: Type.Optional(Type.Boolean()),
  lead_capture_enabled: Type.Optional(Type.Boolean()),
};

/** Settings that only the dashboard changes. */
export const BotDashboardFields = {
  allowed_domains: Type.Optional(Type.Array(HostPattern, { maxItems: 100 })),
  paused: Type.Optional(Type.Boolean()),
  lead_fields: Type.Optional(Type.Array(LeadField, { maxItems: 20 })),
  calendar_scheduling_enabled: Type.Optional(Type.Boolean()),
  meeting_provider: Type.Optional(Type.Union([Type.Literal('calendly'), Type.Literal('cal_com'), Type.Null()])),
  meeting_url: Type.Optional(Type.Union([Type.String({ format: 'uri', maxLength: 2000, pattern: '^https?://' }), Type.Null()])),
  monthly_message_quota: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
};

export const DashboardBotCreateSchema = withExamples(Type.Object({ ...BotCreateFields, ...BotPublicPatchFields, name: BotCreateFields.name, ...BotDashboardFields }), {
  name: 'Support',
  welcome_message: 'Hi! Ask me about orders, shipping and returns.',
  system_instructions: 'You answer for the Example Shop support team. Be brief and friendly.',
  primary_color: '#2563eb',
  lead_capture_enabled: true,
  allowed_domains: ['shop.example.com', '*.example.com'],
});
export const DashboardBotPatchSchema = withExamples(Type.Object({ ...BotPublicPatchFields, ...BotDashboardFields }), {
  strict_mode: false,
  response_language: 'fr',
  monthly_message_quota: 20000,
});
export type DashboardBotCreate = Static<typeof DashboardBotCreateSchema>;
export type DashboardBotPatch = Static<typeof DashboardBotPatchSchema>;

export const BotIdParamsSchema = Type.Object({ bot_id: Type.String({ format: 'uuid' }) });

const accountViewFields = {
  id: Type.String(),
  name: Type.String(),
  welcome_message: Type.String(),
  primary_color: Type.String(),
  selected_model: Type.String(),
  system_instructions: Type.String(),
  widget_style: Type.String(),
  response_language: Type.String(),
  strict_mode: Type.Boolean(),
  lead_capture_enabled: Type.Boolean(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
};

/** `GET /api/v1/bots/{bot_id}`. */
export const BotAccountViewSchema = Type.Object(accountViewFields);

/** `GET /api/v1/bots` items. */
export const BotListItemSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  welcome_message: Type.String(),
  primary_color: Type.String(),
  selected_model: Type.String(),
  created_at: TimestampSchema,
});

/** `GET /api/v1/bot`. */
export const BotKeyViewSchema = withExamples(Type.Object({
  id: Type.String(),
  name: Type.String(),
  welcome_message: Type.String(),
  primary_color: Type.String(),
  selected_model: Type.String(),
  lead_capture_enabled: Type.Boolean(),
  lead_fields: Type.Array(Type.String()),
  calendar_scheduling_enabled: Type.Boolean(),
  meeting_provider: Type.Union([Type.String(), Type.Null()]),
  response_language: Type.String(),
  created_at: TimestampSchema,
}), {
  id: EXAMPLE.botId,
  name: 'Support',
  welcome_message: 'Hi! Ask me about orders, shipping and returns.',
  primary_color: '#2563eb',
  selected_model: 'parley-local',
  lead_capture_enabled: true,
  lead_fields: ['name', 'email', 'phone'],
  calendar_scheduling_enabled: false,
  meeting_provider: null,
  response_language: '',
  created_at: EXAMPLE.time,
});

/** The dashboard's view: the account-level view plus the dashboard-only settings. */
export const BotDashboardViewSchema = withExamples(Type.Object({
  ...accountViewFields,
  allowed_domains: Type.Array(Type.String()),
  paused: Type.Boolean(),
  lead_fields: Type.Array(Type.String()),
  calendar_scheduling_enabled: Type.Boolean(),
  meeting_provider: Type.Union([Type.String(), Type.Null()]),
  meeting_url: Type.Union([Type.String(), Type.Null()]),
  monthly_message_quota: Type.Integer(),
}), {
  id: EXAMPLE.botId,
  name: 'Support',
  welcome_message: 'Hi! Ask me about orders, shipping and returns.',
  primary_color: '#2563eb',
  selected_model: 'parley-local',
  system_instructions: 'You answer for the Example Shop support team. Be brief and friendly.',
  widget_style: 'classic',
  response_language: '',
  strict_mode: true,
  lead_capture_enabled: true,
  created_at: EXAMPLE.time,
  updated_at: EXAMPLE.later,
  allowed_domains: ['shop.example.com', '*.example.com'],
  paused: false,
  lead_fields: ['name', 'email', 'phone'],
  calendar_scheduling_enabled: false,
  meeting_provider: null,
  meeting_url: null,
  monthly_message_quota: 10000,
});

/** A bot with every field, as services hand it around. */
export type Bot = Static<typeof BotDashboardViewSchema> & { account_id: string };
