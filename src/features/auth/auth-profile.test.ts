// The signed-in user's profile (`PATCH /api/auth/me`) and whether sign-up is open
// (`GET /api/auth/signup-status`), for the dashboard's profile page and first run.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { inviteMember, signUp } from '../../testing/factories.ts';

describe('profile', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(async () => t.close());

  it('renames the user', async () => {
    const owner = await signUp(t);
    const res = await t.request('PATCH', '/api/auth/me', { token: owner.token, body: { name: '  Ada King ' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.user.name, 'Ada King');
    assert.equal(res.body.role, 'owner');
    assert.equal((await t.request('GET', '/api/auth/me', { token: owner.token })).body.user.name, 'Ada King');
    assert.equal((await t.request('PATCH', '/api/auth/me', { token: owner.token, body: { name: '   ' } })).status, 400);
  });

  it('changes the password with the current one, ending the other sessions only', async () => {
    const owner = await signUp(t);
    const other = await t.request('POST', '/api/auth/login', { body: { email: owner.email, password: owner.password } });
    const newPassword = 'a much longer passphrase';

    const missing = await t.request('PATCH', '/api/auth/me', { token: owner.token, body: { new_password: newPassword } });
    assert.equal(missing.status, 400);
    assert.match(missing.body.detail, /current_password/);
    const wrong = await t.request('PATCH', '/api/auth/me', { token: owner.token, body: { current_password: 'not it at all', new_password: newPassword } });
    assert.equal(wrong.status, 403);
    const short = await t.request('PATCH', '/api/auth/me', { token: owner.token, body: { current_password: owner.password, new_password: 'short' } });
    assert.equal(short.status, 400);

    const ok = await t.request('PATCH', '/api/auth/me', { token: owner.token, body: { current_password: owner.password, new_password: newPassword } });
    assert.equal(ok.status, 200, ok.text);
    assert.equal((await t.request('GET', '/api/auth/me', { token: owner.token })).status, 200, 'this session stays');
    assert.equal((await t.request('GET', '/api/auth/me', { token: other.body.token })).status, 401, 'the other session ended');
    assert.equal((await t.request('POST', '/api/auth/login', { body: { email: owner.email, password: owner.password } })).status, 401);
    assert.equal((await t.request('POST', '/api/auth/login', { body: { email: owner.email, password: newPassword } })).status, 200);
  });

  it('lets every member change their own profile, and needs a session', async () => {
    const owner = await signUp(t);
    const agent = await inviteMember(t, owner, 'agent');
    assert.equal((await t.request('PATCH', '/api/auth/me', { token: agent.token, body: { name: 'Agent Smith' } })).body.user.name, 'Agent Smith');
    assert.equal((await t.request('PATCH', '/api/auth/me', { body: { name: 'x' } })).status, 401);
    const crossSite = await t.request('PATCH', '/api/auth/me', { headers: { cookie: `parley_session=${agent.token}`, origin: 'https://evil.example' }, body: { name: 'x' } });
    assert.equal(crossSite.status, 403);
  });
});

describe('sign-up status', () => {
  it('follows PARLEY_SIGNUP: first is open until the first user exists', async () => {
    const t = await startTestApp({ env: { PARLEY_SIGNUP: 'first' } });
    try {
      assert.deepEqual((await t.request('GET', '/api/auth/signup-status')).body, { signup_open: true, mode: 'first' });
      const owner = await signUp(t);
      assert.deepEqual((await t.request('GET', '/api/auth/signup-status')).body, { signup_open: false, mode: 'first' });
      // Invitations still work.
      await inviteMember(t, owner, 'agent');
    } finally {
      await t.close();
    }
  });

  it('is always open with open, and never with closed', async () => {
    for (const mode of ['open', 'closed'] as const) {
      const t = await startTestApp({ env: { PARLEY_SIGNUP: mode } });
      try {
        assert.deepEqual((await t.request('GET', '/api/auth/signup-status')).body, { signup_open: mode === 'open', mode });
      } finally {
        await t.close();
      }
    }
  });
});
