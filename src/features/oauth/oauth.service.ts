/**
 * The OAuth2 authorization server (decisions.md, "OAuth2 authorization server"): client
 * registration (RFC 7591), authorization requests and the user's decision (RFC 6749 §4.1 with
 * mandatory PKCE, RFC 7636), and the consent form's CSRF token. Tokens are in `oauth-tokens.ts`.
 */
import { createHmac, hkdfSync, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { isoAt, type Clock } from '../../platform/clock.ts';
import type { MasterKey } from '../../platform/encryption.ts';
import { ForbiddenError } from '../../platform/errors.ts';
import { SCOPES, type DashboardPrincipal, type Scope } from '../../platform/auth/principal.ts';
import { CREDENTIAL_PREFIX, generateCredential, hashCredential } from '../../platform/secrets.ts';
import { OAuthError } from './oauth.errors.ts';
import { assertCodeChallenge, assertRegistrableRedirectUri, AUTHORIZING_ROLES, CODE_TTL_SEC, formatScopes, parseScopes, redirectWith } from './oauth-rules.ts';
import type { AuthorizeParams, ClientRegistration, RegisteredClient } from './oauth.schemas.ts';
import { createTokenService, type TokenServiceDeps } from './oauth-tokens.ts';
import * as repo from './oauth.repository.ts';

/** The HKDF label of the consent form's CSRF key: a key of its own, derived from the master key. */
const CONSENT_KEY_INFO = 'parley oauth consent csrf v1';

/** The key consent-form CSRF tokens are made with (every instance derives the same one). */
export function oauthConsentKey(master: MasterKey): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), CONSENT_KEY_INFO, 32));
}

/** What the authorization server needs: storage, time, its public address and the CSRF key. */
export interface OAuthServiceDeps extends TokenServiceDeps {
  db: Db;
  clock: Clock;
  /** `PUBLIC_URL`: the issuer identifier (RFC 8414 §2) and the base of every endpoint. */
  issuer: string;
  consentKey: Buffer;
}

/** A checked authorization request: the client, the exact redirect URI, and what it asks for. */
export interface AuthorizationRequest {
  client: { id: string; name: string };
  redirectUri: string;
  scopes: Scope[];
  state: string | undefined;
  codeChallenge: string;
  /** The recognised parameters as received, for the consent form to post back. */
  params: AuthorizeParams;
}

/** A request the user may decide on, or the redirect that answers it with an error. */
export type AuthorizationCheck = { ok: true; request: AuthorizationRequest } | { ok: false; redirectTo: string };

const AUTHORIZE_PARAMS = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const satisfies ReadonlyArray<
  keyof AuthorizeParams
>;

export type OAuthService = ReturnType<typeof createOAuthService>;

const sentTwice = (name: string) => `parameter '${name}' must be sent once`;

