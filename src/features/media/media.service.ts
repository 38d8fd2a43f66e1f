/**
 * Media attachments of chat sessions: checking and keeping an upload (type from the bytes, text of
 * documents extracted for the engines), signed links to read it back, the session's attachments as
 * the answer engines take them, and removing files with their session or bot.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { fileTypeFromFile } from 'file-type';
import type { Db } from '../../db/database.ts';
import type { Bus } from '../../platform/bus.ts';
import { isoAt, type Clock } from '../../platform/clock.ts';
import { NotFoundError, ValidationError } from '../../platform/errors.ts';
import type { AnswerRequest } from '../answers/answers.types.ts';
import { BOT_CHANGED, type BotChanged } from '../bots/bots.service.ts';
import type { ConversationBot, ConversationService } from '../conversations/conversations.service.ts';
import { extractTextIsolated } from '../knowledge/extract/isolated-extract.ts';
import type { MediaLinks } from './media-links.ts';
import { decideMediaType, type MediaType } from './media-types.ts';
import type { FileStorage } from '../../platform/storage/file-storage.ts';
import { mediaKey, sessionPrefix } from './media-keys.ts';
import type { IncomingFile } from './media-upload.ts';
import type { MediaUpload, SessionAttachment } from './media.schemas.ts';
import { sanitizeFileName } from './media.schemas.ts';
import * as repo from './media.repository.ts';

/** Text kept from one document: the engines read a few thousand characters of it at most. */
const MAX_EXTRACTED_CHARS = 200_000;
/** How much of a text or CSV file is read for its text. */
const MAX_TEXT_READ_BYTES = 2 * 1024 * 1024;
/** The most recent images a provider is shown with each message, and the largest one sent. */
const MAX_IMAGES_PER_ANSWER = 4;
// Anthropic's limit; larger images would make the provider refuse the whole request.
const MAX_IMAGE_BYTES_PER_ANSWER = 5 * 1024 * 1024;

/** A stored file opened through its signed link. */
export interface MediaDownload {
  stream: Readable;
  sizeBytes: number;
  mimeType: string;
  fileName: string;
}

export type MediaService = ReturnType<typeof createMediaService>;

export interface MediaServiceDeps {
  db: Db;
  clock: Clock;
  bus: Bus;
  storage: FileStorage;
  links: MediaLinks;
  conversations: ConversationService;
  log: FastifyBaseLogger;
}

