import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { botWithKey, createBot, createKey, signUp, type Owner } from '../../testing/factories.ts';
import { readEventStream } from '../../testing/event-stream.ts';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../answers/providers/fake-openai-server.ts';
import { sanitizeFileName } from './media.schemas.ts';

const PUBLIC_URL = 'https://chat.example.test';

// ---- Real file bytes, built here so every byte is known. ----

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
/** A valid 2×2 RGB PNG. */
function png(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows = Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
/** The start of a JFIF JPEG. */
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0', 'latin1'), Buffer.alloc(64, 1)]);
/** An x86-64 ELF executable's header. */
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(8), Buffer.from([2, 0, 0x3e, 0, 1, 0, 0, 0]), Buffer.alloc(100)]);
const ZIP = readFileSync(new URL('../knowledge/extract/fixtures/archive.zip', import.meta.url));
const PDF = readFileSync(new URL('../knowledge/extract/fixtures/shipping-guide.pdf', import.meta.url));
/** A WebM (EBML) header: file-type calls any WebM video/webm. */
const WEBM = Buffer.from('1a45dfa39f4286810142f7810142f2810442f381084282847765626d42878104428581021853806701000000000000', 'hex');
/** An M4A file type box. */
const M4A = Buffer.concat([Buffer.from('00000018', 'hex'), Buffer.from('ftypM4A ', 'latin1'), Buffer.alloc(4), Buffer.from('M4A isom', 'latin1'), Buffer.alloc(32)]);
/** A RIFF WAVE header. */
const WAV = Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.from([36, 0, 0, 0]), Buffer.from('WAVEfmt ', 'latin1'), Buffer.from([16, 0, 0, 0, 1, 0, 1, 0, 0x40, 0x1f, 0, 0, 0x80, 0x3e, 0, 0, 2, 0, 16, 0]), Buffer.from('data', 'latin1'), Buffer.alloc(4)]);
/** An Ogg page opening a Vorbis stream. */
const OGG = Buffer.concat([Buffer.from('OggS', 'latin1'), Buffer.alloc(22), Buffer.from([1, 30]), Buffer.from('\x01vorbis', 'latin1'), Buffer.alloc(40)]);
/** An MP3 with an ID3v2 tag. */
const MP3 = Buffer.concat([Buffer.from('ID3', 'latin1'), Buffer.from([3, 0, 0, 0, 0, 0, 0]), Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(400)]);

// ---- Requests. ----

interface UploadOptions {
  name?: string;
  bytes?: Buffer | string;
  fields?: Record<string, string>;
  /** Bearer credential. */
  token?: string;
  origin?: string;
  /** Append the file before the text fields. */
  fileFirst?: boolean;
  omitFile?: boolean;
}

async function upload(t: TestApp, options: UploadOptions) {
  const form = new FormData();
  const file = () => {
    if (options.omitFile) return;
    const bytes = options.bytes ?? png();
    form.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), options.name ?? 'pixel.png');
  };
  if (options.fileFirst) file();
  for (const [k, v] of Object.entries(options.fields ?? {})) form.append(k, v);
  if (!options.fileFirst) file();
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.origin) headers.origin = options.origin;
  const res = await fetch(`${t.url}/api/widget/chat/media`, { method: 'POST', headers, body: form });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** The signed link, pointed at the test server (PUBLIC_URL is not where it listens). */
function local(t: TestApp, fileUrl: string): string {
  assert.ok(fileUrl.startsWith(`${PUBLIC_URL}/api/widget/media/`), fileUrl);
  return t.url + fileUrl.slice(PUBLIC_URL.length);
}

