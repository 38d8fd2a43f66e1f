/** Inviting users into an account and managing its members' roles and tabs. */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import type { Bus } from '../../platform/bus.ts';
import { isoAt, type Clock } from '../../platform/clock.ts';
import { ForbiddenError, NotFoundError } from '../../platform/errors.ts';
import { CREDENTIAL_PREFIX, generateCredential, hashCredential } from '../../platform/secrets.ts';
import type { DashboardPrincipal, Role, Tab } from '../../platform/auth/principal.ts';
import type { InvitationClaimer } from '../auth/auth.service.ts';
import { assertRole, assertTab, defaultTabs } from '../auth/roles.ts';
import * as repo from './team.repository.ts';

const INVITATION_TTL_MS = 7 * 86_400_000;

export type TeamService = ReturnType<typeof createTeamService>;

/** Announced when a member's role or tabs change or they leave, so that credentials they made follow at once. */
export const MEMBER_CHANGED = 'team.member_changed';
export interface MemberChanged {
  accountId: string;
  userId: string;
}

export function createTeamService({ db, clock, bus }: { db: Db; clock: Clock; bus: Bus }) {
  async function announce(accountId: string, userId: string): Promise<void> {
    await bus.publish(MEMBER_CHANGED, { accountId, userId } satisfies MemberChanged);
  }

  function assertManager(user: DashboardPrincipal): void {
    assertRole(user, ['owner', 'admin']);
    assertTab(user, 'team');
  }

  /** Only the owner hands out the admin role, and nobody grants a tab they do not have. */
  function assertCanGrant(user: DashboardPrincipal, role: Role | undefined, tabs: readonly Tab[] | undefined): void {
    if (role === 'admin' && user.role !== 'owner') throw new ForbiddenError('Only the owner can make someone an admin');
    const beyond = user.role === 'owner' ? undefined : tabs?.find((tab) => !user.tabs.includes(tab));
    if (beyond) throw new ForbiddenError(`Cannot grant the ${beyond} tab: you do not have it`);
  }

  async function requireMember(accountId: string, userId: string) {
    const member = await repo.findMember(db, accountId, userId);
    if (!member) throw new NotFoundError('Member not found');
    return member;
  }

  const claimer: InvitationClaimer = {
    claim: (trx, token, email, nowIso) => repo.acceptInvitation(trx, hashCredential(token), email, nowIso).then((r) => r ?? null),
  };

  return {
    claimer,

    /** Creates an invitation; its token (shown once) lets the invitee sign up into this account. */
    async invite(user: DashboardPrincipal, input: { email: string; role: 'admin' | 'agent'; tabs?: Tab[] }) {
      assertManager(user);
      assertCanGrant(user, input.role, input.tabs ?? defaultTabs(input.role));
      const token = generateCredential(CREDENTIAL_PREFIX.invitation);
      const now = clock.now();
      const invitation = {
        id: randomUUID(),
        account_id: user.accountId,
        email: input.email.trim().toLowerCase(),
        role: input.role,
        tabs: input.tabs ?? defaultTabs(input.role),
        token_hash: hashCredential(token),
        invited_by: user.userId,
        created_at: isoAt(now),
        expires_at: isoAt(now + INVITATION_TTL_MS),
      };
      await repo.insertInvitation(db, invitation);
      return { id: invitation.id, email: invitation.email, role: invitation.role, tabs: invitation.tabs, token, expires_at: invitation.expires_at };
    },

    /** The account's invitations not yet accepted nor expired (never their token). */
    listInvitations(user: DashboardPrincipal) {
      assertManager(user);
      return repo.listPendingInvitations(db, user.accountId, isoAt(clock.now()));
    },

    /** Deletes a pending invitation, so that its link no longer works; only the owner revokes one for an admin. */
    async revokeInvitation(user: DashboardPrincipal, invitationId: string): Promise<void> {
      assertManager(user);
      const nowIso = isoAt(clock.now());
      const invitation = await repo.findPendingInvitation(db, user.accountId, invitationId, nowIso);
      if (!invitation) throw new NotFoundError('Invitation not found');
      if (invitation.role === 'admin' && user.role !== 'owner') throw new ForbiddenError('Only the owner can revoke an invitation to be an admin');
      // Accepted in the meantime: the new member stays, and is removed as a member if need be.
      if (!(await repo.deletePendingInvitation(db, user.accountId, invitationId, nowIso))) throw new NotFoundError('Invitation not found');
    },

    list(user: DashboardPrincipal) {
      assertTab(user, 'team');
      return repo.listMembers(db, user.accountId);
    },

    /** Changes a member's role or tabs; the owner cannot be changed, and only the owner grants admin. */
    async update(user: DashboardPrincipal, userId: string, changes: { role?: Exclude<Role, 'owner'>; tabs?: Tab[] }) {
      assertManager(user);
      const member = await requireMember(user.accountId, userId);
      if (member.role === 'owner') throw new ForbiddenError("The owner's role and tabs cannot be changed");
      if ((changes.role === 'admin' || member.role === 'admin') && user.role !== 'owner') {
        throw new ForbiddenError('Only the owner can change an admin');
      }
      const tabs = changes.tabs ?? (changes.role && changes.role !== member.role ? defaultTabs(changes.role) : undefined);
      assertCanGrant(user, changes.role, tabs);
      await repo.updateMember(db, user.accountId, userId, { role: changes.role, tabs });
      await announce(user.accountId, userId);
      return requireMember(user.accountId, userId);
    },

    async remove(user: DashboardPrincipal, userId: string): Promise<void> {
      assertManager(user);
      const member = await requireMember(user.accountId, userId);
      if (member.role === 'owner') throw new ForbiddenError('The owner cannot be removed');
      if (member.role === 'admin' && user.role !== 'owner') throw new ForbiddenError('Only the owner can remove an admin');
      await db.transaction().execute((trx) => repo.deleteMember(trx, user.accountId, userId, isoAt(clock.now())));
      await announce(user.accountId, userId);
    },
  };
}
