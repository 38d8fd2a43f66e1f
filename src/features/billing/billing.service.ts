/**
 * The account's monthly message allowance as the Billing tab shows it: user messages counted this
 * calendar month (UTC) across every bot, against each bot's `monthly_message_quota`. Parley takes
 * no payments: the quota is the operator's setting, not a plan.
 */
import { isoAt, type Clock } from '../../platform/clock.ts';

export interface BillingServiceDeps {
  clock: Clock;
  messagesThisMonth(accountId: string): Promise<number>;
  listBots(accountId: string): Promise<Array<{ id: string; name: string; monthly_message_quota: number }>>;
}

export type BillingService = ReturnType<typeof createBillingService>;

export function createBillingService({ clock, messagesThisMonth, listBots }: BillingServiceDeps) {
  return {
    async usage(accountId: string) {
      const now = clock.now();
      const d = new Date(now);
      const [used, bots] = await Promise.all([messagesThisMonth(accountId), listBots(accountId)]);
      return {
        month: isoAt(now).slice(0, 7),
        messages_used: used,
        resets_at: isoAt(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)),
        bots: bots.map((bot) => ({
          id: bot.id,
          name: bot.name,
          monthly_message_quota: bot.monthly_message_quota,
          remaining: Math.max(0, bot.monthly_message_quota - used),
        })),
      };
    },
  };
}
