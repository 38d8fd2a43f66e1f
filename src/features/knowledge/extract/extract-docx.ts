/**
 * Text of a Word document (DOCX) with mammoth: converted to HTML so headings survive, then to
 * text like a web page. Images are dropped and linked external files are never read.
 */
import mammoth from 'mammoth';
import { parseHTML } from 'linkedom';
import { UnprocessableError } from '../../../platform/errors.ts';
import { htmlToText, type DomNode } from './html-to-text.ts';
import { readZipDirectory, type ZipEntry } from './zip-directory.ts';

/** Most a document may inflate to; a DOCX past this is a ZIP bomb, not prose. */
const MAX_INFLATED_BYTES = 200 * 1024 * 1024;

const STYLE_MAP = ["p[style-name='Title'] => h1:fresh", "p[style-name='Subtitle'] => h2:fresh"];

/** A Word document's title (its first top-level heading) and text. */
export interface ExtractedDocx {
  title: string;
  text: string;
}

/** True when a ZIP archive's entries are those of a Word document. */
export function isDocxArchive(entries: ZipEntry[]): boolean {
  return entries.some((entry) => entry.name === 'word/document.xml');
}

/** Extracts the first top-level heading as the title, and the text with `# ` headings. */
export async function extractDocx(body: Buffer): Promise<ExtractedDocx> {
  const entries = readZipDirectory(body);
  if (!entries) throw new UnprocessableError('The DOCX file could not be read');
  const inflated = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  if (inflated > MAX_INFLATED_BYTES) throw new UnprocessableError('The DOCX file unpacks to more than 200 MB');

  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: body },
      {
        styleMap: STYLE_MAP,
        convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
        externalFileAccess: false,
        ignoreEmptyParagraphs: true,
      },
    );
    html = result.value;
  } catch {
    throw new UnprocessableError('The DOCX file could not be read');
  }
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const root = document.body as unknown as DomNode;
  const heading = document.querySelector('h1')?.textContent ?? '';
  return { title: heading.replace(/\s+/g, ' ').trim(), text: htmlToText(root) };
}
