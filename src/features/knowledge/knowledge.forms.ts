/**
 * `POST /api/v1/knowledge` in its two documented forms (decisions.md, "Two forms of one endpoint"):
 * tells them apart and applies each form's rules, naming the field that breaks one.
 */
import { characterCount, firstCharacters } from '../../platform/characters.ts';
import { ValidationError } from '../../platform/errors.ts';
import type { KnowledgeBody } from './knowledge.schemas.ts';

export type KnowledgeCommand =
  | { form: 1; type: 'text'; name: string; content: string }
  | { form: 1; type: 'url'; name: string; url: string }
  | { form: 2; type: 'text'; title: string; content: string }
  | { form: 2; type: 'url'; title: string; url: string };

const FORM1_TEXT_MAX = 100_000;
const FORM2_TEXT_MAX = 50_000;
const NAME_MAX = 200;

/** Form 2 when there is no `name` and either a `title`, or `type: "url"` with `content` and no `url`. */
export function isForm2(body: KnowledgeBody): boolean {
  if (body.name !== undefined) return false;
  return body.title !== undefined || (body.type === 'url' && body.content !== undefined && body.url === undefined);
}

function requireType(body: KnowledgeBody): 'text' | 'url' {
  if (body.type !== 'text' && body.type !== 'url') throw new ValidationError("field 'type' must be 'text' or 'url'");
  return body.type;
}

/** True for an absolute http(s) URL (https only when `httpsOnly`). */
export function isHttpUrl(value: string, httpsOnly: boolean): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (!httpsOnly && url.protocol === 'http:');
  } catch {
    return false;
  }
}

export function parseKnowledgeBody(body: KnowledgeBody): KnowledgeCommand {
  const type = requireType(body);
  if (isForm2(body)) {
    const content = body.content?.trim() ?? '';
    if (!content) throw new ValidationError("field 'content' is required");
    // The title is Form 2's name: the same limit.
    if (body.title !== undefined && characterCount(body.title.trim()) > NAME_MAX) throw new ValidationError(`field 'title' must be at most ${NAME_MAX} characters`);
    if (type === 'text') {
      if (characterCount(body.content!) > FORM2_TEXT_MAX) throw new ValidationError(`field 'content' must be at most ${FORM2_TEXT_MAX} characters`);
      return { form: 2, type, title: body.title?.trim() || firstCharacters(body.content!.trim(), 80), content: body.content! };
    }
    if (!content.startsWith('https://') || !isHttpUrl(content, true)) throw new ValidationError("field 'content' must be a URL starting with https://");
    return { form: 2, type, title: body.title?.trim() || content, url: content };
  }

  const name = body.name?.trim() ?? '';
  if (!name) throw new ValidationError("field 'name' is required");
  if (characterCount(name) > NAME_MAX) throw new ValidationError(`field 'name' must be at most ${NAME_MAX} characters`);
  if (type === 'text') {
    if (!body.content?.trim()) throw new ValidationError("field 'content' is required for type 'text'");
    if (characterCount(body.content) > FORM1_TEXT_MAX) throw new ValidationError(`field 'content' must be at most ${FORM1_TEXT_MAX} characters`);
    return { form: 1, type, name, content: body.content };
  }
  const url = body.url?.trim() ?? '';
  if (!url) throw new ValidationError("field 'url' is required for type 'url'");
  if (!isHttpUrl(url, false)) throw new ValidationError("field 'url' must be a fully qualified http(s) URL");
  return { form: 1, type, name, url };
}
