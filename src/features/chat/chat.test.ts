import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { botWithKey, createBot, createKey, signUp } from '../../testing/factories.ts';
import { listEvents } from '../events/events.repository.ts';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../answers/providers/fake-openai-server.ts';

const SHIPPING = [
  '# Shipping',
  '',
  'Orders ship from our warehouse in Leipzig within 2 business days.',
  '',
  'Standard delivery to Germany costs 4.90 EUR and takes 3 to 5 days.',
  '',
  '# Returns',
  '',
  'You can return any bike within 30 days for a full refund, using the code RET-30.',
].join('\n');

async function chatBot(t: TestApp, botBody: Record<string, unknown> = {}) {
  const owner = await signUp(t);
  const bot = await createBot(t, owner, botBody);
  const key = await createKey(t, owner, bot.id, { scopes: ['chat', 'read', 'write'] });
  const added = await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'text', name: 'Shipping guide', content: SHIPPING } });
  assert.equal(added.status, 200, added.text);
  return { owner, bot, key, token: key.key };
}

describe('POST /api/v1/chat', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('answers from the knowledge, stores both messages with ids and times, and returns a new session id', async () => {
    const { token } = await chatBot(t);
    const res = await t.request('POST', '/api/v1/chat', { token, body: { text: 'How long do I have to return a bike?' } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['reply', 'session_id']);
    assert.match(res.body.reply, /30 days for a full refund, using the code RET-30/);
    assert.match(res.body.session_id, /^[0-9a-f-]{36}$/);

    const conversation = await t.request('GET', `/api/v1/conversations/${res.body.session_id}`, { token });
    assert.equal(conversation.status, 200);
    assert.equal(conversation.body.session_id, res.body.session_id);
    const [user, assistant] = conversation.body.messages;
    assert.equal(conversation.body.messages.length, 2);
    assert.deepEqual([user.role, user.content], ['user', 'How long do I have to return a bike?']);
    assert.deepEqual([assistant.role, assistant.content], ['assistant', res.body.reply]);
    assert.deepEqual(Object.keys(assistant).sort(), ['content', 'created_at', 'feedback_rating', 'id', 'role']);
    assert.equal(assistant.feedback_rating, null);
    assert.notEqual(user.id, assistant.id);
    assert.ok(assistant.created_at >= user.created_at);

    // The session this message started counts both messages, and the next turn carries on in it.
    const { db } = t.runtime.database;
    const messageCount = async () =>
      (await db.selectFrom('chat_sessions').select('message_count').where('session_key', '=', res.body.session_id).executeTakeFirstOrThrow()).message_count;
    assert.equal(await messageCount(), 2);
    const next = await t.request('POST', '/api/v1/chat', { token, body: { text: 'What is the return code?', session_id: res.body.session_id } });
    assert.equal(next.status, 200);
    assert.equal(await messageCount(), 4);
    assert.equal((await t.request('GET', `/api/v1/conversations/${res.body.session_id}`, { token })).body.messages.length, 4);
  });

  it('keeps the history of a session: a follow-up is understood, and the session shows every turn in order', async () => {
    const { token } = await chatBot(t);
    const first = await t.request('POST', '/api/v1/chat', { token, body: { text: 'Where do orders ship from?', session_id: 'visitor-42/thread 1' } });
    assert.equal(first.status, 200);
    assert.equal(first.body.session_id, 'visitor-42/thread 1');
    assert.match(first.body.reply, /Leipzig/);
    const second = await t.request('POST', '/api/v1/chat', { token, body: { text: 'And how much does delivery cost?', session_id: 'visitor-42/thread 1' } });
    assert.match(second.body.reply, /4\.90 EUR/);

    const conversation = await t.request('GET', `/api/v1/conversations/${encodeURIComponent('visitor-42/thread 1')}`, { token });
    assert.deepEqual(
      conversation.body.messages.map((m: { role: string }) => m.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
    assert.equal(conversation.body.messages[2].content, 'And how much does delivery cost?');
  });

  it('strips control characters from the text and honours response_language', async () => {
    const { token } = await chatBot(t);
    const res = await t.request('POST', '/api/v1/chat', { token, body: { text: 'Wo\u0007 wird versendet?\u0000', response_language: 'de' } });
    assert.equal(res.status, 200);
    const conversation = await t.request('GET', `/api/v1/conversations/${res.body.session_id}`, { token });
    assert.equal(conversation.body.messages[0].content, 'Wo wird versendet?');
  });

  it('refuses bad input with a 400 that names the field, and stores nothing', async () => {
    const { token } = await chatBot(t);
    const cases: [unknown, RegExp][] = [
      [{}, /'text' is required/],
      [{ text: '' }, /'text'/],
      [{ text: '   \n ' }, /'text' must not be blank/],
      [{ text: '\u0000\u0001' }, /'text'/],
      [{ text: 'x'.repeat(4001) }, /'text'/],
      [{ text: 42 }, /'text'/],
      [{ text: 'hi', session_id: '' }, /'session_id'/],
      [{ text: 'hi', session_id: 's'.repeat(129) }, /'session_id'/],
      // Half a surrogate pair would be stored as U+FFFD: the session could not be read or deleted by its id.
      [{ text: 'hi', session_id: 'SU\ud800' }, /'session_id'/],
      [{ text: 'hi', session_id: '\udc00x' }, /'session_id'/],
      [{ text: 'hi', visitor_timezone: 'Mars/Olympus_Mons' }, /'visitor_timezone' must be an IANA time zone/],
      [{ text: 'hi', visitor_timezone: '+01:00' }, /'visitor_timezone'/],
      [{ text: 'hi', response_language: 'not a language' }, /'response_language'/],
    ];
    for (const [body, detail] of cases) {
      const res = await t.request('POST', '/api/v1/chat', { token, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(res.body.detail, detail, JSON.stringify(body));
    }
    const ok = await t.request('POST', '/api/v1/chat', { token, body: { text: 'x'.repeat(4000), visitor_timezone: 'America/Argentina/Buenos_Aires' } });
    assert.equal(ok.status, 200);
    const list = await t.request('GET', '/api/v1/conversations', { token });
    assert.equal(list.body.messages.length, 2);
    // A whole pair is one printable character: the session is named by it.
    const emoji = await t.request('POST', '/api/v1/chat', { token, body: { text: 'hi', session_id: 'visit-😀' } });
    assert.equal(emoji.status, 200, emoji.text);
    assert.equal((await t.request('GET', `/api/v1/conversations/${encodeURIComponent('visit-😀')}`, { token })).status, 200);
  });

  it('needs the chat scope, and a key of its own bot', async () => {
    const { owner, bot } = await chatBot(t);
    const readOnly = await createKey(t, owner, bot.id, { scopes: ['read'] });
    const refused = await t.request('POST', '/api/v1/chat', { token: readOnly.key, body: { text: 'hi' } });
    assert.equal(refused.status, 403);
    assert.match(refused.body.detail, /'chat' scope/);
    const admin = await createKey(t, owner, bot.id, { scopes: ['admin'] });
    assert.equal((await t.request('POST', '/api/v1/chat', { token: admin.key, body: { text: 'hi' } })).status, 200);
    assert.equal((await t.request('POST', '/api/v1/chat', { body: { text: 'hi' } })).status, 401);
  });

  it('counts each message in the key usage', async () => {
    const { token } = await chatBot(t);
    await t.request('POST', '/api/v1/chat', { token, body: { text: 'hi' } });
    await t.request('POST', '/api/v1/chat', { token, body: { text: 'Where do orders ship from?' } });
    const usage = await t.request('GET', '/api/v1/usage?days=1', { token });
    assert.equal(usage.body.totals.messages, 2);
  });

  it('records session.started, message.user and message.assistant in the outbox, in order', async () => {
    const { bot, token } = await chatBot(t);
    const res = await t.request('POST', '/api/v1/chat', { token, body: { text: 'Where do orders ship from?', session_id: 'events-1' } });
    const events = await listEvents(t.runtime.database.db, bot.id);
    assert.deepEqual(
      events.map((e) => e.event),
      ['session.started', 'message.user', 'message.assistant'],
    );
    assert.ok(events.every((e) => e.session_id === 'events-1' && e.bot_id === bot.id));
    const assistant = events[2]!.data;
    assert.equal(assistant.content, res.body.reply);
    assert.equal(assistant.role, 'assistant');
    assert.equal(typeof assistant.message_id, 'string');
    assert.ok(Number.isInteger(assistant.latency_ms) && (assistant.latency_ms as number) >= 0);
    assert.equal(events[1]!.data.content, 'Where do orders ship from?');
  });
});

describe('the monthly message quota', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('counts user messages across the account\'s bots, refuses with 429 when used up, and resets with the month (UTC)', async () => {
    t.clock.set(Date.UTC(2026, 10, 30, 23, 0, 0));
    const owner = await signUp(t);
    const botA = await createBot(t, owner, { monthly_message_quota: 3 });
    const botB = await createBot(t, owner, { monthly_message_quota: 3 });
    const keyA = await createKey(t, owner, botA.id);
    const keyB = await createKey(t, owner, botB.id);
    for (const token of [keyA.key, keyB.key, keyA.key]) {
      assert.equal((await t.request('POST', '/api/v1/chat', { token, body: { text: 'hello' } })).status, 200);
    }
    const refused = await t.request('POST', '/api/v1/chat', { token: keyB.key, body: { text: 'hello again', session_id: 'over-quota' } });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.detail, 'Monthly message quota exceeded');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    // Nothing was stored or generated for the refused message.
    assert.equal((await t.request('GET', '/api/v1/conversations/over-quota', { token: keyB.key })).status, 404);

    // The stream answers with an error event instead.
    const stream = await fetch(`${t.url}/api/widget/chat/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${botA.id}` },
      body: JSON.stringify({ text: 'hello' }),
    });
    assert.equal(stream.status, 200);
    const text = await stream.text();
    assert.match(text, /event: error\ndata: \{"code":"quota_exceeded","message":"Monthly message quota exceeded"\}/);
    assert.doesNotMatch(text, /event: token/);

    // Another account is not affected.
    const other = await botWithKey(t);
    assert.equal((await t.request('POST', '/api/v1/chat', { token: other.key.key, body: { text: 'hello' } })).status, 200);

    t.clock.set(Date.UTC(2026, 11, 1, 0, 0, 1));
    assert.equal((await t.request('POST', '/api/v1/chat', { token: keyB.key, body: { text: 'new month' } })).status, 200);
  });

  it('refuses exactly the messages over the quota when they arrive together, and stores the others whole', async () => {
    // On SQLite these turns share one transaction (group commit): the refused ones must leave
    // nothing behind, and the accepted ones must keep all their writes.
    const owner = await signUp(t);
    const bot = await createBot(t, owner, { monthly_message_quota: 3 });
    const key = await createKey(t, owner, bot.id);
    const sessions = Array.from({ length: 7 }, (_, i) => `together-${i}`);
    const replies = await Promise.all(sessions.map((session_id) => t.request('POST', '/api/v1/chat', { token: key.key, body: { text: 'hello', session_id } })));
    assert.deepEqual(replies.map((r) => r.status).sort(), [200, 200, 200, 429, 429, 429, 429]);
    for (const [i, reply] of replies.entries()) {
      const stored = await t.request('GET', `/api/v1/conversations/${sessions[i]}`, { token: key.key });
      if (reply.status === 429) assert.equal(stored.status, 404, `${sessions[i]}: nothing stored for a refused message`);
      else assert.deepEqual(stored.body.messages.map((m: { role: string }) => m.role), ['user', 'assistant'], sessions[i]);
    }
    const events = await listEvents(t.runtime.database.db, bot.id);
    assert.equal(events.filter((e) => e.event === 'message.user').length, 3);
    assert.equal(events.filter((e) => e.event === 'session.started').length, 3);
  });

  it('a quota of 0 refuses every message', async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner, { monthly_message_quota: 0 });
    const key = await createKey(t, owner, bot.id);
    assert.equal((await t.request('POST', '/api/v1/chat', { token: key.key, body: { text: 'hello' } })).status, 429);
  });
});

