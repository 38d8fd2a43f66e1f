/**
 * Bytes to text for the text-based formats: byte-order marks, declared and sniffed charsets, a
 * Windows-1252 fallback for text that is not UTF-8, and a check that the bytes are text at all.
 */

/** The charset parameter of a Content-Type header, lower-cased, if any. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '');
  return match?.[1]?.toLowerCase();
}

/** The encoding a byte-order mark announces, if the bytes start with one. */
function bomEncoding(bytes: Buffer): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

/** True when the bytes start with a UTF-16 byte-order mark (such text is full of NUL bytes). */
export function startsWithUtf16Bom(bytes: Buffer): boolean {
  return bomEncoding(bytes)?.startsWith('utf-16') ?? false;
}

/**
 * True when the bytes look like binary data rather than text: more than 2% control bytes (other
 * than tab, newlines, form feed and escape) in the first 8 KB, and more than a few. A stray NUL
 * in a text file passes.
 */
export function looksBinary(bytes: Buffer): boolean {
  if (startsWithUtf16Bom(bytes)) return false;
  const sample = bytes.subarray(0, 8192);
  let control = 0;
  for (const byte of sample) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b) control++;
  }
  return control > 4 && control / sample.length > 0.02;
}

/** Windows-1252's characters for bytes 0x80 to 0x9F (the rest of it is Latin-1). */
const WINDOWS_1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function tryDecode(bytes: Buffer, label: string, fatal: boolean): string | undefined {
  try {
    const decoder = new TextDecoder(label, { fatal });
    // Node 20 decodes windows-1252 (and every label the web maps to it, latin1 included) as
    // ISO-8859-1, turning curly quotes and the euro sign into control characters.
    if (decoder.encoding === 'windows-1252') {
      return bytes.toString('latin1').replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]!);
    }
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Decodes text: a byte-order mark wins, then the declared charset, then `sniffed` (e.g. an HTML
 * meta charset), then UTF-8 if the bytes are valid UTF-8, else Windows-1252 (what the web means
 * by Latin-1).
 */
export function decodeText(bytes: Buffer, declared?: string, sniff?: (ascii: string) => string | undefined): string {
  const bom = bomEncoding(bytes);
  if (bom) return tryDecode(bytes, bom, false) ?? '';
  for (const label of [declared, sniff?.(bytes.subarray(0, 2048).toString('latin1'))]) {
    if (!label) continue;
    const text = tryDecode(bytes, label, false);
    if (text !== undefined) return text;
  }
  return tryDecode(bytes, 'utf-8', true) ?? tryDecode(bytes, 'windows-1252', false) ?? bytes.toString('latin1');
}

/** The charset an HTML document declares in a `<meta>` near its start. */
export function sniffHtmlCharset(head: string): string | undefined {
  const match = /<meta[^>]+charset\s*=\s*["']?\s*([a-z0-9_.:-]+)/i.exec(head);
  const label = match?.[1]?.toLowerCase();
  // A UTF-16 label in an ASCII-compatible document is a lie the HTML spec says to read as UTF-8.
  return label?.startsWith('utf-16') ? 'utf-8' : label;
}

/**
 * Normalises extracted text: LF line endings, no NULs or other control characters (tabs, newlines
 * kept; form feeds become paragraph breaks), no trailing spaces, at most one blank line in a row.
 */
export function normaliseText(text: string): string {
  return text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .replace(/\f/g, '\n\n')
    .replace(/[\u0000-\u0008\u000B\u000E-\u001F\u007F]/g, '')
    .replace(/[ \t\u00a0]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+|\s+$/g, '');
}