/** Every file (not directory) under DATA_DIR/media. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

describe('media uploads', () => {
  let t: TestApp;
  let owner: Owner;
  let botId: string;
  let mediaDir: string;
  before(async () => {
    t = await startTestApp({ env: { PUBLIC_URL, PARLEY_MAX_UPLOAD_BYTES: '200000', PARLEY_RATE_WIDGET_PER_MIN: '100000' } });
    owner = await signUp(t);
    botId = (await createBot(t, owner)).id;
    mediaDir = join(t.env.DATA_DIR!, 'media');
  });
  after(() => t.close());

  it('stores a PNG in the session and serves identical bytes through the signed link', async () => {
    const bytes = png();
    const res = await upload(t, { token: botId, name: 'pixel.png', bytes, fields: { session_id: 'visit-1' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), ['file_name', 'file_url', 'mime_type', 'size_bytes']);
    assert.equal(res.body.file_name, 'pixel.png');
    assert.equal(res.body.mime_type, 'image/png');
    assert.equal(res.body.size_bytes, bytes.length);
    assert.match(res.body.file_url, /^https:\/\/chat\.example\.test\/api\/widget\/media\/[0-9a-f-]{36}\/pixel\.png\?expires=\d+&signature=[0-9a-f]{64}$/);
    const expires = Number(new URL(res.body.file_url).searchParams.get('expires'));
    assert.equal(expires, Math.floor(t.clock.now() / 1000) + 86400);

    const download = await fetch(local(t, res.body.file_url));
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-type'), 'image/png');
    assert.equal(download.headers.get('content-disposition'), 'inline; filename="pixel.png"');
    assert.equal(download.headers.get('x-content-type-options'), 'nosniff');
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), bytes);

    // The upload started the session, which the conversations API now knows (with no messages yet).
    const { key } = await botWithKeyFor(t, owner, botId);
    const conversation = await t.request('GET', '/api/v1/conversations/visit-1', { token: key });
    assert.equal(conversation.status, 200, conversation.text);
    assert.deepEqual(conversation.body.messages, []);
  });

  it('accepts every allowed type by content and reports the spec MIME types of section 8', async () => {
    const cases: Array<[string, Buffer | string, string]> = [
      ['photo.JPG', JPEG, 'image/jpeg'],
      ['photo.jpeg', JPEG, 'image/jpeg'],
      ['guide.pdf', PDF, 'application/pdf'],
      ['notes.txt', 'Plain notes, UTF-8: café ✓\n', 'text/plain'],
      ['prices.csv', 'product,price\nHelmet,49.90\n', 'text/csv'],
      ['feed.txt', '<?xml version="1.0"?>\n<feed><title>XML is text too</title></feed>\n', 'text/plain'],
      ['voice.webm', WEBM, 'audio/webm'],
      ['voice.m4a', M4A, 'audio/x-m4a'],
      ['voice.wav', WAV, 'audio/wav'],
      ['voice.ogg', OGG, 'audio/ogg'],
      ['voice.mp3', MP3, 'audio/mpeg'],
    ];
    for (const [name, bytes, mime] of cases) {
      const res = await upload(t, { token: botId, name, bytes, fields: { session_id: 'types' } });
      assert.equal(res.status, 200, `${name}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.mime_type, mime, name);
    }
    const csv = await upload(t, { token: botId, name: 'prices.csv', bytes: 'a,b\n1,2\n', fields: { session_id: 'types' } });
    const served = await fetch(local(t, csv.body.file_url));
    assert.equal(served.headers.get('content-type'), 'text/csv; charset=utf-8');
  });

  it('refuses content that is not what its name says, executables, scripts and archives with 415', async () => {
    const cases: Array<[string, Buffer | string, RegExp]> = [
      ['photo.png', JPEG, /image\/jpeg.*does not match.*\.png/],
      ['report.pdf', ZIP, /application\/zip is not accepted/],
      ['tool.txt', ELF, /application\/x-elf is not accepted/],
      ['tool', ELF, /no extension/],
      ['run.sh', '#!/bin/sh\necho hi\n', /'\.sh' are not accepted/],
      ['run.txt', '#!/bin/sh\nrm -rf /\n', /Scripts are not accepted/],
      ['data.csv', Buffer.from([0x61, 0x2c, 0x00, 0x62]), /binary data/],
      ['latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9]), /binary data/],
      ['pixel.gif', 'just some text, not an image', /text, not a GIF image/],
      ['archive.zip', ZIP, /'\.zip' are not accepted/],
      ['page.html', '<html><body>hi</body></html>', /'\.html' are not accepted/],
    ];
    for (const [name, bytes, detail] of cases) {
      const res = await upload(t, { token: botId, name, bytes, fields: { session_id: 'refused' } });
      assert.equal(res.status, 415, `${name}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.detail, detail, name);
    }
    // Nothing refused was kept, and the session was never started.
    const { key } = await botWithKeyFor(t, owner, botId);
    assert.equal((await t.request('GET', '/api/v1/conversations/refused', { token: key })).status, 404);
    assert.deepEqual(filesUnder(join(mediaDir, '.incoming')), []);
  });

  it('sanitizes names: last path segment, no leading dots, unsafe characters replaced', async () => {
    const cases: Array<[string, string]> = [
      ['../../etc/passwd.txt', 'passwd.txt'],
      ['..\\..\\x.png', 'x.png'],
      ['.hidden.txt', 'hidden.txt'],
      ['résumé ✓ 2024.txt', /* é and ✓ are one character each */ 'r_sum_ _ 2024.txt'],
      ['a<b>|c*.txt', 'a_b__c_.txt'],
    ];
    for (const [uploaded, expected] of cases) {
      const bytes = uploaded.endsWith('.png') ? png() : 'hello\n';
      const res = await upload(t, { token: botId, name: uploaded, bytes, fields: { session_id: 'names' } });
      assert.equal(res.status, 200, `${uploaded}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.file_name, expected, uploaded);
      assert.match(res.body.file_name, /^[A-Za-z0-9._ -]+$/);
      const served = await fetch(local(t, res.body.file_url));
      assert.equal(served.status, 200, uploaded);
      assert.equal(served.headers.get('content-disposition'), `inline; filename="${expected}"`);
    }
    // Stored by generated id: no client-chosen name exists anywhere under DATA_DIR.
    const names = filesUnder(t.env.DATA_DIR!).map((f) => f.split('/').pop());
    assert.ok(!names.some((n) => n === 'passwd.txt' || n === 'x.png' || n?.includes('hidden')), names.join(', '));
    // Names the multipart parser passes through untouched are sanitized the same way.
    assert.equal(sanitizeFileName('../../etc/passwd.txt'), 'passwd.txt');
    assert.equal(sanitizeFileName('..\\..\\x.png'), 'x.png');
    assert.equal(sanitizeFileName('...'), 'file');
  });

  it('validates the form: session_id required and 1 to 128 printable characters, file required, one file', async () => {
    const missing = await upload(t, { token: botId, fields: {} });
    assert.equal(missing.status, 400);
    assert.match(missing.body.detail, /session_id/);
    const long = await upload(t, { token: botId, fields: { session_id: 'x'.repeat(129) } });
    assert.equal(long.status, 400);
    assert.match(long.body.detail, /session_id/);
    const noFile = await upload(t, { token: botId, fields: { session_id: 's' }, omitFile: true });
    assert.equal(noFile.status, 400);
    assert.match(noFile.body.detail, /'file'/);
    const empty = await upload(t, { token: botId, name: 'empty.txt', bytes: '', fields: { session_id: 's' } });
    assert.equal(empty.status, 400);

    const form = new FormData();
    form.append('session_id', 's');
    form.append('file', new Blob([new Uint8Array(png())]), 'a.png');
    form.append('file', new Blob([new Uint8Array(png())]), 'b.png');
    const two = await fetch(`${t.url}/api/widget/chat/media`, { method: 'POST', headers: { authorization: `Bearer ${botId}` }, body: form });
    assert.equal(two.status, 400);

    const json = await t.request('POST', '/api/widget/chat/media', { token: botId, body: { session_id: 's' } });
    assert.equal(json.status, 415);
  });

  it('takes the bot id as bearer or in the form, before or after the file, or an API key; refuses the rest', async () => {
    const inForm = await upload(t, { fields: { bot_id: botId, session_id: 'cred' } });
    assert.equal(inForm.status, 200, JSON.stringify(inForm.body));
    const afterFile = await upload(t, { fields: { session_id: 'cred', bot_id: botId }, fileFirst: true });
    assert.equal(afterFile.status, 200, JSON.stringify(afterFile.body));
    const bearer = await upload(t, { token: botId, fields: { session_id: 'cred' } });
    assert.equal(bearer.status, 200);
    const { key } = await botWithKeyFor(t, owner, botId);
    const apiKey = await upload(t, { token: key, fields: { session_id: 'cred' } });
    assert.equal(apiKey.status, 200);
    // A session the business's server opened (API key) takes uploads from the key, not from the public bot id.
    assert.equal((await upload(t, { token: key, fields: { session_id: 'server-held' } })).status, 200);
    const intruder = await upload(t, { token: botId, fields: { session_id: 'server-held' } });
    assert.deepEqual([intruder.status, intruder.body.detail], [404, 'Session not found or belongs to a different bot']);

    const none = await upload(t, { fields: { session_id: 'cred' } });
    assert.equal(none.status, 401);
    const unknown = await upload(t, { fields: { session_id: 'cred', bot_id: '00000000-0000-4000-8000-000000000000' } });
    assert.equal(unknown.status, 401);
    const otherBot = (await createBot(t, owner, { name: 'Other' })).id;
    const mismatch = await upload(t, { token: botId, fields: { session_id: 'cred', bot_id: otherBot } });
    assert.equal(mismatch.status, 403);
    assert.match(mismatch.body.detail, /bot_id/);
    const readOnly = await createKey(t, owner, botId, { scopes: ['read'] });
    assert.equal((await upload(t, { token: readOnly.key, fields: { session_id: 'cred' } })).status, 403);
    assert.deepEqual(filesUnder(join(mediaDir, '.incoming')), []);
  });

  it("applies the bot's allowed domains to widget callers, not to API keys, and names the origin in CORS", async () => {
    const bot = await createBot(t, owner, { name: 'Shop bot' });
    const patch = await t.request('PATCH', `/api/dashboard/bots/${bot.id}`, { token: owner.token, body: { allowed_domains: ['shop.example.com'] } });
    assert.equal(patch.status, 200, patch.text);
    const allowed = await upload(t, { token: bot.id, origin: 'https://shop.example.com', fields: { session_id: 'o' } });
    assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://shop.example.com');
    const refused = await upload(t, { fields: { bot_id: bot.id, session_id: 'o' }, origin: 'https://evil.example' });
    assert.equal(refused.status, 403);
    assert.match(refused.body.detail, /evil\.example/);
    const noOrigin = await upload(t, { token: bot.id, fields: { session_id: 'o' } });
    assert.equal(noOrigin.status, 403);
    const key = await createKey(t, owner, bot.id);
    const byKey = await upload(t, { token: key.key, origin: 'https://evil.example', fields: { session_id: 'o' } });
    assert.equal(byKey.status, 200);
  });

  it('refuses changed links (signature, id, name, expiry) with 403, and answers 404 once the file is gone', async () => {
    const first = await upload(t, { token: botId, fields: { session_id: 'links' } });
    const second = await upload(t, { token: botId, name: 'other.png', fields: { session_id: 'links' } });
    const url = new URL(local(t, first.body.file_url));
    const secondId = new URL(second.body.file_url).pathname.split('/')[4]!;
    const changed = (change: (u: URL) => void) => {
      const copy = new URL(url);
      change(copy);
      return copy.toString();
    };
    const sig = url.searchParams.get('signature')!;
    const cases = {
      signature: changed((u) => u.searchParams.set('signature', (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1))),
      shortSignature: changed((u) => u.searchParams.set('signature', sig.slice(0, 10))),
      noSignature: changed((u) => u.searchParams.delete('signature')),
      expires: changed((u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600))),
      id: changed((u) => (u.pathname = u.pathname.replace(/media\/[^/]+/, `media/${secondId}`))),
      name: changed((u) => (u.pathname = u.pathname.replace(/pixel\.png$/, 'other.png'))),
    };
    for (const [what, link] of Object.entries(cases)) {
      const res = await fetch(link);
      assert.equal(res.status, 403, what);
      assert.equal(typeof ((await res.json()) as { detail: string }).detail, 'string');
    }
    assert.equal((await fetch(url)).status, 200);
  });

  it("deletes a session's files with DELETE /api/v1/conversations or the inbox, and a bot's files with the bot", async () => {
    const bot = await createBot(t, owner, { name: 'Short-lived' });
    const key = await createKey(t, owner, bot.id, { scopes: ['chat', 'read', 'write'] });
    const kept = await upload(t, { token: bot.id, fields: { session_id: 'keep' } });
    const cleared = await upload(t, { token: bot.id, name: 'notes.txt', bytes: 'to be cleared\n', fields: { session_id: 'clear-me' } });
    assert.equal(cleared.status, 200);
    assert.equal(filesUnder(join(mediaDir, bot.id)).length, 2);

    const del = await t.request('DELETE', '/api/v1/conversations/clear-me', { token: key.key });
    assert.equal(del.status, 200, del.text);
    assert.equal((await fetch(local(t, cleared.body.file_url))).status, 404);
    assert.equal(filesUnder(join(mediaDir, bot.id)).length, 1);
    assert.equal((await fetch(local(t, kept.body.file_url))).status, 200);

    // The inbox's delete removes them the same way.
    const inInbox = await upload(t, { token: bot.id, fields: { session_id: 'inbox-clear' } });
    assert.equal(filesUnder(join(mediaDir, bot.id)).length, 2);
    const inboxDelete = await t.request('DELETE', `/api/dashboard/bots/${bot.id}/inbox/inbox-clear`, { token: owner.token });
    assert.equal(inboxDelete.status, 200, inboxDelete.text);
    assert.equal((await fetch(local(t, inInbox.body.file_url))).status, 404);
    assert.equal(filesUnder(join(mediaDir, bot.id)).length, 1);

    const gone = await t.request('DELETE', `/api/dashboard/bots/${bot.id}`, { token: owner.token });
    assert.equal(gone.status, 200, gone.text);
    // Bot deletion is announced on the bus (asynchronous with Redis).
    for (let i = 0; i < 100 && existsSync(join(mediaDir, bot.id)); i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(existsSync(join(mediaDir, bot.id)), false);
    assert.equal((await fetch(local(t, kept.body.file_url))).status, 404);
  });
});

describe('media uploads: limits and expiry', () => {
  let t: TestApp;
  let botId: string;
  before(async () => {
    t = await startTestApp({ env: { PUBLIC_URL, PARLEY_MAX_UPLOAD_BYTES: '1000', PARLEY_MEDIA_URL_TTL: '600' } });
    const owner = await signUp(t);
    botId = (await createBot(t, owner)).id;
  });
  after(() => t.close());

  it('answers 413 once the stream passes PARLEY_MAX_UPLOAD_BYTES, and leaves nothing on disk', async () => {
    const atLimit = await upload(t, { token: botId, name: 'limit.txt', bytes: 'a'.repeat(1000), fields: { session_id: 'big' } });
    assert.equal(atLimit.status, 200, JSON.stringify(atLimit.body));
    const before = filesUnder(join(t.env.DATA_DIR!, 'media'));

    const over = await upload(t, { token: botId, name: 'big.txt', bytes: 'a'.repeat(1001), fields: { session_id: 'big' } });
    assert.equal(over.status, 413);
    assert.match(over.body.detail, /1000 bytes/);
    assert.equal(over.headers.get('connection'), 'close');

    // A stream that would go on for 256 MiB: refused while it is still coming, and the client stops.
    const endless = await streamUpload(t, botId, 256 * 1024 * 1024);
    assert.equal(endless.status, 413);
    assert.equal(endless.connection, 'close');
    assert.ok(endless.sentBytes < 64 * 1024 * 1024, `${endless.sentBytes} bytes were sent`);
    assert.deepEqual(filesUnder(join(t.env.DATA_DIR!, 'media')), before);
  });

  it('refuses a link after PARLEY_MEDIA_URL_TTL seconds with 403', async () => {
    const res = await upload(t, { token: botId, fields: { session_id: 'ttl' } });
    const link = local(t, res.body.file_url);
    t.clock.advance(599_000);
    assert.equal((await fetch(link)).status, 200);
    t.clock.advance(1_000);
    const expired = await fetch(link);
    assert.equal(expired.status, 403);
    assert.match(((await expired.json()) as { detail: string }).detail, /expired/);
  });
});

const WARRANTY = [
  '# Warranty card',
  '',
  'Your warranty registration code is KX-4471. Keep it with the receipt.',
  '',
  'The frame is covered for five years from the date of purchase.',
].join('\n');

describe('media: answers from attachments', () => {
  let t: TestApp;
  let provider: FakeOpenAiServer;
  before(async () => {
    provider = await startFakeOpenAiServer();
    t = await startTestApp({ env: { PUBLIC_URL, OPENAI_BASE_URL: provider.baseUrl, PARLEY_PROVIDER_TIMEOUT_MS: '2000' } });
  });
  after(async () => {
    await t.close();
    await provider.close();
  });

  it('parley-local answers a follow-up in the same session from an uploaded document, citing the file', async () => {
    const { bot, key } = await botWithKey(t);
    const uploaded = await upload(t, { token: bot.id, name: 'warranty.txt', bytes: WARRANTY, fields: { session_id: 'doc-session' } });
    assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));

    const question = 'What is my warranty registration code?';
    const answered = await t.request('POST', '/api/v1/chat', { token: key.key, body: { text: question, session_id: 'doc-session' } });
    assert.equal(answered.status, 200, answered.text);
    assert.match(answered.body.reply, /KX-4471/);
    // Another session has no such document: the bot does not know.
    const elsewhere = await t.request('POST', '/api/v1/chat', { token: key.key, body: { text: question, session_id: 'no-doc' } });
    assert.equal(elsewhere.status, 200);
    assert.doesNotMatch(elsewhere.body.reply, /KX-4471/);

    const streamed = await readEventStream(t, '/api/widget/chat/stream', { token: bot.id, body: { text: 'How long is the frame covered?', session_id: 'doc-session' } });
    const done = streamed.events.at(-1)!;
    assert.equal(done.event, 'done');
    assert.deepEqual(done.data.sources, [{ title: 'warranty.txt', url: '' }]);
    const text = streamed.events.filter((e) => e.event === 'token').map((e) => e.data.token).join('');
    assert.match(text, /five years/);
  });

  it('a provider model gets the image as an image part of the newest user message, and the document text in the system prompt', async () => {
    const owner = await signUp(t);
    const bot = await createBot(t, owner, { selected_model: 'gpt-4o-mini' });
    const key = await createKey(t, owner, bot.id);
    const image = png();
    assert.equal((await upload(t, { token: bot.id, name: 'crack.png', bytes: image, fields: { session_id: 'vision' } })).status, 200);
    assert.equal((await upload(t, { token: bot.id, name: 'warranty.txt', bytes: WARRANTY, fields: { session_id: 'vision' } })).status, 200);

    provider.behave({ kind: 'stream', chunks: ['That crack is covered.'] });
    const res = await t.request('POST', '/api/v1/chat', { token: key.key, body: { text: 'Is this crack covered?', session_id: 'vision' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.reply, 'That crack is covered.');
    const sent = provider.requests.at(-1)!.body;
    const last = sent.messages.at(-1);
    assert.equal(last.role, 'user');
    assert.deepEqual(last.content, [
      { type: 'text', text: 'Is this crack covered?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${image.toString('base64')}` } },
    ]);
    assert.equal(sent.messages[0].role, 'system');
    assert.match(sent.messages[0].content, /--- warranty\.txt ---\n# Warranty card[\s\S]*KX-4471/);
  });
});

