/**
 * Text embeddings: vectors whose cosine says how close two texts are in meaning. `parley-local`'s own
 * embedding (offline, from word vectors) always exists; a provider's embedding model is added when
 * one is configured. Retrieval fuses their rankings with the full-text one.
 */
import { contentTerms } from '../local/text.ts';
import { englishWordVectors, type WordVectors } from './word-vectors.ts';

/** Turns texts into unit vectors (null for a text it has nothing to say about). */
export interface Embedder {
  /** Stored with every vector, so that vectors of different models are never compared. */
  readonly model: string;
  embed(texts: string[], signal?: AbortSignal): Promise<(Float32Array | null)[]>;
}

/** The model name of `parley-local`'s offline embedding. */
export const LOCAL_EMBEDDING_MODEL = 'parley-local:glove-100';

/**
 * A text's embedding from word vectors: the mean of its content terms' vectors, each weighted by how
 * rare the word is in general English, scaled to unit length; null when no term has a vector.
 */
export function embedLocally(text: string, vectors: WordVectors = englishWordVectors()): Float32Array | null {
  return embedTerms(contentTerms(text), vectors);
}

/** The same from English terms already read (`contentTerms`), such as a translated question's. */
export function embedTerms(terms: Iterable<string>, vectors: WordVectors = englishWordVectors()): Float32Array | null {
  const sum = new Float32Array(vectors.dims);
  let found = 0;
  for (const term of terms) {
    const vector = vectors.vectorOf(term);
    if (!vector) continue;
    const weight = vectors.weightOf(term);
    for (let d = 0; d < sum.length; d++) sum[d]! += weight * vector[d]!;
    found++;
  }
  return found === 0 ? null : normalised(sum);
}

/** `parley-local`'s embedder: synchronous work behind the common interface (the vectors are read now, at start-up, not on the first question). */
export function createLocalEmbedder(vectors: WordVectors = englishWordVectors()): Embedder {
  return {
    model: LOCAL_EMBEDDING_MODEL,
    async embed(texts) {
      return texts.map((text) => embedLocally(text, vectors));
    },
  };
}

/** The vector scaled to unit length (a zero vector stays zero). */
export function normalised(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let d = 0; d < vector.length; d++) vector[d]! /= norm;
  return vector;
}

/** A vector as stored: little-endian float32 bytes. */
export function encodeVector(vector: Float32Array): Buffer {
  const out = Buffer.alloc(vector.length * 4);
  vector.forEach((x, i) => out.writeFloatLE(x, i * 4));
  return out;
}

/** A stored vector read back. */
export function decodeVector(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(bytes.byteLength / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}
