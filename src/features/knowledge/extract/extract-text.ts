/**
 * Turns a fetched page or an uploaded document into a title and plain text for indexing. The type
 * is decided by the bytes (magic numbers for PDF and DOCX, sniffing for HTML), never by a name a
 * client chose; the declared content type and the file extension only tell the text formats
 * (plain, Markdown, CSV) apart. Anything else is refused with `UnsupportedContentError`.
 */
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { DomainError } from '../../../platform/errors.ts';
import { charsetOf, decodeText, looksBinary, normaliseText, sniffHtmlCharset, startsWithUtf16Bom } from './decode-text.ts';
import { extractCsv } from './extract-csv.ts';
import { extractDocx, isDocxArchive } from './extract-docx.ts';
import { extractHtml } from './extract-html.ts';
import { extractPdf } from './extract-pdf.ts';
import { readZipDirectory } from './zip-directory.ts';

/** The format a document was read as. */
export type ExtractedFormat = 'html' | 'pdf' | 'docx' | 'text' | 'markdown' | 'csv';

/** A document's bytes and what its sender said about them. */
export interface ExtractInput {
  body: Buffer;
  /** The Content-Type header or the upload's declared type, if any. */
  contentType?: string;
  fileName?: string;
  /** Where a fetched page came from (its path's extension counts like a file name's). */
  url?: string;
}

/** What indexing needs from a document. */
export interface ExtractedText {
  /** The document's own title (page title, PDF title, first heading) or the file name's stem; '' when none. */
  title: string;
  /** Normalised text with `# ` headings and blank lines between paragraphs; '' when the document has none. */
  text: string;
  format: ExtractedFormat;
}

/** The content is not a type knowledge can be made from (415). */
export class UnsupportedContentError extends DomainError {
  override readonly status = 415;
}

/** Declared types a text body may carry; anything else (JSON, scripts, images) is refused. */
const TEXT_TYPES = new Set([
  'text/plain', 'text/html', 'application/xhtml+xml', 'text/markdown', 'text/x-markdown', 'text/csv', 'text/x-csv',
  'application/csv', 'application/x-csv', 'text/comma-separated-values', 'application/vnd.ms-excel',
  'application/octet-stream', 'binary/octet-stream',
]);
const MARKDOWN_EXTENSIONS = new Set(['md', 'markdown', 'mdown', 'mkd']);
const HTML_EXTENSIONS = new Set(['html', 'htm', 'xhtml']);
/** How an HTML document starts, after white space and comments (after the WHATWG MIME sniffing rules). */
const HTML_START = /^(?:<!doctype\s+html|<(?:html|head|body|script|iframe|h1|div|font|table|a|style|title|b|br|p|meta|link|article|main|section)[\s>/])/i;

/** Extracts the title and text of a document, deciding its type from its content. */
export async function extractText(input: ExtractInput): Promise<ExtractedText> {
  const { body } = input;
  const declared = mimeEssence(input.contentType);
  const extension = extensionOf(input.fileName) ?? extensionOf(urlPath(input.url));
  const nameTitle = input.fileName ? path.parse(path.basename(input.fileName)).name.trim() : '';

  // UTF-16 text opens with bytes that magic-number tables read as an MP3 frame.
  const magic = body.length > 0 && !startsWithUtf16Bom(body) ? await fileTypeFromBuffer(body) : undefined;
  if (magic?.ext === 'pdf') {
    const pdf = await extractPdf(body);
    return { title: pdf.title || nameTitle, text: normaliseText(pdf.text), format: 'pdf' };
  }
  const zip = magic?.ext === 'zip' || magic?.ext === 'docx' ? readZipDirectory(body) : null;
  if (magic?.ext === 'docx' || (zip && isDocxArchive(zip))) {
    const docx = await extractDocx(body);
    return { title: docx.title || nameTitle, text: normaliseText(docx.text), format: 'docx' };
  }
  // XML is the one text format file-type names; an XHTML page starts like any other XML.
  if (magic && magic.ext !== 'xml') throw new UnsupportedContentError(`Unsupported content type ${magic.mime}`);
  if (looksBinary(body)) throw new UnsupportedContentError('Unsupported content: binary data');
  if (declared && !TEXT_TYPES.has(declared)) throw new UnsupportedContentError(`Unsupported content type ${declared}`);

  const charset = charsetOf(input.contentType);
  const provisional = decodeText(body, charset);
  const format = textFormat(provisional, declared, extension, magic?.ext === 'xml');
  switch (format) {
    case 'html': {
      const html = charset ? provisional : decodeText(body, undefined, sniffHtmlCharset);
      const page = extractHtml(html, input.url);
      return { title: page.title || nameTitle, text: normaliseText(page.text), format };
    }
    case 'csv':
      return { title: nameTitle, text: normaliseText(extractCsv(provisional)), format };
    case 'markdown': {
      const text = normaliseText(provisional);
      return { title: /^#\s+(.+)$/m.exec(text)?.[1]?.trim() || nameTitle, text, format };
    }
    default:
      return { title: nameTitle, text: normaliseText(provisional), format };
  }
}

/** Chooses among the text formats: HTML by its start, else what the type or extension declares. */
function textFormat(text: string, declared: string | undefined, extension: string | undefined, xml: boolean): ExtractedFormat {
  const start = text.replace(/^\uFEFF/, '').replace(/^(?:\s|<!--[\s\S]*?-->|<\?xml[\s\S]*?\?>)+/, '').slice(0, 512);
  const isMarkdown = declared === 'text/markdown' || declared === 'text/x-markdown' || (extension !== undefined && MARKDOWN_EXTENSIONS.has(extension));
  // Markdown may open with inline HTML (a centred logo, a comment); only a whole document overrides it.
  if (isMarkdown) return /^<(?:!doctype\s+html|html)[\s>]/i.test(start) ? 'html' : 'markdown';
  if (HTML_START.test(start)) return 'html';
  if (xml) throw new UnsupportedContentError('Unsupported content type application/xml');
  // JSON is data, not prose, whatever it was called or sent as ("application/octet-stream", ".txt").
  if (extension === 'json' || isJsonDocument(text)) throw new UnsupportedContentError('Unsupported content: JSON data');
  if (declared === 'text/html' || declared === 'application/xhtml+xml' || (extension !== undefined && HTML_EXTENSIONS.has(extension))) return 'html';
  if ((declared !== undefined && /csv|comma-separated|ms-excel/.test(declared)) || extension === 'csv') return 'csv';
  return 'text';
}

/** True for a whole JSON object or array (a bare word or number is left to be text). */
function isJsonDocument(text: string): boolean {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (!/^[[{]/.test(trimmed) || !/[\]}]$/.test(trimmed)) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}

function mimeEssence(contentType: string | undefined): string | undefined {
  const essence = contentType?.split(';')[0]?.trim().toLowerCase();
  return essence ? essence : undefined;
}

function extensionOf(name: string | undefined): string | undefined {
  const ext = name ? path.extname(name).slice(1).toLowerCase() : '';
  return ext ? ext : undefined;
}

function urlPath(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return decodeURIComponent(new URL(url).pathname);
  } catch {
    return undefined;
  }
}
