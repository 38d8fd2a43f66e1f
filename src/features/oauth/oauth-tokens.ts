/**
 * The token side of the authorization server: client authentication, the authorization-code and
 * refresh-token grants (RFC 6749 §4.1.3, §6) with rotation and reuse detection (RFC 9700 §4.14),
 * revocation (RFC 7009), and the credential resolver that turns a `parley_oat_` token into a
 * principal. Nothing is cached: a revocation takes effect on every instance at the next request.
 */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { isoAt, type Clock } from '../../platform/clock.ts';
import { UnauthorizedError } from '../../platform/errors.ts';
import type { CredentialResolver } from '../../platform/auth/auth.ts';
import { tabsOfMember, type OAuthPrincipal, type Scope, type Tab } from '../../platform/auth/principal.ts';
import { CREDENTIAL_PREFIX, generateCredential, hashCredential } from '../../platform/secrets.ts';
import { OAuthError } from './oauth.errors.ts';
import { AUTHORIZING_ROLES, formatScopes, parseScopes, storedScopes, verifiesChallenge, type BasicClientCredentials } from './oauth-rules.ts';
import type { RevokeParams, TokenParams, TokenResponse } from './oauth.schemas.ts';
import * as repo from './oauth.repository.ts';

/** Storage, time and the two token lifetimes. */
export interface TokenServiceDeps {
  db: Db;
  clock: Clock;
  accessTokenTtlSec: number;
  /** Absolute lifetime of each refresh token from its issue; rotation issues a new one. */
  refreshTokenTtlSec: number;
}

// Expired rows are deleted by the requests that issue codes and tokens, at most this often.
const SWEEP_EVERY_MS = 60_000;

