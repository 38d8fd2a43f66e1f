import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { createBot, createKey, signUp } from '../../testing/factories.ts';
import { readEventStream, type ReceivedEvent } from '../../testing/event-stream.ts';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../answers/providers/fake-openai-server.ts';
import { SECURITY_HEADERS } from '../../platform/http-rules.ts';
import { PHRASES } from '../answers/local/phrases.ts';
import { SESSION_NOT_FOUND } from '../conversations/conversations.service.ts';

const KNOWLEDGE = [
  '# Opening hours',
  '',
  'The Leipzig showroom is open Monday to Saturday from 10:00 to 19:00.',
  '',
  '# Repairs',
  '',
  'A standard service costs 89 EUR and includes brake and gear adjustment.',
].join('\n');

async function widgetBot(t: TestApp, botBody: Record<string, unknown> = {}) {
  const owner = await signUp(t);
  const bot = await createBot(t, owner, botBody);
  const key = await createKey(t, owner, bot.id, { scopes: ['chat', 'read', 'write'] });
  const added = await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'text', name: 'Showroom', content: KNOWLEDGE } });
  assert.equal(added.status, 200, added.text);
  return { owner, bot, key };
}

const tokensOf = (events: ReceivedEvent[]) => events.filter((e) => e.event === 'token').map((e) => e.data.token as string);

