/**
 * `npm run eval`: loads every business of the evaluation set into a real Parley database (one bot
 * each, documents through the same extraction as uploads), asks `parley-local` every question in
 * strict mode, and prints, for the development part and the held-out part separately: answer
 * accuracy by kind of question, source hit@1 beside a plain BM25 baseline of the same run, refusals
 * of unanswerable questions, wrong refusals, small talk, replies in the wrong language, and time.
 * Failures are listed for the development part only: the held-out part is for reporting.
 *
 * An answer counts when it is not a refusal, cites an expected document first, contains every
 * string of `mustContain` and, when `anyOf` is given, one of those (case-insensitive).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { AnswerBot, Retriever } from '../src/features/answers/answers.types.ts';
import { composeLocalAnswer, readQuestion, type ComposeOptions } from '../src/features/answers/local/local-engine.ts';
import { scoreUnits } from '../src/features/answers/local/scoring.ts';
import { recogniseSmallTalk, stripGreeting, type SmallTalk } from '../src/features/answers/local/small-talk.ts';
import { RANKING_WEIGHTS } from '../src/features/answers/local/ranking-model.ts';
import { fitRanking, informative, topHits, writeRankingModel, type RankingSample } from './fit-ranking.ts';
import { chooseLanguage, detectLanguage } from '../src/features/answers/local/language.ts';
import { isRefusalText, PHRASES, type PhraseLanguage } from '../src/features/answers/local/phrases.ts';
import { extractText } from '../src/features/knowledge/extract/extract-text.ts';
import { createBaselineIndex } from './baseline.ts';
import { loadBusinesses, partOf, sourcesOf, type Business, type Category, type Part, type Question } from './dataset.ts';
import { crossValidate, fitLogistic, writeModel, type Sample } from './fit-answerability.ts';
import { answerProbability } from '../src/features/answers/local/answerability.ts';

// `--fit` fits the sentence ranking, then the answer decision on it; `--fit=answerability` the decision alone.
const FIT = process.argv.some((arg) => arg === '--fit' || arg === '--fit=answerability');
const FIT_RANKING = process.argv.includes('--fit');
const ALWAYS_ANSWER = process.env.EVAL_ALWAYS_ANSWER === '1';
const PLAIN = process.env.EVAL_PLAIN === '1';
const samples: Sample[] = [];

interface Outcome {
  question: Question;
  part: Part;
  ok: boolean;
  refused: boolean;
  hit?: boolean;
  baselineHit?: boolean;
  /** What the answer would have been had the engine not been allowed to refuse. */
  forced?: { hit: boolean; ok: boolean };
  wrongLanguage: boolean;
  /** Asked in another language than the business's knowledge is written in. */
  acrossLanguages: boolean;
  got: string;
  /** Words in the reply when it quotes the knowledge. */
  replyWords?: number;
}

interface Knowledge {
  retriever: Retriever;
  addDocument(botId: string, input: { name: string; content: string }): Promise<unknown>;
}

