/**
 * Characters as people and the request schemas count them: Unicode code points. A JavaScript
 * string's `length` counts UTF-16 units, two for an emoji or a rarer CJK character, so limits and
 * counts taken with it disagree with the schemas' `maxLength`, and `slice` can cut a character in
 * half (a lone surrogate, invalid in JSON and stored as U+FFFD).
 */

const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/** How many characters (code points) the text holds. */
export function characterCount(text: string): number {
  return text.length - (text.match(SURROGATE_PAIR)?.length ?? 0);
}

/** The text's first `max` characters, never half of one. */
export function firstCharacters(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (let count = 0; count < max && end < text.length; count++) {
    const high = text.charCodeAt(end);
    const low = text.charCodeAt(end + 1);
    end += high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff ? 2 : 1;
  }
  return text.slice(0, end);
}
