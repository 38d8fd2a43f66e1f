/**
 * Nearest passages by embedding: each bot's vectors of one model held in memory as one matrix and
 * searched by brute force (a thousand sources make a few thousand rows: well under a millisecond).
 * A knowledge change drops the bot's matrices; they also expire, in case a notice was missed.
 */
import { decodeVector } from '../answers/semantic/embeddings.ts';

export interface VectorHit {
  id: string;
  score: number;
}

interface Matrix {
  ids: string[];
  values: Float32Array;
  dims: number;
  loadedAt: number;
}

export interface VectorIndexDeps {
  load(botId: string, model: string): Promise<{ passage_id: string; vector: Uint8Array }[]>;
  now(): number;
  ttlMs?: number;
}

export type VectorIndex = ReturnType<typeof createVectorIndex>;

export function createVectorIndex({ load, now, ttlMs = 60_000 }: VectorIndexDeps) {
  const matrices = new Map<string, Promise<Matrix>>();
  const keyOf = (botId: string, model: string) => `${botId}\u0000${model}`;

  async function build(botId: string, model: string): Promise<Matrix> {
    // Empty vectors mark passages the model had nothing to say about.
    const rows = (await load(botId, model)).filter((r) => r.vector.byteLength > 0);
    const vectors = rows.map((r) => decodeVector(r.vector));
    const dims = vectors[0]?.length ?? 0;
    const values = new Float32Array(rows.length * dims);
    vectors.forEach((v, i) => values.set(v, i * dims));
    return { ids: rows.map((r) => r.passage_id), values, dims, loadedAt: now() };
  }

  async function matrixOf(botId: string, model: string): Promise<Matrix> {
    const key = keyOf(botId, model);
    let matrix = matrices.get(key);
    if (matrix) {
      const loaded = await matrix.catch(() => undefined);
      if (loaded && now() - loaded.loadedAt < ttlMs) return loaded;
      if (matrices.get(key) === matrix) matrices.delete(key);
    }
    matrix = build(botId, model);
    matrices.set(key, matrix);
    return matrix;
  }

  return {
    /** The bot's passages closest to the query vector, best first, at least `minScore` each. */
    async nearest(botId: string, model: string, query: Float32Array, limit: number, minScore: number): Promise<VectorHit[]> {
      const { ids, values, dims } = await matrixOf(botId, model);
      if (dims !== query.length) return [];
      // The best `limit` kept in order as the rows go by: no sort of every row above the floor.
      const hits: VectorHit[] = [];
      let floor = minScore;
      for (let row = 0; row < ids.length; row++) {
        let score = 0;
        const base = row * dims;
        for (let d = 0; d < dims; d++) score += values[base + d]! * query[d]!;
        if (score < floor) continue;
        let at = hits.length;
        while (at > 0 && hits[at - 1]!.score < score) at--;
        hits.splice(at, 0, { id: ids[row]!, score });
        if (hits.length > limit) {
          hits.pop();
          floor = hits[hits.length - 1]!.score;
        }
      }
      return hits;
    },

    /** Drops the bot's matrices: its knowledge changed. */
    forget(botId: string): void {
      for (const key of matrices.keys()) if (key.startsWith(`${botId}\u0000`)) matrices.delete(key);
    },
  };
}
