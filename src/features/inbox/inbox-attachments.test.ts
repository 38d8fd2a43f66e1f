// The inbox's view of a session lists the visitor's uploads with signed links that open them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { createBot, signUp } from '../../testing/factories.ts';

const CSV = 'order,status\nA-100,shipped\n';

describe('inbox: attachments', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(async () => t.close());

  it("lists a session's uploads, oldest first, with links that work", async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner);
    const session = 'visitor-session-with-files';
    for (const name of ['orders.csv', 'notes.txt']) {
      const form = new FormData();
      form.append('session_id', session);
      form.append('file', new Blob([CSV]), name);
      const res = await fetch(`${t.url}/api/widget/chat/media`, { method: 'POST', headers: { authorization: `Bearer ${bot.id}` }, body: form });
      assert.equal(res.status, 200, await res.text());
      t.clock.advance(1000);
    }
    const res = await t.request('GET', `/api/dashboard/bots/${bot.id}/inbox/${session}`, { token: owner.token });
    assert.equal(res.status, 200, res.text);
    const files = res.body.attachments as Array<{ file_name: string; mime_type: string; size_bytes: number; file_url: string }>;
    assert.deepEqual(
      files.map((f) => [f.file_name, f.mime_type, f.size_bytes]),
      [
        ['orders.csv', 'text/csv', CSV.length],
        ['notes.txt', 'text/plain', CSV.length],
      ],
    );
    const link = new URL(files[0]!.file_url);
    const opened = await fetch(`${t.url}${link.pathname}${link.search}`);
    assert.equal(opened.status, 200);
    assert.equal(await opened.text(), CSV);
  });

  it('lists none for a session without uploads', async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner);
    const chat = await fetch(`${t.url}/api/widget/chat/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bot.id}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ text: 'Hello', session_id: 'no-files' }),
    });
    await chat.text();
    const res = await t.request('GET', `/api/dashboard/bots/${bot.id}/inbox/no-files`, { token: owner.token });
    assert.deepEqual(res.body.attachments, []);
  });
});
