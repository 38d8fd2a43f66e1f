/**
 * Document extraction in a worker thread, with a memory cap and a time limit. The parsers (pdf.js,
 * mammoth, linkedom) read bytes anyone may send, and a crafted document (a PDF whose streams inflate
 * to gigabytes, HTML nested a hundred thousand deep, a zip that lies about its sizes) must cost a
 * refused upload, not the service's memory or its event loop.
 */
import { Worker } from 'node:worker_threads';
import { UnprocessableError } from '../../../platform/errors.ts';
import { UnsupportedContentError, type ExtractedText, type ExtractInput } from './extract-text.ts';

export interface ExtractionLimits {
  timeoutMs: number;
  /** The worker's heap; past it the worker is stopped. */
  memoryMb: number;
}

export const EXTRACTION_LIMITS: ExtractionLimits = { timeoutMs: 30_000, memoryMb: 512 };

const WORKER = new URL('./extract-worker.mjs', import.meta.url);

type WorkerAnswer = { ok: true; result: ExtractedText } | { ok: false; status: number; detail: string };

// Workers at once: each may take its memory cap and a core, so uploads wait their turn rather than
// add up (the machine this runs on may have two cores).
const MAX_WORKERS = 2;
let running = 0;
const waiting: (() => void)[] = [];

/** `extractText`, run in a worker of its own within `limits`, at most `MAX_WORKERS` at a time. */
export async function extractTextIsolated(input: ExtractInput, limits: ExtractionLimits = EXTRACTION_LIMITS): Promise<ExtractedText> {
  // A finished extraction hands its slot to the next one waiting.
  if (running >= MAX_WORKERS) await new Promise<void>((resume) => waiting.push(resume));
  else running++;
  try {
    return await extractInWorker(input, limits);
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function extractInWorker(input: ExtractInput, limits: ExtractionLimits): Promise<ExtractedText> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, {
      workerData: input,
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, maxYoungGenerationSizeMb: Math.min(64, limits.memoryMb) },
    });
    let settled = false;
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      done();
    };
    const timer = setTimeout(() => settle(() => reject(new UnprocessableError('The document took too long to read'))), limits.timeoutMs);
    worker.on('message', (answer: WorkerAnswer) =>
      settle(() => {
        if (answer.ok) resolve(answer.result);
        else if (answer.status === 415) reject(new UnsupportedContentError(answer.detail));
        // A parser's own failure (a stack overflow on nesting, say) is the document's problem too.
        else reject(new UnprocessableError(answer.status < 500 ? answer.detail : 'The document could not be read'));
      }),
    );
    worker.on('error', (err: NodeJS.ErrnoException) =>
      settle(() => reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new UnprocessableError('The document needs too much memory to read') : new UnprocessableError('The document could not be read'))),
    );
    worker.on('exit', () => settle(() => reject(new UnprocessableError('The document could not be read'))));
  });
}
