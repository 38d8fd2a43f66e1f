import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { createBot, signUp, uniqueEmail, inviteMember } from '../../testing/factories.ts';

describe('accounts and dashboard sessions', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { PARLEY_RATE_LOGIN_PER_MIN: '3', PARLEY_TRUST_PROXY: '127.0.0.1' } });
  });
  after(() => t.close());

  it('signs up an owner of a new account and opens a session', async () => {
    const email = uniqueEmail('Owner').toUpperCase();
    const res = await t.request('POST', '/api/auth/signup', { body: { email, password: 'long enough', name: 'Ada', account_name: 'Acme' } });
    assert.equal(res.status, 201);
    assert.match(res.body.token, /^parley_ds_/);
    assert.deepEqual(Object.keys(res.body).sort(), ['account', 'token', 'user']);
    assert.equal(res.body.user.email, email.toLowerCase());
    assert.equal(res.body.user.name, 'Ada');
    assert.equal(res.body.account.name, 'Acme');
    assert.equal(res.body.user.password_hash, undefined);
    const cookie = res.headers.get('set-cookie') ?? '';
    assert.match(cookie, /^parley_session=parley_ds_/);
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);

    const me = await t.request('GET', '/api/auth/me', { token: res.body.token });
    assert.equal(me.status, 200);
    assert.equal(me.body.role, 'owner');
    assert.deepEqual(me.body.tabs, ['inbox', 'knowledge', 'customizer', 'settings', 'voice_agent', 'team', 'billing', 'byok', 'webhooks']);
    assert.deepEqual(me.body.account, res.body.account);
  });

  it('refuses a short password, a bad email and a duplicate email', async () => {
    const short = await t.request('POST', '/api/auth/signup', { body: { email: uniqueEmail(), password: 'short' } });
    assert.equal(short.status, 400);
    assert.match(short.body.detail, /password/);
    const badEmail = await t.request('POST', '/api/auth/signup', { body: { email: 'not-an-email', password: 'long enough' } });
    assert.equal(badEmail.status, 400);
    assert.match(badEmail.body.detail, /email/);
    const owner = await signUp(t);
    const dup = await t.request('POST', '/api/auth/signup', { body: { email: owner.email, password: 'another one' } });
    assert.equal(dup.status, 409);
  });

  it('logs in, and a failed login does not reveal whether the email exists', async () => {
    const owner = await signUp(t);
    const ok = await t.request('POST', '/api/auth/login', { body: { email: owner.email.toUpperCase(), password: owner.password }, headers: { 'x-forwarded-for': '198.51.100.1' } });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.user.id, owner.userId);
    assert.equal(ok.body.account.id, owner.accountId);
    assert.match(ok.headers.get('set-cookie') ?? '', /parley_session=/);

    const headers = { 'x-forwarded-for': '198.51.100.2' };
    const wrongPassword = await t.request('POST', '/api/auth/login', { body: { email: owner.email, password: 'wrong password' }, headers });
    const unknownEmail = await t.request('POST', '/api/auth/login', { body: { email: uniqueEmail('nobody'), password: 'wrong password' }, headers });
    assert.equal(wrongPassword.status, 401);
    assert.equal(unknownEmail.status, 401);
    assert.deepEqual(wrongPassword.body, unknownEmail.body);
  });

  it('limits failed logins per client address, leaving other addresses alone', async () => {
    const owner = await signUp(t);
    const attacker = { 'x-forwarded-for': '203.0.113.50' };
    for (let i = 0; i < 3; i++) {
      const res = await t.request('POST', '/api/auth/login', { body: { email: owner.email, password: `guess ${i}` }, headers: attacker });
      assert.equal(res.status, 401);
    }
    const blocked = await t.request('POST', '/api/auth/login', { body: { email: owner.email, password: owner.password }, headers: attacker });
    assert.equal(blocked.status, 429);
    assert.equal(blocked.headers.get('retry-after'), '60');
    const elsewhere = await t.request('POST', '/api/auth/login', { body: { email: owner.email, password: owner.password }, headers: { 'x-forwarded-for': '203.0.113.51' } });
    assert.equal(elsewhere.status, 200);

    t.clock.advance(60_001);
    const later = await t.request('POST', '/api/auth/login', { body: { email: owner.email, password: owner.password }, headers: attacker });
    assert.equal(later.status, 200);
  });

  it('logs out: the token stops working and the cookie is cleared', async () => {
    const owner = await signUp(t);
    const out = await t.request('POST', '/api/auth/logout', { token: owner.token });
    assert.equal(out.status, 204);
    assert.match(out.headers.get('set-cookie') ?? '', /^parley_session=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970/);
    const me = await t.request('GET', '/api/auth/me', { token: owner.token });
    assert.equal(me.status, 401);
  });

  it('expires sessions', async () => {
    const owner = await signUp(t);
    t.clock.advance(15 * 86_400_000);
    assert.equal((await t.request('GET', '/api/auth/me', { token: owner.token })).status, 401);
  });

  it('accepts the session cookie, and guards cookie-authenticated writes against cross-site requests', async () => {
    const owner = await signUp(t);
    const cookie = { cookie: `parley_session=${owner.token}` };
    assert.equal((await t.request('GET', '/api/auth/me', { headers: cookie })).status, 200);

    const crossSite = await t.request('POST', '/api/dashboard/bots', { headers: { ...cookie, origin: 'https://evil.example' }, body: { name: 'x' } });
    assert.equal(crossSite.status, 403);
    const noOrigin = await t.request('POST', '/api/dashboard/bots', { headers: cookie, body: { name: 'x' } });
    assert.equal(noOrigin.status, 403);
    const sameSite = await t.request('POST', '/api/dashboard/bots', { headers: { ...cookie, origin: t.url }, body: { name: 'x' } });
    assert.equal(sameSite.status, 201);
  });

  describe('roles and tabs', () => {

    it('gives an admin every tab but Billing, BYOK and Webhooks, and an agent only the Inbox', async () => {
      const owner = await signUp(t);
      const admin = await inviteMember(t, owner, 'admin');
      assert.equal(admin.account.id, owner.accountId);
      const adminMe = await t.request('GET', '/api/auth/me', { token: admin.token });
      assert.equal(adminMe.body.role, 'admin');
      assert.deepEqual(adminMe.body.tabs, ['inbox', 'knowledge', 'customizer', 'settings', 'voice_agent', 'team']);

      const agent = await inviteMember(t, owner, 'agent');
      const agentMe = await t.request('GET', '/api/auth/me', { token: agent.token });
      assert.equal(agentMe.body.role, 'agent');
      assert.deepEqual(agentMe.body.tabs, ['inbox']);
    });

    it('lets members read the account’s bots, but only owners and admins create, change keys or delete', async () => {
      const owner = await signUp(t);
      const bot = await createBot(t, owner);
      const admin = await inviteMember(t, owner, 'admin');
      const agent = await inviteMember(t, owner, 'agent');

      assert.equal((await t.request('GET', `/api/dashboard/bots/${bot.id}`, { token: agent.token })).status, 200);
      assert.equal((await t.request('POST', '/api/dashboard/bots', { token: agent.token, body: { name: 'x' } })).status, 403);
      assert.equal((await t.request('PATCH', `/api/dashboard/bots/${bot.id}`, { token: agent.token, body: { name: 'x' } })).status, 403);
      assert.equal((await t.request('DELETE', `/api/dashboard/bots/${bot.id}`, { token: agent.token })).status, 403);
      assert.equal((await t.request('POST', '/api/keys', { token: agent.token, body: { bot_id: bot.id, name: 'k' } })).status, 403);

      assert.equal((await t.request('PATCH', `/api/dashboard/bots/${bot.id}`, { token: admin.token, body: { name: 'renamed' } })).status, 200);
      assert.equal((await t.request('POST', '/api/keys', { token: admin.token, body: { bot_id: bot.id, name: 'k' } })).status, 201);
    });

    it('lets the owner change and remove members; an admin cannot touch another admin', async () => {
      const owner = await signUp(t);
      const admin = await inviteMember(t, owner, 'admin');
      const otherAdmin = await inviteMember(t, owner, 'admin');
      const agent = await inviteMember(t, owner, 'agent');

      const members = await t.request('GET', '/api/dashboard/members', { token: admin.token });
      assert.equal(members.body.members.length, 4);

      assert.equal((await t.request('PATCH', `/api/dashboard/members/${otherAdmin.userId}`, { token: admin.token, body: { role: 'agent' } })).status, 403);
      const granted = await t.request('PATCH', `/api/dashboard/members/${agent.userId}`, { token: admin.token, body: { tabs: ['inbox', 'knowledge'] } });
      assert.deepEqual(granted.body.tabs, ['inbox', 'knowledge']);
      const promoted = await t.request('PATCH', `/api/dashboard/members/${agent.userId}`, { token: owner.token, body: { role: 'admin' } });
      assert.equal(promoted.body.role, 'admin');
      assert.equal((await t.request('PATCH', `/api/dashboard/members/${owner.userId}`, { token: owner.token, body: { role: 'agent' } })).status, 403);

      const email = (await t.request('GET', '/api/auth/me', { token: otherAdmin.token })).body.user.email as string;
      assert.equal((await t.request('DELETE', `/api/dashboard/members/${otherAdmin.userId}`, { token: owner.token })).status, 200);
      assert.equal((await t.request('GET', '/api/auth/me', { token: otherAdmin.token })).status, 401);
      assert.equal((await t.request('POST', '/api/auth/login', { body: { email, password: 'member password' } })).status, 401);

      // A removed member belongs to no account: invited again, they join as the same user, with a new password.
      const invite = await t.request('POST', '/api/dashboard/invitations', { token: owner.token, body: { email, role: 'agent' } });
      assert.equal(invite.status, 201, invite.text);
      const rejoined = await t.request('POST', '/api/auth/signup', { body: { email, password: 'a new password', invite_token: invite.body.token } });
      assert.equal(rejoined.status, 201, rejoined.text);
      assert.equal(rejoined.body.user.id, otherAdmin.userId);
      assert.equal((await t.request('POST', '/api/auth/login', { body: { email, password: 'member password' } })).status, 401);
      const back = await t.request('POST', '/api/auth/login', { body: { email, password: 'a new password' } });
      assert.equal(back.status, 200, back.text);
      assert.equal((await t.request('GET', '/api/auth/me', { token: back.body.token })).body.role, 'agent');
      // A member of an account still cannot sign up again.
      assert.equal((await t.request('POST', '/api/auth/signup', { body: { email, password: 'another password' } })).status, 409);
    });

    it('keeps admins from granting what they do not have, and agents out of the member list', async () => {
      const owner = await signUp(t);
      const admin = await inviteMember(t, owner, 'admin');
      const agent = await inviteMember(t, owner, 'agent');
      const asAdmin = (body: Record<string, unknown>) => t.request('POST', '/api/dashboard/invitations', { token: admin.token, body: { email: uniqueEmail(), ...body } });
      assert.equal((await asAdmin({ role: 'admin' })).status, 403);
      assert.equal((await asAdmin({ role: 'agent', tabs: ['inbox', 'billing'] })).status, 403);
      assert.equal((await asAdmin({ role: 'agent', tabs: ['inbox', 'knowledge'] })).status, 201);
      const escalate = await t.request('PATCH', `/api/dashboard/members/${agent.userId}`, { token: admin.token, body: { tabs: ['inbox', 'byok'] } });
      assert.equal(escalate.status, 403);
      assert.equal((await t.request('GET', '/api/dashboard/members', { token: agent.token })).status, 403);
      assert.equal((await t.request('POST', '/api/dashboard/invitations', { token: agent.token, body: { email: uniqueEmail(), role: 'agent' } })).status, 403);
    });

    it('refuses an invitation token used twice or for another email', async () => {
      const owner = await signUp(t);
      const email = uniqueEmail('invitee');
      const inv = await t.request('POST', '/api/dashboard/invitations', { token: owner.token, body: { email, role: 'agent' } });
      const wrongEmail = await t.request('POST', '/api/auth/signup', { body: { email: uniqueEmail(), password: 'password 1', invite_token: inv.body.token } });
      assert.equal(wrongEmail.status, 400);
      assert.match(wrongEmail.body.detail, /invite_token/);
      assert.equal((await t.request('POST', '/api/auth/signup', { body: { email, password: 'password 1', invite_token: inv.body.token } })).status, 201);
      const again = await t.request('POST', '/api/auth/signup', { body: { email: uniqueEmail(), password: 'password 1', invite_token: inv.body.token } });
      assert.equal(again.status, 400);
    });
  });
});

