/**
 * The worker side of `isolated-extract.ts`: extracts one document and posts back its text, or the
 * status and detail of the error it raised.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DomainError } from '../../../platform/errors.ts';
import { extractText, type ExtractInput } from './extract-text.ts';

const input = workerData as ExtractInput;
extractText({ ...input, body: Buffer.from(input.body) }).then(
  (result) => parentPort!.postMessage({ ok: true, result }),
  (err: unknown) =>
    parentPort!.postMessage({ ok: false, status: err instanceof DomainError ? err.status : 500, detail: err instanceof Error ? err.message : String(err) }),
);
