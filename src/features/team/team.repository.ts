/** Storage of invitations and account members. */
import type { Db } from '../../db/database.ts';
import type { Role, Tab } from '../../platform/auth/principal.ts';

export async function insertInvitation(
  db: Db,
  invitation: { id: string; account_id: string; email: string; role: 'admin' | 'agent'; tabs: Tab[]; token_hash: string; invited_by: string; created_at: string; expires_at: string },
): Promise<void> {
  await db.insertInto('invitations').values({ ...invitation, tabs: JSON.stringify(invitation.tabs), accepted_at: null }).execute();
}

/** Marks an open invitation accepted and returns it; none when unknown, used, expired or for another email. */
export async function acceptInvitation(db: Db, tokenHash: string, email: string, nowIso: string) {
  const row = await db
    .selectFrom('invitations')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', nowIso)
    .where('email', '=', email)
    .executeTakeFirst();
  if (!row) return undefined;
  const result = await db.updateTable('invitations').set({ accepted_at: nowIso }).where('id', '=', row.id).where('accepted_at', 'is', null).executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return undefined;
  return { accountId: row.account_id, role: row.role as Role, tabs: JSON.parse(row.tabs) as Tab[] };
}

/** The account's invitations still open at `nowIso` (not accepted, not expired), without their token hash. */
function pendingInvitations(db: Db, accountId: string, nowIso: string) {
  return db
    .selectFrom('invitations')
    .select(['id', 'email', 'role', 'tabs', 'created_at', 'expires_at'])
    .where('account_id', '=', accountId)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', nowIso);
}

type InvitationRow = { id: string; email: string; role: 'admin' | 'agent'; tabs: string; created_at: string; expires_at: string };
const invitationOf = (row: InvitationRow) => ({ ...row, tabs: JSON.parse(row.tabs) as Tab[] });

/** The account's invitations still open at `nowIso`, newest first. */
export async function listPendingInvitations(db: Db, accountId: string, nowIso: string) {
  const rows = await pendingInvitations(db, accountId, nowIso).orderBy('created_at', 'desc').orderBy('email').execute();
  return rows.map(invitationOf);
}

/** One of the account's invitations still open at `nowIso`, or undefined. */
export async function findPendingInvitation(db: Db, accountId: string, id: string, nowIso: string) {
  const row = await pendingInvitations(db, accountId, nowIso).where('id', '=', id).executeTakeFirst();
  return row && invitationOf(row);
}

/** Deletes the invitation if it is still open at `nowIso`, so that its token stops working; false when it was not. */
export async function deletePendingInvitation(db: Db, accountId: string, id: string, nowIso: string): Promise<boolean> {
  const result = await db
    .deleteFrom('invitations')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', nowIso)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function listMembers(db: Db, accountId: string) {
  const rows = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id as user_id', 'u.email', 'u.name', 'm.role', 'm.tabs', 'm.created_at'])
    .where('m.account_id', '=', accountId)
    .orderBy('m.created_at')
    .execute();
  return rows.map((row) => ({ ...row, tabs: JSON.parse(row.tabs) as Tab[] }));
}

export async function findMember(db: Db, accountId: string, userId: string) {
  return (await listMembers(db, accountId)).find((m) => m.user_id === userId);
}

export async function updateMember(db: Db, accountId: string, userId: string, changes: { role?: Role; tabs?: Tab[] }): Promise<void> {
  await db
    .updateTable('memberships')
    .set({ ...(changes.role && { role: changes.role }), ...(changes.tabs && { tabs: JSON.stringify(changes.tabs) }) })
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .execute();
}

/** Removes a member with everything that acted for them: sessions, the API keys they made, the applications they authorized. */
export async function deleteMember(db: Db, accountId: string, userId: string, nowIso: string): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('account_id', '=', accountId).where('user_id', '=', userId).execute();
  await db
    .updateTable('api_keys')
    .set({ revoked_at: nowIso })
    .where('account_id', '=', accountId)
    .where('created_by', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
  await db
    .updateTable('oauth_authorizations')
    .set({ revoked_at: nowIso })
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
  await db.deleteFrom('memberships').where('account_id', '=', accountId).where('user_id', '=', userId).execute();
}
