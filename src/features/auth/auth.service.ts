/** Sign-up, login, logout and dashboard sessions. */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import type { DialectSeam } from '../../db/dialect.ts';
import type { SignupMode } from '../../config/config.ts';
import type { Clock } from '../../platform/clock.ts';
import { isoAt } from '../../platform/clock.ts';
import { ConflictError, ForbiddenError, UnauthorizedError, ValidationError } from '../../platform/errors.ts';
import { CREDENTIAL_PREFIX, generateCredential, hashCredential } from '../../platform/secrets.ts';
import type { DashboardPrincipal, Role, Tab } from '../../platform/auth/principal.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { defaultTabs } from './roles.ts';
import * as repo from './auth.repository.ts';

export interface SignupInput {
  email: string;
  password: string;
  name?: string;
  account_name?: string;
  invite_token?: string;
}

export interface AuthResult {
  token: string;
  expiresAt: string;
  user: { id: string; email: string; name: string };
  account: { id: string; name: string };
}

/** Lets sign-up join an account through an invitation (the team feature provides it). */
export interface InvitationClaimer {
  claim(db: Db, token: string, email: string, nowIso: string): Promise<{ accountId: string; role: Role; tabs: Tab[] } | null>;
}

export interface AuthServiceDeps {
  db: Db;
  dialect: DialectSeam;
  clock: Clock;
  signupMode: SignupMode;
  passwordHashCost: number;
  sessionTtlSec: number;
  invitations: InvitationClaimer;
  loginThrottle: { assertLoginAllowed(ip: string): Promise<void>; recordLoginFailure(ip: string): Promise<void> };
}

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService({ db, dialect, clock, signupMode, passwordHashCost, sessionTtlSec, invitations, loginThrottle }: AuthServiceDeps) {
  // Verified against when the email is unknown, so a failed login costs the same either way.
  const decoyHash = hashPassword(randomUUID(), passwordHashCost);

  async function openSession(userId: string, accountId: string): Promise<{ token: string; expiresAt: string }> {
    const token = generateCredential(CREDENTIAL_PREFIX.dashboardSession);
    const now = clock.now();
    const expiresAt = isoAt(now + sessionTtlSec * 1000);
    await repo.deleteExpiredSessions(db, isoAt(now));
    await repo.insertSession(db, {
      id: randomUUID(),
      token_hash: hashCredential(token),
      user_id: userId,
      account_id: accountId,
      created_at: isoAt(now),
      expires_at: expiresAt,
    });
    return { token, expiresAt };
  }

  async function assertSelfSignupAllowed(conn: Db): Promise<void> {
    if (signupMode === 'closed') throw new ForbiddenError('Sign-up is closed on this server');
    if (signupMode === 'first' && (await repo.countUsers(conn)) > 0) {
      throw new ForbiddenError('Sign-up is closed: ask an owner or admin of an account for an invitation');
    }
  }

  async function describe(principal: DashboardPrincipal) {
    const [user, accountName] = await Promise.all([
      repo.findUserById(db, principal.userId),
      repo.findAccountName(db, principal.accountId),
    ]);
    if (!user) throw new UnauthorizedError('Invalid or expired session');
    return {
      user: { id: user.id, email: user.email, name: user.name },
      account: { id: principal.accountId, name: accountName ?? '' },
      role: principal.role,
      tabs: [...principal.tabs],
    };
  }

  return {
    /** Creates a user who owns a new account, or who joins the inviting account. */
    async signup(input: SignupInput): Promise<AuthResult> {
      const email = input.email.trim().toLowerCase();
      const name = input.name?.trim() || email.split('@')[0]!;
      // Refuse what can be refused before paying for the password hash; checked again below.
      if (!input.invite_token) await assertSelfSignupAllowed(db);
      // An email belongs to one user, and a user to one account; a removed member's user, left
      // without one, signs up (or accepts an invitation) again as the same user.
      const userOf = async (trx: Db) => {
        const existing = await repo.findUserByEmail(trx, email);
        if (existing && (await repo.hasMembership(trx, existing.id))) throw new ConflictError('A user with this email already exists');
        return existing;
      };
      await userOf(db);
      const passwordHash = await hashPassword(input.password, passwordHashCost);
      const nowIso = isoAt(clock.now());
      let userId: string = randomUUID();

      const joined = await db.transaction().execute(async (trx) => {
        const returning = await userOf(trx);
        let membership: { accountId: string; accountName: string; role: Role; tabs: Tab[] };
        if (input.invite_token) {
          const invite = await invitations.claim(trx, input.invite_token, email, nowIso);
          if (!invite) throw new ValidationError("field 'invite_token' is invalid, expired, or for another email");
          membership = { ...invite, accountName: (await repo.findAccountName(trx, invite.accountId)) ?? '' };
        } else {
          // Two simultaneous "first" sign-ups must not both win.
          await dialect.lockTransaction(trx, 'parley.signup');
          await assertSelfSignupAllowed(trx);
          const accountId = randomUUID();
          const accountName = input.account_name?.trim() || `${name}'s account`;
          await repo.insertAccount(trx, { id: accountId, name: accountName, created_at: nowIso });
          membership = { accountId, accountName, role: 'owner', tabs: defaultTabs('owner') };
        }
        if (returning) {
          userId = returning.id;
          await repo.renewUser(trx, userId, { name, password_hash: passwordHash });
        } else {
          await repo.insertUser(trx, { id: userId, email, name, password_hash: passwordHash, created_at: nowIso });
        }
        await repo.insertMembership(trx, {
          account_id: membership.accountId,
          user_id: userId,
          role: membership.role,
          tabs: membership.tabs,
          created_at: nowIso,
        });
        return membership;
      });

      const session = await openSession(userId, joined.accountId);
      return { ...session, user: { id: userId, email, name }, account: { id: joined.accountId, name: joined.accountName } };
    },

    /** Checks the password and opens a session; the failure never says which part was wrong. */
    async login(emailInput: string, password: string, clientIp: string): Promise<AuthResult> {
      await loginThrottle.assertLoginAllowed(clientIp);
      const email = emailInput.trim().toLowerCase();
      const user = await repo.findUserByEmail(db, email);
      const ok = await verifyPassword(password, user?.password_hash ?? (await decoyHash));
      const membership = user && ok ? await repo.findPrimaryMembership(db, user.id) : undefined;
      if (!user || !ok || !membership) {
        await loginThrottle.recordLoginFailure(clientIp);
        throw new UnauthorizedError('Invalid email or password');
      }
      const session = await openSession(user.id, membership.accountId);
      return {
        ...session,
        user: { id: user.id, email: user.email, name: user.name },
        account: { id: membership.accountId, name: membership.accountName },
      };
    },

    async logout(sessionId: string): Promise<void> {
      await repo.deleteSession(db, sessionId);
    },

    /** The dashboard principal for a session token, or null when unknown or expired. */
    async resolveSession(token: string): Promise<DashboardPrincipal | null> {
      const session = await repo.findSessionByTokenHash(db, hashCredential(token));
      if (!session || session.expiresAt <= isoAt(clock.now())) return null;
      return { kind: 'dashboard', ...session };
    },

    /** Whether `POST /api/auth/signup` without an invitation would be accepted now (PARLEY_SIGNUP). */
    async signupOpen(): Promise<boolean> {
      if (signupMode === 'closed') return false;
      return signupMode === 'open' || (await repo.countUsers(db)) === 0;
    },

    /**
     * Changes the signed-in user's name and, given the current password, the password; a new
     * password ends the user's other sessions.
     */
    async updateProfile(principal: DashboardPrincipal, input: { name?: string; current_password?: string; new_password?: string }) {
      const user = await repo.findUserById(db, principal.userId);
      if (!user) throw new UnauthorizedError('Invalid or expired session');
      const changes: { name?: string; password_hash?: string } = {};
      if (input.name !== undefined) {
        const name = input.name.trim();
        if (!name) throw new ValidationError("field 'name' must not be blank");
        changes.name = name;
      }
      if (input.new_password !== undefined) {
        if (input.current_password === undefined) throw new ValidationError("field 'current_password' is required to change the password");
        if (!(await verifyPassword(input.current_password, user.password_hash))) throw new ForbiddenError('The current password is wrong');
        changes.password_hash = await hashPassword(input.new_password, passwordHashCost);
      }
      if (Object.keys(changes).length > 0) await repo.updateUser(db, user.id, changes);
      if (changes.password_hash) await repo.deleteOtherSessions(db, user.id, principal.sessionId);
      return describe(principal);
    },

    describe,
  };
}
