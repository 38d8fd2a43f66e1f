/** Storage of bring-your-own provider keys; every query names the bot. Rows hold the encrypted key only. */
import type { Db } from '../../db/database.ts';
import type { KeyProvider } from '../answers/providers/provider-routing.ts';

export interface ProviderKeyRow {
  bot_id: string;
  provider: KeyProvider;
  encrypted_key: string;
  created_at: string;
}

/** Stores the bot's key for a provider, replacing any earlier one. */
export async function upsertProviderKey(db: Db, row: ProviderKeyRow): Promise<void> {
  await db
    .insertInto('bot_provider_keys')
    .values(row)
    .onConflict((oc) => oc.columns(['bot_id', 'provider']).doUpdateSet({ encrypted_key: row.encrypted_key, created_at: row.created_at }))
    .execute();
}

/** Which providers the bot has a key for (without the keys), in provider order. */
export async function listProviderKeys(db: Db, botId: string): Promise<{ provider: KeyProvider; created_at: string }[]> {
  const rows = await db.selectFrom('bot_provider_keys').select(['provider', 'created_at']).where('bot_id', '=', botId).orderBy('provider').execute();
  return rows as { provider: KeyProvider; created_at: string }[];
}

export async function findProviderKey(db: Db, botId: string, provider: KeyProvider): Promise<ProviderKeyRow | undefined> {
  const row = await db.selectFrom('bot_provider_keys').selectAll().where('bot_id', '=', botId).where('provider', '=', provider).executeTakeFirst();
  return row as ProviderKeyRow | undefined;
}

/** Removes the bot's key for a provider; false when there was none. */
export async function deleteProviderKey(db: Db, botId: string, provider: KeyProvider): Promise<boolean> {
  const result = await db.deleteFrom('bot_provider_keys').where('bot_id', '=', botId).where('provider', '=', provider).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
