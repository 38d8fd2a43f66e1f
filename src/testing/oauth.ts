/**
 * OAuth helpers for tests: a client registered, approved with a dashboard session as bearer (no
 * consent page) and its code exchanged, all over HTTP, so that any feature's tests can call the
 * API with an OAuth access token.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { TestApp, TestResponse } from './test-app.ts';

export const TEST_REDIRECT_URI = 'https://client.example/callback';

/** GET /api/v1/bot acting on `botId` with an OAuth access token (200 while the token works). */
export function getBotWithToken(t: TestApp, accessToken: string, botId: string): Promise<TestResponse> {
  return t.request('GET', '/api/v1/bot', { token: accessToken, headers: { 'x-bot-id': botId } });
}

/** Asserts an OAuth error answer: the status, `{error, error_description, detail}` and no caching. */
export function assertOAuthError(res: TestResponse, status: number, error: string): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body.error, error);
  assert.equal(typeof res.body.error_description, 'string');
  assert.equal(res.body.detail, res.body.error_description);
  assert.equal(res.headers.get('cache-control'), 'no-store');
}

/**
 * An `Authorization: Basic` header authenticating a client (RFC 6749 §2.3.1): the id and the secret
 * are form-urlencoded, joined by a colon, then base64-encoded.
 */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice('v='.length);
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
}

/** Asserts a failed HTTP Basic client authentication: 401 `invalid_client` with a Basic challenge (RFC 6749 §5.2). */
export function assertBasicChallenge(res: TestResponse): void {
  assertOAuthError(res, 401, 'invalid_client');
  assert.match(res.headers.get('www-authenticate') ?? '', /^Basic realm="[^"]+"/);
}

/** A PKCE verifier and its S256 challenge (RFC 7636 §4.1, §4.2). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Posts a form-encoded body (the OAuth endpoints take no JSON). */
export function postForm<T = any>(t: TestApp, path: string, params: Record<string, string>, headers: Record<string, string> = {}): Promise<TestResponse<T>> {
  return t.request<T>('POST', path, { body: new URLSearchParams(params).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });
}

/** A request that does not follow redirects (the authorization endpoint answers with them). */
export function fetchManual(t: TestApp, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(t.url + path, { ...init, redirect: 'manual' });
}

export interface RegisteredTestClient {
  clientId: string;
  clientSecret?: string;
  redirectUri: string;
}

/** Registers a client (public unless `confidential`) with one redirect URI. */
export async function registerClient(t: TestApp, options: { confidential?: boolean; name?: string; redirectUri?: string } = {}): Promise<RegisteredTestClient> {
  const redirectUri = options.redirectUri ?? TEST_REDIRECT_URI;
  const res = await t.request('POST', '/oauth/register', {
    body: {
      client_name: options.name ?? 'Test client',
      redirect_uris: [redirectUri],
      ...(options.confidential && { token_endpoint_auth_method: 'client_secret_post' }),
    },
  });
  assert.equal(res.status, 201, res.text);
  return { clientId: res.body.client_id, clientSecret: res.body.client_secret, redirectUri };
}

/** Approves an authorization request with the session as bearer; the `code` of the redirect. */
export async function approveWithBearer(
  t: TestApp,
  sessionToken: string,
  client: RegisteredTestClient,
  options: { scope?: string; challenge: string; state?: string },
): Promise<string> {
  const res = await fetchManual(t, '/oauth/authorize', {
    method: 'POST',
    headers: { authorization: `Bearer ${sessionToken}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      code_challenge: options.challenge,
      code_challenge_method: 'S256',
      state: options.state ?? 'test-state',
      ...(options.scope !== undefined && { scope: options.scope }),
      decision: 'approve',
    }).toString(),
  });
  const location = res.headers.get('location') ?? '';
  assert.equal(res.status, 302, await res.text());
  const code = new URL(location).searchParams.get('code');
  assert.ok(code, `no code in ${location}`);
  return code;
}

export interface OAuthTokens {
  accessToken: string;
  refreshToken: string;
  clientId: string;
  clientSecret?: string;
  redirectUri: string;
  scope: string;
  expiresIn: number;
}

/**
 * Runs the whole authorization-code flow for the user of `sessionToken` (an owner or admin):
 * register, approve (bearer, no consent page), exchange. `scope` defaults to the server's `read`.
 */
export async function obtainOAuthTokens(
  t: TestApp,
  options: { sessionToken: string; scope?: string; confidential?: boolean },
): Promise<OAuthTokens> {
  const client = await registerClient(t, { confidential: options.confidential });
  const { verifier, challenge } = pkcePair();
  const code = await approveWithBearer(t, options.sessionToken, client, { scope: options.scope, challenge });
  const res = await postForm(t, '/oauth/token', {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: client.redirectUri,
    client_id: client.clientId,
    ...(client.clientSecret && { client_secret: client.clientSecret }),
  });
  assert.equal(res.status, 200, res.text);
  return {
    accessToken: res.body.access_token,
    refreshToken: res.body.refresh_token,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    redirectUri: client.redirectUri,
    scope: res.body.scope,
    expiresIn: res.body.expires_in,
  };
}
