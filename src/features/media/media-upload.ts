/**
 * Reads a multipart upload: the text fields, in any order around the file, and the one `file`,
 * streamed to a temporary file (never held whole in memory) while its size is counted and its
 * bytes are checked for being text. Past the size limit the upload stops with a 413 and leaves
 * nothing behind.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { UnsupportedMediaTypeError, ValidationError } from '../../platform/errors.ts';
import { fileTooLarge as tooLarge, multipartError, truncatedForm } from '../../platform/multipart-errors.ts';
import { TextSniffer, type TextVerdict } from './media-types.ts';

/** An uploaded file waiting in the incoming directory. */
export interface IncomingFile {
  temporaryPath: string;
  /** The name the client gave (unsanitized). */
  uploadedName: string;
  sizeBytes: number;
  text: TextVerdict;
}

export interface ReceivedForm {
  fields: Record<string, string>;
  file?: IncomingFile;
}

export interface ReceiveOptions {
  incomingDir: string;
  maxBytes: number;
  /** Called as each text field arrives (e.g. to authenticate by `bot_id` before the file streams). */
  onField?: (name: string, value: string) => Promise<void>;
}

const MAX_FIELDS = 10;
const MAX_FIELD_BYTES = 4096;

/** Reads the form; on any failure the temporary file is already removed. */
export async function receiveForm(request: FastifyRequest, options: ReceiveOptions): Promise<ReceivedForm> {
  if (!request.isMultipart()) {
    throw new UnsupportedMediaTypeError(`The body must be multipart/form-data, not '${request.headers['content-type'] ?? 'none'}'`);
  }
  const fields: Record<string, string> = {};
  let file: IncomingFile | undefined;
  const parts = request.parts({
    limits: { fileSize: options.maxBytes, files: 1, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, parts: MAX_FIELDS + 1 },
  });
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.valueTruncated) throw new ValidationError(`field '${part.fieldname}' is longer than ${MAX_FIELD_BYTES} bytes`);
        const value = String(part.value);
        fields[part.fieldname] = value;
        await options.onField?.(part.fieldname, value);
        continue;
      }
      if (part.fieldname !== 'file') throw new ValidationError(`unexpected file field '${part.fieldname}': send the file as 'file'`);
      file = await saveToIncoming(part, options);
    }
  } catch (err) {
    if (file) await fs.rm(file.temporaryPath, { force: true });
    throw multipartError(err, { maxBytes: options.maxBytes, maxFields: MAX_FIELDS });
  }
  return { fields, ...(file && { file }) };
}

/** Removes a received file that was not kept. */
export async function discardIncoming(file: IncomingFile | undefined): Promise<void> {
  if (file) await fs.rm(file.temporaryPath, { force: true });
}

async function saveToIncoming(part: MultipartFile, { incomingDir, maxBytes }: ReceiveOptions): Promise<IncomingFile> {
  await fs.mkdir(incomingDir, { recursive: true });
  const temporaryPath = path.join(incomingDir, `${randomUUID()}.part`);
  const sniffer = new TextSniffer();
  let sizeBytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      sizeBytes += chunk.length;
      if (sizeBytes > maxBytes) return callback(tooLarge(maxBytes));
      sniffer.push(chunk);
      callback(null, chunk);
    },
  });
  // The parser stops passing bytes on at the limit, but ends the file only with its part (after
  // reading the rest of it): stop at once instead, whether the limit was reached already or later.
  if (part.file.truncated) throw tooLarge(maxBytes);
  // The parser destroys the file stream when the body ends inside it; that may have happened while
  // an earlier field was being checked, and a pipeline from a destroyed stream never settles.
  if (part.file.destroyed) throw truncatedForm();
  part.file.once('limit', () => meter.destroy(tooLarge(maxBytes)));
  try {
    await pipeline(part.file, meter, createWriteStream(temporaryPath, { flags: 'wx', mode: 0o600 }));
    if (part.file.truncated) throw tooLarge(maxBytes);
  } catch (err) {
    await fs.rm(temporaryPath, { force: true });
    throw err;
  }
  return { temporaryPath, uploadedName: part.filename ?? '', sizeBytes, text: sniffer.verdict() };
}
