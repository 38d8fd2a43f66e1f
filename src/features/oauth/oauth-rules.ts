/**
 * The protocol rules of the authorization server that need no storage: which redirect URIs may be
 * registered, how `scope` is read, PKCE, parameters sent twice, HTTP Basic client credentials, and
 * how answers are added to a redirect URI. Each rule names the section of the standard it follows.
 */
import { hash, timingSafeEqual } from 'node:crypto';
import { SCOPES, type Role, type Scope } from '../../platform/auth/principal.ts';
import { CREDENTIAL_ROLES } from '../auth/roles.ts';
import { OAuthError } from './oauth.errors.ts';

/** The scope granted when a request names none (decisions.md, "Scopes"). */
export const DEFAULT_SCOPES: readonly Scope[] = ['read'];

/** What each scope lets a client do, in the words the consent page shows. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  chat: 'Send messages to your bots and receive their replies.',
  read: 'Read your bots and their knowledge, conversations, leads, analytics and usage.',
  write: 'Create and change bots and their knowledge, and delete conversations.',
  admin: 'Full control of every bot of the account, including its API keys.',
};

/**
 * The roles that may authorize an application, and whose tokens keep working: a token acts for the
 * whole account, which only owners and admins manage (the same roles as for API keys).
 */
export const AUTHORIZING_ROLES: readonly Role[] = CREDENTIAL_ROLES;

/** An authorization code lives at most 10 minutes (RFC 6749 §4.1.2, RFC 9700 §4.5). */
export const CODE_TTL_SEC = 600;

// Hosts on which a plain-http redirect URI cannot leave the user's machine (RFC 8252 §7.3, §8.3).
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** The parameters the authorization response adds to the redirect URI (RFC 6749 §4.1.2, §4.1.2.1; RFC 9207). */
const RESPONSE_PARAMS = ['code', 'state', 'error', 'error_description', 'error_uri', 'iss'] as const;

/**
 * Refuses a redirect URI that may not be registered: not an absolute ASCII URL, a fragment (RFC 6749
 * §3.1.2), credentials in it, a query that already holds a response parameter, or plain http
 * anywhere but on a loopback host (RFC 9700 §2.6, RFC 8252 §7.3). Registered URIs are kept exactly
 * as sent and later matched as strings.
 */
export function assertRegistrableRedirectUri(uri: string): void {
  const refuse = (why: string) => {
    throw new OAuthError('invalid_redirect_uri', `redirect_uris: '${uri}' ${why}`);
  };
  // A URI is printable ASCII (RFC 3986 §2); anything else must be percent-encoded. It also goes
  // into the Location header as it is, which takes no other characters.
  if (!/^[\x21-\x7e]+$/.test(uri)) refuse('must be printable ASCII without spaces (percent-encode other characters)');
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return refuse('is not an absolute URL');
  }
  if (uri.includes('#')) refuse('has a fragment, which a redirect URI must not have');
  if (url.username || url.password) refuse('carries user credentials');
  // The answer keeps the registered query and adds its own parameters, which would then be sent
  // twice (RFC 6749 §3.1), leaving the client to guess which `code` is the server's.
  const clash = RESPONSE_PARAMS.find((name) => url.searchParams.has(name));
  if (clash) refuse(`has '${clash}' in its query, a parameter the authorization response adds itself`);
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return;
  if (url.protocol === 'http:') refuse('uses http on a host that is not loopback (127.0.0.1, [::1] or localhost); use https');
  refuse('must use https (or http on a loopback host)');
}

/**
 * The scopes of a `scope` parameter (RFC 6749 §3.3: space-delimited, order irrelevant), in the
 * service's order; the default when absent or blank. An unknown scope is `invalid_scope`.
 */
export function parseScopes(scope: string | undefined): Scope[] {
  const names = (scope ?? '').split(' ').filter(Boolean);
  if (names.length === 0) return [...DEFAULT_SCOPES];
  const unknown = names.find((name) => !(SCOPES as readonly string[]).includes(name));
  if (unknown !== undefined) {
    throw new OAuthError('invalid_scope', `Unknown scope '${unknown}'; the scopes are ${SCOPES.join(', ')}`);
  }
  return SCOPES.filter((s) => names.includes(s));
}

/** Scopes as the `scope` parameter, the token response and storage write them. */
export function formatScopes(scopes: readonly Scope[]): string {
  return scopes.join(' ');
}

/** Scopes as stored (written by `formatScopes`, so known to be valid). */
export function storedScopes(stored: string): Scope[] {
  return stored.split(' ').filter(Boolean) as Scope[];
}

