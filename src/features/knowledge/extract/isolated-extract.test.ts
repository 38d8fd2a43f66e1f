import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { extractText } from './extract-text.ts';
import { extractTextIsolated } from './isolated-extract.ts';

/** A one-page PDF whose content stream inflates to `inflatedBytes` of text: small to send, huge to read. */
function pdfBomb(inflatedBytes: number): Buffer {
  const content = deflateSync(Buffer.from(`BT /F1 12 Tf 72 720 Td (${'a'.repeat(inflatedBytes)}) Tj ET`));
  const head = Buffer.from(
    '%PDF-1.4\n1 0 obj <</Type/Catalog/Pages 2 0 R>> endobj\n2 0 obj <</Type/Pages/Kids[3 0 R]/Count 1>> endobj\n' +
      '3 0 obj <</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Contents 4 0 R/Resources<</Font<</F1<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>>>>>>> endobj\n' +
      `4 0 obj <</Length ${content.length}/Filter/FlateDecode>> stream\n`,
  );
  return Buffer.concat([head, content, Buffer.from('\nendstream endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n')]);
}

test('extracts in a worker what extractText extracts', async () => {
  const input = { body: Buffer.from('<!doctype html><title>Hours</title><h1>Hours</h1><p>Open Monday to Friday.</p>'), fileName: 'hours.html' };
  assert.deepEqual(await extractTextIsolated(input), await extractText(input));
  await assert.rejects(extractTextIsolated({ body: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]), fileName: 'a.bin' }), { status: 415 });
});

test('a document that would take the memory or the time of the service is refused (422), and the service goes on', async () => {
  const bomb = { body: pdfBomb(120_000_000), fileName: 'bomb.pdf' };
  assert.ok(bomb.body.length < 1_000_000, `${bomb.body.length} bytes to send`);
  await assert.rejects(extractTextIsolated(bomb, { timeoutMs: 60_000, memoryMb: 64 }), { status: 422 });
  const nested = { body: Buffer.from(`<!doctype html><html><body>${'<div>'.repeat(100_000)}x${'</div>'.repeat(100_000)}</body></html>`), fileName: 'deep.html' };
  await assert.rejects(extractTextIsolated(nested, { timeoutMs: 1, memoryMb: 64 }), { status: 422, detail: 'The document took too long to read' });
  // The next document is read as usual.
  assert.match((await extractTextIsolated({ body: Buffer.from('Still here.'), fileName: 'ok.txt' })).text, /Still here\./);
});