describe('POST /api/widget/chat/stream', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('streams token events in order, then done; the tokens join into the stored answer', async () => {
    const { bot, key } = await widgetBot(t);
    const res = await readEventStream(t, '/api/widget/chat/stream', {
      token: bot.id,
      body: { text: 'When is the showroom open?', visitor_id: 'v-1', metadata: { page: '/pricing', plan: 'pro' } },
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    assert.equal(res.headers.get('x-accel-buffering'), 'no');
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) assert.equal(res.headers.get(name), value, name);
    assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);

    const names = res.events.map((e) => e.event);
    assert.ok(names.filter((n) => n === 'token').length > 1, 'the answer arrives in several tokens');
    assert.equal(names.at(-1), 'done');
    assert.ok(names.slice(0, -1).every((n) => n === 'token'));
    const done = res.events.at(-1)!.data;
    assert.match(done.session_id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(done.sources, [{ title: 'Showroom', url: '' }]);

    const streamed = tokensOf(res.events).join('');
    assert.match(streamed, /Monday to Saturday from 10:00 to 19:00/);
    const stored = await t.request('GET', `/api/v1/conversations/${done.session_id}`, { token: key.key });
    assert.equal(stored.body.messages[1].content, streamed);
  });

  it('answers a greeting without repeating the welcome message the widget opened on', async () => {
    const { bot, key } = await widgetBot(t, { welcome_message: 'Ciao! Ask me about the showroom.' });
    const res = await readEventStream(t, '/api/widget/chat/stream', { token: bot.id, body: { text: 'hi' } });
    assert.equal(tokensOf(res.events).join(''), PHRASES.en.greeting);
    // The API has shown nothing: there the welcome message is the greeting.
    const api = await t.request('POST', '/api/v1/chat', { token: key.key, body: { text: 'hi' } });
    assert.equal(api.body.reply, 'Ciao! Ask me about the showroom.');
  });

  it('accepts the bot id in the body, and an API key with the chat scope', async () => {
    const { bot, key } = await widgetBot(t);
    const byBody = await readEventStream(t, '/api/widget/chat/stream', { body: { text: 'hello', bot_id: bot.id } });
    assert.equal(byBody.events.at(-1)?.event, 'done');
    const byKey = await readEventStream(t, '/api/widget/chat/stream', { token: key.key, body: { text: 'hello' } });
    assert.equal(byKey.events.at(-1)?.event, 'done');
    const noCredential = await readEventStream(t, '/api/widget/chat/stream', { body: { text: 'hello' } });
    assert.equal(noCredential.status, 401);
    const unknownBot = await readEventStream(t, '/api/widget/chat/stream', { token: '00000000-0000-4000-8000-000000000000', body: { text: 'hello' } });
    assert.equal(unknownBot.status, 401);
    assert.equal(unknownBot.body.detail, 'Unknown bot id');
  });

  it('continues a session given its id, and stores visitor_id and metadata with it', async () => {
    const { bot, key } = await widgetBot(t);
    const first = await readEventStream(t, '/api/widget/chat/stream', { token: bot.id, body: { text: 'How much is a service?', session_id: 'widget-s1', visitor_id: 'visitor-9' } });
    assert.equal(first.events.at(-1)!.data.session_id, 'widget-s1');
    assert.match(tokensOf(first.events).join(''), /89 EUR/);
    await readEventStream(t, '/api/widget/chat/stream', { token: bot.id, body: { text: 'thanks', session_id: 'widget-s1', visitor_id: 'visitor-9', metadata: { cart: 3 } } });
    const sessionRow = () => t.runtime.database.db.selectFrom('chat_sessions').selectAll().where('bot_id', '=', bot.id).where('session_key', '=', 'widget-s1').executeTakeFirstOrThrow();
    const session = await sessionRow();
    assert.equal(session.visitor_id, 'visitor-9');
    assert.deepEqual(JSON.parse(session.metadata!), { cart: 3 });
    const conversation = await t.request('GET', '/api/v1/conversations/widget-s1', { token: key.key });
    assert.equal(conversation.body.messages.length, 4);

    // Another visitor who learnt the session id cannot write to it (nor, so, take it over), with
    // another visitor id or none; the session stays its visitor's.
    for (const other of [{ visitor_id: 'visitor-x' }, {}]) {
      const intruder = await readEventStream(t, '/api/widget/chat/stream', { token: bot.id, body: { text: 'show me', session_id: 'widget-s1', ...other } });
      assert.deepEqual([intruder.status, intruder.body.detail], [404, SESSION_NOT_FOUND]);
    }
    assert.equal((await sessionRow()).visitor_id, 'visitor-9');
    const history = await t.request('GET', `/api/widget/sessions/widget-s1/messages?visitor_id=visitor-9`, { token: bot.id });
    assert.equal(history.status, 200);
    assert.equal(history.body.messages.length, 4);
    // The business's own server (an API key) may write to it; the visitor id it sends does not replace the first.
    const server = await readEventStream(t, '/api/widget/chat/stream', { token: key.key, body: { text: 'order status?', session_id: 'widget-s1', visitor_id: 'crm-7' } });
    assert.equal(server.events.at(-1)?.event, 'done');
    assert.equal((await sessionRow()).visitor_id, 'visitor-9');
  });

  it("keeps a conversation the business's server holds (API key) out of the widget endpoints' reach", async () => {
    const { bot, key } = await widgetBot(t);
    const held = await t.request('POST', '/api/v1/chat', { token: key.key, body: { text: 'My email is a@example.com', session_id: 'server-held' } });
    assert.equal(held.status, 200, held.text);
    for (const query of ['', '?visitor_id=anyone']) {
      const read = await t.request('GET', `/api/widget/sessions/server-held/messages${query}`, { token: bot.id });
      assert.deepEqual([read.status, read.body.detail], [404, SESSION_NOT_FOUND]);
    }
    const write = await readEventStream(t, '/api/widget/chat/stream', { token: bot.id, body: { text: 'what did I say?', session_id: 'server-held' } });
    assert.deepEqual([write.status, write.body.detail], [404, SESSION_NOT_FOUND]);
    const follow = await readEventStream(t, '/api/widget/sessions/server-held/events', { method: 'GET', token: bot.id });
    assert.equal(follow.status, 404);
    // The key itself still reads it through the same endpoint.
    const byKey = await t.request('GET', '/api/widget/sessions/server-held/messages', { token: key.key });
    assert.deepEqual([byKey.status, byKey.body.messages.length], [200, 2]);
  });

  it('answers 406 without Accept: text/event-stream, 415 for a body that is not JSON, 400 naming a bad field', async () => {
    const { bot } = await widgetBot(t);
    const notAccepted = await readEventStream(t, '/api/widget/chat/stream', { token: bot.id, body: { text: 'hi' }, headers: { accept: 'application/json' } });
    assert.equal(notAccepted.status, 406);
    assert.match(notAccepted.body.detail, /text\/event-stream/);
    const plain = await readEventStream(t, '/api/widget/chat/stream', { token: bot.id, body: 'hi', headers: { 'content-type': 'text/plain' } });
    assert.equal(plain.status, 415);
    const bad = await readEventStream(t, '/api/widget/chat/stream', { token: bot.id, body: { text: 'x'.repeat(4001) } });
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /'text'/);
    const metadata = await readEventStream(t, '/api/widget/chat/stream', { token: bot.id, body: { text: 'hi', metadata: 'not an object' } });
    assert.equal(metadata.status, 400);
    assert.match(metadata.body.detail, /'metadata'/);
    for (const res of [notAccepted, plain, bad]) assert.equal(res.headers.get('x-frame-options'), 'DENY');
  });

  it('checks the Origin against allowed_domains (exact host or *. wildcard); an API key skips the check', async () => {
    const { bot, key } = await widgetBot(t, { allowed_domains: ['shop.example.com', '*.example.org'] });
    const ask = (origin?: string, token = bot.id) =>
      readEventStream(t, '/api/widget/chat/stream', { token, body: { text: 'hello' }, headers: origin ? { origin } : {} });

    for (const origin of ['https://shop.example.com', 'https://eu.example.org', 'http://a.b.example.org:8080']) {
      const res = await ask(origin);
      assert.equal(res.status, 200, origin);
      assert.equal(res.headers.get('access-control-allow-origin'), origin);
    }
    for (const origin of ['https://evil.example.net', 'https://example.org', 'https://shop.example.com.evil.net', 'null']) {
      const res = await ask(origin);
      assert.equal(res.status, 403, origin);
      assert.match(res.body.detail, /not allowed/);
    }
    const noOrigin = await ask(undefined);
    assert.equal(noOrigin.status, 403);
    assert.equal((await ask('https://evil.example.net', key.key)).status, 200);

    const open = await widgetBot(t);
    assert.equal((await readEventStream(t, '/api/widget/chat/stream', { token: open.bot.id, body: { text: 'hi' }, headers: { origin: 'https://anywhere.test' } })).status, 200);
  });

  it('answers CORS preflights, refusing an origin the named bot does not allow', async () => {
    const { bot } = await widgetBot(t, { allowed_domains: ['shop.example.com'] });
    const preflight = (origin: string, query = '') =>
      fetch(`${t.url}/api/widget/chat/stream${query}`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      });
    const allowed = await preflight('https://shop.example.com', `?bot_id=${bot.id}`);
    assert.equal(allowed.status, 204);
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://shop.example.com');
    assert.match(allowed.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.match(allowed.headers.get('access-control-allow-headers') ?? '', /authorization/);
    assert.equal(allowed.headers.get('x-content-type-options'), 'nosniff');
    const refused = await preflight('https://evil.example.net', `?bot_id=${bot.id}`);
    assert.equal(refused.status, 403);
    // Without the bot in the URL the preflight cannot tell; the request itself is checked.
    assert.equal((await preflight('https://evil.example.net')).status, 204);
  });

  it('answers paused and no AI reply while the bot is paused; the message is still stored', async () => {
    const { owner, bot, key } = await widgetBot(t);
    const paused = await t.request('PATCH', `/api/dashboard/bots/${bot.id}`, { token: owner.token, body: { paused: true } });
    assert.equal(paused.status, 200);
    const res = await readEventStream(t, '/api/widget/chat/stream', { token: bot.id, body: { text: 'When is the showroom open?', session_id: 'paused-1' } });
    assert.deepEqual(res.events.map((e) => e.event), ['paused']);
    assert.equal(res.events[0]!.data.reason, 'human_takeover');
    assert.equal(typeof res.events[0]!.data.message, 'string');
    const conversation = await t.request('GET', '/api/v1/conversations/paused-1', { token: key.key });
    assert.deepEqual(conversation.body.messages.map((m: { role: string }) => m.role), ['user']);

    const api = await t.request('POST', '/api/v1/chat', { token: key.key, body: { text: 'hello?', session_id: 'paused-1' } });
    assert.deepEqual(api.body, { reply: '', session_id: 'paused-1', paused: true });

    await t.request('PATCH', `/api/dashboard/bots/${bot.id}`, { token: owner.token, body: { paused: false } });
    const resumed = await readEventStream(t, '/api/widget/chat/stream', { token: bot.id, body: { text: 'When is the showroom open?', session_id: 'paused-1' } });
    assert.equal(resumed.events.at(-1)?.event, 'done');
  });

  it('lets a visitor rate an assistant message of their own session', async () => {
    const { bot, key } = await widgetBot(t);
    const res = await readEventStream(t, '/api/widget/chat/stream', { token: bot.id, body: { text: 'How much is a service?', session_id: 'rate-1' } });
    assert.equal(res.events.at(-1)?.event, 'done');
    const [user, assistant] = (await t.request('GET', '/api/v1/conversations/rate-1', { token: key.key })).body.messages;
    const rate = (messageId: string, body: Record<string, unknown>) =>
      t.request('POST', `/api/widget/messages/${messageId}/feedback`, { token: bot.id, body });
    const up = await rate(assistant.id, { session_id: 'rate-1', rating: 'up' });
    assert.equal(up.status, 200, up.text);
    assert.deepEqual(up.body, { success: true, message_id: assistant.id, feedback_rating: 'up' });
    const listed = await t.request('GET', '/api/v1/conversations', { token: key.key });
    assert.equal(listed.body.messages.find((m: { id: string }) => m.id === assistant.id).feedback_rating, 'up');

    assert.equal((await rate(assistant.id, { session_id: 'another-session', rating: 'down' })).status, 404);
    assert.equal((await rate(user.id, { session_id: 'rate-1', rating: 'up' })).status, 404);
    assert.equal((await rate(assistant.id, { session_id: 'rate-1', rating: 'meh' })).status, 400);
    const otherBot = await widgetBot(t);
    assert.equal((await t.request('POST', `/api/widget/messages/${assistant.id}/feedback`, { token: otherBot.bot.id, body: { session_id: 'rate-1', rating: 'up' } })).status, 404);
    const cleared = await rate(assistant.id, { session_id: 'rate-1', rating: null });
    assert.equal(cleared.body.feedback_rating, null);
  });
});