/** Token issuing, refreshing, revoking and resolving, over the OAuth tables. */
export function createTokenService({ db, clock, accessTokenTtlSec, refreshTokenTtlSec }: TokenServiceDeps) {
  let lastSweep = Number.NEGATIVE_INFINITY;

  /** Deletes tokens and families nobody can use any more. */
  async function sweep(): Promise<void> {
    const now = clock.now();
    if (now - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = now;
    await repo.deleteExpired(db, isoAt(now));
  }

  /**
   * Client authentication (RFC 6749 §2.3): a confidential client sends its secret either as HTTP
   * Basic (`basic`, §2.3.1, which the server must support for every client with a password) or in
   * the body (`client_secret_post`); a public client identifies itself with `client_id` alone.
   */
  async function authenticateClient(params: { client_id?: string; client_secret?: string }, basic?: BasicClientCredentials): Promise<repo.ClientRow> {
    if (basic) {
      // RFC 6749 §2.3: a client must not use more than one authentication method in a request.
      if (params.client_secret !== undefined) {
        throw new OAuthError('invalid_request', 'Send the client_secret either as HTTP Basic or in the body, not both');
      }
      // The body may name the client too (§3.2.1), but not another one than the header.
      if (params.client_id !== undefined && params.client_id !== basic.clientId) {
        throw new OAuthError('invalid_request', 'The client_id in the body is not the client of the Authorization header');
      }
    }
    const clientId = basic ? basic.clientId : params.client_id;
    const secret = basic ? basic.clientSecret : params.client_secret;
    if (!clientId) throw new OAuthError('invalid_client', 'client_id is required (in the body, or with the client_secret as HTTP Basic)');
    const client = await repo.findClient(db, clientId);
    if (!client) throw new OAuthError('invalid_client', 'Unknown client_id');
    // A confidential client (registered as `client_secret_post` or `client_secret_basic`) has a
    // secret; it may present it either way.
    if (client.token_endpoint_auth_method !== 'none') {
      if (!secret) throw new OAuthError('invalid_client', 'This client is confidential: client_secret is required');
      const given = Buffer.from(hashCredential(secret));
      const stored = Buffer.from(client.secret_hash ?? '');
      if (given.length !== stored.length || !timingSafeEqual(given, stored)) throw new OAuthError('invalid_client', 'Client authentication failed');
    } else if (secret !== undefined) {
      // RFC 6749 §2.3: one authentication method per client; a public client has none to use.
      throw new OAuthError('invalid_client', 'This client is public: it has no client_secret to send');
    }
    return client;
  }

  async function issueTokens(trx: Db, authorization: repo.AuthorizationRow, scopes: readonly Scope[], now: number): Promise<TokenResponse> {
    const accessToken = generateCredential(CREDENTIAL_PREFIX.accessToken);
    const refreshToken = generateCredential(CREDENTIAL_PREFIX.refreshToken);
    const refreshExpiresAt = isoAt(now + refreshTokenTtlSec * 1000);
    const common = { authorization_id: authorization.id, created_at: isoAt(now), used_at: null, revoked_at: null };
    await repo.insertToken(trx, {
      ...common,
      id: randomUUID(),
      token_hash: hashCredential(accessToken),
      kind: 'access',
      scopes: formatScopes(scopes),
      expires_at: isoAt(now + accessTokenTtlSec * 1000),
    });
    // The refresh token keeps the whole grant, so that a narrower access token can be widened back (RFC 6749 §6).
    await repo.insertToken(trx, {
      ...common,
      id: randomUUID(),
      token_hash: hashCredential(refreshToken),
      kind: 'refresh',
      scopes: authorization.scopes,
      expires_at: refreshExpiresAt,
    });
    await repo.extendAuthorization(trx, authorization.id, refreshExpiresAt);
    return { access_token: accessToken, token_type: 'Bearer', expires_in: accessTokenTtlSec, refresh_token: refreshToken, scope: formatScopes(scopes) };
  }

  /**
   * Revokes the family of a reused code (RFC 6749 §4.1.2) or refresh token (RFC 9700 §4.14.2),
   * then refuses the request.
   */
  async function refuseReuse(authorizationId: string, what: 'authorization code' | 'refresh token'): Promise<never> {
    await repo.revokeAuthorization(db, authorizationId, isoAt(clock.now()));
    throw new OAuthError('invalid_grant', `The ${what} has already been used; every token issued from this authorization is now revoked`);
  }

  /** The authorization-code grant (RFC 6749 §4.1.3) with the PKCE check (RFC 7636 §4.6). */
  async function exchangeCode(client: repo.ClientRow, params: TokenParams): Promise<TokenResponse> {
    if (!params.code) throw new OAuthError('invalid_request', 'code is required');
    if (!params.redirect_uri) throw new OAuthError('invalid_request', 'redirect_uri is required');
    if (!params.code_verifier) throw new OAuthError('invalid_request', 'code_verifier is required: PKCE (RFC 7636) is mandatory');
    const authorization = await repo.findAuthorizationByCode(db, hashCredential(params.code));
    if (!authorization) throw new OAuthError('invalid_grant', 'The authorization code is invalid or expired');
    // RFC 6749 §4.1.2: a code used twice is refused and the tokens already issued from it revoked.
    if (authorization.code_used_at) return refuseReuse(authorization.id, 'authorization code');
    if (authorization.client_id !== client.id) throw new OAuthError('invalid_grant', 'The authorization code was issued to another client');
    const now = clock.now();
    if (authorization.code_expires_at <= isoAt(now)) throw new OAuthError('invalid_grant', 'The authorization code has expired (codes live 10 minutes)');
    if (authorization.revoked_at) throw new OAuthError('invalid_grant', 'The authorization has been revoked');
    // RFC 6749 §4.1.3: the same redirect_uri as in the authorization request.
    if (authorization.redirect_uri !== params.redirect_uri) {
      throw new OAuthError('invalid_grant', 'redirect_uri does not match the one of the authorization request');
    }
    if (!verifiesChallenge(params.code_verifier, authorization.code_challenge)) {
      throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
    }
    const issued = await db.transaction().execute(async (trx) => {
      // Two exchanges racing: the one that does not mark the code used is a reuse.
      if (!(await repo.claimCode(trx, authorization.id, isoAt(now)))) return null;
      return issueTokens(trx, authorization, storedScopes(authorization.scopes), now);
    });
    return issued ?? refuseReuse(authorization.id, 'authorization code');
  }

  /** The refresh-token grant (RFC 6749 §6): each refresh token works once and is replaced (RFC 9700 §4.14.2). */
  async function refresh(client: repo.ClientRow, params: TokenParams): Promise<TokenResponse> {
    if (!params.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required');
    const found = await repo.findTokenWithFamily(db, hashCredential(params.refresh_token));
    if (!found || found.token.kind !== 'refresh') throw new OAuthError('invalid_grant', 'The refresh token is invalid or expired');
    const { token, authorization, approverRole } = found;
    if (authorization.client_id !== client.id) throw new OAuthError('invalid_grant', 'The refresh token was issued to another client');
    if (token.revoked_at || authorization.revoked_at) throw new OAuthError('invalid_grant', 'The refresh token has been revoked');
    // RFC 9700 §4.14.2: a rotated refresh token presented again means one of its holders is not the client.
    if (token.used_at) return refuseReuse(authorization.id, 'refresh token');
    const now = clock.now();
    if (token.expires_at <= isoAt(now)) throw new OAuthError('invalid_grant', 'The refresh token has expired');
    // As for its access tokens: the grant lasts while its approver may still grant access.
    if (!approverRole || !AUTHORIZING_ROLES.includes(approverRole)) throw new OAuthError('invalid_grant', 'The user who approved this client can no longer grant it access');
    const granted = storedScopes(authorization.scopes);
    const scopes = params.scope?.trim() ? parseScopes(params.scope) : granted;
    // RFC 6749 §6: a refresh may narrow the scope, never widen it.
    const beyond = scopes.find((scope) => !granted.includes(scope));
    if (beyond) throw new OAuthError('invalid_scope', `The scope '${beyond}' was not granted to this client`);
    const issued = await db.transaction().execute(async (trx) => {
      if (!(await repo.claimRefreshToken(trx, token.id, isoAt(now)))) return null;
      return issueTokens(trx, authorization, scopes, now);
    });
    return issued ?? refuseReuse(authorization.id, 'refresh token');
  }

  return {
    sweep,

    /** The token endpoint (RFC 6749 §3.2); `basic`: the client's credentials if it sent them as HTTP Basic. */
    async token(params: TokenParams, basic?: BasicClientCredentials): Promise<TokenResponse> {
      if (!params.grant_type) throw new OAuthError('invalid_request', 'grant_type is required');
      if (params.grant_type !== 'authorization_code' && params.grant_type !== 'refresh_token') {
        throw new OAuthError('unsupported_grant_type', `grant_type '${params.grant_type}' is not supported; use authorization_code or refresh_token`);
      }
      const client = await authenticateClient(params, basic);
      await sweep();
      return params.grant_type === 'authorization_code' ? exchangeCode(client, params) : refresh(client, params);
    },

    /**
     * Revocation (RFC 7009 §2.1). A refresh token takes its whole family with it, access tokens
     * included; an access token goes alone. An unknown token, or one issued to another client, is
     * answered like a revoked one (RFC 7009 §2.2) and nothing changes.
     */
    async revoke(params: RevokeParams, basic?: BasicClientCredentials): Promise<void> {
      const client = await authenticateClient(params, basic);
      if (!params.token) throw new OAuthError('invalid_request', 'token is required');
      // The hint only speeds up a search (RFC 7009 §2.1); one lookup finds either kind here.
      const found = await repo.findTokenWithFamily(db, hashCredential(params.token));
      if (!found || found.authorization.client_id !== client.id) return;
      const nowIso = isoAt(clock.now());
      if (found.token.kind === 'refresh') await repo.revokeAuthorization(db, found.authorization.id, nowIso);
      else await repo.revokeToken(db, found.token.id, nowIso);
    },

    /** The credential resolver for `parley_oat_…` access tokens (RFC 6750 bearer tokens). */
    resolver: {
      matches: (credential: string) => credential.startsWith(CREDENTIAL_PREFIX.accessToken),
      invalidDetail: 'Invalid or expired OAuth access token',
      async resolve(credential: string): Promise<OAuthPrincipal | null> {
        const row = await repo.findAccessToken(db, hashCredential(credential));
        if (!row) return null;
        if (row.revoked_at || row.family_revoked_at) throw new UnauthorizedError('This OAuth access token has been revoked');
        if (row.expires_at <= isoAt(clock.now())) {
          throw new UnauthorizedError('This OAuth access token has expired: use the refresh token to get a new one');
        }
        if (!row.role || !AUTHORIZING_ROLES.includes(row.role)) {
          throw new UnauthorizedError('The user who authorized this OAuth access token is no longer an owner or admin of the account');
        }
        return {
          kind: 'oauth',
          // The per-credential rate limit counts per authorization, so that refreshing does not reset it.
          credentialId: `oauth:${row.authorization_id}`,
          tokenId: row.id,
          clientId: row.client_id,
          userId: row.user_id,
          accountId: row.account_id,
          scopes: storedScopes(row.scopes),
          memberTabs: tabsOfMember(row.role, JSON.parse(row.tabs ?? '[]') as Tab[]),
        };
      },
    } satisfies CredentialResolver,
  };
}
