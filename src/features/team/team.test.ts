import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { inviteMember, signUp, uniqueEmail, type Owner } from '../../testing/factories.ts';

describe('pending invitations', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  async function invite(by: { token: string }, body: Record<string, unknown>) {
    const res = await t.request('POST', '/api/dashboard/invitations', { token: by.token, body: { email: uniqueEmail('invitee'), role: 'agent', ...body } });
    assert.equal(res.status, 201, res.text);
    return res.body as { id: string; email: string; token: string; expires_at: string };
  }
  const pending = async (by: { token: string }) => {
    const res = await t.request('GET', '/api/dashboard/invitations', { token: by.token });
    assert.equal(res.status, 200, res.text);
    return res.body.invitations as Array<Record<string, unknown>>;
  };
  const join = (email: string, token: string) => t.request('POST', '/api/auth/signup', { body: { email, password: 'member password', invite_token: token } });

  it('lists the pending invitations with their role, tabs and expiry, never their token', async () => {
    const owner = await signUp(t);
    const agent = await invite(owner, { tabs: ['inbox', 'knowledge'] });
    const admin = await invite(owner, { role: 'admin' });
    const res = await t.request('GET', '/api/dashboard/invitations', { token: owner.token });
    assert.equal(res.status, 200);
    const byEmail = new Map((res.body.invitations as Array<{ email: string; tabs: string[] }>).map((i) => [i.email, i]));
    assert.equal(byEmail.size, 2);
    assert.deepEqual(byEmail.get(agent.email), {
      id: agent.id,
      email: agent.email,
      role: 'agent',
      tabs: ['inbox', 'knowledge'],
      created_at: new Date(t.clock.now()).toISOString(),
      expires_at: agent.expires_at,
    });
    assert.deepEqual(byEmail.get(admin.email)?.tabs, ['inbox', 'knowledge', 'customizer', 'settings', 'voice_agent', 'team']);
    assert.ok(!res.text.includes(agent.token) && !res.text.includes(admin.token), 'no token');
    assert.ok(!res.text.includes('token'), 'not even its hash');
    // Another account's invitations stay out.
    assert.deepEqual(await pending(await signUp(t)), []);
  });

  it('drops an invitation from the list once it is accepted or has expired', async () => {
    const clock = t.clock.now();
    try {
      const owner = await signUp(t);
      const accepted = await invite(owner, {});
      assert.equal((await join(accepted.email, accepted.token)).status, 201);
      const waiting = await invite(owner, {});
      assert.deepEqual((await pending(owner)).map((i) => i.id), [waiting.id]);
      t.clock.advance(7 * 86_400_000);
      assert.deepEqual(await pending(owner), [], 'expired after 7 days');
      assert.equal((await t.request('DELETE', `/api/dashboard/invitations/${waiting.id}`, { token: owner.token })).status, 404);
    } finally {
      t.clock.set(clock);
    }
  });

  it('revokes an invitation: its link stops working, and a second revocation answers 404', async () => {
    const owner = await signUp(t);
    const revoked = await invite(owner, {});
    const kept = await invite(owner, {});
    const res = await t.request('DELETE', `/api/dashboard/invitations/${revoked.id}`, { token: owner.token });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { success: true, id: revoked.id });
    assert.deepEqual((await pending(owner)).map((i) => i.id), [kept.id]);

    const refused = await join(revoked.email, revoked.token);
    assert.equal(refused.status, 400);
    assert.match(refused.body.detail, /invite_token/);
    assert.equal((await t.request('DELETE', `/api/dashboard/invitations/${revoked.id}`, { token: owner.token })).status, 404);
    assert.equal((await join(kept.email, kept.token)).status, 201, 'the other invitation still works');
    // Accepted, it is no longer an invitation to revoke: the member is removed as a member.
    assert.equal((await t.request('DELETE', `/api/dashboard/invitations/${kept.id}`, { token: owner.token })).status, 404);
  });

  it('is for owners and admins with the Team tab; only the owner revokes an invitation to be an admin', async () => {
    const owner = await signUp(t);
    const admin = await inviteMember(t, owner, 'admin');
    const agent = await inviteMember(t, owner, 'agent', ['inbox', 'team']);
    const adminWithoutTeam = await inviteMember(t, owner, 'admin', ['inbox', 'settings']);
    const forAdmin = await invite(owner, { role: 'admin' });
    const forAgent = await invite(admin, {});

    assert.equal((await pending(admin)).length, 2, 'an admin sees every pending invitation');
    for (const member of [agent, adminWithoutTeam]) {
      assert.equal((await t.request('GET', '/api/dashboard/invitations', { token: member.token })).status, 403);
      assert.equal((await t.request('DELETE', `/api/dashboard/invitations/${forAgent.id}`, { token: member.token })).status, 403);
    }
    const adminRevokesAdmin = await t.request('DELETE', `/api/dashboard/invitations/${forAdmin.id}`, { token: admin.token });
    assert.equal(adminRevokesAdmin.status, 403);
    assert.match(adminRevokesAdmin.body.detail, /owner/);
    assert.equal((await t.request('DELETE', `/api/dashboard/invitations/${forAgent.id}`, { token: admin.token })).status, 200);
    assert.equal((await t.request('DELETE', `/api/dashboard/invitations/${forAdmin.id}`, { token: owner.token })).status, 200);
  });

  it("answers 404 for another account's invitation, and 400 for an id that is not one", async () => {
    const owner = await signUp(t);
    const theirs = await invite(owner, {});
    const stranger: Owner = await signUp(t);
    assert.equal((await t.request('DELETE', `/api/dashboard/invitations/${theirs.id}`, { token: stranger.token })).status, 404);
    assert.equal((await join(theirs.email, theirs.token)).status, 201, 'untouched');
    const bad = await t.request('DELETE', '/api/dashboard/invitations/not-an-id', { token: owner.token });
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /'id'/);
    assert.equal((await t.request('GET', '/api/dashboard/invitations')).status, 401);
  });
});
