/**
 * Knowledge figures for `npm run bench`: Form 1 ingestion of a 100,000-character text end to end
 * (HTTP, one request at a time), and retrieval plus a `parley-local` answer over a bot with 1,000
 * sources of about 10,000 characters each (in process, over a real SQLite database).
 */
import { randomUUID } from 'node:crypto';
import { openDatabase } from '../src/db/database.ts';
import { systemClock } from '../src/platform/clock.ts';
import { createKnowledgeService } from '../src/features/knowledge/knowledge.service.ts';
import { createLocalEngine } from '../src/features/answers/local/local-engine.ts';
import type { AnswerBot } from '../src/features/answers/answers.types.ts';
import { makeTempDir } from './lib.ts';

export interface LatencyRow {
  name: string;
  samples: number;
  p50: number;
  p95: number;
  /** None for a figure shown for scale only. */
  target?: { percentile: 'p50' | 'p95'; maxMs: number };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function row(name: string, times: number[], target?: LatencyRow['target']): LatencyRow {
  return { name, samples: times.length, p50: percentile(times, 50), p95: percentile(times, 95), target };
}

// A vocabulary with a long tail, so that texts share common words and differ in rare ones.
const WORDS = Array.from({ length: 6000 }, (_, i) => {
  const syllables = ['ka', 'lo', 'mi', 'ter', 'sun', 'bar', 'vel', 'dor', 'pin', 'qua', 'ren', 'sto', 'lum', 'fax', 'gri'];
  let word = '';
  for (let n = i + 7; n > 0; n = Math.floor(n / syllables.length)) word += syllables[n % syllables.length];
  return word;
});

export function pseudoRandom(seed: number): () => number {
  let state = seed;
  return () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
}

/** Markdown-like text of about `chars` characters: headings, paragraphs, sentences with numbers. */
export function makeDocument(chars: number, seed: number): string {
  const random = pseudoRandom(seed);
  const word = () => WORDS[Math.floor(Math.pow(random(), 2.2) * WORDS.length)]!;
  const parts: string[] = [];
  let length = 0;
  while (length < chars) {
    const heading = `## ${word()} ${word()}`;
    parts.push(heading);
    length += heading.length;
    for (let p = 0; p < 3 && length < chars; p++) {
      const sentences = Array.from({ length: 4 }, () => {
        const words = Array.from({ length: 8 + Math.floor(random() * 10) }, word);
        words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
        return `${words.join(' ')} ${Math.floor(random() * 100)} days.`;
      });
      const paragraph = sentences.join(' ');
      parts.push(paragraph);
      length += paragraph.length;
    }
  }
  return parts.join('\n\n').slice(0, chars);
}

/** Form 1 ingestion through the running service, one request at a time. */
export async function measureIngestion(parleyUrl: string, writeKey: string, count = 20): Promise<LatencyRow> {
  const text = makeDocument(100_000, 7);
  const times: number[] = [];
  for (let i = 0; i < count + 2; i++) {
    const started = performance.now();
    const res = await fetch(`${parleyUrl}/api/v1/knowledge`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writeKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'text', name: `Handbook ${i}`, content: text }),
    });
    await res.text();
    if (res.status !== 200) throw new Error(`ingestion answered ${res.status}`);
    if (i >= 2) times.push(performance.now() - started); // the first two warm up
  }
  return row('Form 1 ingestion, 100,000 characters (HTTP)', times, { percentile: 'p50', maxMs: 100 });
}

/** Retrieval plus a parley-local answer over 1,000 sources of ~10,000 characters. */
export async function measureLocalAnswers(sources = 1000, questions = 300): Promise<LatencyRow> {
  const dataDir = makeTempDir('parley-bench-knowledge-');
  const database = await openDatabase({ dataDir });
  const { db, dialect } = database;
  const now = new Date().toISOString();
  const accountId = randomUUID();
  const botId = randomUUID();
  await db.insertInto('accounts').values({ id: accountId, name: 'bench', created_at: now }).execute();
  await db
    .insertInto('bots')
    .values({
      id: botId, account_id: accountId, name: 'Bench', welcome_message: 'Hi!', primary_color: '#2563eb', selected_model: 'parley-local',
      system_instructions: '', widget_style: 'classic', response_language: 'en', strict_mode: 1, lead_capture_enabled: 0, lead_fields: '[]',
      calendar_scheduling_enabled: 0, meeting_provider: null, meeting_url: null, allowed_domains: '[]', paused: 0, monthly_message_quota: 1000,
      created_at: now, updated_at: now,
    })
    .execute();
  const knowledge = createKnowledgeService({ db, dialect, clock: systemClock });
  const docs: string[] = [];
  for (let i = 0; i < sources; i++) {
    const doc = makeDocument(10_000, 1000 + i);
    docs.push(doc);
    await knowledge.addText(botId, { name: `Source ${i}`, content: doc });
  }
  const engine = createLocalEngine({ retriever: knowledge.retriever });
  const bot: AnswerBot = {
    id: botId, name: 'Bench', welcome_message: 'Hi!', selected_model: 'parley-local', system_instructions: '',
    response_language: 'en', strict_mode: true, lead_capture_enabled: false,
  };
  const random = pseudoRandom(99);
  const times: number[] = [];
  for (let q = 0; q < questions + 20; q++) {
    // A question made of words from one sentence of a random source.
    const sentences = docs[Math.floor(random() * docs.length)]!.split(/(?<=\.)\s+/).filter((s) => !s.startsWith('#'));
    const words = sentences[Math.floor(random() * sentences.length)]!.split(/\s+/).slice(0, 6);
    const question = `What about ${words.join(' ').replace(/[.\d]/g, '')}?`;
    const started = performance.now();
    const stream = await engine.answer({ bot, question, history: [] });
    for await (const _chunk of stream.chunks) {
      // consume the whole answer
    }
    stream.sources();
    if (q >= 20) times.push(performance.now() - started);
  }
  await database.close();
  return row(`retrieval + parley-local answer, ${sources} sources x 10,000 chars (in process)`, times, { percentile: 'p95', maxMs: 20 });
}
