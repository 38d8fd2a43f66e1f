/**
 * Test support: a local S3-compatible server (s3rver) on 127.0.0.1 with one bucket, and the
 * environment that points Parley's `s3` storage at it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// s3rver is CommonJS without types.
// @ts-expect-error no type declarations
import S3rver from '@20minutes/s3rver';

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  /** PARLEY_STORAGE=s3 settings for this server. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startLocalS3(bucket = 'parley-test'): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), 'parley-s3-'));
  // s3rver's SigV4 check canonicalises query strings differently from the AWS SDK (every listing
  // fails it); signing is the SDK's business, so the double accepts signatures it would compute otherwise.
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }], allowMismatchedSignatures: true });
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    env: {
      PARLEY_STORAGE: 's3',
      PARLEY_S3_BUCKET: bucket,
      PARLEY_S3_ENDPOINT: endpoint,
      PARLEY_S3_FORCE_PATH_STYLE: '1',
      // s3rver's fixed credentials.
      PARLEY_S3_ACCESS_KEY_ID: 'S3RVER',
      PARLEY_S3_SECRET_ACCESS_KEY: 'S3RVER',
      PARLEY_S3_REGION: 'us-east-1',
    },
    async close() {
      (server.httpServer as Server).closeAllConnections();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
