/**
 * Signed, expiring links to uploaded files:
 * `{PUBLIC_URL}/api/widget/media/{file_id}/{file_name}?expires=<unix s>&signature=<hex>`, where the
 * signature is an HMAC-SHA256 of the id, the name and the expiry under a key derived from the master
 * key. The link is the credential, so the file can be shown in an `<img>` or opened in a new tab.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { MasterKey } from '../../platform/encryption.ts';
import type { Clock } from '../../platform/clock.ts';
import { ForbiddenError } from '../../platform/errors.ts';

/** The HKDF label of the URL-signing key: a key of its own, so a signature reveals nothing about the master key's other uses. */
const SIGNING_KEY_INFO = 'parley media url signing v1';

/** The key media links are signed with, derived from the master key. */
export function mediaSigningKey(master: MasterKey): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), SIGNING_KEY_INFO, 32));
}

/** The path of a file's link, without the query. */
export function mediaPath(fileId: string, fileName: string): string {
  return `/api/widget/media/${encodeURIComponent(fileId)}/${encodeURIComponent(fileName)}`;
}

export interface MediaLinks {
  /** A link to the file valid for PARLEY_MEDIA_URL_TTL seconds from now. */
  linkFor(fileId: string, fileName: string): string;
  /** Refuses (ForbiddenError) a link whose signature does not match, or that has expired. */
  verify(fileId: string, fileName: string, expires: string | undefined, signature: string | undefined): void;
}

export interface MediaLinkDeps {
  key: Buffer;
  /** PUBLIC_URL, without a trailing slash. */
  publicUrl: string;
  ttlSec: number;
  clock: Clock;
}

/** Signs and checks media links. */
export function createMediaLinks({ key, publicUrl, ttlSec, clock }: MediaLinkDeps): MediaLinks {
  const sign = (fileId: string, fileName: string, expires: string) =>
    createHmac('sha256', key).update(`${fileId}\n${fileName}\n${expires}`, 'utf8').digest();

  return {
    linkFor(fileId, fileName) {
      const expires = String(Math.floor(clock.now() / 1000) + ttlSec);
      const signature = sign(fileId, fileName, expires).toString('hex');
      return `${publicUrl}${mediaPath(fileId, fileName)}?expires=${expires}&signature=${signature}`;
    },

    verify(fileId, fileName, expires, signature) {
      if (!expires || !signature) throw new ForbiddenError("This media link is not signed: 'expires' and 'signature' are required");
      const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, 'hex') : undefined;
      const valid = /^\d{1,12}$/.test(expires) && given !== undefined && timingSafeEqual(given, sign(fileId, fileName, expires));
      if (!valid) throw new ForbiddenError('Invalid media link signature');
      if (Number(expires) * 1000 <= clock.now()) throw new ForbiddenError('This media link has expired');
    },
  };
}
