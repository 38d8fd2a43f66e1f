/**
 * Splitting passage text into the units `parley-local` can quote: sentences of paragraphs, list
 * items, and table rows (read with their column headers). Headings are context, never quoted.
 */

/** One quotable piece of a passage, with the text exactly as written (list markers aside). */
export interface TextUnit {
  text: string;
  /** A list item or table row: a fragment that may lack a subject or final stop. */
  listItem: boolean;
  /** The nearest markdown heading above the unit inside the passage ('' when none). */
  localHeading: string;
  /** For a later sentence of a list item: how many units back the item's first sentence is (0 otherwise). */
  itemOffset: number;
  /** A list item's marker as written ("1." for a numbered one, "-" for any bullet); '' otherwise (table rows too). */
  marker: string;
}

const LIST_MARKER = /^\s*(?:[-*+•]|\d{1,2}[.)])\s+/;
const HEADING = /^\s*#{1,6}\s+(.*)$/;
export const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}/;
const BOLD_LINE = /^\*\*([^*]+)\*\*$/;
// A question alone on its line; a capitalised line of a few words without a stop (a question ends with one).
const QUESTION_LINE = /^(?![-*+•|]\s)[^.!?]{3,150}\?$/;
const TITLE_LINE = /^(?![-*+•|]\s)\p{Lu}[^.!,;:?]{0,80}[^.!,;:?\s]$/u;

/**
 * Whether line i of a text is a title that lost its formatting (pasted text, a PDF): a short
 * capitalised line without a stop, alone between blank lines, with a paragraph after it.
 */
export function isTitleLine(lines: string[], i: number): boolean {
  return TITLE_LINE.test(lines[i]!.trim()) && !lines[i - 1]?.trim() && !lines[i + 1]?.trim() && Boolean(lines[i + 2]?.trim());
}
const ABBREVIATIONS = new Set(['mr', 'mrs', 'ms', 'dr', 'st', 'no', 'vs', 'etc', 'approx', 'inc', 'ltd', 'co', 'jr', 'sr', 'fig', 'ca', 'ave', 'nr', 'sra', 'sr', 'mme', 'bzw', 'usw', 'ggf', 'z']);

/** Splits a passage into quotable units, in order. */
export function splitUnits(text: string): TextUnit[] {
  const units: TextUnit[] = [];
  let localHeading = '';
  let tableHeader: string[] | null = null;
  const lines = logicalLines(text);
  lines.forEach((line, at) => {
    if (!line) {
      tableHeader = null;
      return;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      localHeading = heading[1]!.trim();
      tableHeader = null;
      return;
    }
    if (line.startsWith('|')) {
      const cells = tableCells(line);
      if (TABLE_SEPARATOR.test(line)) return;
      if (!tableHeader) {
        tableHeader = cells;
        return;
      }
      units.push({ text: tableRow(tableHeader, cells), listItem: true, localHeading, itemOffset: 0, marker: '' });
      return;
    }
    tableHeader = null;
    // A line all in bold titles what follows (an FAQ's question): quoted, and context for the answer
    // after it. So does, in text pasted without its formatting, a question alone on its line or a
    // short line without a stop standing alone before a paragraph (a heading that lost its "#").
    const title = BOLD_LINE.exec(line);
    if (title) localHeading = title[1]!.trim();
    else if (QUESTION_LINE.test(line) || isTitleLine(lines, at)) localHeading = line;
    const marker = LIST_MARKER.exec(line);
    const body = marker ? line.slice(marker[0].length) : line;
    const written = marker ? (/\d/.test(marker[0]) ? marker[0].trim() : '-') : '';
    splitSentences(body).forEach((sentence, i) => units.push({ text: sentence, listItem: Boolean(marker), localHeading, itemOffset: marker ? i : 0, marker: written }));
  });
  return units;
}

// A line that goes on with a small letter continues a sentence the line before left open.
const CONTINUES = /^\p{Ll}/u;
const CLOSED = /[.!?:;|]["'”’)*_]*$/;

/**
 * The text's lines, trimmed, with a sentence wrapped over several lines (PDF text, a plain-text
 * email) joined back into one: "…in CSV and JSON formats, including projects, tasks," and "comments
 * and attachments." are one sentence.
 */
function logicalLines(text: string): string[] {
  const lines: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const previous = lines.at(-1);
    if (line && previous && CONTINUES.test(line) && !CLOSED.test(previous) && !HEADING.test(previous) && !previous.startsWith('|')) {
      lines[lines.length - 1] = `${previous} ${line}`;
    } else lines.push(line);
  }
  return lines;
}

function tableCells(line: string): string[] {
  return line
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());
}

/** A row as "First cell — Header: value; Header: value", so each value keeps its meaning. */
function tableRow(header: string[], cells: string[]): string {
  const [first = '', ...rest] = cells;
  // One value across every column (a cell spanning them all, "$15" for every size) is said once.
  if (rest.length > 1 && rest[0] && rest.every((cell) => cell === rest[0])) return `${header[0] ? `${header[0]}: ${first}` : first} — ${rest[0]}`;
  const pairs = rest.map((cell, i) => (header[i + 1] ? `${header[i + 1]}: ${cell}` : cell)).filter((p) => p.trim() !== '');
  const lead = header[0] ? `${header[0]}: ${first}` : first;
  return pairs.length ? `${lead} — ${pairs.join('; ')}` : lead;
}

/** Splits a paragraph into sentences at terminal punctuation, leaving abbreviations and decimals alone. */
export function splitSentences(paragraph: string): string[] {
  const out: string[] = [];
  const boundary = /[.!?…]+["'”’)\]]*\s+(?=["'“‘(¿¡]?[\p{Lu}\p{N}])/gu;
  let start = 0;
  for (let m = boundary.exec(paragraph); m; m = boundary.exec(paragraph)) {
    const before = paragraph.slice(start, m.index + 1);
    const lastToken = /(\S+)$/.exec(before)?.[1] ?? '';
    if (isAbbreviation(lastToken)) continue;
    const sentence = paragraph.slice(start, m.index + m[0].length).trim();
    if (sentence) out.push(sentence);
    start = m.index + m[0].length;
  }
  const rest = paragraph.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

function isAbbreviation(token: string): boolean {
  const bare = token.replace(/^["'“‘(*_]+/, '');
  // "a.m.", "e.g.", "U.S." and single initials such as "J."
  if (/^(?:\p{L}\.){2,}$/u.test(bare) || /^\p{Lu}\.$/u.test(bare)) return true;
  return ABBREVIATIONS.has(bare.replace(/\.+$/, '').toLowerCase());
}
