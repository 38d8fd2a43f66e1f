/**
 * The evaluation set: fictional businesses under `corpus/<business>/` (Markdown, HTML, CSV and PDF
 * documents in six languages) and the questions written for each one from its documents alone
 * (`questions/<business>.json`), split once and for all into a development part and a held-out part.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ChatTurn } from '../src/features/answers/answers.types.ts';
import type { PhraseLanguage } from '../src/features/answers/local/phrases.ts';

/** What a question's reply must be. */
export type Expectation =
  | {
      kind: 'answer';
      /** The document (file name) that answers it; several when the fact is stated in more than one. */
      source: string | string[];
      /** Strings that must all appear in the reply (case-insensitive). */
      mustContain: string[];
      /** When given, at least one of these must appear too. */
      anyOf?: string[];
    }
  | { kind: 'refusal' }
  | { kind: 'smalltalk' };

export type Category = 'direct' | 'paraphrase' | 'followup' | 'unanswerable' | 'smalltalk';

export interface Question {
  id: string;
  category: Category;
  /** The language the visitor writes in, and so the language every reply must be in. */
  language: PhraseLanguage;
  question: string;
  history?: ChatTurn[];
  expect: Expectation;
}

export interface Document {
  /** File name inside the business folder. */
  file: string;
  body: Buffer;
}

export interface Business {
  slug: string;
  documents: Document[];
  questions: Question[];
}

export type Part = 'development' | 'held-out';

const here = path.dirname(new URL(import.meta.url).pathname);
const DOCUMENT = /\.(?:md|csv|pdf|html)$/;

/**
 * The held-out part is about two questions in five, chosen by a hash of the question's id: stable
 * when questions are added, and not chosen by looking at how the engine does on them.
 */
export function partOf(questionId: string): Part {
  const byte = createHash('sha256').update(`parley-eval:${questionId}`).digest()[0]!;
  return byte % 5 < 2 ? 'held-out' : 'development';
}

/** Every business with its documents and questions, in name order. */
export function loadBusinesses(): Business[] {
  const corpus = path.join(here, 'corpus');
  return fs
    .readdirSync(corpus, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((slug) => {
      const dir = path.join(corpus, slug);
      const documents = fs
        .readdirSync(dir)
        .filter((file) => DOCUMENT.test(file))
        .sort()
        .map((file) => ({ file, body: fs.readFileSync(path.join(dir, file)) }));
      const questionsFile = path.join(here, 'questions', `${slug}.json`);
      const questions: Question[] = fs.existsSync(questionsFile) ? JSON.parse(fs.readFileSync(questionsFile, 'utf8')) : [];
      for (const q of questions) checkQuestion(q, slug, documents);
      return { slug, documents, questions };
    });
}

function checkQuestion(q: Question, slug: string, documents: Document[]): void {
  const where = `${slug}: question ${q.id}`;
  if (!q.id || !q.question || !q.category || !q.language || !q.expect) throw new Error(`${where} lacks a field`);
  if (q.expect.kind !== 'answer') return;
  for (const file of sourcesOf(q.expect)) {
    if (!documents.some((d) => d.file === file)) throw new Error(`${where} names a document that does not exist: ${file}`);
  }
}

/** The documents an answer may cite first. */
export function sourcesOf(expect: Extract<Expectation, { kind: 'answer' }>): string[] {
  return Array.isArray(expect.source) ? expect.source : [expect.source];
}