/** The authorization server's use cases, with the token service and credential resolver inside. */
export function createOAuthService(deps: OAuthServiceDeps) {
  const { db, clock, issuer, consentKey } = deps;
  const tokens = createTokenService(deps);

  function errorRedirect(request: Pick<AuthorizationRequest, 'redirectUri' | 'state'>, error: OAuthError): string {
    // RFC 6749 §4.1.2.1; `iss` tells the client which server answered (RFC 9207, RFC 9700 §4.4).
    return redirectWith(request.redirectUri, { error: error.error, error_description: error.detail, state: request.state, iss: issuer });
  }

  function refusalFor(request: AuthorizationRequest, user: DashboardPrincipal): string | null {
    if (AUTHORIZING_ROLES.includes(user.role)) return null;
    return errorRedirect(request, new OAuthError('access_denied', 'Only an owner or admin of the account can authorize applications'));
  }

  function consentTokenFor(sessionId: string): string {
    return createHmac('sha256', consentKey).update(`oauth-consent:${sessionId}`).digest('base64url');
  }

  return {
    /** Registers a client (RFC 7591 §3); a confidential client's secret is returned this once. */
    async registerClient(input: ClientRegistration): Promise<RegisteredClient> {
      if (!input.client_name.trim()) throw new OAuthError('invalid_client_metadata', 'client_name must not be blank');
      for (const uri of input.redirect_uris) assertRegistrableRedirectUri(uri);
      const method = input.token_endpoint_auth_method ?? 'none';
      const secret = method !== 'none' ? generateCredential(CREDENTIAL_PREFIX.clientSecret) : undefined;
      const now = clock.now();
      const client: repo.ClientRow = {
        id: randomUUID(),
        client_name: input.client_name,
        redirect_uris: JSON.stringify(input.redirect_uris),
        token_endpoint_auth_method: method,
        secret_hash: secret ? hashCredential(secret) : null,
        created_at: isoAt(now),
      };
      await repo.insertClient(db, client);
      return {
        client_id: client.id,
        client_name: client.client_name,
        redirect_uris: input.redirect_uris,
        token_endpoint_auth_method: method,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        client_id_issued_at: Math.floor(now / 1000),
        // RFC 7591 §3.2.1: 0 = the secret does not expire.
        ...(secret && { client_secret: secret, client_secret_expires_at: 0 }),
      };
    },

    /**
     * Checks an authorization request (RFC 6749 §4.1.1). An unknown client or a redirect URI that is
     * not registered exactly is thrown (answered on a page, never redirected: RFC 6749 §4.1.2.1,
     * RFC 9700 §4.1); every other problem becomes an error redirect. `repeated` names the
     * parameters that were sent more than once (`params` holds their first value).
     */
    async checkAuthorizationRequest(params: AuthorizeParams, repeated: readonly string[] = []): Promise<AuthorizationCheck> {
      // RFC 6749 §3.1: a parameter must not be sent twice. Two client_ids or redirect_uris leave the
      // target in doubt, so nothing is redirected; any other repeat is redirected below.
      const untrusted = repeated.find((name) => name === 'client_id' || name === 'redirect_uri');
      if (untrusted) throw new OAuthError('invalid_request', sentTwice(untrusted));
      if (!params.client_id) throw new OAuthError('invalid_request', 'The client_id parameter is missing');
      const client = await repo.findClient(db, params.client_id);
      if (!client) throw new OAuthError('invalid_request', 'Unknown client_id: no application is registered under it');
      if (!params.redirect_uri) throw new OAuthError('invalid_request', 'The redirect_uri parameter is missing');
      // Exact string comparison, no normalisation (RFC 9700 §4.1.3).
      if (!(JSON.parse(client.redirect_uris) as string[]).includes(params.redirect_uri)) {
        throw new OAuthError('invalid_request', 'The redirect_uri is not registered for this client');
      }
      // A repeated state is not echoed: either value might not be the one the client checks for,
      // and without one the client discards the answer, as it should for a request it did not build.
      const target = { redirectUri: params.redirect_uri, state: repeated.includes('state') ? undefined : params.state };
      // Only the recognised parameters travel on to the consent form (RFC 6749 §3.1: others are
      // ignored): one named like the form's own fields (decision, csrf_token) must not slip in.
      const recognised = Object.fromEntries(AUTHORIZE_PARAMS.flatMap((name) => (params[name] === undefined ? [] : [[name, params[name]]])));
      try {
        if (repeated.length > 0) throw new OAuthError('invalid_request', sentTwice(repeated[0]!));
        if (!params.response_type) throw new OAuthError('invalid_request', 'The response_type parameter is missing');
        if (params.response_type !== 'code') {
          throw new OAuthError('unsupported_response_type', `response_type '${params.response_type}' is not supported; use code`);
        }
        const codeChallenge = assertCodeChallenge(params.code_challenge, params.code_challenge_method);
        const scopes = parseScopes(params.scope);
        return { ok: true, request: { client: { id: client.id, name: client.client_name }, ...target, scopes, codeChallenge, params: recognised } };
      } catch (err) {
        if (err instanceof OAuthError) return { ok: false, redirectTo: errorRedirect(target, err) };
        throw err;
      }
    },

    /** The error redirect for a user who may not authorize applications (an agent), or null. */
    refusalFor,

    /**
     * Applies the user's decision: on approval a one-time code bound to the client, redirect URI,
     * code challenge, user, account and scopes (RFC 6749 §4.1.2); otherwise `access_denied`.
     */
    async decide(request: AuthorizationRequest, decision: string | undefined, user: DashboardPrincipal): Promise<string> {
      if (decision !== 'approve' && decision !== 'deny') {
        return errorRedirect(request, new OAuthError('invalid_request', "The decision parameter must be 'approve' or 'deny'"));
      }
      const refusal = refusalFor(request, user);
      if (refusal) return refusal;
      if (decision === 'deny') return errorRedirect(request, new OAuthError('access_denied', 'The user denied the request'));

      const code = randomBytes(32).toString('base64url');
      const now = clock.now();
      const expiresAt = isoAt(now + CODE_TTL_SEC * 1000);
      await tokens.sweep();
      await repo.insertAuthorization(db, {
        id: randomUUID(),
        client_id: request.client.id,
        user_id: user.userId,
        account_id: user.accountId,
        scopes: formatScopes(request.scopes),
        redirect_uri: request.redirectUri,
        code_hash: hashCredential(code),
        code_challenge: request.codeChallenge,
        code_expires_at: expiresAt,
        code_used_at: null,
        created_at: isoAt(now),
        expires_at: expiresAt,
        revoked_at: null,
      });
      return redirectWith(request.redirectUri, { code, state: request.state, iss: issuer });
    },

    /** The consent form's CSRF token: bound to the dashboard session, so another session's is refused. */
    consentToken: consentTokenFor,

    /** Refuses a cookie-authenticated decision without the session's CSRF token (compared in constant time). */
    assertConsentToken(sessionId: string, presented: string | undefined): void {
      const expected = Buffer.from(consentTokenFor(sessionId));
      const given = Buffer.from(presented ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new ForbiddenError('The consent form is missing its CSRF token or it does not match this session: reload the authorization page');
      }
    },

    /** Authorization server metadata (RFC 8414 §2). */
    metadata() {
      return {
        issuer,
        authorization_endpoint: `${issuer}/oauth/authorize`,
        token_endpoint: `${issuer}/oauth/token`,
        registration_endpoint: `${issuer}/oauth/register`,
        revocation_endpoint: `${issuer}/oauth/revoke`,
        scopes_supported: [...SCOPES],
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        // A confidential client registers either way and may send its secret either way (RFC 6749 §2.3.1).
        token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
        revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
        code_challenge_methods_supported: ['S256'],
        authorization_response_iss_parameter_supported: true,
      };
    },

    token: tokens.token,
    revoke: tokens.revoke,
    resolver: tokens.resolver,
  };
}