describe('the widget rate limit', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { PARLEY_RATE_WIDGET_PER_MIN: '3', PARLEY_TRUST_PROXY: '127.0.0.1' } });
  });
  after(() => t.close());

  it('allows 3 messages per visitor IP and bot in a sliding 60 s, separately from API keys', async () => {
    const { bot, key } = await widgetBot(t);
    const send = (ip: string, token = bot.id) =>
      readEventStream(t, '/api/widget/chat/stream', { token, body: { text: 'hello' }, headers: { 'x-forwarded-for': ip } });
    for (let i = 0; i < 3; i++) assert.equal((await send('203.0.113.5')).status, 200);
    t.clock.advance(30_000);
    const limited = await send('203.0.113.5');
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '60');
    assert.equal(limited.body.detail, 'Rate limit exceeded (3/min per visitor)');
    assert.equal((await send('203.0.113.6')).status, 200, 'another visitor');
    assert.equal((await send('203.0.113.5', key.key)).status, 200, 'an API key is limited per key instead');
    const other = await widgetBot(t);
    assert.equal((await send('203.0.113.5', other.bot.id)).status, 200, 'another bot');
    t.clock.advance(30_001);
    assert.equal((await send('203.0.113.5')).status, 200, 'the oldest messages aged out');
  });
});