// RFC 7636 §4.2: BASE64URL(SHA256(verifier)) is always 43 characters.
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
// RFC 7636 §4.1: 43 to 128 unreserved characters.
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/**
 * Checks the PKCE parameters of an authorization request (RFC 7636 §4.3, §4.4.1). PKCE is
 * mandatory and S256 is the only method; an absent method means S256, the one the interface
 * documents, rather than RFC 7636's `plain`, which this server never accepts.
 */
export function assertCodeChallenge(challenge: string | undefined, method: string | undefined): string {
  if (!challenge) throw new OAuthError('invalid_request', 'code_challenge is required: PKCE (RFC 7636) with S256 is mandatory');
  if (method !== undefined && method !== 'S256') {
    throw new OAuthError('invalid_request', `code_challenge_method '${method}' is not supported; use S256`);
  }
  if (!S256_CHALLENGE.test(challenge)) {
    throw new OAuthError('invalid_request', 'code_challenge must be the 43-character base64url SHA-256 of the code_verifier (S256)');
  }
  return challenge;
}

/** True when the verifier hashes to the challenge (RFC 7636 §4.6), compared in constant time. */
export function verifiesChallenge(verifier: string, challenge: string): boolean {
  if (!CODE_VERIFIER.test(verifier)) {
    throw new OAuthError('invalid_request', 'code_verifier must be 43 to 128 characters of [A-Za-z0-9-._~] (RFC 7636 section 4.1)');
  }
  const computed = Buffer.from(hash('sha256', verifier, 'base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/**
 * Keeps the first value of each of `names` sent more than once (form and query parsers give a list
 * then) and returns the names that were, so that the caller can refuse them (RFC 6749 §3.1:
 * parameters must not be included more than once) in the way the endpoint calls for.
 */
export function keepFirstValues(values: Record<string, unknown>, names: readonly string[]): string[] {
  const repeated = names.filter((name) => Array.isArray(values[name]));
  for (const name of repeated) values[name] = (values[name] as unknown[])[0];
  return repeated;
}

/** A client's credentials as it presented them with HTTP Basic. */
export interface BasicClientCredentials {
  clientId: string;
  clientSecret: string;
}

// The Basic scheme (case-insensitive) and what follows it.
const BASIC_SCHEME = /^Basic(?:\s+(.*))?$/is;

/** True when the request authenticates its client with HTTP Basic (its failure gets a Basic challenge). */
export function usesBasicScheme(authorization: string | undefined): boolean {
  return BASIC_SCHEME.test(authorization?.trim() ?? '');
}

// A protocol value (RFC 6749 Appendix A, VSCHAR and space), like every form parameter; this also
// keeps a NUL byte, which no database column takes, out of the client lookup.
const PRINTABLE = /^[\x20-\x7e]{0,4096}$/;

/**
 * The client credentials of an `Authorization: Basic` header (RFC 6749 §2.3.1): the client_id and
 * secret are form-urlencoded, then joined by a colon and base64-encoded (RFC 7617). Undefined when
 * there is no such header: another scheme is not client authentication and is ignored. A Basic
 * header that cannot be read is a failed client authentication.
 */
export function basicClientCredentials(authorization: string | undefined): BasicClientCredentials | undefined {
  const match = BASIC_SCHEME.exec(authorization?.trim() ?? '');
  if (!match) return undefined;
  const refuse = (why: string): never => {
    throw new OAuthError('invalid_client', `Malformed HTTP Basic client authentication: ${why}`);
  };
  const token = (match[1] ?? '').trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(token)) refuse('expected "Basic base64(client_id:client_secret)"');
  const decoded = Buffer.from(token, 'base64').toString('latin1');
  // Form-urlencoding escapes a colon in the id, so the first one separates the two.
  const colon = decoded.indexOf(':');
  if (colon < 0) refuse('no colon between client_id and client_secret');
  const formDecode = (value: string) => {
    try {
      return decodeURIComponent(value.replace(/\+/g, ' '));
    } catch {
      return refuse('client_id and client_secret must be form-urlencoded (RFC 6749 section 2.3.1)');
    }
  };
  const clientId = formDecode(decoded.slice(0, colon));
  const clientSecret = formDecode(decoded.slice(colon + 1));
  if (!clientId) refuse('client_id is empty');
  if (!PRINTABLE.test(clientId) || !PRINTABLE.test(clientSecret)) refuse('client_id and client_secret must be printable ASCII');
  return { clientId, clientSecret };
}

/**
 * `redirectUri` with the answer parameters added to its query, keeping the query it already has
 * (RFC 6749 §3.1.2, §4.1.2). Parameters whose value is undefined are left out.
 */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const answer = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) answer.append(name, value);
  return `${redirectUri}${redirectUri.includes('?') ? '&' : '?'}${answer.toString()}`;
}
