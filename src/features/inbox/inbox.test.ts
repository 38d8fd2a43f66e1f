import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, usingRedis, type TestApp } from '../../testing/test-app.ts';
import { createBot, createKey, signUp, uniqueEmail, type Owner, inviteMember } from '../../testing/factories.ts';
import { readEventStream, type ReceivedEvent, type StreamResponse } from '../../testing/event-stream.ts';
import { listEvents } from '../events/events.repository.ts';
import { PAUSED_MESSAGE } from '../chat/chat.service.ts';

const KNOWLEDGE = 'The Leipzig showroom is open Monday to Saturday from 10:00 to 19:00.';
const SESSION_NOT_FOUND = 'Session not found or belongs to a different bot';

async function inboxBot(t: TestApp, owner?: Owner) {
  owner ??= await signUp(t);
  const bot = await createBot(t, owner);
  const key = await createKey(t, owner, bot.id, { scopes: ['chat', 'read', 'write'] });
  const added = await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'text', name: 'Showroom', content: KNOWLEDGE } });
  assert.equal(added.status, 200, added.text);
  const inbox = `/api/dashboard/bots/${bot.id}/inbox`;
  return { owner, bot, key, inbox };
}

/** A visitor's streamed message through the widget. */
function say(t: TestApp, botId: string, sessionId: string, extra: Record<string, unknown> = {}) {
  return readEventStream(t, '/api/widget/chat/stream', { token: botId, body: { text: 'When is the showroom open?', session_id: sessionId, ...extra } });
}

const names = (res: StreamResponse) => res.events.map((e) => e.event);
const answered = (res: StreamResponse) => names(res).includes('token') && names(res).at(-1) === 'done';


/**
 * Opens a live stream and resolves `ready` once it demonstrably receives activity: `probe` (a
 * release, which publishes a status) is repeated until a status event arrives, so the test never
 * posts before the stream's subscription (a Redis SUBSCRIBE on another instance) is in place.
 */
