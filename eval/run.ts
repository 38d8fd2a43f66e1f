/**
 * `npm run eval`: loads the Kestrel Cycles help centre into a real Parley database and retrieval
 * (or, with EVAL_RETRIEVER=memory, an in-memory BM25 index), asks `parley-local` every question of
 * questions.json in strict mode, and prints answer accuracy, correct refusals, small talk handled
 * and source hit@1, with the failures.
 *
 * Expectations: `answer` counts when the reply is not a refusal, cites the expected document
 * first, contains every string of `mustContain` and, when `anyOf` is given, at least one of those
 * (case-insensitive). `refusal` counts when nothing is cited and the reply is the don't-know
 * phrase. `smalltalk` counts when nothing is cited and the reply is not a refusal.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { AnswerBot, ChatTurn, Retriever } from '../src/features/answers/answers.types.ts';
import { createLocalEngine } from '../src/features/answers/local/local-engine.ts';
import { PHRASES } from '../src/features/answers/local/phrases.ts';
import { createMemoryRetriever } from './memory-retriever.ts';

type Expectation =
  | { kind: 'answer'; source: string; mustContain: string[]; anyOf?: string[] }
  | { kind: 'refusal' }
  | { kind: 'smalltalk' };

interface Question {
  id: string;
  question: string;
  history?: ChatTurn[];
  expect: Expectation;
}

interface Knowledge {
  retriever: Retriever;
  addText(botId: string, input: { name: string; content: string }): Promise<unknown>;
}

const here = path.dirname(new URL(import.meta.url).pathname);

function loadCorpus(): { file: string; title: string; content: string }[] {
  const dir = path.join(here, 'corpus');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((file) => {
      const content = fs.readFileSync(path.join(dir, file), 'utf8');
      const title = /^#\s+(.+)$/m.exec(content)?.[1]?.trim() ?? file;
      return { file, title, content };
    });
}

/** The real stack: a temporary SQLite database, a bot row, and the knowledge service's retrieval. */
async function openRealKnowledge(bot: AnswerBot): Promise<{ knowledge: Knowledge; close(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-eval-'));
  const { openDatabase } = await import('../src/db/database.ts');
  const { createBotService } = await import('../src/features/bots/bots.service.ts');
  const { createLocalBus } = await import('../src/platform/bus.ts');
  const { systemClock } = await import('../src/platform/clock.ts');
  const { createKnowledgeService } = await import('../src/features/knowledge/knowledge.service.ts');
  const handle = await openDatabase({ dataDir });
  const bus = createLocalBus();
  const accountId = randomUUID();
  await handle.db.insertInto('accounts').values({ id: accountId, name: 'Kestrel Cycles', created_at: new Date().toISOString() }).execute();
  const bots = createBotService({ db: handle.db, clock: systemClock, bus, defaultModel: 'parley-local', defaultMonthlyQuota: 10_000 });
  const created = await bots.create(accountId, { name: bot.name, welcome_message: bot.welcome_message, strict_mode: true });
  bot.id = created.id;
  const knowledge = createKnowledgeService({ db: handle.db, dialect: handle.dialect, clock: systemClock });
  return {
    knowledge,
    async close() {
      await bus.close();
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function isRefusal(text: string): boolean {
  return Object.values(PHRASES).some((p) => text.startsWith(p.dontKnow));
}

const pct = (n: number, d: number) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`);
const short = (s: string, n = 110) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
};

async function main(): Promise<void> {
  const mode = process.env.EVAL_RETRIEVER === 'memory' ? 'memory' : 'real';
  const corpus = loadCorpus();
  const titleOf = new Map(corpus.map((d) => [d.file, d.title]));
  const questions: Question[] = JSON.parse(fs.readFileSync(path.join(here, 'questions.json'), 'utf8'));
  const bot: AnswerBot = {
    id: randomUUID(),
    name: 'Kestrel help',
    welcome_message: "Hi! I'm the Kestrel Cycles assistant. What can I do for you?",
    selected_model: 'parley-local',
    system_instructions: '',
    response_language: '',
    strict_mode: true,
    lead_capture_enabled: false,
  };

  let knowledge: Knowledge;
  let close = async () => {};
  if (mode === 'memory') knowledge = createMemoryRetriever();
  else ({ knowledge, close } = await openRealKnowledge(bot));
  for (const doc of corpus) await knowledge.addText(bot.id, { name: doc.title, content: doc.content });

  const engine = createLocalEngine({ retriever: knowledge.retriever });
  const tally: Record<'answer' | 'hit' | 'refusal' | 'smalltalk', { ok: number; of: number }> = {
    answer: { ok: 0, of: 0 },
    hit: { ok: 0, of: 0 },
    refusal: { ok: 0, of: 0 },
    smalltalk: { ok: 0, of: 0 },
  };
  const count = (key: keyof typeof tally, ok: boolean) => {
    tally[key].of++;
    if (ok) tally[key].ok++;
  };
  const failures: string[] = [];
  const started = performance.now();

  for (const q of questions) {
    const stream = await engine.answer({ bot, question: q.question, history: q.history ?? [] });
    let text = '';
    for await (const chunk of stream.chunks) text += chunk;
    const sources = stream.sources();
    const refused = sources.length === 0 && isRefusal(text);
    const got = refused ? 'refusal' : sources.length ? `[${sources[0]!.title}] ${short(text)}` : `(no source) ${short(text)}`;
    const expect = q.expect;
    let ok: boolean;
    if (expect.kind === 'answer') {
      const lower = text.toLowerCase();
      const hit = sources[0]?.title === titleOf.get(expect.source);
      const contains =
        expect.mustContain.every((s) => lower.includes(s.toLowerCase())) &&
        (!expect.anyOf?.length || expect.anyOf.some((s) => lower.includes(s.toLowerCase())));
      ok = !refused && hit && contains;
      count('hit', hit);
      count('answer', ok);
      if (!ok) failures.push(`${q.id} ${short(q.question, 70)}\n    want [${titleOf.get(expect.source)}] ${[...expect.mustContain, ...(expect.anyOf ?? []).map((s) => `~${s}`)].join(' | ')}\n    got  ${got}`);
    } else {
      ok = expect.kind === 'refusal' ? refused : sources.length === 0 && !refused;
      count(expect.kind, ok);
      if (!ok) failures.push(`${q.id} ${short(q.question, 70)}\n    want ${expect.kind}\n    got  ${got}`);
    }
  }
  const elapsed = performance.now() - started;
  await close();

  const line = (label: string, { ok, of }: { ok: number; of: number }) => `${label.padEnd(34)} ${pct(ok, of).padStart(6)}  (${ok}/${of})`;
  console.log(`parley-local evaluation — ${corpus.length} documents, ${questions.length} questions, ${mode} retrieval\n`);
  if (failures.length) console.log(`Failures:\n${failures.join('\n')}\n`);
  console.log(line('Answer accuracy (answerable)', tally.answer));
  console.log(line('Source hit@1 (answerable)', tally.hit));
  console.log(line('Correct refusals (unanswerable)', tally.refusal));
  console.log(line('Small talk handled', tally.smalltalk));
  console.log(`${'Mean time per question'.padEnd(34)} ${(elapsed / questions.length).toFixed(2)} ms`);
  console.log('Targets: accuracy ≥ 80%, refusals ≥ 90%, hit@1 ≥ 85%.');
}

await main();