describe('media uploads: widget rate limit', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { PARLEY_RATE_WIDGET_PER_MIN: '2' } });
  });
  after(() => t.close());

  it('counts widget uploads against PARLEY_RATE_WIDGET_PER_MIN per visitor and bot, not API keys', async () => {
    const { bot, key } = await botWithKey(t);
    assert.equal((await upload(t, { token: bot.id, fields: { session_id: 'r' } })).status, 200);
    assert.equal((await upload(t, { fields: { bot_id: bot.id, session_id: 'r' } })).status, 200);
    const third = await upload(t, { token: bot.id, fields: { session_id: 'r' } });
    assert.equal(third.status, 429);
    assert.equal(third.headers.get('retry-after'), '60');
    assert.equal((await upload(t, { token: key.key, fields: { session_id: 'r' } })).status, 200);
  });
});

/** Streams a multipart upload of `totalBytes` (chunked, no length known ahead); tells how much was sent when the answer came. */
async function streamUpload(t: TestApp, botId: string, totalBytes: number) {
  const boundary = 'parley-test-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="session_id"\r\n\r\nbig\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`;
  const chunk = new Uint8Array(64 * 1024);
  let sentBytes = 0;
  let opened = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!opened) {
        opened = true;
        controller.enqueue(new Uint8Array(Buffer.concat([Buffer.from(head), png()])));
      } else if (sentBytes >= totalBytes) {
        controller.enqueue(new TextEncoder().encode(`\r\n--${boundary}--\r\n`));
        controller.close();
      } else {
        sentBytes += chunk.length;
        controller.enqueue(chunk);
      }
    },
  });
  const res = await fetch(`${t.url}/api/widget/chat/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${botId}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: 'half',
  } as RequestInit);
  const answeredAt = sentBytes;
  await res.text();
  return { status: res.status, connection: res.headers.get('connection'), sentBytes: answeredAt };
}

/** An API key of an existing bot (its owner makes one). */
async function botWithKeyFor(t: TestApp, owner: Owner, botId: string) {
  return { key: (await createKey(t, owner, botId)).key };
}