function openLiveStream(t: TestApp, path: string, token: string, until: (e: ReceivedEvent) => boolean) {
  let heard = false;
  const done = readEventStream(t, path, {
    method: 'GET',
    token,
    onEvent: (e) => {
      if (e.event === 'status') heard = true;
      return until(e);
    },
  });
  const ready = async (probe: () => Promise<unknown>) => {
    for (let i = 0; !heard; i++) {
      assert.ok(i < 100, 'the live stream never received the probe');
      await probe();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { done, ready };
}

describe('operators’ inbox', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('lists sessions, most recent activity first, with visitor, metadata and the last message; filters and pages', async () => {
    const { owner, bot, inbox } = await inboxBot(t);
    assert.ok(answered(await say(t, bot.id, 'older', { visitor_id: 'visitor-1', visitor_timezone: 'Europe/Berlin', metadata: { page: '/pricing', plan: 'pro' } })));
    t.clock.advance(1000);
    assert.ok(answered(await say(t, bot.id, 'newer', { visitor_id: 'visitor-2' })));

    const list = await t.request('GET', inbox, { token: owner.token });
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.total, 2);
    assert.deepEqual(list.body.sessions.map((s: { session_id: string }) => s.session_id), ['newer', 'older']);
    const older = list.body.sessions[1];
    assert.equal(older.visitor_id, 'visitor-1');
    assert.equal(older.visitor_timezone, 'Europe/Berlin');
    assert.deepEqual(older.metadata, { page: '/pricing', plan: 'pro' });
    assert.equal(list.body.sessions[0].metadata, null);
    assert.equal(older.status, 'active');
    assert.equal(older.taken_over, false);
    assert.equal(older.message_count, 2);
    assert.equal(older.ended_at, null);
    assert.equal(older.last_message.role, 'assistant');
    assert.equal(older.last_message.author, 'bot');
    assert.match(older.last_message.content, /Monday to Saturday/);
    assert.ok(Date.parse(older.last_activity_at) < Date.parse(list.body.sessions[0].last_activity_at));

    const page = await t.request('GET', `${inbox}?limit=1&offset=1`, { token: owner.token });
    assert.deepEqual([page.body.sessions.map((s: { session_id: string }) => s.session_id), page.body.total, page.body.limit, page.body.offset], [['older'], 2, 1, 1]);
    for (const query of ['limit=0', 'limit=201', 'offset=-1', 'limit=abc', 'status=open']) {
      assert.equal((await t.request('GET', `${inbox}?${query}`, { token: owner.token })).status, 400, query);
    }

    assert.equal((await t.request('GET', `${inbox}?status=ended`, { token: owner.token })).body.total, 0);
    // Idle past the limit: ended, even before the sweeper has run.
    t.clock.advance(31 * 60_000);
    const ended = await t.request('GET', `${inbox}?status=ended`, { token: owner.token });
    assert.equal(ended.body.total, 2);
    assert.deepEqual(ended.body.sessions.map((s: { status: string }) => s.status), ['ended', 'ended']);
    assert.ok(ended.body.sessions[0].ended_at);
    assert.equal((await t.request('GET', `${inbox}?status=active`, { token: owner.token })).body.total, 0);
  });

  it('shows one session with all its messages oldest first; 404 for an unknown session or another bot’s', async () => {
    const { owner, bot, inbox } = await inboxBot(t);
    const other = await inboxBot(t, owner);
    await say(t, bot.id, 'detail-1', { visitor_id: 'v-9' });
    const res = await t.request('GET', `${inbox}/detail-1`, { token: owner.token });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.session_id, 'detail-1');
    assert.equal(res.body.visitor_id, 'v-9');
    assert.deepEqual(res.body.messages.map((m: { role: string; author: string }) => [m.role, m.author]), [['user', 'visitor'], ['assistant', 'bot']]);
    assert.deepEqual(Object.keys(res.body.messages[0]).sort(), ['author', 'content', 'created_at', 'feedback_rating', 'id', 'role']);
    assert.equal(res.body.last_message.content, res.body.messages[1].content);

    const unknown = await t.request('GET', `${inbox}/nobody`, { token: owner.token });
    assert.deepEqual([unknown.status, unknown.body.detail], [404, SESSION_NOT_FOUND]);
    const elsewhere = await t.request('GET', `${other.inbox}/detail-1`, { token: owner.token });
    assert.deepEqual([elsewhere.status, elsewhere.body.detail], [404, SESSION_NOT_FOUND]);
  });

  it('takes a session over: the visitor gets `paused` and no tokens, the message is stored, no AI answer; release answers again', async () => {
    const { owner, bot, inbox } = await inboxBot(t);
    await say(t, bot.id, 'held');
    await say(t, bot.id, 'free');
    const taken = await t.request('POST', `${inbox}/held/takeover`, { token: owner.token });
    assert.equal(taken.status, 200, taken.text);
    assert.equal(taken.body.taken_over, true);
    assert.equal(taken.body.session_id, 'held');

    const paused = await say(t, bot.id, 'held', { text: 'Can a human help me?' });
    assert.deepEqual(names(paused), ['paused']);
    assert.deepEqual(paused.events[0]!.data, { reason: 'human_takeover', message: PAUSED_MESSAGE, session_id: 'held' });
    const stored = await t.request('GET', `${inbox}/held`, { token: owner.token });
    assert.deepEqual(stored.body.messages.map((m: { author: string }) => m.author), ['visitor', 'bot', 'visitor']);
    assert.equal(stored.body.messages[2].content, 'Can a human help me?');
    assert.equal(stored.body.taken_over, true);
    assert.ok(answered(await say(t, bot.id, 'free')), 'only the taken session is held');

    const released = await t.request('POST', `${inbox}/held/release`, { token: owner.token });
    assert.equal(released.body.taken_over, false);
    assert.ok(answered(await say(t, bot.id, 'held')));
    const after = await t.request('GET', `${inbox}/held`, { token: owner.token });
    assert.deepEqual(after.body.messages.map((m: { author: string }) => m.author), ['visitor', 'bot', 'visitor', 'visitor', 'bot']);

    for (const action of ['takeover', 'release']) {
      const missing = await t.request('POST', `${inbox}/nobody/${action}`, { token: owner.token });
      assert.deepEqual([missing.status, missing.body.detail], [404, SESSION_NOT_FOUND]);
    }
  });

  it('pauses the whole bot for every session, new ones included, and resumes it', async () => {
    const { owner, bot } = await inboxBot(t);
    await say(t, bot.id, 'p-1');
    const paused = await t.request('POST', `/api/dashboard/bots/${bot.id}/pause`, { token: owner.token });
    assert.deepEqual([paused.status, paused.body], [200, { bot_id: bot.id, paused: true }]);
    assert.equal((await t.request('GET', `/api/dashboard/bots/${bot.id}`, { token: owner.token })).body.paused, true);
    assert.deepEqual(names(await say(t, bot.id, 'p-1')), ['paused']);
    assert.deepEqual(names(await say(t, bot.id, 'p-new')), ['paused']);
    // A message without a session id starts one even now, and the visitor is told which.
    const unnamed = await readEventStream(t, '/api/widget/chat/stream', { token: bot.id, body: { text: 'Is anyone there?' } });
    const started = unnamed.events[0]!.data.session_id;
    assert.equal(typeof started, 'string');
    const held = await t.request('GET', `/api/dashboard/bots/${bot.id}/inbox/${encodeURIComponent(started)}`, { token: owner.token });
    assert.deepEqual(held.body.messages.map((m: { content: string }) => m.content), ['Is anyone there?']);

    const resumed = await t.request('POST', `/api/dashboard/bots/${bot.id}/resume`, { token: owner.token });
    assert.deepEqual(resumed.body, { bot_id: bot.id, paused: false });
    assert.ok(answered(await say(t, bot.id, 'p-1')));
    assert.ok(answered(await say(t, bot.id, 'p-new')));
  });

  it('stores an operator reply (author operator, role assistant) and takes the session over', async () => {
    const { owner, bot, key, inbox } = await inboxBot(t);
    await say(t, bot.id, 'reply-1');
    const sent = await t.request('POST', `${inbox}/reply-1/messages`, { token: owner.token, body: { content: 'Hi, Sam here from support.' } });
    assert.equal(sent.status, 201, sent.text);
    assert.equal(sent.body.role, 'assistant');
    assert.equal(sent.body.author, 'operator');
    assert.equal(sent.body.content, 'Hi, Sam here from support.');

    const list = await t.request('GET', inbox, { token: owner.token });
    assert.deepEqual(list.body.sessions[0].last_message, { role: 'assistant', author: 'operator', content: 'Hi, Sam here from support.', created_at: sent.body.created_at });
    assert.equal(list.body.sessions[0].taken_over, true);
    assert.equal(list.body.sessions[0].message_count, 3);
    const api = await t.request('GET', '/api/v1/conversations/reply-1', { token: key.key });
    const last = api.body.messages.at(-1);
    assert.deepEqual(last, { id: sent.body.id, role: 'assistant', content: 'Hi, Sam here from support.', feedback_rating: null, created_at: sent.body.created_at });
    const events = await listEvents(t.runtime.database.db, bot.id);
    const assistantEvent = events.find((e) => e.event === 'message.assistant' && e.data.message_id === sent.body.id);
    assert.equal(assistantEvent?.data.author, 'operator');

    assert.deepEqual(names(await say(t, bot.id, 'reply-1')), ['paused'], 'the bot no longer answers');

    for (const body of [{}, { content: '' }, { content: '   ' }, { content: 'x'.repeat(4001) }]) {
      assert.equal((await t.request('POST', `${inbox}/reply-1/messages`, { token: owner.token, body })).status, 400, JSON.stringify(body).slice(0, 40));
    }
    const missing = await t.request('POST', `${inbox}/nobody/messages`, { token: owner.token, body: { content: 'hello' } });
    assert.deepEqual([missing.status, missing.body.detail], [404, SESSION_NOT_FOUND]);
  });

  it("delivers an operator reply to the visitor's live stream, after the takeover it implies", async () => {
    const { owner, bot, inbox } = await inboxBot(t);
    await say(t, bot.id, 'live-1');
    const live = openLiveStream(t, `/api/widget/sessions/live-1/events`, bot.id, (e) => e.event === 'message');
    await live.ready(() => t.request('POST', `${inbox}/live-1/release`, { token: owner.token }));
    const sent = await t.request('POST', `${inbox}/live-1/messages`, { token: owner.token, body: { content: 'A person is here now.' } });
    assert.equal(sent.status, 201);
    const stream = await live.done;
    assert.equal(stream.status, 200);
    const tail = stream.events.filter((e) => !(e.event === 'status' && e.data.taken_over === false));
    assert.deepEqual(tail, [
      { event: 'status', data: { taken_over: true } },
      { event: 'message', data: sent.body },
    ]);
  });

  it("tells the visitor's live stream when the whole bot is paused", async () => {
    const { owner, bot, inbox } = await inboxBot(t);
    await say(t, bot.id, 'live-2');
    const live = openLiveStream(t, `/api/widget/sessions/live-2/events`, bot.id, (e) => e.event === 'status' && e.data.taken_over === true);
    await live.ready(() => t.request('POST', `${inbox}/live-2/release`, { token: owner.token }));
    assert.equal((await t.request('POST', `/api/dashboard/bots/${bot.id}/pause`, { token: owner.token })).status, 200);
    assert.deepEqual((await live.done).events.at(-1), { event: 'status', data: { taken_over: true } });
  });

  it("streams the bot's activity to operators: replies, takeovers and pauses of every session", async () => {
    const { owner, bot, inbox } = await inboxBot(t);
    await say(t, bot.id, 'ops-1');
    await say(t, bot.id, 'ops-2');
    const live = openLiveStream(t, `/api/dashboard/bots/${bot.id}/inbox-events`, owner.token, (e) => e.event === 'status' && e.data.session_id === null);
    await live.ready(() => t.request('POST', `${inbox}/ops-1/release`, { token: owner.token }));
    await t.request('POST', `${inbox}/ops-2/takeover`, { token: owner.token });
    const sent = await t.request('POST', `${inbox}/ops-1/messages`, { token: owner.token, body: { content: 'On it.' } });
    await t.request('POST', `/api/dashboard/bots/${bot.id}/pause`, { token: owner.token });
    const events = (await live.done).events.filter((e) => !(e.event === 'status' && e.data.session_id === 'ops-1' && e.data.taken_over === false));
    assert.deepEqual(events, [
      { event: 'status', data: { session_id: 'ops-2', taken_over: true } },
      { event: 'status', data: { session_id: 'ops-1', taken_over: true } },
      { event: 'message', data: { session_id: 'ops-1', message: sent.body } },
      { event: 'status', data: { session_id: null, taken_over: true } },
    ]);
  });

  it("shows the visitor's messages and the bot's answers on the operators' stream as they are stored", async () => {
    const { owner, bot, inbox } = await inboxBot(t);
    await say(t, bot.id, 'watch-1');
    const live = openLiveStream(t, `/api/dashboard/bots/${bot.id}/inbox-events`, owner.token, (e) => e.event === 'message' && e.data.message.author === 'bot');
    await live.ready(() => t.request('POST', `${inbox}/watch-1/release`, { token: owner.token }));
    const answer = await say(t, bot.id, 'watch-1');
    assert.ok(answered(answer));
    const messages = (await live.done).events.filter((e) => e.event === 'message');
    assert.deepEqual(
      messages.map((e) => [e.data.session_id, e.data.message.role, e.data.message.author]),
      [
        ['watch-1', 'user', 'visitor'],
        ['watch-1', 'assistant', 'bot'],
      ],
    );
    assert.equal(messages[0]!.data.message.content, 'When is the showroom open?');
    const streamed = answer.events.filter((e) => e.event === 'token').map((e) => e.data.token).join('');
    assert.equal(messages[1]!.data.message.content, streamed);
  });

  it('lets an agent read, take over and reply, but only owners and admins delete', async () => {
    const { owner, bot, key, inbox } = await inboxBot(t);
    const agent = await inviteMember(t, owner, 'agent');
    const admin = await inviteMember(t, owner, 'admin');
    await say(t, bot.id, 'team-1');
    await say(t, bot.id, 'team-2');
    assert.equal((await t.request('GET', inbox, { token: agent.token })).body.total, 2);
    assert.equal((await t.request('GET', `${inbox}/team-1`, { token: agent.token })).status, 200);
    assert.equal((await t.request('POST', `${inbox}/team-1/takeover`, { token: agent.token })).status, 200);
    assert.equal((await t.request('POST', `${inbox}/team-1/messages`, { token: agent.token, body: { content: 'Hello' } })).status, 201);
    assert.equal((await t.request('POST', `/api/dashboard/bots/${bot.id}/pause`, { token: agent.token })).status, 200);
    assert.equal((await t.request('POST', `/api/dashboard/bots/${bot.id}/resume`, { token: agent.token })).status, 200);

    const refused = await t.request('DELETE', `${inbox}/team-1`, { token: agent.token });
    assert.equal(refused.status, 403);
    assert.equal((await t.request('GET', `${inbox}/team-1`, { token: owner.token })).status, 200, 'nothing was deleted');

    const deleted = await t.request('DELETE', `${inbox}/team-1`, { token: admin.token });
    assert.deepEqual([deleted.status, deleted.body], [200, { success: true, session_id: 'team-1' }]);
    assert.equal((await t.request('GET', `${inbox}/team-1`, { token: owner.token })).status, 404);
    assert.equal((await t.request('GET', '/api/v1/conversations/team-1', { token: key.key })).status, 404);
    assert.equal((await t.request('DELETE', `${inbox}/team-2`, { token: owner.token })).status, 200);
    assert.equal((await t.request('DELETE', `${inbox}/team-2`, { token: owner.token })).status, 404);
    assert.equal((await t.request('GET', inbox, { token: owner.token })).body.total, 0);
    // The id starts a fresh conversation.
    assert.ok(answered(await say(t, bot.id, 'team-1')));
    assert.equal((await t.request('GET', `${inbox}/team-1`, { token: owner.token })).body.message_count, 2);
  });

  it('refuses members without the Inbox tab, other accounts (404) and callers without a dashboard session', async () => {
    const { owner, bot, key, inbox } = await inboxBot(t);
    await say(t, bot.id, 'guarded');
    const noInbox = await inviteMember(t, owner, 'admin', ['knowledge', 'settings']);
    const stranger = await signUp(t);
    const calls: [string, string, unknown?][] = [
      ['GET', inbox],
      ['GET', `${inbox}/guarded`],
      ['POST', `${inbox}/guarded/takeover`],
      ['POST', `${inbox}/guarded/release`],
      ['POST', `${inbox}/guarded/messages`, { content: 'hi' }],
      ['DELETE', `${inbox}/guarded`],
      ['POST', `/api/dashboard/bots/${bot.id}/pause`],
      ['POST', `/api/dashboard/bots/${bot.id}/resume`],
    ];
    for (const [method, path, body] of calls) {
      assert.equal((await t.request(method, path, { token: noInbox.token, body })).status, 403, `${method} ${path} without the tab`);
      assert.equal((await t.request(method, path, { token: stranger.token, body })).status, 404, `${method} ${path} from another account`);
      assert.equal((await t.request(method, path, { token: key.key, body })).status, 401, `${method} ${path} with an API key`);
      assert.equal((await t.request(method, path, { body })).status, 401, `${method} ${path} anonymously`);
    }
    const events = `/api/dashboard/bots/${bot.id}/inbox-events`;
    assert.equal((await readEventStream(t, events, { method: 'GET', token: noInbox.token })).status, 403);
    assert.equal((await readEventStream(t, events, { method: 'GET', token: stranger.token })).status, 404);

    const intact = await t.request('GET', `${inbox}/guarded`, { token: owner.token });
    assert.deepEqual([intact.status, intact.body.taken_over, intact.body.message_count], [200, false, 2]);
    assert.equal((await t.request('GET', `/api/dashboard/bots/${bot.id}`, { token: owner.token })).body.paused, false);
  });
});

