/**
 * An in-memory BM25 retriever for the evaluation (`EVAL_RETRIEVER=memory`): the knowledge
 * module's own chunking, Porter-stemmed terms and field weights like the FTS5 index (title 2,
 * heading 1.5, body 1), OR semantics over the query's words.
 */
import { randomUUID } from 'node:crypto';
import { stemmer } from 'stemmer';
import type { RetrievedPassage, Retriever } from '../src/features/answers/answers.types.ts';
import { chunkText } from '../src/features/knowledge/chunking.ts';

interface Doc {
  passage: Omit<RetrievedPassage, 'score'>;
  tf: Map<string, number>;
  length: number;
}

const K1 = 1.2;
const B = 0.75;

function tokens(text: string): string[] {
  return (text.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => stemmer(w));
}

/** A retriever over sources added in memory, one index per bot. */
export function createMemoryRetriever() {
  const bots = new Map<string, Doc[]>();

  const retriever: Retriever = {
    async search(botId, query, limit) {
      const docs = bots.get(botId) ?? [];
      const terms = [...new Set(tokens(query))].slice(0, 32);
      const avg = docs.reduce((n, d) => n + d.length, 0) / Math.max(1, docs.length);
      const scored = docs.map((doc) => {
        let score = 0;
        for (const term of terms) {
          const f = doc.tf.get(term) ?? 0;
          if (f === 0) continue;
          const df = docs.filter((d) => d.tf.has(term)).length;
          const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
          score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * doc.length) / avg));
        }
        return { doc, score };
      });
      return scored
        .filter((s) => s.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, limit)
        .map((s) => ({ ...s.doc.passage, score: s.score }));
    },
  };

  return {
    retriever,
    /** Chunks and indexes one text source of a bot. */
    async addText(botId: string, input: { name: string; content: string }): Promise<void> {
      const docs = bots.get(botId) ?? [];
      const sourceId = randomUUID();
      for (const chunk of chunkText(input.content)) {
        const tf = new Map<string, number>();
        const fields: [string, number][] = [[input.name, 2], [chunk.heading, 1.5], [chunk.text, 1]];
        let length = 0;
        for (const [text, weight] of fields) {
          for (const t of tokens(text)) {
            tf.set(t, (tf.get(t) ?? 0) + weight);
            length += weight;
          }
        }
        const passage = { passageId: randomUUID(), sourceId, sourceTitle: input.name, sourceUrl: '', heading: chunk.heading, text: chunk.text };
        docs.push({ passage, tf, length });
      }
      bots.set(botId, docs);
    },
  };
}
