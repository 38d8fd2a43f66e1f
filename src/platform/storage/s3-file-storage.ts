/**
 * Files in an S3-compatible object store (AWS S3, Cloudflare R2, MinIO, Ceph), shared by every
 * instance. Uploads stream from the checked temporary file in one PutObject (atomic: the object
 * exists whole or not at all); reads stream the object's body. Links to files stay the service's
 * own signed URLs (features/media/media-links.ts), so access rules do not depend on the store.
 *
 * Every call has a time-out; a store that is down or slow is a StorageUnavailableError (503).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { StorageConfig } from '../../config/config.ts';
import { assertStorageKey, StorageUnavailableError, type FileStorage } from './file-storage.ts';
import { removeStaleIncoming } from './local-file-storage.ts';

type S3Config = Extract<StorageConfig, { kind: 's3' }>;

const DELETE_CONCURRENCY = 8;

/** What the store answers for a missing object. */
function isNotFound(err: unknown): boolean {
  return err instanceof S3ServiceException && (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404);
}

export function createS3FileStorage(config: S3Config, incomingDir: string): FileStorage {
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint && { endpoint: config.endpoint }),
    forcePathStyle: config.forcePathStyle,
    // Explicit credentials only: the SDK's default chain could ask the instance metadata address.
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // One retry; a store that keeps failing is reported, not waited on.
    maxAttempts: 2,
    requestHandler: { connectionTimeout: config.timeoutMs, requestTimeout: config.timeoutMs },
    // Many S3-compatible stores reject the newer default checksums; send them only where required.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const objectKey = (key: string) => {
    assertStorageKey(key);
    return `${config.prefix}${key}`;
  };

  void removeStaleIncoming(incomingDir);

  return {
    kind: 's3',
    incomingDir,

    async put(key, temporaryPath) {
      const Key = objectKey(key);
      try {
        const { size } = await fsp.stat(temporaryPath);
        await client.send(
          new PutObjectCommand({ Bucket: config.bucket, Key, Body: fs.createReadStream(temporaryPath), ContentLength: size }),
          { abortSignal: AbortSignal.timeout(config.timeoutMs * 3) },
        );
      } catch (err) {
        throw new StorageUnavailableError('store the file', err);
      } finally {
        await fsp.rm(temporaryPath, { force: true });
      }
    },

    async open(key) {
      const Key = objectKey(key);
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: config.bucket, Key }), { abortSignal: AbortSignal.timeout(config.timeoutMs) });
        if (!answer.Body) return undefined;
        return { stream: answer.Body as Readable, sizeBytes: Number(answer.ContentLength ?? 0) };
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw new StorageUnavailableError('read the file', err);
      }
    },

    async removeAll(prefix) {
      const listed = `${objectKey(prefix)}/`;
      try {
        let token: string | undefined;
        do {
          const page = await client.send(new ListObjectsV2Command({ Bucket: config.bucket, Prefix: listed, ContinuationToken: token }), {
            abortSignal: AbortSignal.timeout(config.timeoutMs),
          });
          const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : []));
          // One DELETE per object, a few at a time: every S3-compatible store has DeleteObject,
          // while the batch call's checksum and signing rules vary between them.
          for (let i = 0; i < keys.length; i += DELETE_CONCURRENCY) {
            await Promise.all(
              keys.slice(i, i + DELETE_CONCURRENCY).map((Key) =>
                client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key }), { abortSignal: AbortSignal.timeout(config.timeoutMs) }),
              ),
            );
          }
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token);
      } catch (err) {
        throw new StorageUnavailableError('delete files', err);
      }
    },

    async close() {
      client.destroy();
    },
  };
}
