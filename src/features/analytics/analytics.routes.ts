/**
 * `GET /api/v1/analytics` (the bot of the credential), `GET /api/v1/bots/{bot_id}/analytics` (all
 * time), the scorecard, and the dashboard's charts and unanswered questions (any member of the bot's account).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { apiAccess, dashboardAccess } from '../../platform/auth/auth.ts';
import { ValidationError } from '../../platform/errors.ts';
import { errorResponses, EXAMPLE, withExamples } from '../../platform/schemas.ts';
import { botScopeOf, dashboardBotOf, pathBotOf } from '../bots/bot-scope.ts';
import type { BotService } from '../bots/bots.service.ts';
import type { AnalyticsService } from './analytics.service.ts';
import { GRADE_NAMES, type Grade } from './scorecard.ts';

const Count = Type.Integer({ minimum: 0 });
const TotalsFields = { total_messages: Count, user_messages: Count, bot_messages: Count, unique_sessions: Count, total_leads: Count };

// YYYY-MM-DD, optionally with a time (T or a space) and a zone (Z, ±hh:mm or ±hhmm).
const ISO_8601 = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * An ISO 8601 date or date-time as a UTC ISO string, to compare with stored times; anything else is
 * a 400 naming `since`. Without a zone it is UTC (a date means midnight UTC), whatever the server's
 * own time zone.
 */
function parseSince(value: string): string {
  const parts = ISO_8601.exec(value.trim());
  const ms = parts && isCalendarDate(parts[1]!) ? Date.parse(`${parts[1]}T${parts[2] ?? '00:00'}${zoneOf(parts[3])}`) : NaN;
  if (Number.isNaN(ms)) throw new ValidationError("query parameter 'since' must be an ISO 8601 date or date-time, e.g. 2026-11-01T00:00:00Z");
  return new Date(ms).toISOString();
}

/** A zone as Date.parse reads it: Z when none is given, ±hh:mm for ±hhmm. */
function zoneOf(zone: string | undefined): string {
  if (!zone || zone.toUpperCase() === 'Z') return 'Z';
  return zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
}

/** True when "YYYY-MM-DD" names a day of the calendar (Date.parse rolls "2026-02-30" over into March). */
function isCalendarDate(day: string): boolean {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  // setUTCFullYear, not Date.UTC, which reads the years 0 to 99 as 1900 to 1999.
  const parsed = new Date(0);
  parsed.setUTCFullYear(year, month - 1, date);
  return parsed.getUTCFullYear() === year && parsed.getUTCMonth() === month - 1 && parsed.getUTCDate() === date;
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
        summary: "Count the bot's messages, sessions and leads",
        description:
          'Counts from the stored data at request time. Without `since`, lifetime totals; with it, only messages, session visits and leads on or after it (`since` is echoed as sent). `knowledge_sources` and `knowledge_kb` are the knowledge attached now, never filtered. `total_sessions` equals `unique_sessions`.',
        querystring: Type.Object({ since: Type.Optional(Type.String({ maxLength: 64, description: 'ISO 8601 date or date-time' })), bot_id: Type.Optional(Type.String()) }),
        response: {
          200: withExamples(
            Type.Object({
              bot_id: Type.String(),
              since: Type.Union([Type.String(), Type.Null()]),
              ...TotalsFields,
              total_sessions: Count,
              knowledge_sources: Count,
              knowledge_kb: Count,
            }),
            {
              bot_id: EXAMPLE.botId,
              since: '2026-02-01T00:00:00Z',
              total_messages: 1284,
              user_messages: 642,
              bot_messages: 642,
              unique_sessions: 187,
              total_leads: 23,
              total_sessions: 187,
              knowledge_sources: 14,
              knowledge_kb: 312,
            },
          ),
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
        summary: "Count a bot's messages, sessions and leads of all time",
        description: "The bot's all-time totals (no `since`). An API key works for its own bot only.",
        params: Type.Object({ bot_id: Type.String({ format: 'uuid' }) }),
        response: {
          200: withExamples(Type.Object({ bot_id: Type.String(), ...TotalsFields }), {
            bot_id: EXAMPLE.botId,
            total_messages: 5310,
            user_messages: 2655,
            bot_messages: 2655,
            unique_sessions: 804,
            total_leads: 97,
          }),
          ...errorResponses,
        },
      },
      handler: async (request) => {
        const bot = await pathBotOf(request, request.params.bot_id, bots);
        return { bot_id: bot.id, ...(await analytics.totals(bot.id)) };
      },
    });

    const PillarSchema = Type.Object({ score: Type.Number({ minimum: 0, maximum: 100 }), weight: Type.String() });
    app.get('/api/admin/analytics/scorecard', {
      config: { auth: { accepts: ['api_key', 'oauth', 'dashboard'], scope: 'read' } },
      schema: {
        operationId: 'getScorecard',
        tags,
        description:
          "The bot's operational scorecard over the last `days` days (UTC, today included): five pillars scored 0 to 100 from its conversations, weighted into `composite_score`, a grade and a status, with recommendations for the weakest pillars first. The formulas are in the README. An API key works for its own bot only; an OAuth token or a dashboard user for any bot of the account.",
        querystring: Type.Object({ bot_id: Type.String({ format: 'uuid' }), days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: 30 })) }),
        response: {
          200: Type.Object({
            bot_id: Type.String(),
            period_days: Type.Integer(),
            overall_grade: Type.Unsafe<Grade>({ type: 'string', enum: [...GRADE_NAMES] }),
            composite_score: Type.Number({ minimum: 0, maximum: 100 }),
            status: Type.String(),
            audit_timestamp: Type.String(),
            pillars: Type.Object({ conversion: PillarSchema, engagement: PillarSchema, accuracy: PillarSchema, reliability: PillarSchema, satisfaction: PillarSchema }),
            recommendations: Type.Array(Type.String()),
            metrics: Type.Object({
              sessions: Count,
              user_messages: Count,
              multi_turn_sessions: Count,
              leads: Count,
              bot_answers: Count,
              unanswered_answers: Count,
              failed_answers: Count,
              slow_answers: Count,
              feedback_up: Count,
              feedback_down: Count,
            }),
          }),
          ...errorResponses,
        },
      },
      handler: async (request) => {
        const bot = await pathBotOf(request, request.query.bot_id, bots);
        return analytics.scorecard(bot, request.query.days ?? 30);
      },
    });

    const DashboardParams = Type.Object({ bot_id: Type.String({ format: 'uuid' }) });
    const Days = Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: 30 }));

    app.get('/api/dashboard/bots/:bot_id/analytics/unanswered', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardUnansweredQuestions',
        tags: ['dashboard: analytics'],
        summary: 'List the questions the bot could not answer',
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
      // The visitors' own words, and the charts beside them: the Inbox tab's (as Leads are).
      handler: async (request) => analytics.unanswered((await dashboardBotOf(request, request.params.bot_id, bots, 'inbox')).id, request.query.days ?? 30, request.query.limit ?? 20),
    });

    app.get('/api/dashboard/bots/:bot_id/analytics/daily', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardDailyAnalytics',
        tags: ['dashboard: analytics'],
        summary: 'Daily messages, sessions and leads',
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
      handler: async (request) => analytics.daily((await dashboardBotOf(request, request.params.bot_id, bots, 'inbox')).id, request.query.days ?? 30),
    });
  };
}
