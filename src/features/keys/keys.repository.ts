/** Storage of API keys; every query names the bot (or account) it is scoped to. */
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ApiKeysTable } from '../../db/schema.ts';
import type { Role, Scope, Tab } from '../../platform/auth/principal.ts';
import type { ApiKeyView } from './keys.schemas.ts';

type KeyRow = Selectable<ApiKeysTable>;

export interface StoredKey extends ApiKeyView {
  account_id: string;
  scopes: Scope[];
  created_by: string | null;
}

/** An active key with its maker's membership now (null when the maker is no longer a member). */
export interface ActiveKey extends StoredKey {
  maker: { role: Role; tabs: Tab[] } | null;
}

export function keyFromRow(row: KeyRow): StoredKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: JSON.parse(row.scopes),
    allowed_ips: JSON.parse(row.allowed_ips),
    bot_id: row.bot_id,
    account_id: row.account_id,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
    created_by: row.created_by,
  };
}

export async function insertKey(db: Db, key: StoredKey & { key_hash: string }): Promise<void> {
  await db
    .insertInto('api_keys')
    .values({ ...key, scopes: JSON.stringify(key.scopes), allowed_ips: JSON.stringify(key.allowed_ips) })
    .execute();
}

/** An active (not revoked) key by the hash of its secret. */
export async function findActiveKeyByHash(db: Db, keyHash: string): Promise<ActiveKey | undefined> {
  const row = await db
    .selectFrom('api_keys as k')
    .leftJoin('memberships as m', (join) => join.onRef('m.user_id', '=', 'k.created_by').onRef('m.account_id', '=', 'k.account_id'))
    .selectAll('k')
    .select(['m.role as maker_role', 'm.tabs as maker_tabs'])
    .where('k.key_hash', '=', keyHash)
    .where('k.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  const maker = row.maker_role && row.maker_tabs !== null ? { role: row.maker_role, tabs: JSON.parse(row.maker_tabs) as Tab[] } : null;
  return { ...keyFromRow(row), maker };
}

export async function findBotKey(db: Db, botId: string, keyId: string): Promise<StoredKey | undefined> {
  const row = await db.selectFrom('api_keys').selectAll().where('id', '=', keyId).where('bot_id', '=', botId).executeTakeFirst();
  return row && keyFromRow(row);
}

export async function findAccountKey(db: Db, accountId: string, keyId: string): Promise<StoredKey | undefined> {
  const row = await db.selectFrom('api_keys').selectAll().where('id', '=', keyId).where('account_id', '=', accountId).executeTakeFirst();
  return row && keyFromRow(row);
}

export async function listBotKeys(db: Db, botId: string): Promise<StoredKey[]> {
  const rows = await db.selectFrom('api_keys').selectAll().where('bot_id', '=', botId).orderBy('created_at', 'desc').execute();
  return rows.map(keyFromRow);
}

export async function updateKey(
  db: Db,
  botId: string,
  keyId: string,
  changes: { name?: string; scopes?: Scope[]; allowed_ips?: string[]; revoked_at?: string },
): Promise<void> {
  const set = {
    ...(changes.name !== undefined && { name: changes.name }),
    ...(changes.scopes !== undefined && { scopes: JSON.stringify(changes.scopes) }),
    ...(changes.allowed_ips !== undefined && { allowed_ips: JSON.stringify(changes.allowed_ips) }),
    ...(changes.revoked_at !== undefined && { revoked_at: changes.revoked_at }),
  };
  // A patch that names nothing it can change changes nothing (an UPDATE without SET is not SQL).
  if (Object.keys(set).length === 0) return;
  await db
    .updateTable('api_keys')
    .set(set)
    .where('id', '=', keyId)
    .where('bot_id', '=', botId)
    .execute();
}

/** Writes last-use times collected off the request path. */
export async function touchKeys(db: Db, lastUsed: Map<string, string>): Promise<void> {
  for (const [keyId, at] of lastUsed) {
    await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', keyId).execute();
  }
}