/** The real stack: a temporary SQLite database, bot rows, and the knowledge service's retrieval. */
async function openRealKnowledge() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-eval-'));
  const { openDatabase } = await import('../src/db/database.ts');
  const { createBotService } = await import('../src/features/bots/bots.service.ts');
  const { createLocalBus } = await import('../src/platform/bus.ts');
  const { systemClock } = await import('../src/platform/clock.ts');
  const { createKnowledgeService } = await import('../src/features/knowledge/knowledge.service.ts');
  const handle = await openDatabase({ dataDir });
  const bus = createLocalBus();
  const accountId = randomUUID();
  await handle.db.insertInto('accounts').values({ id: accountId, name: 'Evaluation', created_at: new Date().toISOString() }).execute();
  const bots = createBotService({ db: handle.db, clock: systemClock, bus, defaultModel: 'parley-local', defaultMonthlyQuota: 10_000 });
  // EVAL_RANKING=fulltext measures retrieval without the embeddings' ranking.
  const rankingWeights = process.env.EVAL_RANKING === 'fulltext' ? { fullText: 1, local: 0, provider: 0 } : undefined;
  const knowledge: Knowledge = createKnowledgeService({ db: handle.db, dialect: handle.dialect, clock: systemClock, rankingWeights });
  return {
    knowledge,
    createBot: async (name: string) => (await bots.create(accountId, { name, welcome_message: '', strict_mode: true })).id,
    async close() {
      await bus.close();
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The phrase language a fixed reply is written in, if it is one of the engine's phrases. */
function phraseLanguage(text: string, botName: string): PhraseLanguage | null {
  for (const [language, p] of Object.entries(PHRASES)) {
    if ([p.dontKnow, p.greeting, p.thanks, p.goodbye, p.acknowledgement, p.human, p.identity(botName)].some((phrase) => text.startsWith(phrase))) return language as PhraseLanguage;
  }
  return null;
}

const short = (s: string, n = 110) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
};

type Stack = Awaited<ReturnType<typeof openRealKnowledge>>;

/** A business made into a bot: its documents added through the same extraction as uploads. */
async function loadBusiness(business: Business, stack: Stack) {
  const botId = await stack.createBot(business.slug);
  const titleOf = new Map<string, string>();
  const texts: { file: string; title: string; text: string }[] = [];
  for (const doc of business.documents) {
    const extracted = await extractText({ body: doc.body, fileName: doc.file });
    const title = extracted.title || doc.file;
    titleOf.set(doc.file, title);
    texts.push({ file: doc.file, title, text: extracted.text });
    // EVAL_PLAIN=1: the knowledge as if pasted from a browser, its headings' "#" and bold "**" gone.
    const content = PLAIN ? extracted.text.replace(/^#+\s*/gm, '').replace(/\*\*/g, '') : extracted.text;
    await stack.knowledge.addDocument(botId, { name: title, content });
  }
  const bot: AnswerBot = {
    id: botId,
    name: business.slug,
    welcome_message: '',
    selected_model: 'parley-local',
    system_instructions: '',
    response_language: '',
    strict_mode: true,
    lead_capture_enabled: false,
  };
  return { bot, titleOf, texts };
}

/** For fitting the ranking: each answerable development question's candidate sentences, labelled. */
async function rankingSamplesOf(business: Business, stack: Stack): Promise<RankingSample[]> {
  const { bot, titleOf } = await loadBusiness(business, stack);
  const samples: RankingSample[] = [];
  for (const question of business.questions) {
    if (partOf(question.id) !== 'development' || question.expect.kind !== 'answer') continue;
    const asked = stripGreeting(question.question.trim());
    const written = detectLanguage(asked) ?? undefined;
    // Scored as the engine scores it: in the language of the knowledge it reaches.
    const { query, passages } = await readQuestion(stack.knowledge.retriever, bot.id, asked, question.history ?? [], written);
    if (!query.searchText) continue;
    const { units } = scoreUnits(query.model, passages);
    const next = (u: (typeof units)[number]) => units.find((v) => v.passage === u.passage && v.index === u.index + 1)?.text ?? '';
    samples.push({
      features: units.map((u) => u.features),
      answers: units.map((u) => answers(question, `${u.text} ${next(u)}`, u.passage.sourceTitle, titleOf)),
    });
  }
  return samples;
}

async function evaluateBusiness(business: Business, stack: Stack, options: ComposeOptions): Promise<Outcome[]> {
  const { bot, titleOf, texts } = await loadBusiness(business, stack);
  const baseline = createBaselineIndex(texts);
  const knowledge = detectLanguage(texts.map((t) => t.text.slice(0, 2000)).join('\n')) ?? 'en';
  const outcomes: Outcome[] = [];
  for (const question of business.questions) {
    const history = question.history ?? [];
    let text = '';
    let sources: { title: string }[];
    if (ALWAYS_ANSWER) {
      // Tuning aid: what the engine would say if it never refused.
      const forced = await composeLocalAnswer(stack.knowledge.retriever, { bot, question: question.question, history }, { ...options, alwaysAnswer: true });
      ({ text, sources } = forced);
    } else {
      ({ text, sources } = await composeLocalAnswer(stack.knowledge.retriever, { bot, question: question.question, history }, options));
    }
    const refused = sources.length === 0 && isRefusalText(text);
    const fixed = sources.length === 0 ? phraseLanguage(text, bot.name) : null;
    // Quoted knowledge is in the documents' language; the engine's own phrases must be in the visitor's.
    const wrongLanguage = fixed !== null ? fixed !== question.language : sources.length === 0 && (detectLanguage(text) ?? question.language) !== question.language;
    const got = refused ? 'refusal' : sources.length ? `[${sources[0]!.title}] ${short(text)}` : `(no source) ${short(text)}`;
    const expect = question.expect;
    const outcome: Outcome = { question, part: partOf(question.id), ok: false, refused, wrongLanguage, acrossLanguages: question.language !== knowledge, got };
    if (sources.length) outcome.replyWords = text.split(/\s+/).filter(Boolean).length;
    if (expect.kind === 'answer') {
      outcome.hit = sourcesOf(expect).map((file) => titleOf.get(file)).includes(sources[0]?.title);
      const searchText = [...history.filter((t) => t.role === 'user').map((t) => t.content), question.question].join(' ');
      outcome.baselineHit = sourcesOf(expect).includes(baseline.best(searchText) ?? '');
      outcome.ok = !refused && answers(question, text, sources[0]?.title, titleOf);
      const forced = await composeLocalAnswer(stack.knowledge.retriever, { bot, question: question.question, history }, { ...options, alwaysAnswer: true });
      const forcedTitles = sourcesOf(expect).map((file) => titleOf.get(file));
      outcome.forced = { hit: forcedTitles.includes(forced.sources[0]?.title), ok: forced.kind === 'answer' && answers(question, forced.text, forced.sources[0]?.title, titleOf) };
    } else if (expect.kind === 'refusal') {
      outcome.ok = refused;
    } else {
      outcome.ok = sources.length === 0 && !refused;
    }
    outcomes.push(outcome);
    if (FIT && outcome.part === 'development' && expect.kind !== 'smalltalk') {
      const forced = await composeLocalAnswer(stack.knowledge.retriever, { bot, question: question.question, history }, { ...options, alwaysAnswer: true });
      const evidence = forced.decision?.evidence;
      if (evidence) samples.push({ evidence, label: expect.kind === 'answer' ? 1 : 0 });
    }
  }
  return outcomes;
}

/** True when the text answers the question: the expected document cited first, every required string in it. */
function answers(question: Question, text: string, firstTitle: string | undefined, titleOf: Map<string, string>): boolean {
  const expect = question.expect;
  if (expect.kind !== 'answer') return false;
  if (!sourcesOf(expect).map((file) => titleOf.get(file)).includes(firstTitle)) return false;
  // PDF text breaks lines inside sentences: compare with white space collapsed.
  const flat = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');
  const lower = flat(text);
  return expect.mustContain.every((s) => lower.includes(flat(s))) && (!expect.anyOf?.length || expect.anyOf.some((s) => lower.includes(flat(s))));
}

const pct = (n: number, d: number) => (d === 0 ? '   n/a' : `${((100 * n) / d).toFixed(1)}%`.padStart(6));
const line = (label: string, n: number, d: number) => `  ${label.padEnd(40)} ${pct(n, d)}  (${n}/${d})`;
const ANSWERABLE: Category[] = ['direct', 'paraphrase', 'followup'];

function report(part: Part, outcomes: Outcome[]): string[] {
  const of = (pred: (o: Outcome) => boolean) => outcomes.filter(pred);
  const answerable = of((o) => o.question.expect.kind === 'answer');
  const unanswerable = of((o) => o.question.expect.kind === 'refusal');
  const refusals = of((o) => o.refused);
  const count = (list: Outcome[], pred: (o: Outcome) => boolean) => list.filter(pred).length;
  const out = [`${part} part: ${outcomes.length} questions`];
  out.push(line('Answer accuracy (answerable)', count(answerable, (o) => o.ok), answerable.length));
  for (const category of ANSWERABLE) {
    const list = answerable.filter((o) => o.question.category === category);
    out.push(line(`  ${category}`, count(list, (o) => o.ok), list.length));
  }
  const foreign = answerable.filter((o) => o.question.language !== 'en');
  out.push(line('  not in English', count(foreign, (o) => o.ok), foreign.length));
  const across = answerable.filter((o) => o.acrossLanguages);
  out.push(line('  across languages', count(across, (o) => o.ok), across.length));
  out.push(line('Source hit@1 (answerable)', count(answerable, (o) => o.hit === true), answerable.length));
  out.push(line('  if it never refused', count(answerable, (o) => o.forced?.hit === true), answerable.length));
  out.push(line('  BM25 baseline hit@1 (MiniSearch)', count(answerable, (o) => o.baselineHit === true), answerable.length));
  out.push(line('Answer accuracy if it never refused', count(answerable, (o) => o.forced?.ok === true), answerable.length));
  out.push(line('Unanswerable questions refused', count(unanswerable, (o) => o.ok), unanswerable.length));
  const acrossUnanswerable = unanswerable.filter((o) => o.acrossLanguages);
  out.push(line('  across languages', count(acrossUnanswerable, (o) => o.ok), acrossUnanswerable.length));
  out.push(line('Answerable questions refused (wrongly)', count(answerable, (o) => o.refused), answerable.length));
  out.push(line('Refusals that were due', count(refusals, (o) => o.question.expect.kind === 'refusal'), refusals.length));
  const smallTalk = of((o) => o.question.expect.kind === 'smalltalk');
  out.push(line('Small talk handled', count(smallTalk, (o) => o.ok), smallTalk.length));
  out.push(line('Replies in a language not used', count(outcomes, (o) => o.wrongLanguage), outcomes.length));
  // Longer replies contain the expected strings more often: the accuracy is read beside this.
  const lengths = outcomes.flatMap((o) => (o.replyWords === undefined ? [] : [o.replyWords])).sort((a, b) => a - b);
  const at = (q: number) => lengths[Math.min(lengths.length - 1, Math.floor(q * lengths.length))] ?? 0;
  out.push(`  ${'Words per quoted reply: median, p90'.padEnd(40)} ${String(at(0.5)).padStart(6)}, ${at(0.9)}`);
  return out;
}

/** The bot the probes below write to: one that mirrors the visitor's language, on its first message. */
const PROBE_BOT: AnswerBot = { id: 'probe', name: 'Probe', welcome_message: '', selected_model: 'parley-local', system_instructions: '', response_language: '', strict_mode: true, lead_capture_enabled: false };

/**
 * The language rule on short messages (eval/language-probes.json): how many would be answered in a
 * language the visitor did not use, with the knowledge in the message's language and with no hint.
 */
function languageProbeReport(): string {
  const probes = JSON.parse(fs.readFileSync(new URL('./language-probes.json', import.meta.url), 'utf8')) as Record<'tuning' | 'measured', [PhraseLanguage, string][]>;
  const out = ['Short messages answered in a language not used (eval/language-probes.json)'];
  for (const set of ['tuning', 'measured'] as const) {
    const wrong = (hint: (language: PhraseLanguage) => PhraseLanguage | null) =>
      probes[set].filter(([language, question]) => chooseLanguage({ bot: PROBE_BOT, question, history: [] }, undefined, hint(language)) !== language).length;
    out.push(`  ${set.padEnd(9)} knowledge in their language ${wrong((l) => l)}/${probes[set].length}, no hint ${wrong(() => null)}/${probes[set].length}`);
  }
  return out.join('\n');
}

/**
 * Small talk in six languages (eval/smalltalk-probes.json, written without the engine's code at
 * hand): how many messages are told right (the kind of small talk, or a question when they ask
 * something), and how many small-talk replies would be in a language the visitor did not use.
 */
function smallTalkProbeReport(): string {
  const probes = JSON.parse(fs.readFileSync(new URL('./smalltalk-probes.json', import.meta.url), 'utf8')) as Record<'tuning' | 'measured', [PhraseLanguage, SmallTalk['kind'] | 'question', string][]>;
  const out = ['Small talk told right (eval/smalltalk-probes.json)'];
  for (const set of ['tuning', 'measured'] as const) {
    let right = 0;
    let wrongLanguage = 0;
    for (const [language, kind, message] of probes[set]) {
      const smallTalk = recogniseSmallTalk(message, PROBE_BOT.name);
      if ((smallTalk?.kind ?? 'question') === kind) right++;
      if (smallTalk && chooseLanguage({ bot: PROBE_BOT, question: message, history: [] }, smallTalk.language ?? undefined) !== language) wrongLanguage++;
    }
    out.push(`  ${set.padEnd(9)} ${right}/${probes[set].length} told right, ${wrongLanguage} replies in a language not used`);
  }
  return out.join('\n');
}

async function main(): Promise<void> {
  const businesses = loadBusinesses().filter((b) => b.questions.length > 0);
  const options: ComposeOptions = {};
  if (FIT_RANKING) {
    // The ranking first: the answer decision is then fitted on what the new ranking quotes.
    const stack = await openRealKnowledge();
    const rankingSamples: RankingSample[] = [];
    try {
      for (const business of businesses) rankingSamples.push(...(await rankingSamplesOf(business, stack)));
    } finally {
      await stack.close();
    }
    const weights = fitRanking(rankingSamples, RANKING_WEIGHTS);
    const used = rankingSamples.filter(informative);
    writeRankingModel(weights, used.length);
    console.log(`Sentence ranking fitted on ${used.length} development questions: [${weights.join(', ')}]`);
    console.log(`  an answering sentence ranked first: ${topHits(used, RANKING_WEIGHTS)} before, ${topHits(used, weights)} after\n`);
    options.rankingWeights = weights;
  }
  const stack = await openRealKnowledge();
  const outcomes: Outcome[] = [];
  const started = performance.now();
  try {
    for (const business of businesses) outcomes.push(...(await evaluateBusiness(business, stack, options)));
  } finally {
    await stack.close();
  }
  const elapsed = performance.now() - started;
  if (FIT) {
    const weights = fitLogistic(samples);
    writeModel(weights, samples.length);
    const positives = samples.filter((s) => s.label === 1).length;
    console.log(`Answerability model fitted on ${samples.length} development questions (${positives} answerable, ${samples.length - positives} not): [${weights.join(', ')}]`);
    for (const threshold of [0.3, 0.4, 0.5, 0.6, 0.65, 0.7, 0.75, 0.8]) {
      const answered = samples.filter((s) => answerProbability(s.evidence, weights) >= threshold);
      const right = answered.filter((s) => s.label === 1).length;
      console.log(`  p ≥ ${threshold}: answers ${right} of ${positives} answerable and ${answered.length - right} of ${samples.length - positives} unanswerable`);
    }
    const { answerable, unanswerable } = crossValidate(samples);
    console.log(`  5-fold cross-validation on the development part: answers ${answerable[0]} of ${answerable[0] + answerable[1]} answerable, refuses ${unanswerable[0]} of ${unanswerable[0] + unanswerable[1]} unanswerable`);
    console.log('Run `npm run eval` again to measure it.\n');
  }
  const documents = businesses.reduce((n, b) => n + b.documents.length, 0);
  const development = outcomes.filter((o) => o.part === 'development');
  const heldOut = outcomes.filter((o) => o.part === 'held-out');

  console.log(`parley-local evaluation: ${businesses.length} businesses, ${documents} documents, ${outcomes.length} questions (strict mode)\n`);
  if (process.env.EVAL_FAILURES !== '0') {
    const failures = development.filter((o) => !o.ok || o.wrongLanguage);
    console.log(`Development failures (${failures.length}):`);
    for (const o of failures) {
      const q = o.question;
      const want = q.expect.kind === 'answer' ? `[${sourcesOf(q.expect).join(', ')}] ${[...q.expect.mustContain, ...(q.expect.anyOf ?? []).map((s) => `~${s}`)].join(' | ')}` : q.expect.kind;
      console.log(`${q.id} (${q.category}, ${q.language}${o.wrongLanguage ? ', WRONG LANGUAGE' : ''}) ${short(q.question, 80)}\n    want ${want}\n    got  ${o.got}`);
    }
    console.log('');
  }
  console.log(report('development', development).join('\n'));
  console.log('');
  console.log(report('held-out', heldOut).join('\n'));
  console.log(`\n${languageProbeReport()}`);
  console.log(`\n${smallTalkProbeReport()}`);
  console.log(`\nMean time per question: ${(elapsed / outcomes.length).toFixed(2)} ms (including loading the documents)`);
  console.log('Targets (held-out): accuracy ≥ 85%, paraphrases ≥ 75%, hit@1 ≥ baseline + 5 points, unanswerable refused ≥ 95%, no reply in a language not used.');
}

await main();