describe('PARLEY_SIGNUP modes', () => {
  it('first: only the first user may sign up; invitations still work', async () => {
    const t = await startTestApp({ env: { PARLEY_SIGNUP: 'first' } });
    try {
      const first = await signUp(t);
      const second = await t.request('POST', '/api/auth/signup', { body: { email: uniqueEmail(), password: 'long enough' } });
      assert.equal(second.status, 403);
      assert.match(second.body.detail, /invitation/);
      assert.equal(typeof second.body.detail, 'string');
      const email = uniqueEmail();
      const inv = await t.request('POST', '/api/dashboard/invitations', { token: first.token, body: { email, role: 'agent' } });
      assert.equal((await t.request('POST', '/api/auth/signup', { body: { email, password: 'long enough', invite_token: inv.body.token } })).status, 201);
    } finally {
      await t.close();
    }
  });

  it('first: of simultaneous first sign-ups, exactly one wins', async () => {
    const t = await startTestApp({ env: { PARLEY_SIGNUP: 'first' } });
    try {
      const attempts = await Promise.all(
        Array.from({ length: 4 }, () => t.request('POST', '/api/auth/signup', { body: { email: uniqueEmail(), password: 'long enough' } })),
      );
      assert.deepEqual(attempts.map((r) => r.status).sort(), [201, 403, 403, 403]);
    } finally {
      await t.close();
    }
  });

  it('closed: nobody may sign up', async () => {
    const t = await startTestApp({ env: { PARLEY_SIGNUP: 'closed' } });
    try {
      const res = await t.request('POST', '/api/auth/signup', { body: { email: uniqueEmail(), password: 'long enough' } });
      assert.equal(res.status, 403);
    } finally {
      await t.close();
    }
  });

  it('open: anyone may sign up, each into an account of their own', async () => {
    const t = await startTestApp({ env: { PARLEY_SIGNUP: 'open' } });
    try {
      const a = await signUp(t);
      const b = await signUp(t);
      assert.notEqual(a.accountId, b.accountId);
    } finally {
      await t.close();
    }
  });
});
