/** Small factories: each test makes its own account, bot and keys through the real API. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { TestApp } from './test-app.ts';

export interface Owner {
  token: string;
  userId: string;
  accountId: string;
  email: string;
  password: string;
}

export function uniqueEmail(tag = 'user'): string {
  return `${tag}-${randomBytes(5).toString('hex')}@example.com`;
}

export async function signUp(t: TestApp, body: Record<string, unknown> = {}): Promise<Owner> {
  const email = (body.email as string) ?? uniqueEmail();
  const password = (body.password as string) ?? 'correct horse battery';
  const res = await t.request('POST', '/api/auth/signup', { body: { email, password, ...body } });
  assert.equal(res.status, 201, res.text);
  return { token: res.body.token, userId: res.body.user.id, accountId: res.body.account.id, email, password };
}

export async function createBot(t: TestApp, owner: Owner, body: Record<string, unknown> = {}) {
  const res = await t.request('POST', '/api/dashboard/bots', { token: owner.token, body: { name: 'Support bot', ...body } });
  assert.equal(res.status, 201, res.text);
  return res.body as { id: string; [field: string]: unknown };
}

export async function createKey(t: TestApp, owner: Owner, botId: string, body: Record<string, unknown> = {}) {
  const res = await t.request('POST', '/api/keys', { token: owner.token, body: { bot_id: botId, name: 'test key', ...body } });
  assert.equal(res.status, 201, res.text);
  return res.body as { id: string; key: string; prefix: string; scopes: string[]; allowed_ips: string[] };
}

/** An owner with one bot and one key with the given scopes. */
/** A new owner and a bot of theirs (without a key). */
export async function ownerWithBot(t: TestApp): Promise<{ owner: Owner; botId: string }> {
  const owner = await signUp(t);
  return { owner, botId: (await createBot(t, owner)).id };
}

export async function botWithKey(t: TestApp, keyBody: Record<string, unknown> = {}) {
  const owner = await signUp(t);
  const bot = await createBot(t, owner);
  const key = await createKey(t, owner, bot.id, keyBody);
  return { owner, bot, key };
}

/** A member invited by `owner` with `role` (and optional tabs), signed up: their session token and ids. */
export async function inviteMember(t: TestApp, owner: { token: string }, role: 'admin' | 'agent', tabs?: string[]) {
  const email = uniqueEmail(role);
  const res = await t.request('POST', '/api/dashboard/invitations', { token: owner.token, body: { email, role, ...(tabs && { tabs }) } });
  assert.equal(res.status, 201, res.text);
  const joined = await t.request('POST', '/api/auth/signup', { body: { email, password: 'member password', invite_token: res.body.token } });
  assert.equal(joined.status, 201, joined.text);
  return { token: joined.body.token as string, userId: joined.body.user.id as string, account: joined.body.account as { id: string; name: string } };
}
