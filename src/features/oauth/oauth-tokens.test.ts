/** OAuth tokens: the token endpoint, refresh rotation, revocation, lifetimes, and access tokens on the API. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { createBot, inviteMember, ownerWithBot, signUp } from '../../testing/factories.ts';
import {
  approveWithBearer,
  assertBasicChallenge,
  assertOAuthError,
  basicAuthorization,
  getBotWithToken as getBot,
  obtainOAuthTokens,
  pkcePair,
  postForm,
  registerClient,
} from '../../testing/oauth.ts';

describe('OAuth tokens', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());


  describe('the token endpoint', () => {
    async function codeFor(options: { confidential?: boolean; scope?: string } = {}) {
      const { owner, botId } = await ownerWithBot(t);
      const client = await registerClient(t, { confidential: options.confidential });
      const { verifier, challenge } = pkcePair();
      const code = await approveWithBearer(t, owner.token, client, { challenge, scope: options.scope });
      const exchange = (overrides: Record<string, string | undefined> = {}, headers: Record<string, string> = {}) => {
        const params: Record<string, string | undefined> = {
          grant_type: 'authorization_code',
          code,
          code_verifier: verifier,
          redirect_uri: client.redirectUri,
          client_id: client.clientId,
          client_secret: client.clientSecret,
          ...overrides,
        };
        return postForm(t, '/oauth/token', Object.fromEntries(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined)), headers);
      };
      return { owner, botId, client, code, verifier, exchange };
    }

    it('answers tokens with Cache-Control: no-store', async () => {
      const { exchange } = await codeFor({ scope: 'chat read' });
      const res = await exchange();
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.deepEqual(Object.keys(res.body).sort(), ['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
      assert.equal(res.body.token_type, 'Bearer');
      assert.equal(res.body.scope, 'chat read');
    });

    it('refuses a wrong code_verifier, then still accepts the right one', async () => {
      const { exchange } = await codeFor();
      assertOAuthError(await exchange({ code_verifier: pkcePair().verifier }), 400, 'invalid_grant');
      assertOAuthError(await exchange({ code_verifier: 'short' }), 400, 'invalid_request');
      assertOAuthError(await exchange({ code_verifier: undefined }), 400, 'invalid_request');
      assert.equal((await exchange()).status, 200);
    });

    it('refuses a reused code and revokes the tokens issued from it', async () => {
      const { exchange, botId, client } = await codeFor();
      const first = await exchange();
      assert.equal(first.status, 200);
      assert.equal((await getBot(t, first.body.access_token, botId)).status, 200);
      const second = await exchange();
      assertOAuthError(second, 400, 'invalid_grant');
      assert.match(second.body.detail, /already been used/);
      const afterReuse = await getBot(t, first.body.access_token, botId);
      assert.equal(afterReuse.status, 401);
      assert.match(afterReuse.body.detail, /revoked/);
      const refresh = await postForm(t, '/oauth/token', { grant_type: 'refresh_token', refresh_token: first.body.refresh_token, client_id: client.clientId });
      assertOAuthError(refresh, 400, 'invalid_grant');
      assert.match(refresh.body.detail, /revoked/);
    });

    it('refuses a code after 10 minutes', async () => {
      const { exchange } = await codeFor();
      t.clock.advance(10 * 60 * 1000 + 1);
      const res = await exchange();
      assertOAuthError(res, 400, 'invalid_grant');
      assert.match(res.body.detail, /expired/);
    });

    it('refuses another redirect_uri, another client and an unknown code', async () => {
      const { exchange } = await codeFor();
      const other = await registerClient(t);
      assertOAuthError(await exchange({ redirect_uri: 'https://client.example/other' }), 400, 'invalid_grant');
      assertOAuthError(await exchange({ client_id: other.clientId }), 400, 'invalid_grant');
      assertOAuthError(await exchange({ code: 'not-a-code' }), 400, 'invalid_grant');
      assertOAuthError(await exchange({ redirect_uri: undefined }), 400, 'invalid_request');
      assert.equal((await exchange()).status, 200);
    });

    it('authenticates clients: unknown client, confidential client without or with a wrong secret, public client with one', async () => {
      const confidential = await codeFor({ confidential: true });
      assertOAuthError(await confidential.exchange({ client_secret: undefined }), 401, 'invalid_client');
      assertOAuthError(await confidential.exchange({ client_secret: 'parley_cs_wrong' }), 401, 'invalid_client');
      assertOAuthError(await confidential.exchange({ client_id: '00000000-0000-4000-8000-000000000000' }), 401, 'invalid_client');
      assertOAuthError(await confidential.exchange({ client_id: undefined }), 401, 'invalid_client');
      assert.equal((await confidential.exchange()).status, 200);
      const publicClient = await codeFor();
      assertOAuthError(await publicClient.exchange({ client_secret: 'parley_cs_anything' }), 401, 'invalid_client');
    });

    it('authenticates a confidential client with HTTP Basic, its id and secret form-urlencoded (RFC 6749 §2.3.1)', async () => {
      const { exchange, client, botId } = await codeFor({ confidential: true });
      // A decoder must undo any percent-encoding, not only the characters an encoder must escape.
      const percentEncoded = (value: string) => [...Buffer.from(value)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
      const header = `Basic ${Buffer.from(`${percentEncoded(client.clientId)}:${percentEncoded(client.clientSecret!)}`).toString('base64')}`;
      const res = await exchange({ client_id: undefined, client_secret: undefined }, { authorization: header });
      assert.equal(res.status, 200, res.text);
      assert.equal((await getBot(t, res.body.access_token, botId)).status, 200);
      // The refresh grant takes the same authentication; the body may name the same client too (§3.2.1).
      const refreshed = await postForm(
        t,
        '/oauth/token',
        { grant_type: 'refresh_token', refresh_token: res.body.refresh_token, client_id: client.clientId },
        { authorization: basicAuthorization(client.clientId, client.clientSecret!) },
      );
      assert.equal(refreshed.status, 200, refreshed.text);
    });

    it('refuses a failed HTTP Basic authentication with 401 and a Basic challenge, and two methods or two clients at once', async () => {
      const { exchange, client } = await codeFor({ confidential: true });
      const other = await registerClient(t, { confidential: true });
      const noBody = { client_id: undefined, client_secret: undefined };
      const base64 = (text: string) => Buffer.from(text).toString('base64');
      const failures: Array<[string, string]> = [
        ['a wrong secret', basicAuthorization(client.clientId, 'parley_cs_wrong')],
        ['another client’s secret', basicAuthorization(client.clientId, other.clientSecret!)],
        ['an unknown client', basicAuthorization('00000000-0000-4000-8000-000000000000', client.clientSecret!)],
        ['an empty client_id', basicAuthorization('', client.clientSecret!)],
        ['no colon', `Basic ${base64(client.clientId)}`],
        ['no credentials', 'Basic'],
        ['not base64', 'Basic !!!not-base64!!!'],
        ['a broken percent-encoding', `Basic ${base64(`${client.clientId}:%E0%A4%A`)}`],
        ['a NUL byte in client_id', `Basic ${base64(`${client.clientId}%00:${client.clientSecret}`)}`],
      ];
      for (const [label, authorization] of failures) {
        const res = await exchange(noBody, { authorization });
        assert.equal(res.status, 401, `${label}: ${res.text}`);
        assertBasicChallenge(res);
      }
      const basic = { authorization: basicAuthorization(client.clientId, client.clientSecret!) };
      // RFC 6749 §2.3: one authentication method per request.
      const twice = await exchange({ client_id: undefined }, basic);
      assertOAuthError(twice, 400, 'invalid_request');
      assert.match(twice.body.detail, /not both/);
      const twoClients = await exchange({ client_id: other.clientId, client_secret: undefined }, basic);
      assertOAuthError(twoClients, 400, 'invalid_request');
      assert.match(twoClients.body.detail, /client_id/);
      // A public client has no secret to send in the header either.
      const publicClient = await codeFor();
      assertBasicChallenge(await publicClient.exchange({ client_id: undefined }, { authorization: basicAuthorization(publicClient.client.clientId, '') }));
      assert.equal((await publicClient.exchange()).status, 200);
      assert.equal((await exchange({ client_secret: undefined }, basic)).status, 200);
    });

    it('refuses JSON, unknown grant types and repeated parameters', async () => {
      const { client, code, verifier } = await codeFor();
      const json = await t.request('POST', '/oauth/token', {
        body: { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: client.redirectUri, client_id: client.clientId },
      });
      assertOAuthError(json, 400, 'invalid_request');
      assert.match(json.body.detail, /application\/x-www-form-urlencoded/);
      assertOAuthError(await postForm(t, '/oauth/token', { grant_type: 'password', client_id: client.clientId }), 400, 'unsupported_grant_type');
      assertOAuthError(await postForm(t, '/oauth/token', { client_id: client.clientId }), 400, 'invalid_request');
      const repeated = await t.request('POST', '/oauth/token', {
        body: `grant_type=authorization_code&code=${code}&code=${code}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assertOAuthError(repeated, 400, 'invalid_request');
      assert.match(repeated.body.detail, /code/);
    });
  });

  describe('refresh tokens', () => {
    const refresh = (tokens: { refreshToken: string; clientId: string; clientSecret?: string }, extra: Record<string, string> = {}) =>
      postForm(t, '/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: tokens.refreshToken,
        client_id: tokens.clientId,
        ...(tokens.clientSecret && { client_secret: tokens.clientSecret }),
        ...extra,
      });

    it('rotates on every use', async () => {
      const { owner, botId } = await ownerWithBot(t);
      const tokens = await obtainOAuthTokens(t, { sessionToken: owner.token, scope: 'read' });
      const first = await refresh(tokens);
      assert.equal(first.status, 200);
      assert.equal(first.headers.get('cache-control'), 'no-store');
      const second = await refresh({ ...tokens, refreshToken: first.body.refresh_token });
      assert.equal(second.status, 200);
      assert.equal(second.body.scope, 'read');
      assert.equal((await getBot(t, second.body.access_token, botId)).status, 200);
      // The access token issued before a refresh lives on until it expires.
      assert.equal((await getBot(t, tokens.accessToken, botId)).status, 200);
    });

    it('revokes the whole family when a rotated refresh token is used again', async () => {
      const { owner, botId } = await ownerWithBot(t);
      const tokens = await obtainOAuthTokens(t, { sessionToken: owner.token, confidential: true });
      const rotated = await refresh(tokens);
      assert.equal(rotated.status, 200);
      const reuse = await refresh(tokens);
      assertOAuthError(reuse, 400, 'invalid_grant');
      assert.match(reuse.body.detail, /already been used/);
      for (const token of [tokens.accessToken, rotated.body.access_token]) {
        const res = await getBot(t, token, botId);
        assert.equal(res.status, 401);
        assert.match(res.body.detail, /revoked/);
      }
      assertOAuthError(await refresh({ ...tokens, refreshToken: rotated.body.refresh_token }), 400, 'invalid_grant');
    });

    it('narrows the scope on request, never widens it', async () => {
      const { owner, botId } = await ownerWithBot(t);
      const tokens = await obtainOAuthTokens(t, { sessionToken: owner.token, scope: 'read write' });
      const narrowed = await refresh(tokens, { scope: 'read' });
      assert.equal(narrowed.status, 200);
      assert.equal(narrowed.body.scope, 'read');
      const write = await t.request('POST', '/api/v1/knowledge', { token: narrowed.body.access_token, headers: { 'x-bot-id': botId }, body: { type: 'text', name: 'n', content: 'c' } });
      assert.equal(write.status, 403);
      const widened = await refresh({ ...tokens, refreshToken: narrowed.body.refresh_token }, { scope: 'read write admin' });
      assertOAuthError(widened, 400, 'invalid_scope');
      const back = await refresh({ ...tokens, refreshToken: narrowed.body.refresh_token });
      assert.equal(back.body.scope, 'read write');
    });

    it('belongs to its client', async () => {
      const { owner } = await ownerWithBot(t);
      const tokens = await obtainOAuthTokens(t, { sessionToken: owner.token });
      const other = await registerClient(t);
      assertOAuthError(await refresh({ ...tokens, clientId: other.clientId }), 400, 'invalid_grant');
      assertOAuthError(await refresh({ ...tokens, refreshToken: 'parley_ort_unknown' }), 400, 'invalid_grant');
      assertOAuthError(await refresh({ ...tokens, refreshToken: tokens.accessToken }), 400, 'invalid_grant');
      assert.equal((await refresh(tokens)).status, 200);
    });
  });

  describe('revocation', () => {
    const revoke = (tokens: { clientId: string; clientSecret?: string }, token: string, hint?: string) =>
      postForm(t, '/oauth/revoke', {
        token,
        client_id: tokens.clientId,
        ...(tokens.clientSecret && { client_secret: tokens.clientSecret }),
        ...(hint && { token_type_hint: hint }),
      });

    it('revokes an access token alone', async () => {
      const { owner, botId } = await ownerWithBot(t);
      const tokens = await obtainOAuthTokens(t, { sessionToken: owner.token });
      const res = await revoke(tokens, tokens.accessToken, 'access_token');
      assert.equal(res.status, 200);
      assert.equal(res.text, '');
      const refused = await getBot(t, tokens.accessToken, botId);
      assert.equal(refused.status, 401);
      assert.equal(refused.body.detail, 'This OAuth access token has been revoked');
      const refreshed = await postForm(t, '/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refreshToken, client_id: tokens.clientId });
      assert.equal(refreshed.status, 200);
    });

    it('answers 200 for unknown tokens and tokens of another client, changing nothing', async () => {
      const { owner, botId } = await ownerWithBot(t);
      const tokens = await obtainOAuthTokens(t, { sessionToken: owner.token });
      const other = await registerClient(t);
      assert.equal((await revoke(tokens, 'parley_oat_doesNotExist')).status, 200);
      assert.equal((await revoke(other, tokens.refreshToken, 'refresh_token')).status, 200);
      assert.equal((await getBot(t, tokens.accessToken, botId)).status, 200);
    });

    it('authenticates the client like the token endpoint', async () => {
      const { owner } = await ownerWithBot(t);
      const tokens = await obtainOAuthTokens(t, { sessionToken: owner.token, confidential: true });
      assertOAuthError(await revoke({ clientId: tokens.clientId }, tokens.accessToken), 401, 'invalid_client');
      assertOAuthError(await revoke({ ...tokens, clientSecret: 'parley_cs_wrong' }, tokens.accessToken), 401, 'invalid_client');
      assertOAuthError(await postForm(t, '/oauth/revoke', { client_id: tokens.clientId, client_secret: tokens.clientSecret! }), 400, 'invalid_request');
    });

    it('takes HTTP Basic client authentication too (RFC 7009 §2.1)', async () => {
      const { owner, botId } = await ownerWithBot(t);
      const tokens = await obtainOAuthTokens(t, { sessionToken: owner.token, confidential: true });
      const basic = (secret: string) => ({ authorization: basicAuthorization(tokens.clientId, secret) });
      assertBasicChallenge(await postForm(t, '/oauth/revoke', { token: tokens.refreshToken }, basic('parley_cs_wrong')));
      assertOAuthError(await postForm(t, '/oauth/revoke', { token: tokens.refreshToken, client_secret: tokens.clientSecret! }, basic(tokens.clientSecret!)), 400, 'invalid_request');
      assert.equal((await getBot(t, tokens.accessToken, botId)).status, 200);
      const res = await postForm(t, '/oauth/revoke', { token: tokens.refreshToken, token_type_hint: 'refresh_token' }, basic(tokens.clientSecret!));
      assert.equal(res.status, 200, res.text);
      assert.equal(res.text, '');
      assert.equal((await getBot(t, tokens.accessToken, botId)).status, 401);
    });
  });

  describe('access tokens on the API', () => {
    it('act for the approving user’s account with the granted scopes', async () => {
      const { owner, botId } = await ownerWithBot(t);
      const reader = await obtainOAuthTokens(t, { sessionToken: owner.token, scope: 'read' });
      const writer = await obtainOAuthTokens(t, { sessionToken: owner.token, scope: 'write' });
      const knowledge = { type: 'text', name: 'Hours', content: 'We open at nine.' };
      const refused = await t.request('POST', '/api/v1/knowledge', { token: reader.accessToken, headers: { 'x-bot-id': botId }, body: knowledge });
      assert.equal(refused.status, 403);
      assert.match(refused.body.detail, /write/);
      const written = await t.request('POST', '/api/v1/knowledge', { token: writer.accessToken, headers: { 'x-bot-id': botId }, body: knowledge });
      assert.equal(written.status, 200, written.text);
      assert.equal((await getBot(t, writer.accessToken, botId)).status, 403);
      // Another account's bot is not found; the dashboard is not an OAuth resource.
      const stranger = await ownerWithBot(t);
      assert.equal((await getBot(t, reader.accessToken, stranger.botId)).status, 404);
      assert.equal((await t.request('GET', '/api/dashboard/bots', { token: reader.accessToken })).status, 401);
    });

    it('stop working when the approving user leaves the account or is no longer an admin', async () => {
      const { owner, botId } = await ownerWithBot(t);
      const admin = await inviteMember(t, owner, 'admin');
      const demoted = await inviteMember(t, owner, 'admin');
      const removedTokens = await obtainOAuthTokens(t, { sessionToken: admin.token });
      const demotedTokens = await obtainOAuthTokens(t, { sessionToken: demoted.token });
      assert.equal((await getBot(t, removedTokens.accessToken, botId)).status, 200);
      assert.equal((await t.request('DELETE', `/api/dashboard/members/${admin.userId}`, { token: owner.token })).status, 200);
      assert.equal((await t.request('PATCH', `/api/dashboard/members/${demoted.userId}`, { token: owner.token, body: { role: 'agent' } })).status, 200);
      // Leaving the account revokes what the member authorized; a demoted member's tokens fail on their role.
      const removed = await getBot(t, removedTokens.accessToken, botId);
      assert.equal(removed.status, 401);
      assert.match(removed.body.detail, /has been revoked/);
      const demotedRes = await getBot(t, demotedTokens.accessToken, botId);
      assert.equal(demotedRes.status, 401);
      assert.match(demotedRes.body.detail, /no longer an owner or admin/);
      // Nor does the refresh token of a demoted member's grant mint new tokens.
      const refreshed = await postForm(t, '/oauth/token', { grant_type: 'refresh_token', refresh_token: demotedTokens.refreshToken, client_id: demotedTokens.clientId });
      assert.deepEqual([refreshed.status, refreshed.body.error], [400, 'invalid_grant']);
    });

    it('refuses unknown tokens', async () => {
      const { botId } = await ownerWithBot(t);
      const res = await getBot(t, 'parley_oat_thisTokenDoesNotExist00000000000000000000000', botId);
      assert.equal(res.status, 401);
      assert.equal(res.body.detail, 'Invalid or expired OAuth access token');
    });
  });
});

describe('OAuth token lifetimes', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { PARLEY_ACCESS_TOKEN_TTL: '60', PARLEY_REFRESH_TOKEN_TTL: '600' } });
  });
  after(() => t.close());

  it('expires access tokens after PARLEY_ACCESS_TOKEN_TTL and refresh tokens after PARLEY_REFRESH_TOKEN_TTL, each from its issue', async () => {
    const owner = await signUp(t);
    const botId = (await createBot(t, owner)).id;
    const tokens = await obtainOAuthTokens(t, { sessionToken: owner.token });
    assert.equal(tokens.expiresIn, 60);
    t.clock.advance(60_000);
    const expired = await getBot(t, tokens.accessToken, botId);
    assert.equal(expired.status, 401);
    assert.match(expired.body.detail, /expired/);

    // 300 s after issue the refresh token still works; the new one lives 600 s from now.
    t.clock.advance(240_000);
    const refreshed = await postForm(t, '/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refreshToken, client_id: tokens.clientId });
    assert.equal(refreshed.status, 200);
    assert.equal((await getBot(t, refreshed.body.access_token, botId)).status, 200);
    t.clock.advance(600_000);
    const late = await postForm(t, '/oauth/token', { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token, client_id: tokens.clientId });
    assertOAuthError(late, 400, 'invalid_grant');
  });

  it('takes effect on every instance at once: a revocation on one is refused by the other', async () => {
    const second = await startTestApp({ shareWith: t });
    try {
      const owner = await signUp(t);
      const botId = (await createBot(t, owner)).id;
      const tokens = await obtainOAuthTokens(t, { sessionToken: owner.token });
      assert.equal((await getBot(second, tokens.accessToken, botId)).status, 200);
      const revoked = await postForm(second, '/oauth/revoke', { token: tokens.accessToken, client_id: tokens.clientId });
      assert.equal(revoked.status, 200);
      assert.equal((await getBot(t, tokens.accessToken, botId)).status, 401);
    } finally {
      await second.close();
    }
  });
});
