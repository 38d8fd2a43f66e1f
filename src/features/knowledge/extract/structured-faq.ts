/**
 * The questions and answers a page declares as schema.org `FAQPage` data (JSON-LD), which search
 * engines read and many FAQ pages carry. Pages that draw their FAQ with scripts hold the answers
 * only there, so the ones the visible text lacks are added to it.
 */
import { parseHTML } from 'linkedom';
import { htmlToText, type DomNode } from './html-to-text.ts';

export interface FaqEntry {
  question: string;
  answer: string;
}

/** The FAQ entries of every JSON-LD block in the page's scripts (blocks that do not parse are skipped). */
export function structuredFaq(scripts: string[]): FaqEntry[] {
  const entries: FaqEntry[] = [];
  for (const script of scripts) {
    let data: unknown;
    try {
      data = JSON.parse(script);
    } catch {
      continue;
    }
    collect(data, entries, 0);
  }
  return entries;
}

// JSON-LD nests (`@graph`, arrays, `mainEntity`); a page's data is never deeper than this.
const MAX_DEPTH = 6;

function collect(node: unknown, entries: FaqEntry[], depth: number): void {
  if (depth > MAX_DEPTH || node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) collect(item, entries, depth + 1);
    return;
  }
  const record = node as Record<string, unknown>;
  if (isType(record, 'Question')) {
    const question = plain(record.name ?? record.text);
    const accepted = Array.isArray(record.acceptedAnswer) ? record.acceptedAnswer[0] : record.acceptedAnswer;
    const answer = accepted && typeof accepted === 'object' ? plain((accepted as Record<string, unknown>).text) : '';
    if (question && answer) entries.push({ question, answer });
    return;
  }
  for (const key of ['@graph', 'mainEntity', 'hasPart']) collect(record[key], entries, depth + 1);
}

function isType(record: Record<string, unknown>, type: string): boolean {
  const declared = record['@type'];
  return declared === type || (Array.isArray(declared) && declared.includes(type));
}

/** A JSON-LD text value (it may hold HTML) as plain text. */
function plain(value: unknown): string {
  if (typeof value !== 'string') return '';
  if (!/[<&]/.test(value)) return value.trim();
  const { document } = parseHTML(`<!doctype html><html><body>${value}</body></html>`);
  return htmlToText(document.body as unknown as DomNode).trim();
}

/** The text with each entry it does not already hold added at its end, as a bold question line and its answer. */
export function withFaqEntries(text: string, entries: FaqEntry[]): string {
  const flat = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  const present = flat(text);
  const missing = entries.filter((entry) => !present.includes(flat(entry.answer).slice(0, 80)));
  if (missing.length === 0) return text;
  const added = missing.map((entry) => `**${entry.question.replace(/\s+/g, ' ')}**\n\n${entry.answer}`).join('\n\n');
  return text ? `${text}\n\n${added}` : added;
}
