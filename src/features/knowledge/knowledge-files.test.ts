import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { createBot, signUp, type Owner } from '../../testing/factories.ts';

const fixture = (name: string) => readFileSync(new URL(`./extract/fixtures/${name}`, import.meta.url));

describe('knowledge: document uploads from the dashboard', () => {
  let t: TestApp;
  let owner: Owner;
  let botId: string;
  before(async () => {
    t = await startTestApp({ env: { PARLEY_MAX_UPLOAD_BYTES: '200000' } });
    owner = await signUp(t);
    botId = (await createBot(t, owner)).id;
  });
  after(() => t.close());

  async function upload(name: string, bytes: Buffer | string, type = 'application/octet-stream', extra: Record<string, string> = {}, token = owner.token) {
    const form = new FormData();
    for (const [k, v] of Object.entries(extra)) form.append(k, v);
    form.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type }), name);
    const res = await fetch(`${t.url}/api/dashboard/bots/${botId}/knowledge/files`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    return { status: res.status, body: (await res.json()) as any };
  }

  async function searchable(query: string): Promise<string> {
    const list = await t.request('GET', `/api/dashboard/bots/${botId}/knowledge`, { token: owner.token });
    assert.equal(list.status, 200);
    const { createKnowledgeService } = await import('./knowledge.service.ts');
    const knowledge = createKnowledgeService({ db: t.runtime.database.db, dialect: t.runtime.database.dialect, clock: t.clock });
    return (await knowledge.retriever.search(botId, query, 3)).map((p) => p.text).join('\n');
  }

  it('indexes a PDF, a DOCX, Markdown, plain text and CSV', async () => {
    const pdf = await upload('shipping-guide.pdf', fixture('shipping-guide.pdf'), 'application/pdf');
    assert.equal(pdf.status, 201, JSON.stringify(pdf.body));
    assert.equal(pdf.body.source.status, 'trained');
    assert.ok(pdf.body.source.char_count > 50);

    const docx = await upload('employee-handbook.docx', fixture('employee-handbook.docx'), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', { name: 'Handbook' });
    assert.equal(docx.status, 201, JSON.stringify(docx.body));
    assert.equal(docx.body.source.name, 'Handbook');

    const md = await upload('faq.md', '# Parking\n\nVisitors park free in bay C for two hours.', 'text/markdown');
    assert.equal(md.status, 201);
    assert.match(await searchable('visitors park bay'), /bay C for two hours/);

    const txt = await upload('notes.txt', 'The office alarm code changes every Monday.', 'text/plain');
    assert.equal(txt.status, 201);
    const csv = await upload('prices.csv', 'product,price\nHelmet,49.90\nLights,19.50\n', 'text/csv');
    assert.equal(csv.status, 201);
    assert.match(await searchable('helmet price'), /49\.90/);
  });

  it('checks the type by content, not by name: 415 for an archive named .pdf, an image, a binary', async () => {
    const zip = await upload('report.pdf', fixture('archive.zip'), 'application/pdf');
    assert.equal(zip.status, 415);
    assert.equal(typeof zip.body.detail, 'string');
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');
    assert.equal((await upload('picture.txt', png, 'text/plain')).status, 415);
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120)]);
    assert.equal((await upload('program.md', elf, 'text/markdown')).status, 415);
  });

  it('refuses an oversized file with 413, an empty one with 422, and a request without a file with 400', async () => {
    assert.equal((await upload('big.txt', 'a '.repeat(150_000), 'text/plain')).status, 413);
    assert.equal((await upload('blank.txt', '   \n  ', 'text/plain')).status, 422);
    const form = new FormData();
    form.append('name', 'nothing');
    const res = await fetch(`${t.url}/api/dashboard/bots/${botId}/knowledge/files`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: form });
    assert.equal(res.status, 400);
    const json = await t.request('POST', `/api/dashboard/bots/${botId}/knowledge/files`, { token: owner.token, body: { file: 'x' } });
    assert.equal(json.status, 400);
  });

  it('keeps other accounts out', async () => {
    const stranger = await signUp(t);
    assert.equal((await upload('notes.txt', 'secret', 'text/plain', {}, stranger.token)).status, 404);
  });
});
