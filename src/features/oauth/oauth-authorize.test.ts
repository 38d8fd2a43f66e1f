/** The authorization endpoint: the consent page, the user's decision, and where errors go. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { inviteMember, signUp } from '../../testing/factories.ts';
import { approveWithBearer, fetchManual, pkcePair, registerClient, type RegisteredTestClient } from '../../testing/oauth.ts';

describe('OAuth authorization endpoint', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  function authorizeParams(client: RegisteredTestClient, overrides: Record<string, string | undefined> = {}): Record<string, string> {
    const params: Record<string, string | undefined> = {
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
      state: 'state-123',
      ...overrides,
    };
    return Object.fromEntries(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined));
  }
  const query = (params: Record<string, string>) => `/oauth/authorize?${new URLSearchParams(params)}`;
  const cookie = (token: string) => `parley_session=${token}`;
  // What a browser's navigation sends.
  const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

  async function consentPage(sessionToken: string, params: Record<string, string>) {
    const res = await fetchManual(t, query(params), { headers: { cookie: cookie(sessionToken) } });
    const html = await res.text();
    assert.equal(res.status, 200, html);
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
    assert.ok(csrf, 'the form carries a CSRF token');
    return { res, html, csrf };
  }

  function postDecision(fields: Record<string, string>, headers: Record<string, string>) {
    return fetchManual(t, '/oauth/authorize', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }

  describe('the consent page', () => {
    it('names the client, the account and each scope in words, and posts every parameter back', async () => {
      const owner = await signUp(t, { account_name: 'Acme Support' });
      const client = await registerClient(t, { name: 'Acme CRM' });
      const params = authorizeParams(client, { scope: 'chat read write admin' });
      const { res, html, csrf } = await consentPage(owner.token, params);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(res.headers.get('content-security-policy'), "default-src 'none'");
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.doesNotMatch(html, /<script|<style|<link|\sstyle=/i);
      assert.match(html, /Authorize Acme CRM\?/);
      assert.match(html, /Acme Support/);
      assert.ok(html.includes(owner.email));
      assert.match(html, /<strong>chat<\/strong>: Send messages to your bots/);
      assert.match(html, /<strong>read<\/strong>: Read your bots/);
      assert.match(html, /<strong>write<\/strong>: Create and change bots/);
      assert.match(html, /<strong>admin<\/strong>: Full control/);
      assert.match(html, /sent back to <strong>https:\/\/client\.example<\/strong>/);
      assert.match(html, /<form method="post" action="\/oauth\/authorize">/);
      for (const [name, value] of Object.entries(params)) {
        assert.ok(html.includes(`<input type="hidden" name="${name}" value="${value}">`), name);
      }
      assert.match(html, /<button type="submit" name="decision" value="approve">/);
      assert.match(html, /<button type="submit" name="decision" value="deny">/);
      assert.ok(csrf.length >= 32);
    });

    it('carries only the authorization parameters, never a stray field named like its own', async () => {
      const owner = await signUp(t);
      const params = { ...authorizeParams(await registerClient(t)), decision: 'approve', csrf_token: 'forged', extra: 'x' };
      const { html } = await consentPage(owner.token, params);
      assert.ok(!html.includes('value="approve">\n'), 'no hidden decision');
      assert.equal(html.match(/name="csrf_token"/g)?.length, 1);
      assert.ok(!html.includes('forged'));
      assert.ok(!html.includes('name="extra"'));
      assert.ok(!html.includes('type="hidden" name="decision"'));
    });

    it('asks for read when no scope is named', async () => {
      const owner = await signUp(t);
      const { html } = await consentPage(owner.token, authorizeParams(await registerClient(t)));
      assert.match(html, /<strong>read<\/strong>/);
      assert.doesNotMatch(html, /<strong>(chat|write|admin)<\/strong>/);
    });

    it('escapes the HTML of every client-provided string', async () => {
      const owner = await signUp(t);
      const client = await registerClient(t, { name: '<script>alert(1)</script><b onmouseover="x">' });
      const { html } = await consentPage(owner.token, authorizeParams(client, { state: '"><img src=x onerror=alert(1)>' }));
      assert.ok(!html.includes('<script>alert(1)'));
      assert.ok(!html.includes('<b onmouseover'));
      assert.ok(!html.includes('<img src=x'));
      assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;&lt;b onmouseover=&quot;x&quot;&gt;'));
      assert.ok(html.includes('value="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"'));
    });

    it('works with the session as bearer too', async () => {
      const owner = await signUp(t);
      const res = await fetchManual(t, query(authorizeParams(await registerClient(t))), { headers: { authorization: `Bearer ${owner.token}` } });
      assert.equal(res.status, 200);
      assert.match(await res.text(), /Authorize Test client\?/);
    });

    it('sends a visitor without a session to the dashboard login, and back afterwards', async () => {
      const params = authorizeParams(await registerClient(t));
      for (const headers of [{}, { cookie: cookie('parley_ds_expiredOrUnknown') }] as Record<string, string>[]) {
        const res = await fetchManual(t, query(params), { headers });
        assert.equal(res.status, 302);
        const location = new URL(res.headers.get('location')!, t.url);
        assert.equal(location.pathname, '/app/login');
        assert.equal(location.searchParams.get('next'), query(params));
      }
    });
  });

  describe('requests that cannot be redirected', () => {
    /** Requests whose client or redirect URI cannot be trusted (RFC 6749 §4.1.2.1, RFC 9700 §4.1). */
    const unverifiable = (client: RegisteredTestClient): Record<string, Record<string, string | undefined>> => ({
      'unknown client': { client_id: '00000000-0000-4000-8000-000000000000' },
      'missing client': { client_id: undefined },
      'other redirect_uri': { redirect_uri: 'https://attacker.example/callback' },
      'redirect_uri with a trailing slash': { redirect_uri: `${client.redirectUri}/` },
      'redirect_uri with another query': { redirect_uri: `${client.redirectUri}?x=1` },
      'missing redirect_uri': { redirect_uri: undefined },
      'a NUL byte in client_id': { client_id: `${client.clientId}\u0000` },
    });

    it('answers an unknown client or an unregistered redirect_uri with a 400 page and no redirect', async () => {
      const owner = await signUp(t);
      const client = await registerClient(t);
      const cases = unverifiable(client);
      for (const [label, overrides] of Object.entries(cases)) {
        for (const headers of [{ accept: BROWSER_ACCEPT }, { accept: BROWSER_ACCEPT, cookie: cookie(owner.token) }] as Record<string, string>[]) {
          const res = await fetchManual(t, query(authorizeParams(client, overrides)), { headers });
          assert.equal(res.status, 400, label);
          assert.equal(res.headers.get('location'), null, label);
          assert.match(res.headers.get('content-type') ?? '', /^text\/html/, label);
          assert.equal(res.headers.get('content-security-policy'), "default-src 'none'");
          assert.match(await res.text(), /cannot be completed/, label);
        }
      }
      // RFC 6749 §3.1: a client_id or redirect_uri sent twice cannot be trusted either, even signed in.
      const repeats: Array<[string, string]> = [
        ['redirect_uri', 'https://attacker.example/cb'],
        ['redirect_uri', client.redirectUri],
        ['client_id', client.clientId],
      ];
      for (const [name, value] of repeats) {
        const repeated = await fetchManual(t, `${query(authorizeParams(client))}&${name}=${encodeURIComponent(value)}`, {
          headers: { accept: BROWSER_ACCEPT, cookie: cookie(owner.token) },
        });
        assert.equal(repeated.status, 400, name);
        assert.equal(repeated.headers.get('location'), null, name);
        assert.match(await repeated.text(), new RegExp(`parameter &#39;${name}&#39; must be sent once`), name);
      }
    });

    it('answers the same refusal as JSON to a caller that is not a browser', async () => {
      const owner = await signUp(t);
      const client = await registerClient(t);
      const cases = unverifiable(client);
      for (const [label, overrides] of Object.entries(cases)) {
        const res = await fetchManual(t, query(authorizeParams(client, overrides)), { headers: { cookie: cookie(owner.token) } });
        assert.equal(res.status, 400, label);
        assert.equal(res.headers.get('location'), null, label);
        const body = await res.json();
        assert.equal(body.error, 'invalid_request', label);
        assert.equal(body.detail, body.error_description, label);
      }
    });

    it('refuses the POST the same way, as JSON to a non-browser', async () => {
      const owner = await signUp(t);
      const client = await registerClient(t);
      const res = await postDecision({ ...authorizeParams(client, { redirect_uri: 'https://attacker.example/cb' }), decision: 'approve' }, { authorization: `Bearer ${owner.token}` });
      assert.equal(res.status, 400);
      assert.equal(res.headers.get('location'), null);
      const body = await res.json();
      assert.equal(body.error, 'invalid_request');
      assert.equal(body.detail, body.error_description);
    });
  });

  describe('errors sent back to the client', () => {
    const cases: Array<[string, Record<string, string | undefined>, string]> = [
      ['missing code_challenge', { code_challenge: undefined }, 'invalid_request'],
      ['malformed code_challenge', { code_challenge: 'too-short' }, 'invalid_request'],
      ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request'],
      ['implicit grant', { response_type: 'token' }, 'unsupported_response_type'],
      ['missing response_type', { response_type: undefined }, 'invalid_request'],
      ['unknown scope', { scope: 'read superuser' }, 'invalid_scope'],
    ];
    for (const [label, overrides, error] of cases) {
      it(`redirects ${label} as ${error}, with state and never a code`, async () => {
        const owner = await signUp(t);
        const client = await registerClient(t);
        const params = authorizeParams(client, overrides);
        const viaGet = await fetchManual(t, query(params), { headers: { cookie: cookie(owner.token) } });
        const viaPost = await postDecision({ ...params, decision: 'approve' }, { authorization: `Bearer ${owner.token}` });
        for (const res of [viaGet, viaPost]) {
          assert.equal(res.status, 302);
          const location = new URL(res.headers.get('location')!);
          assert.equal(`${location.origin}${location.pathname}`, client.redirectUri);
          assert.equal(location.searchParams.get('error'), error);
          assert.ok(location.searchParams.get('error_description'));
          assert.equal(location.searchParams.get('state'), 'state-123');
          assert.equal(location.searchParams.get('code'), null);
        }
      });
    }

    it('redirects any other parameter sent twice as invalid_request, never with a code (RFC 6749 §3.1)', async () => {
      const owner = await signUp(t);
      const client = await registerClient(t);
      const repeats: Array<[string, string]> = [
        ['scope', 'admin'],
        ['response_type', 'code'],
        ['code_challenge', pkcePair().challenge],
        ['code_challenge_method', 'S256'],
      ];
      for (const [name, value] of repeats) {
        const repeated = `${new URLSearchParams(authorizeParams(client, { scope: 'read' }))}&${name}=${encodeURIComponent(value)}`;
        const viaGet = await fetchManual(t, `/oauth/authorize?${repeated}`, { headers: { cookie: cookie(owner.token), accept: BROWSER_ACCEPT } });
        const viaPost = await fetchManual(t, '/oauth/authorize', {
          method: 'POST',
          headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: `${repeated}&decision=approve`,
        });
        for (const res of [viaGet, viaPost]) {
          assert.equal(res.status, 302, `${name}: ${await res.text()}`);
          const location = new URL(res.headers.get('location')!);
          assert.equal(`${location.origin}${location.pathname}`, client.redirectUri);
          assert.equal(location.searchParams.get('error'), 'invalid_request', name);
          assert.equal(location.searchParams.get('error_description'), `parameter '${name}' must be sent once`);
          assert.equal(location.searchParams.get('state'), 'state-123');
          assert.equal(location.searchParams.get('code'), null);
        }
      }
      // The decision too, even when both values agree.
      const twice = await postDecision({ ...authorizeParams(client), decision: 'approve' }, { authorization: `Bearer ${owner.token}` });
      assert.ok(new URL(twice.headers.get('location')!).searchParams.get('code'));
      const res = await fetchManual(t, '/oauth/authorize', {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: `${new URLSearchParams(authorizeParams(client))}&decision=approve&decision=approve`,
      });
      assert.equal(res.status, 302);
      const location = new URL(res.headers.get('location')!);
      assert.equal(location.searchParams.get('error'), 'invalid_request');
      assert.equal(location.searchParams.get('code'), null);
    });

    it('redirects a repeated state as invalid_request without echoing either value', async () => {
      const owner = await signUp(t);
      const client = await registerClient(t);
      const res = await fetchManual(t, `${query(authorizeParams(client, { state: 's' }))}&state=t`, { headers: { cookie: cookie(owner.token) } });
      assert.equal(res.status, 302, await res.text());
      const location = new URL(res.headers.get('location')!);
      assert.equal(`${location.origin}${location.pathname}`, client.redirectUri);
      assert.equal(location.searchParams.get('error'), 'invalid_request');
      assert.equal(location.searchParams.get('error_description'), "parameter 'state' must be sent once");
      assert.equal(location.searchParams.get('iss'), t.runtime.config.publicUrl);
      assert.equal(location.searchParams.get('state'), null);
      assert.equal(location.searchParams.get('code'), null);
    });

    it('accepts a code_challenge without its method as S256', async () => {
      const owner = await signUp(t);
      const client = await registerClient(t);
      const res = await postDecision({ ...authorizeParams(client, { code_challenge_method: undefined }), decision: 'approve' }, { authorization: `Bearer ${owner.token}` });
      assert.equal(res.status, 302);
      assert.ok(new URL(res.headers.get('location')!).searchParams.get('code'));
    });

    it('keeps the query a registered redirect URI already has', async () => {
      const owner = await signUp(t);
      const client = await registerClient(t, { redirectUri: 'https://client.example/cb?tenant=7' });
      const code = await approveWithBearer(t, owner.token, client, { challenge: pkcePair().challenge });
      assert.ok(code);
      const denied = await postDecision({ ...authorizeParams(client), decision: 'deny' }, { authorization: `Bearer ${owner.token}` });
      const location = new URL(denied.headers.get('location')!);
      assert.equal(location.searchParams.get('tenant'), '7');
      assert.equal(location.searchParams.get('error'), 'access_denied');
    });
  });

  describe('the decision', () => {
    it('approves from the consent form with the cookie, its CSRF token and this origin', async () => {
      const owner = await signUp(t);
      const client = await registerClient(t);
      const params = authorizeParams(client, { scope: 'read write' });
      const { csrf } = await consentPage(owner.token, params);
      const res = await postDecision({ ...params, csrf_token: csrf, decision: 'approve' }, { cookie: cookie(owner.token), origin: t.url });
      assert.equal(res.status, 302);
      const location = new URL(res.headers.get('location')!);
      assert.ok(location.searchParams.get('code'));
      assert.equal(location.searchParams.get('state'), 'state-123');
      assert.equal(location.searchParams.get('iss'), t.runtime.config.publicUrl);
    });

    it('answers a denial with access_denied and the state, never a code', async () => {
      const owner = await signUp(t);
      const client = await registerClient(t);
      const params = authorizeParams(client);
      const { csrf } = await consentPage(owner.token, params);
      const res = await postDecision({ ...params, csrf_token: csrf, decision: 'deny' }, { cookie: cookie(owner.token), origin: t.url });
      assert.equal(res.status, 302);
      const location = new URL(res.headers.get('location')!);
      assert.equal(location.searchParams.get('error'), 'access_denied');
      assert.equal(location.searchParams.get('state'), 'state-123');
      assert.equal(location.searchParams.get('code'), null);
    });

    it('refuses a cookie post without the CSRF token, with another session’s, or from another origin', async () => {
      const owner = await signUp(t);
      const other = await signUp(t);
      const client = await registerClient(t);
      const params = authorizeParams(client);
      const { csrf } = await consentPage(owner.token, params);
      const { csrf: othersCsrf } = await consentPage(other.token, params);
      const attempts: Array<[string, Record<string, string>, Record<string, string>]> = [
        ['no CSRF token', {}, { origin: t.url }],
        ['an empty CSRF token', { csrf_token: '' }, { origin: t.url }],
        ['a wrong CSRF token', { csrf_token: csrf.slice(0, -2) + 'xx' }, { origin: t.url }],
        ['another session’s CSRF token', { csrf_token: othersCsrf }, { origin: t.url }],
        ['another origin', { csrf_token: csrf }, { origin: 'https://attacker.example' }],
        ['no origin at all', { csrf_token: csrf }, {}],
      ];
      for (const [label, extra, headers] of attempts) {
        const res = await postDecision({ ...params, ...extra, decision: 'approve' }, { cookie: cookie(owner.token), accept: BROWSER_ACCEPT, ...headers });
        assert.equal(res.status, 403, label);
        assert.equal(res.headers.get('location'), null, label);
        assert.match(res.headers.get('content-type') ?? '', /^text\/html/, label);
      }
      const json = await postDecision({ ...params, decision: 'approve' }, { cookie: cookie(owner.token), origin: t.url });
      assert.equal(json.status, 403);
      const body = await json.json();
      assert.equal(body.error, 'access_denied');
      assert.match(body.detail, /CSRF/);
    });

    it('needs a dashboard session to decide', async () => {
      const client = await registerClient(t);
      const res = await postDecision({ ...authorizeParams(client), decision: 'approve' }, {});
      assert.equal(res.status, 401);
      assert.equal(res.headers.get('location'), null);
      const body = await res.json();
      assert.deepEqual(Object.keys(body).sort(), ['detail', 'error', 'error_description']);
    });

    it('redirects a missing or unknown decision as invalid_request', async () => {
      const owner = await signUp(t);
      const client = await registerClient(t);
      for (const decision of [undefined, 'maybe']) {
        const res = await postDecision({ ...authorizeParams(client), ...(decision && { decision }) }, { authorization: `Bearer ${owner.token}` });
        assert.equal(res.status, 302);
        const location = new URL(res.headers.get('location')!);
        assert.equal(location.searchParams.get('error'), 'invalid_request');
        assert.equal(location.searchParams.get('code'), null);
      }
    });

    it('lets only owners and admins authorize, since a token acts for the whole account', async () => {
      const owner = await signUp(t);
      const agent = await inviteMember(t, owner, 'agent');
      const admin = await inviteMember(t, owner, 'admin');
      const client = await registerClient(t);
      const params = authorizeParams(client);
      const page = await fetchManual(t, query(params), { headers: { cookie: cookie(agent.token) } });
      assert.equal(page.status, 302);
      assert.equal(new URL(page.headers.get('location')!).searchParams.get('error'), 'access_denied');
      const post = await postDecision({ ...params, decision: 'approve' }, { authorization: `Bearer ${agent.token}` });
      assert.equal(new URL(post.headers.get('location')!).searchParams.get('error'), 'access_denied');
      assert.ok(await approveWithBearer(t, admin.token, client, { challenge: pkcePair().challenge }));
    });
  });
});
