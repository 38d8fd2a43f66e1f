/**
 * Text of a PDF with pdf.js (the legacy build, which runs on Node 20). The worker code runs on
 * the main thread (Node has no web worker; pdf.js falls back to a "fake worker"), fonts and
 * character maps come from the package itself, and no script in the document is evaluated.
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import type { TextItem } from 'pdfjs-dist/types/src/display/api.js';
import { UnprocessableError } from '../../../platform/errors.ts';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

/** A PDF's title (from its document information) and text. */
export interface ExtractedPdf {
  title: string;
  text: string;
}

const packageDir = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
// pdf.js reads these with fs.readFile(base + file name), so they are paths with a trailing slash.
const assetDir = (name: string) => `${path.join(packageDir, name)}/`;

let loading: Promise<PdfJs> | undefined;

/** Loads pdf.js once, with its worker module already in place so no worker file is looked up. */
function loadPdfJs(): Promise<PdfJs> {
  loading ??= (async () => {
    const workerModule = 'pdfjs-dist/legacy/build/pdf.worker.mjs';
    const globals = globalThis as { pdfjsWorker?: unknown };
    globals.pdfjsWorker ??= await import(workerModule);
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })();
  return loading;
}

/** Extracts the title (document info) and the text of every page, pages separated by blank lines. */
export async function extractPdf(body: Buffer): Promise<ExtractedPdf> {
  const pdfjs = await loadPdfJs();
  const task = pdfjs.getDocument({
    data: new Uint8Array(body),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    cMapUrl: assetDir('cmaps'),
    standardFontDataUrl: assetDir('standard_fonts'),
    wasmUrl: assetDir('wasm'),
    verbosity: 0,
  });
  let doc: Awaited<typeof task.promise>;
  try {
    doc = await task.promise;
  } catch (err) {
    await task.destroy().catch(() => {});
    const name = (err as Error)?.name;
    if (name === 'PasswordException') throw new UnprocessableError('The PDF is password-protected');
    throw new UnprocessableError('The PDF could not be read');
  }
  try {
    const pages: string[] = [];
    for (let number = 1; number <= doc.numPages; number++) {
      const page = await doc.getPage(number);
      const content = await page.getTextContent();
      pages.push(pageText(content.items.filter((item): item is TextItem => 'str' in item)));
      page.cleanup();
    }
    const { info } = await doc.getMetadata().catch(() => ({ info: {} }));
    const title = String((info as { Title?: unknown }).Title ?? '').replace(/\s+/g, ' ').trim();
    return { title, text: pages.filter((page) => page.length > 0).join('\n\n') };
  } finally {
    await doc.destroy();
  }
}

/**
 * Lines from pdf.js's text items; a vertical gap well over the line height starts a new
 * paragraph, so paragraphs come out separated by blank lines.
 */
function pageText(items: TextItem[]): string {
  const lines: { text: string; y: number; height: number }[] = [];
  let current = '';
  let y: number | undefined;
  let height = 0;
  const endLine = () => {
    if (current.trim()) lines.push({ text: current.replace(/\s+/g, ' ').trim(), y: y ?? 0, height });
    current = '';
    y = undefined;
    height = 0;
  };
  for (const item of items) {
    const itemY = Number(item.transform[5]);
    // Items on another baseline without an explicit end of line still start a new line.
    if (y !== undefined && item.str.trim() && Math.abs(itemY - y) > Math.max(item.height, height) * 0.5) endLine();
    if (item.str.trim()) {
      y ??= itemY;
      height = Math.max(height, item.height);
    }
    current += item.str;
    if (item.hasEOL) endLine();
  }
  endLine();

  let text = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const previous = lines[i - 1];
    if (previous) {
      const gap = previous.y - line.y;
      const lineHeight = Math.max(previous.height, line.height, 1);
      text += gap > lineHeight * 1.8 || gap < 0 ? '\n\n' : '\n';
    }
    text += line.text;
  }
  return text;
}