export function createMediaService({ db, clock, bus, storage, links, conversations, log }: MediaServiceDeps) {
  bus.subscribe(BOT_CHANGED, (message) => {
    const change = message as BotChanged;
    if (change.deleted) removeQuietly(change.botId, 'bot');
  });

  function removeQuietly(prefix: string, what: string): Promise<void> {
    return storage.removeAll(prefix).catch((err: unknown) => log.error({ err, prefix }, `media: removing a ${what}'s files failed`));
  }

  async function documentText(file: IncomingFile, type: MediaType, fileName: string): Promise<string | null> {
    try {
      const body = type.mime === 'application/pdf' ? await fs.readFile(file.temporaryPath) : await readTextHead(file.temporaryPath, file.sizeBytes);
      const { text } = await extractTextIsolated({ body, contentType: type.mime, fileName });
      return text.trim() ? text.slice(0, MAX_EXTRACTED_CHARS) : null;
    } catch (err) {
      // The file is what its bytes say; a document without readable text is still a valid attachment.
      log.warn({ err, fileName }, 'media: no text could be extracted');
      return null;
    }
  }

  async function imageOf(row: repo.MediaFileRow): Promise<Uint8Array | undefined> {
    if (row.size_bytes > MAX_IMAGE_BYTES_PER_ANSWER) return undefined;
    try {
      const stored = await storage.open(row.storage_key);
      if (!stored) return undefined;
      const chunks: Buffer[] = [];
      for await (const chunk of stored.stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    } catch (err) {
      // A store that is down costs the answer the image, not the answer.
      log.warn({ err, fileId: row.id }, 'media: an attached image could not be read');
      return undefined;
    }
  }

  return {
    /**
     * Checks an uploaded file (type from its bytes, agreeing with its name), keeps it in the session
     * (created with it if new) and answers its signed link. The caller discards the incoming file.
     */
    async store(bot: ConversationBot, sessionKey: string, file: IncomingFile, { asVisitor = false } = {}): Promise<MediaUpload> {
      if (file.sizeBytes === 0) throw new ValidationError("field 'file' is empty");
      const fileName = sanitizeFileName(file.uploadedName);
      const detected = await fileTypeFromFile(file.temporaryPath);
      const type = decideMediaType(fileName, detected?.mime, file.text);
      const extracted = type.kind === 'document' ? await documentText(file, type, fileName) : null;

      const { sessionId } = await conversations.ensureSession(bot, sessionKey, { asVisitor });
      const id = randomUUID();
      const key = mediaKey(bot.id, sessionId, id);
      await storage.put(key, file.temporaryPath);
      try {
        await repo.insertFile(db, {
          id,
          session_id: sessionId,
          bot_id: bot.id,
          file_name: fileName,
          mime_type: type.mime,
          size_bytes: file.sizeBytes,
          storage_key: key,
          extracted_text: extracted,
          created_at: isoAt(clock.now()),
        });
      } catch (err) {
        // The session was cleared meanwhile (its row is gone): nothing may stay behind.
        await storage.removeAll(key).catch(() => {});
        throw err;
      }
      return { file_url: links.linkFor(id, fileName), file_name: fileName, mime_type: type.mime, size_bytes: file.sizeBytes };
    },

    /** Opens a file through its signed link: 403 for a changed or expired link, 404 once the file is gone. */
    async open(fileId: string, fileName: string, expires: string | undefined, signature: string | undefined): Promise<MediaDownload> {
      links.verify(fileId, fileName, expires, signature);
      const row = await repo.findFile(db, fileId);
      const stored = row ? await storage.open(row.storage_key) : undefined;
      if (!row || !stored) throw new NotFoundError('File not found');
      return { stream: stored.stream, sizeBytes: stored.sizeBytes, mimeType: row.mime_type, fileName: row.file_name };
    },

    /** A session's attachments as the engines take them: documents with their text, the latest images with their bytes. */
    async attachmentsFor(sessionId: string): Promise<NonNullable<AnswerRequest['attachments']>> {
      const rows = await repo.sessionFiles(db, sessionId);
      const images = new Set(rows.filter((r) => r.mime_type.startsWith('image/')).slice(-MAX_IMAGES_PER_ANSWER));
      return Promise.all(
        rows.map(async (row) => ({
          name: row.file_name,
          mimeType: row.mime_type,
          ...(row.extracted_text && { text: row.extracted_text }),
          ...(images.has(row) && { image: await imageOf(row) }),
        })),
      );
    },

    /** A session's uploads with fresh signed links, oldest first: what its visitor sees again after a reload. */
    async sessionAttachments(botId: string, sessionId: string): Promise<SessionAttachment[]> {
      const rows = await repo.sessionUploads(db, botId, sessionId);
      return rows.map((row) => ({
        id: row.id,
        file_name: row.file_name,
        mime_type: row.mime_type,
        size_bytes: Number(row.size_bytes),
        file_url: links.linkFor(row.id, row.file_name),
        created_at: row.created_at,
      }));
    },

    /** Deletes a cleared session's files (their rows went with the session). */
    async removeSessionFiles(botId: string, sessionId: string): Promise<void> {
      await removeQuietly(sessionPrefix(botId, sessionId), 'session');
    },
  };
}

/** The first MAX_TEXT_READ_BYTES of a text file, cut at a line end when longer. */
async function readTextHead(file: string, sizeBytes: number): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const length = Math.min(sizeBytes, MAX_TEXT_READ_BYTES);
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    const head = buffer.subarray(0, bytesRead);
    if (sizeBytes <= MAX_TEXT_READ_BYTES) return head;
    const lineEnd = head.lastIndexOf(0x0a);
    return lineEnd > 0 ? head.subarray(0, lineEnd + 1) : head;
  } finally {
    await handle.close();
  }
}
