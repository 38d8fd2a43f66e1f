/** `GET /api/dashboard/usage`: the Billing tab's view of the monthly message allowance. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { dashboardAccess, principalOf } from '../../platform/auth/auth.ts';
import { errorResponses, EXAMPLE, TimestampSchema, withExamples } from '../../platform/schemas.ts';
import { assertTab } from '../auth/roles.ts';
import type { BillingService } from './billing.service.ts';

const UsageSchema = withExamples(
  Type.Object({
    month: Type.String({ description: 'the calendar month counted (UTC), YYYY-MM' }),
    messages_used: Type.Integer({ description: "visitors' messages to any of the account's bots this month" }),
    resets_at: TimestampSchema,
    bots: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        monthly_message_quota: Type.Integer({ description: 'the bot stops answering once the account has used this many messages this month' }),
        remaining: Type.Integer({ description: 'messages this bot may still receive this month' }),
      }),
    ),
  }),
  {
    month: '2026-03',
    messages_used: 1284,
    resets_at: '2026-04-01T00:00:00.000Z',
    bots: [{ id: EXAMPLE.botId, name: 'Support', monthly_message_quota: 10000, remaining: 8716 }],
  },
);

export function billingRoutes(deps: { billing: BillingService }) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/api/dashboard/usage', {
      config: { auth: dashboardAccess },
      schema: {
        operationId: 'dashboardUsage',
        tags: ['dashboard: billing'],
        summary: "The account's messages this month against each bot's allowance",
        description:
          "User messages count against the account's calendar month (UTC), whichever bot they go to; a bot answers `quota_exceeded` once that count reaches its `monthly_message_quota`. There is no payment provider: the allowance is a setting. Members with the Billing tab.",
        response: { 200: UsageSchema, ...errorResponses },
      },
      handler: async (request) => {
        const user = principalOf(request, 'dashboard');
        assertTab(user, 'billing');
        return deps.billing.usage(user.accountId);
      },
    });
  };
}
