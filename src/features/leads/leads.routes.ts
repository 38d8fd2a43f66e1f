/**
 * Leads: the API list (interface.md section 4), the dashboard's list with search and its CSV
 * export (Inbox tab), and the widget's lead form.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { apiAccess, dashboardAccess } from '../../platform/auth/auth.ts';
import { errorResponses, EXAMPLE, mediaResponse, pageQuery, TimestampSchema, withExamples } from '../../platform/schemas.ts';
import { ForbiddenError } from '../../platform/errors.ts';
import { botScopeOf, dashboardBotOf } from '../bots/bot-scope.ts';
import type { BotService } from '../bots/bots.service.ts';
import { SessionKeySchema } from '../chat/chat.schemas.ts';
import type { ConversationService } from '../conversations/conversations.service.ts';
import { allowWidgetOrigin, widgetAccess, widgetCallerOf } from '../widget/widget-access.ts';
import { leadsCsv, type LeadService } from './leads.service.ts';

const LeadSchema = Type.Object({
  id: Type.String(),
  bot_id: Type.String(),
  session_id: Type.String(),
  name: Type.String({ description: "'' until given" }),
  email: Type.String({ description: "'' until given" }),
  phone: Type.String({ description: "E.164, '' until given" }),
  extra: Type.Record(Type.String(), Type.String(), { description: "the bot's custom lead fields" }),
  created_at: TimestampSchema,
});
const leadExample = {
  id: EXAMPLE.leadId,
  bot_id: EXAMPLE.botId,
  session_id: EXAMPLE.sessionId,
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '+14165550123',
  extra: { company: 'Analytical Engines Ltd' },
  created_at: EXAMPLE.time,
};
const LeadListSchema = withExamples(Type.Object({ leads: Type.Array(LeadSchema), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() }), {
  leads: [leadExample],
  total: 1,
  limit: 50,
  offset: 0,
});
const LeadSubmittedSchema = withExamples(Type.Object({ success: Type.Boolean(), lead: LeadSchema }), { success: true, lead: leadExample });
const SearchQuery = Type.Object({ ...pageQuery(), q: Type.Optional(Type.String({ maxLength: 200, description: 'part of a name, email or phone' })) });
const CSV_EXPORT_LIMIT = 100_000;

export function leadRoutes(deps: { leads: LeadService; bots: BotService; conversations: ConversationService }) {
  const { leads, bots, conversations } = deps;
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/api/v1/leads', {
      config: { auth: apiAccess('read', 'inbox') },
      schema: {
        operationId: 'listLeads',
        tags: ['leads'],
        summary: "List the bot's leads",
        description: 'The leads of the bot, newest first; `total` counts them all.',
        querystring: Type.Object(pageQuery()),
        response: { 200: LeadListSchema, ...errorResponses },
      },
      handler: async (request) => {
        const { bot } = await botScopeOf(request, bots);
        const page = { limit: request.query.limit ?? 50, offset: request.query.offset ?? 0 };
        return { ...(await leads.list(bot.id, page)), ...page };
      },
    });

    const BotParams = Type.Object({ bot_id: Type.String({ format: 'uuid' }) });

    app.get('/api/dashboard/bots/:bot_id/leads', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardListLeads',
        tags: ['dashboard: leads'],
        summary: "Search a bot's leads",
        description: 'Leads, newest first, optionally only those whose name, email or phone contains `q`.',
        params: BotParams,
        querystring: SearchQuery,
        response: { 200: LeadListSchema, ...errorResponses },
      },
      handler: async (request) => {
        const bot = await dashboardBotOf(request, request.params.bot_id, bots, 'inbox');
        const page = { limit: request.query.limit ?? 50, offset: request.query.offset ?? 0 };
        return { ...(await leads.list(bot.id, { ...page, q: request.query.q })), ...page };
      },
    });

    app.get('/api/dashboard/bots/:bot_id/leads.csv', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardExportLeads',
        tags: ['dashboard: leads'],
        summary: "Export a bot's leads as CSV",
        description: `The leads (matching \`q\`, newest first, at most ${CSV_EXPORT_LIMIT}) as CSV: id, created_at, name, email, phone, session_id, extra (JSON).`,
        params: BotParams,
        querystring: Type.Object({ q: Type.Optional(Type.String({ maxLength: 200 })) }),
        response: {
          200: mediaResponse(
            'text/csv',
            'The leads as CSV, with a header row',
            Type.String({
              examples: [
                `id,created_at,name,email,phone,session_id,extra\r\n${EXAMPLE.leadId},${EXAMPLE.time},Ada Lovelace,ada@example.com,'+14165550123,${EXAMPLE.sessionId},"{""company"":""Analytical Engines Ltd""}"\r\n`,
              ],
            }),
          ),
          ...errorResponses,
        },
      },
      handler: async (request, reply) => {
        const bot = await dashboardBotOf(request, request.params.bot_id, bots, 'inbox');
        const { leads: rows } = await leads.list(bot.id, { limit: CSV_EXPORT_LIMIT, offset: 0, q: request.query.q });
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="leads-${bot.id}.csv"`)
          .send(leadsCsv(rows));
      },
    });

    app.post('/api/widget/leads', {
      config: { auth: widgetAccess, widgetRateLimit: true },
      schema: {
        operationId: 'widgetSubmitLead',
        tags: ['widget'],
        summary: "Send the widget's lead form",
        description:
          "The widget's lead form for a session: creates the session's lead (201; `email` or `phone` required) or completes it (200). The phone is read with the country of the session's time zone and stored as E.164.",
        body: withExamples(
          Type.Object({
            session_id: SessionKeySchema,
            name: Type.Optional(Type.String({ maxLength: 200 })),
            email: Type.Optional(Type.String({ maxLength: 320 })),
            phone: Type.Optional(Type.String({ maxLength: 40 })),
            extra: Type.Optional(Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 500 }), { maxProperties: 20 })),
          }),
          { session_id: EXAMPLE.sessionId, name: 'Ada Lovelace', email: 'ada@example.com', phone: '(416) 555-0123', extra: { company: 'Analytical Engines Ltd' } },
        ),
        response: { 200: LeadSubmittedSchema, 201: LeadSubmittedSchema, ...errorResponses },
      },
      handler: async (request, reply) => {
        allowWidgetOrigin(request, reply);
        const caller = widgetCallerOf(request);
        const bot = await bots.get(caller.botId);
        const { session_id: key, ...form } = request.body;
        // The bot id is public: with lead capture off, nobody may add leads to the business's list.
        if (!bot.lead_capture_enabled) throw new ForbiddenError('Lead capture is off for this bot');
        // A refused form stores nothing: not even the session it names.
        const known = await conversations.findSession(bot.id, key);
        leads.checkForm(form, known && { timezone: known.visitor_timezone });
        const { sessionId } = await conversations.ensureSession(bot, key, { asVisitor: caller.asVisitor });
        // A session the form opens has no time zone of the visitor's to read the phone by.
        const { lead, created } = await leads.submitForm(bot, { rowId: sessionId, key, timezone: known?.visitor_timezone }, form);
        return reply.code(created ? 201 : 200).send({ success: true, lead });
      },
    });
  };
}
