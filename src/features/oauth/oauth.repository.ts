/**
 * Storage of OAuth clients, authorizations (an approval's code and the family of tokens issued
 * from it) and tokens. Secrets are looked up by their SHA-256 hash only.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { OAuthAuthorizationsTable, OAuthClientsTable, OAuthTokensTable } from '../../db/schema.ts';
import type { Role } from '../../platform/auth/principal.ts';

export type ClientRow = Selectable<OAuthClientsTable>;
export type AuthorizationRow = Selectable<OAuthAuthorizationsTable>;
export type TokenRow = Selectable<OAuthTokensTable>;

/** Stores a registered client. */
export async function insertClient(db: Db, client: ClientRow): Promise<void> {
  await db.insertInto('oauth_clients').values(client).execute();
}

/** A client by its `client_id`. */
export function findClient(db: Db, clientId: string): Promise<ClientRow | undefined> {
  return db.selectFrom('oauth_clients').selectAll().where('id', '=', clientId).executeTakeFirst();
}

/** Stores an approval with its (hashed) code. */
export async function insertAuthorization(db: Db, authorization: AuthorizationRow): Promise<void> {
  await db.insertInto('oauth_authorizations').values(authorization).execute();
}

/** The approval a presented code belongs to, used or not. */
export function findAuthorizationByCode(db: Db, codeHash: string): Promise<AuthorizationRow | undefined> {
  return db.selectFrom('oauth_authorizations').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
}

/** Marks the code used; false when another request already did (the code is then being reused). */
export async function claimCode(db: Db, authorizationId: string, nowIso: string): Promise<boolean> {
  const result = await db
    .updateTable('oauth_authorizations')
    .set({ code_used_at: nowIso })
    .where('id', '=', authorizationId)
    .where('code_used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Revokes a whole family: every token issued from the authorization stops working. */
export async function revokeAuthorization(db: Db, authorizationId: string, nowIso: string): Promise<void> {
  await db
    .updateTable('oauth_authorizations')
    .set({ revoked_at: nowIso })
    .where('id', '=', authorizationId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Keeps the family's rows until its newest refresh token has expired. */
export async function extendAuthorization(db: Db, authorizationId: string, expiresAt: string): Promise<void> {
  await db
    .updateTable('oauth_authorizations')
    .set({ expires_at: expiresAt })
    .where('id', '=', authorizationId)
    .where('expires_at', '<', expiresAt)
    .execute();
}

/** Stores an issued token (hashed). */
export async function insertToken(db: Db, token: TokenRow): Promise<void> {
  await db.insertInto('oauth_tokens').values(token).execute();
}

/** A token with the authorization it descends from. */
export interface TokenWithFamily {
  token: TokenRow;
  authorization: AuthorizationRow;
  /** The approving user's role in the account now; null once they have left it. */
  approverRole: Role | null;
}

/** A token of either kind by its hash, with its authorization and its approver's current role. */
export async function findTokenWithFamily(db: Db, tokenHash: string): Promise<TokenWithFamily | undefined> {
  const token = await db.selectFrom('oauth_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  if (!token) return undefined;
  const row = await db
    .selectFrom('oauth_authorizations as a')
    .leftJoin('memberships as m', (join) => join.onRef('m.user_id', '=', 'a.user_id').onRef('m.account_id', '=', 'a.account_id'))
    .selectAll('a')
    .select('m.role as approver_role')
    .where('a.id', '=', token.authorization_id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { approver_role: approverRole, ...authorization } = row;
  return { token, authorization, approverRole };
}

/** Marks a refresh token rotated; false when another request already did (the token is being reused). */
export async function claimRefreshToken(db: Db, tokenId: string, nowIso: string): Promise<boolean> {
  const result = await db
    .updateTable('oauth_tokens')
    .set({ used_at: nowIso })
    .where('id', '=', tokenId)
    .where('kind', '=', 'refresh')
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Revokes one token alone. */
export async function revokeToken(db: Db, tokenId: string, nowIso: string): Promise<void> {
  await db.updateTable('oauth_tokens').set({ revoked_at: nowIso }).where('id', '=', tokenId).where('revoked_at', 'is', null).execute();
}

/** What the credential resolver needs of an access token, in one query. */
export interface AccessTokenView {
  id: string;
  scopes: string;
  expires_at: string;
  revoked_at: string | null;
  authorization_id: string;
  family_revoked_at: string | null;
  client_id: string;
  user_id: string;
  account_id: string;
  /** The approving user's role in the account now; null once they have left it. */
  role: Role | null;
  /** Their dashboard tabs now (JSON array); null once they have left. */
  tabs: string | null;
}

/** An access token with its family's state and its user's current role, for the credential resolver. */
export function findAccessToken(db: Db, tokenHash: string): Promise<AccessTokenView | undefined> {
  return db
    .selectFrom('oauth_tokens as t')
    .innerJoin('oauth_authorizations as a', 'a.id', 't.authorization_id')
    .leftJoin('memberships as m', (join) => join.onRef('m.user_id', '=', 'a.user_id').onRef('m.account_id', '=', 'a.account_id'))
    .select([
      't.id',
      't.scopes',
      't.expires_at',
      't.revoked_at',
      't.authorization_id',
      'a.revoked_at as family_revoked_at',
      'a.client_id',
      'a.user_id',
      'a.account_id',
      'm.role',
      'm.tabs',
    ])
    .where('t.token_hash', '=', tokenHash)
    .where('t.kind', '=', 'access')
    .executeTakeFirst();
}

/** Forgets tokens and whole families that can no longer be used by anyone. */
export async function deleteExpired(db: Db, nowIso: string): Promise<void> {
  await db.deleteFrom('oauth_tokens').where('expires_at', '<', nowIso).execute();
  await db.deleteFrom('oauth_authorizations').where('expires_at', '<', nowIso).execute();
}