describe('the stream with a model provider', () => {
  let t: TestApp;
  let provider: FakeOpenAiServer;
  before(async () => {
    provider = await startFakeOpenAiServer();
    t = await startTestApp({ env: { OPENAI_BASE_URL: provider.baseUrl, PARLEY_PROVIDER_TIMEOUT_MS: '1000', PARLEY_SSE_HEARTBEAT_MS: '25' } });
  });
  after(async () => {
    await t.close();
    await provider.close();
  });

  it("sends the provider's chunks as token events as they arrive, with keep-alive comments while idle", async () => {
    const { bot } = await widgetBot(t, { selected_model: 'gpt-4o-mini' });
    // The provider sends two chunks and then goes quiet: the visitor must already have them.
    provider.behave({ kind: 'stall', chunks: ['The ', 'showroom '] });
    const res = await readEventStream(t, '/api/widget/chat/stream', { token: bot.id, body: { text: 'When do you open?' } });
    assert.deepEqual(tokensOf(res.events), ['The ', 'showroom ']);
    assert.ok(res.comments.length > 0, 'keep-alive comments were sent while the provider was silent');
    assert.equal(res.events.at(-1)?.event, 'error');
    assert.equal(res.events.at(-1)!.data.code, 'provider_error');

    provider.behave({ kind: 'stream', chunks: ['The ', 'showroom ', 'opens ', 'at ten.'], delayMs: 20 });
    const whole = await readEventStream(t, '/api/widget/chat/stream', { token: bot.id, body: { text: 'When do you open?' } });
    assert.deepEqual(tokensOf(whole.events), ['The ', 'showroom ', 'opens ', 'at ten.']);
    assert.equal(whole.events.at(-1)?.event, 'done');
  });

  it('keeps and stores the whole answer when the visitor disconnects mid-stream', async () => {
    const { bot, key } = await widgetBot(t, { selected_model: 'gpt-4o-mini' });
    provider.behave({ kind: 'stream', chunks: ['One, ', 'two, ', 'three, ', 'four.'], delayMs: 50 });
    const res = await readEventStream(t, '/api/widget/chat/stream', {
      token: bot.id,
      body: { text: 'Count to four', session_id: 'gone-1' },
      onEvent: (e) => e.event === 'token',
    });
    // The visitor left after the first token (under load a second may have come in the same read).
    const received = tokensOf(res.events);
    assert.equal(received[0], 'One, ');
    assert.ok(received.length < 4, `the visitor left before the end: ${JSON.stringify(received)}`);
    let messages: { role: string; content: string }[] = [];
    for (let i = 0; i < 100 && messages.length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      messages = (await t.request('GET', '/api/v1/conversations/gone-1', { token: key.key })).body.messages;
    }
    assert.deepEqual(messages.map((m) => [m.role, m.content]), [
      ['user', 'Count to four'],
      ['assistant', 'One, two, three, four.'],
    ]);
  });

  it('ends with an error event provider_error and no done when the provider fails mid-stream; nothing partial is stored', async () => {
    const { bot, key } = await widgetBot(t, { selected_model: 'gpt-4o-mini' });
    provider.behave({ kind: 'break', chunks: ['Half an'] });
    const res = await readEventStream(t, '/api/widget/chat/stream', { token: bot.id, body: { text: 'Tell me', session_id: 'broken-1' } });
    assert.equal(res.events.at(-1)?.event, 'error');
    assert.equal(res.events.at(-1)!.data.code, 'provider_error');
    assert.equal(res.events.at(-1)!.data.session_id, 'broken-1');
    assert.ok(!res.events.some((e) => e.event === 'done'));
    const conversation = await t.request('GET', '/api/v1/conversations/broken-1', { token: key.key });
    assert.deepEqual(conversation.body.messages.map((m: { role: string }) => m.role), ['user']);
  });

  it('names the session it started in the error event, when the message came without one', async () => {
    const { bot, key } = await widgetBot(t, { selected_model: 'gpt-4o-mini' });
    provider.behave({ kind: 'status', status: 503, message: 'Overloaded' });
    const res = await readEventStream(t, '/api/widget/chat/stream', { token: bot.id, body: { text: 'Anyone there?' } });
    const error = res.events.at(-1)!;
    assert.equal(error.event, 'error');
    assert.equal(typeof error.data.session_id, 'string');
    const conversation = await t.request('GET', `/api/v1/conversations/${encodeURIComponent(error.data.session_id)}`, { token: key.key });
    assert.equal(conversation.status, 200);
    assert.deepEqual(conversation.body.messages.map((m: { content: string }) => m.content), ['Anyone there?']);
  });
});
