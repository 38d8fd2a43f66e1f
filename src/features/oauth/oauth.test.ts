/** The OAuth2 authorization server seen from outside: an independent client's whole flow, metadata, registration, the API description, limits. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { ownerWithBot } from '../../testing/factories.ts';
import { assertOAuthError, fetchManual, getBotWithToken as getBot, TEST_REDIRECT_URI } from '../../testing/oauth.ts';
import { hashCredential } from '../../platform/secrets.ts';

describe('OAuth2 authorization server', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());


  describe('with an independent client (oauth4webapi)', () => {
    // PUBLIC_URL (the issuer) is not the test server's port: requests to it are sent to the server,
    // as a reverse proxy would. oauth4webapi refuses plain http unless allowed.
    let issuer: URL;
    let http: { [oauth.allowInsecureRequests]: boolean; [oauth.customFetch]: (url: string, init: RequestInit) => Promise<Response> };
    before(() => {
      issuer = new URL(t.runtime.config.publicUrl);
      http = {
        [oauth.allowInsecureRequests]: true,
        // Only the issuer's own endpoints: anything else would leave the test server, so it fails instead.
        [oauth.customFetch]: (url, init) => {
          if (!url.startsWith(`${issuer.origin}/`)) throw new Error(`oauth4webapi asked for ${url}, outside the issuer ${issuer.origin}`);
          return fetch(t.url + url.slice(issuer.origin.length), init);
        },
      };
    });

    // A confidential client registers as it will authenticate (client_secret_post or
    // client_secret_basic), and the server takes the secret either way (RFC 6749 §2.3.1).
    for (const method of ['none', 'client_secret_post', 'client_secret_basic'] as const) {
      it(`discovers, registers, authorizes, exchanges, refreshes and revokes (client authentication: ${method})`, async () => {
        const confidential = method !== 'none';
        const { owner, botId } = await ownerWithBot(t);
        const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...http }));
        const registration = await oauth.processDynamicClientRegistrationResponse(
          await oauth.dynamicClientRegistrationRequest(
            as,
            { client_name: 'Independent client', redirect_uris: [TEST_REDIRECT_URI], token_endpoint_auth_method: method },
            http,
          ),
        );
        const client: oauth.Client = { client_id: registration.client_id };
        // oauth4webapi's Basic form-urlencodes the id and secret (the '-' of a client_id becomes %2D).
        const clientAuth =
          method === 'client_secret_basic'
            ? oauth.ClientSecretBasic(registration.client_secret as string)
            : method === 'client_secret_post'
              ? oauth.ClientSecretPost(registration.client_secret as string)
              : oauth.None();
        assert.equal(typeof registration.client_secret, confidential ? 'string' : 'undefined');

        const verifier = oauth.generateRandomCodeVerifier();
        const state = oauth.generateRandomState();
        const authorizationUrl = new URL(as.authorization_endpoint!);
        const params = {
          response_type: 'code',
          client_id: client.client_id,
          redirect_uri: TEST_REDIRECT_URI,
          scope: 'read write',
          state,
          code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
        };
        for (const [name, value] of Object.entries(params)) authorizationUrl.searchParams.set(name, value);
        // The user approves (as the dashboard session's bearer: no consent page in between).
        const approved = await fetchManual(t, authorizationUrl.pathname, {
          method: 'POST',
          headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: `${authorizationUrl.searchParams}&decision=approve`,
        });
        assert.equal(approved.status, 302);
        const callback = oauth.validateAuthResponse(as, client, new URL(approved.headers.get('location')!), state);

        const tokens = await oauth.processAuthorizationCodeResponse(
          as,
          client,
          await oauth.authorizationCodeGrantRequest(as, client, clientAuth, callback, TEST_REDIRECT_URI, verifier, http),
        );
        assert.match(tokens.access_token, /^parley_oat_[A-Za-z0-9_-]{43}$/);
        assert.match(tokens.refresh_token!, /^parley_ort_[A-Za-z0-9_-]{43}$/);
        assert.equal(tokens.token_type, 'bearer');
        assert.equal(tokens.expires_in, 3600);
        assert.equal(tokens.scope, 'read write');
        assert.equal((await getBot(t, tokens.access_token, botId)).status, 200);

        const refreshed = await oauth.processRefreshTokenResponse(
          as,
          client,
          await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, http),
        );
        assert.notEqual(refreshed.access_token, tokens.access_token);
        assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
        assert.equal((await getBot(t, refreshed.access_token, botId)).status, 200);

        await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, clientAuth, refreshed.refresh_token!, http));
        // A refresh token takes its whole family with it, the access tokens included.
        for (const token of [tokens.access_token, refreshed.access_token]) {
          const res = await getBot(t, token, botId);
          assert.equal(res.status, 401);
          assert.match(res.body.detail, /revoked/);
        }
      });
    }
  });

  describe('metadata', () => {
    it('describes the server from PUBLIC_URL (RFC 8414)', async () => {
      const res = await t.request('GET', '/.well-known/oauth-authorization-server');
      assert.equal(res.status, 200);
      const base = t.runtime.config.publicUrl;
      assert.equal(res.body.issuer, base);
      assert.equal(res.body.authorization_endpoint, `${base}/oauth/authorize`);
      assert.equal(res.body.token_endpoint, `${base}/oauth/token`);
      assert.equal(res.body.registration_endpoint, `${base}/oauth/register`);
      assert.equal(res.body.revocation_endpoint, `${base}/oauth/revoke`);
      assert.deepEqual(res.body.response_types_supported, ['code']);
      assert.deepEqual(res.body.grant_types_supported, ['authorization_code', 'refresh_token']);
      assert.deepEqual(res.body.code_challenge_methods_supported, ['S256']);
      assert.deepEqual(res.body.token_endpoint_auth_methods_supported, ['none', 'client_secret_post', 'client_secret_basic']);
      assert.deepEqual(res.body.revocation_endpoint_auth_methods_supported, ['none', 'client_secret_post', 'client_secret_basic']);
      assert.deepEqual(res.body.scopes_supported, ['chat', 'read', 'write', 'admin']);
    });
  });

  describe('the API description', () => {
    it('documents every OAuth route, form bodies and HTML pages included', async () => {
      const { body } = await t.request('GET', '/openapi.json');
      const expected: Array<[string, string, string]> = [
        ['/.well-known/oauth-authorization-server', 'get', 'oauthMetadata'],
        ['/oauth/register', 'post', 'oauthRegisterClient'],
        ['/oauth/authorize', 'get', 'oauthAuthorize'],
        ['/oauth/authorize', 'post', 'oauthDecide'],
        ['/oauth/token', 'post', 'oauthToken'],
        ['/oauth/revoke', 'post', 'oauthRevoke'],
      ];
      for (const [path, method, operationId] of expected) {
        const op = body.paths[path]?.[method];
        assert.equal(op?.operationId, operationId, `${method} ${path}`);
        assert.deepEqual(op.tags, ['oauth']);
        assert.ok(op.description, operationId);
        assert.ok(Object.keys(op.responses).some((code) => code.startsWith('4')), operationId);
      }
      for (const path of ['/oauth/authorize', '/oauth/token', '/oauth/revoke']) {
        assert.deepEqual(Object.keys(body.paths[path].post.requestBody.content), ['application/x-www-form-urlencoded'], path);
      }
      assert.deepEqual(Object.keys(body.paths['/oauth/register'].post.requestBody.content), ['application/json']);
      assert.ok(body.paths['/oauth/authorize'].get.responses['200'].content['text/html']);
      assert.ok(body.paths['/oauth/authorize'].get.responses['302'].headers.location);
      assert.deepEqual(body.paths['/oauth/authorize'].post.security, [{ dashboardSession: [] }, { dashboardCookie: [] }]);
      assert.ok(body.paths['/oauth/token'].post.responses['400'].content['application/json'].schema.properties.error_description);
    });
  });

  describe('client registration', () => {
    it('registers a public client without a secret', async () => {
      const res = await t.request('POST', '/oauth/register', { body: { client_name: 'Native app', redirect_uris: ['http://127.0.0.1:8765/cb'] } });
      assert.equal(res.status, 201);
      assert.equal(res.body.token_endpoint_auth_method, 'none');
      assert.equal(res.body.client_secret, undefined);
      assert.deepEqual(res.body.redirect_uris, ['http://127.0.0.1:8765/cb']);
      assert.equal(res.body.client_name, 'Native app');
      assert.equal(res.body.client_id_issued_at, Math.floor(t.clock.now() / 1000));
    });

    it('shows a confidential client its secret once and stores only its hash', async () => {
      const res = await t.request('POST', '/oauth/register', {
        body: { client_name: 'Server app', redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'client_secret_post' },
      });
      assert.equal(res.status, 201);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.match(res.body.client_secret, /^parley_cs_[A-Za-z0-9_-]{43}$/);
      assert.equal(res.body.client_secret_expires_at, 0);
      const row = await t.runtime.database.db.selectFrom('oauth_clients').selectAll().where('id', '=', res.body.client_id).executeTakeFirstOrThrow();
      assert.equal(row.secret_hash, hashCredential(res.body.client_secret));
      assert.ok(!Object.values(row).includes(res.body.client_secret));
    });

    it('accepts https, and http only on loopback hosts', async () => {
      const ok = ['https://app.example/cb', 'https://app.example:8443/cb?x=1', 'http://127.0.0.1/cb', 'http://[::1]:9000/cb', 'http://localhost:3000/cb'];
      const res = await t.request('POST', '/oauth/register', { body: { client_name: 'x', redirect_uris: ok } });
      assert.equal(res.status, 201, res.text);
      const refused = ['http://app.example/cb', 'https://app.example/cb#frag', 'com.example.app:/cb', 'javascript:alert(1)', '/relative/cb', 'https://user:pw@app.example/cb', 'http://127.0.0.2.example/cb', 'https://app.example/caf\u00e9', 'https://app.example/a b'];
      for (const uri of refused) {
        const bad = await t.request('POST', '/oauth/register', { body: { client_name: 'x', redirect_uris: ['https://fine.example/cb', uri] } });
        assertOAuthError(bad, 400, 'invalid_redirect_uri');
        assert.ok(bad.body.detail.includes(uri), uri);
      }
    });

    it('refuses a redirect URI whose query already holds a parameter of the authorization response', async () => {
      // RFC 6749 §3.1: the answer would carry that parameter twice (e.g. two codes).
      const ok = await t.request('POST', '/oauth/register', { body: { client_name: 'x', redirect_uris: ['https://a.example/cb?tenant=1&codes=2&next_state=3'] } });
      assert.equal(ok.status, 201, ok.text);
      const clashes: Array<[string, string]> = [
        ['https://a.example/cb?tenant=1&code=evil', 'code'],
        ['https://a.example/cb?state=x', 'state'],
        ['https://a.example/cb?error=x', 'error'],
        ['https://a.example/cb?error_description=x', 'error_description'],
        ['https://a.example/cb?error_uri=x', 'error_uri'],
        ['http://127.0.0.1:8765/cb?iss=x', 'iss'],
        ['https://a.example/cb?code', 'code'],
        ['https://a.example/cb?%63ode=x', 'code'],
      ];
      for (const [uri, name] of clashes) {
        const bad = await t.request('POST', '/oauth/register', { body: { client_name: 'x', redirect_uris: ['https://fine.example/cb', uri] } });
        assertOAuthError(bad, 400, 'invalid_redirect_uri');
        assert.ok(bad.body.detail.includes(uri), uri);
        assert.ok(bad.body.detail.includes(`'${name}'`), `${uri}: ${bad.body.detail}`);
      }
    });

    it('refuses metadata it cannot use as invalid_client_metadata', async () => {
      const bodies = [
        { redirect_uris: ['https://app.example/cb'] },
        { client_name: '   ', redirect_uris: ['https://app.example/cb'] },
        { client_name: 'x', redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'client_secret_jwt' },
        { client_name: 'x', redirect_uris: [] },
        { client_name: 'x' },
      ];
      for (const body of bodies) assertOAuthError(await t.request('POST', '/oauth/register', { body }), 400, 'invalid_client_metadata');
    });
  });
});

describe('OAuth rate limits', () => {
  it('limits every OAuth endpoint per client IP, answering in the OAuth error form', async () => {
    const t = await startTestApp({ env: { PARLEY_RATE_IP_PER_MIN: '2' } });
    try {
      const register = () => t.request('POST', '/oauth/register', { body: { client_name: 'x', redirect_uris: ['https://app.example/cb'] } });
      assert.equal((await register()).status, 201);
      assert.equal((await register()).status, 201);
      const limited = await register();
      assertOAuthError(limited, 429, 'temporarily_unavailable');
      assert.equal(limited.headers.get('retry-after'), '60');
    } finally {
      await t.close();
    }
  });
});