describe('operators’ inbox on shutdown', () => {
  it("closes operators' live streams so the instance can stop", { timeout: 10_000 }, async () => {
    const t = await startTestApp();
    const { owner, bot, inbox } = await inboxBot(t);
    await say(t, bot.id, 'closing');
    const live = openLiveStream(t, `/api/dashboard/bots/${bot.id}/inbox-events`, owner.token, () => false);
    await live.ready(() => t.request('POST', `${inbox}/closing/release`, { token: owner.token }));
    await t.close();
    assert.equal((await live.done).status, 200);
  });
});

describe('operators’ inbox across two instances (needs TEST_REDIS_URL)', { skip: !usingRedis && 'runs only with TEST_REDIS_URL: without Redis two instances share no bus' }, () => {
  let first: TestApp;
  let second: TestApp;
  before(async () => {
    first = await startTestApp();
    second = await startTestApp({ shareWith: first });
  });
  after(async () => {
    await second.close();
    await first.close();
  });

  it("with Redis: an operator reply on one instance reaches the visitor's stream on the other, and takeover holds on both", async () => {
    const { owner, bot, inbox } = await inboxBot(first);
    await say(second, bot.id, 'shared-1');
    const live = openLiveStream(second, `/api/widget/sessions/shared-1/events`, bot.id, (e) => e.event === 'message');
    await live.ready(() => first.request('POST', `${inbox}/shared-1/release`, { token: owner.token }));
    const sent = await first.request('POST', `${inbox}/shared-1/messages`, { token: owner.token, body: { content: 'Hello from the other instance.' } });
    assert.equal(sent.status, 201, sent.text);
    assert.deepEqual((await live.done).events.at(-1), { event: 'message', data: sent.body });

    assert.deepEqual(names(await say(second, bot.id, 'shared-1')), ['paused']);
    await first.request('POST', `${inbox}/shared-1/release`, { token: owner.token });
    assert.ok(answered(await say(second, bot.id, 'shared-1')));
  });

  it('with Redis: pausing the bot on one instance pauses it on the other (its cached bot is invalidated)', async () => {
    const { owner, bot } = await inboxBot(first);
    assert.ok(answered(await say(second, bot.id, 'shared-2')), 'the second instance has the bot cached');
    assert.equal((await first.request('POST', `/api/dashboard/bots/${bot.id}/pause`, { token: owner.token })).status, 200);
    // The invalidation crosses Redis asynchronously: allow it a moment, never the cache's 60 s.
    let res = await say(second, bot.id, 'shared-2');
    for (let i = 0; i < 50 && names(res)[0] !== 'paused'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      res = await say(second, bot.id, 'shared-2');
    }
    assert.deepEqual(names(res), ['paused']);
    await first.request('POST', `/api/dashboard/bots/${bot.id}/resume`, { token: owner.token });
    for (let i = 0; i < 50 && names(res)[0] === 'paused'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      res = await say(second, bot.id, 'shared-2');
    }
    assert.ok(answered(res));
  });
});
