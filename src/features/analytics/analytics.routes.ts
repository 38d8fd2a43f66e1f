/**
 * `GET /api/v1/analytics` (the bot of the credential), `GET /api/v1/bots/{bot_id}/analytics` (all
 * time), and the dashboard's charts and unanswered questions (any member of the bot's account).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { apiAccess, dashboardAccess } from '../../platform/auth/auth.ts';
import { ValidationError } from '../../platform/errors.ts';
import { errorResponses } from '../../platform/schemas.ts';
import { botScopeOf, dashboardBotOf, pathBotOf } from '../bots/bot-scope.ts';
import type { BotService } from '../bots/bots.service.ts';
import type { AnalyticsService } from './analytics.service.ts';

const Count = Type.Integer({ minimum: 0 });
const TotalsFields = { total_messages: Count, user_messages: Count, bot_messages: Count, unique_sessions: Count, total_leads: Count };

/** An ISO 8601 date or date-time as a UTC ISO string, to compare with stored times; anything else is a 400 naming `since`. */
function parseSince(value: string): string {
  const ms = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i.test(value.trim()) ? Date.parse(value.trim()) : NaN;
  if (Number.isNaN(ms)) throw new ValidationError("query parameter 'since' must be an ISO 8601 date or date-time, e.g. 2026-11-01T00:00:00Z");
  return new Date(ms).toISOString();
}

export function analyticsRoutes(deps: { analytics: AnalyticsService; bots: BotService }) {
  const { analytics, bots } = deps;
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['analytics'];

    app.get('/api/v1/analytics', {
      config: { auth: apiAccess('read') },
      schema: {
        operationId: 'getAnalytics',
        tags,
        description:
          'Counts from the stored data at request time. Without `since`, lifetime totals; with it, only messages, session visits and leads on or after it (`since` is echoed as sent). `knowledge_sources` and `knowledge_kb` are the knowledge attached now, never filtered. `total_sessions` equals `unique_sessions`.',
        querystring: Type.Object({ since: Type.Optional(Type.String({ maxLength: 64, description: 'ISO 8601 date or date-time' })), bot_id: Type.Optional(Type.String()) }),
        response: {
          200: Type.Object({
            bot_id: Type.String(),
            since: Type.Union([Type.String(), Type.Null()]),
            ...TotalsFields,
            total_sessions: Count,
            knowledge_sources: Count,
            knowledge_kb: Count,
          }),
          ...errorResponses,
        },
      },
      handler: async (request) => {
        const given = request.query.since;
        const since = given === undefined ? null : parseSince(given);
        const { bot } = await botScopeOf(request, bots);
        // `since` is echoed as sent; the window starts at the instant it names.
        return { ...(await analytics.report(bot.id, since)), since: given ?? null };
      },
    });

    app.get('/api/v1/bots/:bot_id/analytics', {
      config: { auth: apiAccess('read') },
      schema: {
        operationId: 'getBotAnalytics',
        tags,
        description: "The bot's all-time totals (no `since`). An API key works for its own bot only.",
        params: Type.Object({ bot_id: Type.String({ format: 'uuid' }) }),
        response: { 200: Type.Object({ bot_id: Type.String(), ...TotalsFields }), ...errorResponses },
      },
      handler: async (request) => {
        const bot = await pathBotOf(request, request.params.bot_id, bots);
        return { bot_id: bot.id, ...(await analytics.totals(bot.id)) };
      },
    });

    const DashboardParams = Type.Object({ bot_id: Type.String({ format: 'uuid' }) });
    const Days = Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: 30 }));

    app.get('/api/dashboard/bots/:bot_id/analytics/unanswered', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardUnansweredQuestions',
        tags: ['dashboard: analytics'],
        description:
          'The questions the bot could not answer over the last `days` days (UTC, today included), most frequent first: the visitor message before each answer that said it did not know (parley-local), grouped by text regardless of case and closing punctuation, each group shown in its most recent wording.',
        params: DashboardParams,
        querystring: Type.Object({ days: Days, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20 })) }),
        response: {
          200: Type.Object({
            days: Type.Integer(),
            since: Type.String(),
            questions: Type.Array(Type.Object({ question: Type.String(), count: Type.Integer(), last_asked_at: Type.String() })),
          }),
          ...errorResponses,
        },
      },
      handler: async (request) => analytics.unanswered((await dashboardBotOf(request, request.params.bot_id, bots)).id, request.query.days ?? 30, request.query.limit ?? 20),
    });

    app.get('/api/dashboard/bots/:bot_id/analytics/daily', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardDailyAnalytics',
        tags: ['dashboard: analytics'],
        description: 'One entry per day (UTC) of the last `days` days, oldest first, zeros included: user and bot messages, session visits started, leads.',
        params: DashboardParams,
        querystring: Type.Object({ days: Days }),
        response: {
          200: Type.Object({
            days: Type.Integer(),
            series: Type.Array(Type.Object({ date: Type.String(), user_messages: Count, bot_messages: Count, sessions: Count, leads: Count })),
          }),
          ...errorResponses,
        },
      },
      handler: async (request) => analytics.daily((await dashboardBotOf(request, request.params.bot_id, bots)).id, request.query.days ?? 30),
    });
  };
}
