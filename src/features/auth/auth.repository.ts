/** Storage of users, accounts, memberships and dashboard sessions. */
import type { Db } from '../../db/database.ts';
import type { Role, Tab } from '../../platform/auth/principal.ts';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string;
}

export interface MembershipView {
  accountId: string;
  accountName: string;
  role: Role;
  tabs: Tab[];
}

export function countUsers(db: Db): Promise<number> {
  return db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
    .then((row) => Number(row.n));
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').select(['id', 'email', 'name', 'password_hash']).where('email', '=', email).executeTakeFirst();
}

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').select(['id', 'email', 'name', 'password_hash']).where('id', '=', id).executeTakeFirst();
}

export async function insertUser(db: Db, user: UserRow & { created_at: string }): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

/** Whether the user belongs to an account (a removed member belongs to none, and may sign up or be invited again). */
export async function hasMembership(db: Db, userId: string): Promise<boolean> {
  return (await db.selectFrom('memberships').select('user_id').where('user_id', '=', userId).limit(1).executeTakeFirst()) !== undefined;
}

/** Gives a user without an account a new name and password as they join one. */
export async function renewUser(db: Db, userId: string, changes: { name: string; password_hash: string }): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', userId).execute();
}

export async function insertAccount(db: Db, account: { id: string; name: string; created_at: string }): Promise<void> {
  await db.insertInto('accounts').values(account).execute();
}

export async function insertMembership(
  db: Db,
  m: { account_id: string; user_id: string; role: Role; tabs: Tab[]; created_at: string },
): Promise<void> {
  await db.insertInto('memberships').values({ ...m, tabs: JSON.stringify(m.tabs) }).execute();
}

/** The user's first (oldest) membership: the account a login lands in. */
export async function findPrimaryMembership(db: Db, userId: string): Promise<MembershipView | undefined> {
  const row = await db
    .selectFrom('memberships')
    .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
    .select(['memberships.account_id', 'accounts.name', 'memberships.role', 'memberships.tabs'])
    .where('memberships.user_id', '=', userId)
    .orderBy('memberships.created_at')
    .executeTakeFirst();
  return row && { accountId: row.account_id, accountName: row.name, role: row.role, tabs: JSON.parse(row.tabs) };
}

export async function insertSession(
  db: Db,
  s: { id: string; token_hash: string; user_id: string; account_id: string; created_at: string; expires_at: string },
): Promise<void> {
  await db.insertInto('dashboard_sessions').values(s).execute();
}

export interface SessionView {
  sessionId: string;
  userId: string;
  accountId: string;
  expiresAt: string;
  role: Role;
  tabs: Tab[];
}

/** A session with the user's role in the session's account (none once the membership is gone). */
export async function findSessionByTokenHash(db: Db, tokenHash: string): Promise<SessionView | undefined> {
  const row = await db
    .selectFrom('dashboard_sessions as s')
    .innerJoin('memberships as m', (join) => join.onRef('m.user_id', '=', 's.user_id').onRef('m.account_id', '=', 's.account_id'))
    .select(['s.id', 's.user_id', 's.account_id', 's.expires_at', 'm.role', 'm.tabs'])
    .where('s.token_hash', '=', tokenHash)
    .executeTakeFirst();
  return (
    row && {
      sessionId: row.id,
      userId: row.user_id,
      accountId: row.account_id,
      expiresAt: row.expires_at,
      role: row.role,
      tabs: JSON.parse(row.tabs),
    }
  );
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('id', '=', sessionId).execute();
}

export async function deleteExpiredSessions(db: Db, nowIso: string): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('expires_at', '<', nowIso).execute();
}

export function findAccountName(db: Db, accountId: string): Promise<string | undefined> {
  return db
    .selectFrom('accounts')
    .select('name')
    .where('id', '=', accountId)
    .executeTakeFirst()
    .then((row) => row?.name);
}

export async function updateUser(db: Db, userId: string, changes: { name?: string; password_hash?: string }): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', userId).execute();
}

/** Ends every session of the user but `keepSessionId` (after a password change). */
export async function deleteOtherSessions(db: Db, userId: string, keepSessionId: string): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('user_id', '=', userId).where('id', '!=', keepSessionId).execute();
}
