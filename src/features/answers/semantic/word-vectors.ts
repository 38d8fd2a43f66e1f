/**
 * English word vectors (GloVe, 100 dimensions, the 50,000 most frequent words; built by
 * `scripts/build-word-vectors.mjs`) looked up by `parley-local`'s terms: a stemmed word folded onto
 * its synonym group shares the vector of its most frequent surface form. They give the engine its
 * sense of words that mean nearly the same ("weekend" and "saturday", "money" and "refund").
 */
import fs from 'node:fs';
import { termOf } from '../local/text.ts';

const FILE = new URL('./data/english-vectors.bin', import.meta.url);
const HEADER_BYTES = 16;

/** Word vectors keyed by term: each a unit-length Float32Array view into one buffer. */
export interface WordVectors {
  readonly dims: number;
  /** The term's unit vector, or undefined when the vocabulary lacks it. */
  vectorOf(term: string): Float32Array | undefined;
  /**
   * How much the term says about a text's topic, from its frequency in general English (smooth
   * inverse frequency): near 0 for the most common words, near 1 for rare ones.
   */
  weightOf(term: string): number;
  /** Whether the lower-case word is among the vocabulary's words as written (not folded to a term). */
  hasWord(word: string): boolean;
}

let loaded: WordVectors | undefined;

/** The shipped English vectors, read once on first use (about 25 MB in memory). */
export function englishWordVectors(): WordVectors {
  loaded ??= readWordVectors(fs.readFileSync(FILE));
  return loaded;
}

// Smooth inverse frequency (Arora et al., 2017): weight a / (a + p(w)), with p from Zipf's law.
const SIF_A = 1e-4;

/** Parses the file layout written by `scripts/build-word-vectors.mjs`. */
export function readWordVectors(file: Buffer): WordVectors {
  if (file.toString('ascii', 0, 4) !== 'PWV1') throw new Error('word vectors: not a PWV1 file');
  const count = file.readUInt32LE(4);
  const dims = file.readUInt32LE(8);
  const listBytes = file.readUInt32LE(12);
  const words = file.toString('utf8', HEADER_BYTES, HEADER_BYTES + listBytes).split('\n');
  const raw = new Int8Array(file.buffer, file.byteOffset + HEADER_BYTES + listBytes, count * dims);
  const harmonic = Math.log(count) + 0.5772;
  const vectors = new Float32Array(count * dims);
  const byTerm = new Map<string, { vector: Float32Array; weight: number }>();
  const surfaceForms = new Set(words);
  for (let i = 0; i < count; i++) {
    const term = termOf(words[i]!);
    // Words arrive most frequent first: a term keeps its most frequent form's vector.
    if (byTerm.has(term)) continue;
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += raw[i * dims + d]! ** 2;
    norm = Math.sqrt(norm) || 1;
    const vector = vectors.subarray(i * dims, (i + 1) * dims);
    for (let d = 0; d < dims; d++) vector[d] = raw[i * dims + d]! / norm;
    const p = 1 / ((i + 1) * harmonic);
    byTerm.set(term, { vector, weight: SIF_A / (SIF_A + p) });
  }
  return {
    dims,
    vectorOf: (term) => byTerm.get(term)?.vector,
    weightOf: (term) => byTerm.get(term)?.weight ?? 1,
    hasWord: (word) => surfaceForms.has(word),
  };
}

/** The dot product of two vectors of the same length. */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
