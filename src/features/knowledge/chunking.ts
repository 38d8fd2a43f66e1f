/**
 * Splits a source's text into passages of a few hundred words, at headings first, then paragraphs,
 * then sentences, keeping each passage's heading path.
 */
import { isTitleLine, splitSentences as splitIntoSentences, TABLE_SEPARATOR } from '../answers/local/sentences.ts';

export interface Passage {
  /** Heading path, e.g. "Shipping > International" ('' before the first heading). */
  heading: string;
  text: string;
}

const TARGET_WORDS = 220;
const MAX_WORDS = 320;

const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Sentences of a paragraph, white space folded (the splitter parley-local quotes from). */
export function splitSentences(paragraph: string): string[] {
  return splitIntoSentences(paragraph.replace(/\s+/g, ' '));
}

/** Sections of markdown-like text: each heading starts one, with its path of parent headings. */
function sections(text: string): { heading: string; paragraphs: string[] }[] {
  const out: { heading: string; paragraphs: string[] }[] = [];
  const path: string[] = [];
  let current = { heading: '', paragraphs: [] as string[] };
  let paragraph: string[] = [];
  const endParagraph = () => {
    if (paragraph.length > 0) current.paragraphs.push(paragraph.join('\n').trim());
    paragraph = [];
  };
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  // Text pasted without its formatting has lost its "#": a short line standing alone before a
  // paragraph titles a section. It stays in the text as well (it may be a fact: "Closed on Sundays").
  const plain = !lines.some((line) => HEADING.test(line));
  lines.forEach((line, i) => {
    if (plain && isTitleLine(lines, i)) {
      endParagraph();
      if (current.paragraphs.length > 0) out.push(current);
      current = { heading: line.trim(), paragraphs: [line.trim()] };
      return;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      endParagraph();
      if (current.paragraphs.length > 0) out.push(current);
      const level = heading[1]!.length;
      path.length = Math.min(path.length, level - 1);
      path[level - 1] = heading[2]!;
      current = { heading: path.filter(Boolean).join(' > '), paragraphs: [] };
    } else if (line.trim() === '') {
      endParagraph();
    } else {
      paragraph.push(line);
    }
  });
  endParagraph();
  if (current.paragraphs.length > 0) out.push(current);
  return out;
}

/**
 * Pieces of at most MAX_WORDS: a long paragraph is cut between sentences, a long list or table
 * between its lines (a table's header and separator then start every piece, so that each row keeps
 * its column names).
 */
function pieces(paragraph: string): string[] {
  if (wordCount(paragraph) <= MAX_WORDS) return [paragraph];
  const lines = paragraph.split('\n');
  // A list or table (its first line may introduce it); other lines are prose wrapped in the source.
  if (lines.length > 2 && lines.slice(1).every((line) => LIST_OR_ROW.test(line))) return linePieces(lines);
  return sentencePieces(paragraph);
}

const LIST_OR_ROW = /^\s*(?:[-*+•]|\d{1,3}[.)]|\|)\s/;

function linePieces(lines: string[]): string[] {
  const header = lines.length > 2 && lines[0]!.trimStart().startsWith('|') && TABLE_SEPARATOR.test(lines[1]!) ? lines.slice(0, 2) : [];
  const headerWords = wordCount(header.join(' '));
  const out: string[] = [];
  let current: string[] = [];
  let words = headerWords;
  const flush = () => {
    if (current.length > 0) out.push([...header, ...current].join('\n'));
    current = [];
    words = headerWords;
  };
  for (const line of lines.slice(header.length)) {
    for (const part of wordCount(line) > MAX_WORDS ? sentencePieces(line) : [line]) {
      const n = wordCount(part);
      if (words + n > TARGET_WORDS && current.length > 0) flush();
      current.push(part);
      words += n;
    }
  }
  flush();
  return out;
}

function sentencePieces(paragraph: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let words = 0;
  for (const sentence of splitSentences(paragraph)) {
    const n = wordCount(sentence);
    if (words + n > TARGET_WORDS && current.length > 0) {
      out.push(current.join(' '));
      current = [];
      words = 0;
    }
    current.push(sentence);
    words += n;
  }
  if (current.length > 0) out.push(current.join(' '));
  return out;
}

/** The passages of a text, in order. */
export function chunkText(text: string): Passage[] {
  const passages: Passage[] = [];
  for (const section of sections(text)) {
    let current: string[] = [];
    let words = 0;
    const flush = () => {
      if (current.length > 0) passages.push({ heading: section.heading, text: current.join('\n\n') });
      current = [];
      words = 0;
    };
    for (const paragraph of section.paragraphs) {
      for (const piece of pieces(paragraph)) {
        const n = wordCount(piece);
        if (words + n > TARGET_WORDS && current.length > 0) flush();
        current.push(piece);
        words += n;
      }
    }
    flush();
  }
  return passages;
}