describe('POST /api/v1/chat with a model provider', () => {
  let t: TestApp;
  let provider: FakeOpenAiServer;
  before(async () => {
    provider = await startFakeOpenAiServer();
    t = await startTestApp({ env: { OPENAI_BASE_URL: provider.baseUrl, PARLEY_PROVIDER_TIMEOUT_MS: '2000' } });
  });
  after(async () => {
    await t.close();
    await provider.close();
  });

  it("answers with the provider's text, sending the history and the passages", async () => {
    const { token } = await chatBot(t, { selected_model: 'gpt-4o-mini' });
    provider.behave({ kind: 'stream', chunks: ['Orders ship', ' from Leipzig.'] });
    const first = await t.request('POST', '/api/v1/chat', { token, body: { text: 'Where do orders ship from?' } });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.reply, 'Orders ship from Leipzig.');
    provider.behave({ kind: 'stream', chunks: ['It costs 4.90 EUR.'] });
    await t.request('POST', '/api/v1/chat', { token, body: { text: 'How much is delivery?', session_id: first.body.session_id } });
    const sent = provider.requests.at(-1)!.body;
    assert.equal(sent.model, 'gpt-4o-mini');
    assert.deepEqual(
      sent.messages.filter((m: { role: string }) => m.role !== 'system').map((m: { role: string; content: string }) => [m.role, m.content]),
      [
        ['user', 'Where do orders ship from?'],
        ['assistant', 'Orders ship from Leipzig.'],
        ['user', 'How much is delivery?'],
      ],
    );
    assert.match(sent.messages[0].content, /Shipping guide/);
  });

  it('answers 502 naming the provider problem when the provider fails; the user message stays, no answer is stored', async () => {
    const { token } = await chatBot(t, { selected_model: 'gpt-4o-mini' });
    provider.behave({ kind: 'status', status: 500, message: 'The model is overloaded' });
    const res = await t.request('POST', '/api/v1/chat', { token, body: { text: 'Where do orders ship from?', session_id: 'failing' } });
    assert.equal(res.status, 502);
    assert.match(res.body.detail, /overloaded/);
    const conversation = await t.request('GET', '/api/v1/conversations/failing', { token });
    assert.deepEqual(
      conversation.body.messages.map((m: { role: string; content: string }) => [m.role, m.content]),
      [['user', 'Where do orders ship from?']],
    );

    provider.behave({ kind: 'break', chunks: ['Orders ship'] });
    const broken = await t.request('POST', '/api/v1/chat', { token, body: { text: 'Again?', session_id: 'failing' } });
    assert.equal(broken.status, 502);
    const after = await t.request('GET', '/api/v1/conversations/failing', { token });
    assert.deepEqual(
      after.body.messages.map((m: { role: string }) => m.role),
      ['user', 'user'],
    );
  });
});
