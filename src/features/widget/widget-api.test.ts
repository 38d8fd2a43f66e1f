import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { createBot, createKey, signUp } from '../../testing/factories.ts';
import { readEventStream } from '../../testing/event-stream.ts';
import { solidPng } from '../../testing/widget-browser.ts';

/** Attaches a file to a session as the widget does (multipart, the bot id as bearer). */
async function upload(t: TestApp, botId: string, sessionId: string, name: string, bytes: Buffer | string) {
  const form = new FormData();
  form.append('session_id', sessionId);
  form.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), name);
  const res = await fetch(`${t.url}/api/widget/chat/media`, { method: 'POST', headers: { authorization: `Bearer ${botId}` }, body: form });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return body as { file_url: string; file_name: string; mime_type: string; size_bytes: number };
}

/** A signed link pointed at the test server (PUBLIC_URL is not where it listens). */
const local = (t: TestApp, url: string) => t.url + new URL(url).pathname + new URL(url).search;

describe('what the widget reads: its configuration, the history, and the done event', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { PARLEY_MAX_UPLOAD_BYTES: '1048576' } });
  });
  after(() => t.close());

  it("serves the bot's public configuration to allowed origins, cacheable for a minute", async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner, {
      name: 'Helper',
      welcome_message: 'Hello!',
      primary_color: '#ff8800',
      widget_style: 'bubble',
      lead_capture_enabled: true,
      lead_fields: ['name', 'email'],
      allowed_domains: ['shop.example.com'],
      meeting_url: 'https://cal.example.com/acme',
    });
    const res = await t.request('GET', `/api/widget/config?bot_id=${bot.id}`, { headers: { origin: 'https://shop.example.com' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=60');
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://shop.example.com');
    assert.match(res.headers.get('vary') ?? '', /Origin/);
    assert.deepEqual({ ...res.body, uploads: undefined }, {
      bot_id: bot.id,
      name: 'Helper',
      welcome_message: 'Hello!',
      primary_color: '#ff8800',
      widget_style: 'bubble',
      response_language: '',
      lead_capture_enabled: true,
      lead_fields: ['name', 'email'],
      calendar_scheduling_enabled: false,
      // The meeting link is shown only while scheduling is on.
      meeting_url: null,
      uploads: undefined,
    });
    assert.equal(res.body.uploads.max_bytes, 1048576);
    assert.ok(res.body.uploads.types.some((u: { extension: string; mime: string }) => u.extension === '.png' && u.mime === 'image/png'));
    assert.ok(!res.body.uploads.types.some((u: { extension: string }) => u.extension === '.exe'));
    // Nothing private: no quota, no allowed domains, no system instructions.
    for (const field of ['monthly_message_quota', 'allowed_domains', 'system_instructions', 'account_id', 'paused']) assert.ok(!(field in res.body), field);

    const foreign = await t.request('GET', `/api/widget/config?bot_id=${bot.id}`, { headers: { origin: 'https://evil.example' } });
    assert.equal(foreign.status, 403);
    assert.match(foreign.body.detail, /evil\.example/);
    assert.equal((await t.request('GET', `/api/widget/config?bot_id=${bot.id}`)).status, 403, 'no Origin with a domain list');
    assert.equal((await t.request('GET', '/api/widget/config?bot_id=00000000-0000-4000-8000-000000000000')).status, 401);
    assert.equal((await t.request('GET', '/api/widget/config')).status, 401);
  });

  it("gives a visitor their own session's history with sources and ratings, and no one else's", async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner);
    const key = await createKey(t, owner, bot.id, { scopes: ['chat', 'write'] });
    await t.request('POST', '/api/v1/knowledge', { token: key.key, body: { type: 'text', name: 'Hours', content: 'The showroom opens at 10 am from Monday to Saturday.' } });
    const first = await readEventStream(t, '/api/widget/chat/stream', { token: bot.id, body: { text: 'When does the showroom open?', visitor_id: 'visitor-a' } });
    const done = first.events.at(-1)!;
    assert.equal(done.event, 'done');
    assert.match(done.data.message_id, /^[0-9a-f-]{36}$/, 'done carries the stored answer id');
    const sessionId = done.data.session_id as string;
    await t.request('POST', `/api/widget/messages/${done.data.message_id}/feedback`, { token: bot.id, body: { session_id: sessionId, rating: 'up' } });

    const history = await t.request('GET', `/api/widget/sessions/${sessionId}/messages?bot_id=${bot.id}&visitor_id=visitor-a`);
    assert.equal(history.status, 200, history.text);
    assert.equal(history.headers.get('cache-control'), 'no-store');
    assert.equal(history.body.session_id, sessionId);
    assert.equal(history.body.taken_over, false);
    assert.deepEqual(history.body.messages.map((m: { role: string }) => m.role), ['user', 'assistant']);
    const answer = history.body.messages[1];
    assert.equal(answer.id, done.data.message_id);
    assert.equal(answer.feedback_rating, 'up');
    assert.deepEqual(answer.sources, [{ title: 'Hours', url: '' }]);
    assert.match(answer.content, /10 am/);
    assert.deepEqual(history.body.attachments, []);

    assert.equal((await t.request('GET', `/api/widget/sessions/${sessionId}/messages?bot_id=${bot.id}&visitor_id=visitor-b`)).status, 404);
    assert.equal((await t.request('GET', `/api/widget/sessions/${sessionId}/messages?bot_id=${bot.id}`)).status, 404);
    const otherBot = await createBot(t, owner);
    assert.equal((await t.request('GET', `/api/widget/sessions/${sessionId}/messages?bot_id=${otherBot.id}&visitor_id=visitor-a`)).status, 404);
  });

  it("shows the visitor's uploads in the history, in time order, each with a fresh signed link", async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner);
    const sessionId = 'visit-with-files';
    const png = solidPng(16);
    // The upload starts the session before any message (the widget makes the id).
    const photo = await upload(t, bot.id, sessionId, 'broken bike.png', png);
    t.clock.advance(1000);
    const asked = await readEventStream(t, '/api/widget/chat/stream', { token: bot.id, body: { text: 'Can you repair this?', session_id: sessionId, visitor_id: 'visitor-f' } });
    assert.equal(asked.events.at(-1)?.event, 'done');
    t.clock.advance(1000);
    const notes = await upload(t, bot.id, sessionId, 'notes.txt', 'The rear brake squeaks.\n');
    await upload(t, bot.id, 'someone-else', 'other.png', png);

    const path = `/api/widget/sessions/${sessionId}/messages?bot_id=${bot.id}&visitor_id=visitor-f`;
    const history = await t.request('GET', path);
    assert.equal(history.status, 200, history.text);
    const files = history.body.attachments as { id: string; file_name: string; mime_type: string; size_bytes: number; file_url: string; created_at: string }[];
    assert.deepEqual(
      files.map(({ file_name, mime_type, size_bytes }) => ({ file_name, mime_type, size_bytes })),
      [
        { file_name: 'broken bike.png', mime_type: 'image/png', size_bytes: png.length },
        { file_name: 'notes.txt', mime_type: 'text/plain', size_bytes: 24 },
      ],
      "the session's own uploads only, oldest first",
    );
    // Messages and uploads interleave by time: photo, question and answer, notes.
    const [first, second] = files as [(typeof files)[0], (typeof files)[0]];
    const messageTimes = history.body.messages.map((m: { created_at: string }) => m.created_at);
    assert.ok(first.created_at < messageTimes[0] && messageTimes.at(-1) < second.created_at, JSON.stringify({ files, messageTimes }));
    for (const file of files) {
      assert.match(file.id, /^[0-9a-f-]{36}$/);
      const link = new URL(file.file_url);
      assert.equal(link.origin, 'http://127.0.0.1:3000', 'under PUBLIC_URL');
      assert.equal(link.pathname, `/api/widget/media/${file.id}/${encodeURIComponent(file.file_name)}`);
      assert.match(link.search, /^\?expires=\d+&signature=[0-9a-f]{64}$/);
    }
    assert.equal(new URL(first.file_url).pathname, new URL(photo.file_url).pathname, "the upload answer's link to the same file");
    assert.equal(new URL(second.file_url).pathname, new URL(notes.file_url).pathname);
    const served = await fetch(local(t, first.file_url));
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), png);

    // Each history signs its links afresh: an old link expires, the next history's works.
    t.clock.advance(86_400_000 + 1000);
    assert.equal((await fetch(local(t, first.file_url))).status, 403);
    const later = await t.request('GET', path);
    assert.equal((await fetch(local(t, later.body.attachments[0].file_url))).status, 200);
    // Another visitor still learns nothing, files included.
    const other = await t.request('GET', `/api/widget/sessions/${sessionId}/messages?bot_id=${bot.id}&visitor_id=visitor-g`);
    assert.equal(other.status, 404);
    assert.equal(other.body.attachments, undefined);
  });

  it('tells the widget to offer its lead form when parley-local asks for contact details', async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner, { lead_capture_enabled: true, lead_fields: ['name', 'email'] });
    const res = await readEventStream(t, '/api/widget/chat/stream', { token: bot.id, body: { text: 'Can someone contact me about a quote?' } });
    const done = res.events.at(-1)!;
    assert.equal(done.event, 'done', JSON.stringify(res.events));
    assert.deepEqual(done.data.lead_form, { fields: ['name', 'email'] });
    const plain = await createBot(t, owner);
    const without = await readEventStream(t, '/api/widget/chat/stream', { token: plain.id, body: { text: 'Can someone contact me about a quote?' } });
    assert.equal(without.events.at(-1)!.data.lead_form, undefined);
  });
});
