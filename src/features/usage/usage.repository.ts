/** Daily usage counters per API key. */
import type { Db } from '../../db/database.ts';

export interface UsageIncrement {
  key_id: string;
  bot_id: string;
  day: string;
  messages: number;
  api_calls: number;
}

/** Adds the increments to the stored counters (one upsert per key and day). */
export async function addUsage(db: Db, increments: UsageIncrement[]): Promise<void> {
  if (increments.length === 0) return;
  await db
    .insertInto('usage_daily')
    .values(increments)
    .onConflict((oc) =>
      oc.columns(['key_id', 'day']).doUpdateSet((eb) => ({
        messages: eb('usage_daily.messages', '+', eb.ref('excluded.messages')),
        api_calls: eb('usage_daily.api_calls', '+', eb.ref('excluded.api_calls')),
      })),
    )
    .execute();
}

export function usageSince(db: Db, keyId: string, firstDay: string) {
  return db
    .selectFrom('usage_daily')
    .select(['day', 'messages', 'api_calls'])
    .where('key_id', '=', keyId)
    .where('day', '>=', firstDay)
    .execute();
}
