/**
 * Documents the visitor attached to the session, as passages `parley-local` scores beside the
 * retrieved ones: each document's text is chunked like a knowledge source, and the few chunks
 * sharing most of the question's weighted terms are kept, titled with the file name (no URL).
 */
import type { AnswerRequest, RetrievedPassage } from '../answers.types.ts';
import { chunkText } from '../../knowledge/chunking.ts';
import type { PreparedQuery } from './query.ts';
import { contentTerms } from './text.ts';

/** Chunks of attachments read per question, at most. */
const ATTACHED_PASSAGES = 4;
/** How much of one document is searched (a long upload must not slow every answer of its session). */
const MAX_ATTACHMENT_CHARS = 100_000;

/** The attachments' chunks that best match the question (none when no attachment has text). */
export function attachedPassages(attachments: AnswerRequest['attachments'], query: PreparedQuery): RetrievedPassage[] {
  const documents = (attachments ?? []).filter((a) => a.text?.trim());
  if (documents.length === 0) return [];
  const { weights } = query.model;
  const found: RetrievedPassage[] = [];
  documents.forEach((document, d) => {
    chunkText(document.text!.slice(0, MAX_ATTACHMENT_CHARS)).forEach((passage, p) => {
      let score = 0;
      for (const term of new Set(contentTerms(`${passage.heading}\n${passage.text}`))) score += weights.get(term) ?? 0;
      if (score === 0) return;
      found.push({
        passageId: `attachment:${d}:${p}`,
        sourceId: `attachment:${d}`,
        sourceTitle: document.name,
        sourceUrl: '',
        heading: passage.heading,
        text: passage.text,
        score,
      });
    });
  });
  return found.sort((a, b) => b.score - a.score).slice(0, ATTACHED_PASSAGES);
}
