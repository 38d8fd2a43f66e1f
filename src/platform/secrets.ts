/**
 * Credentials: generation with a recognisable prefix, and hashing for storage. Presented credentials
 * are looked up by their SHA-256 hash, so no comparison ever touches a stored secret.
 */
import { hash, randomBytes } from 'node:crypto';

export const CREDENTIAL_PREFIX = {
  apiKey: 'parley_sk_',
  accessToken: 'parley_oat_',
  refreshToken: 'parley_ort_',
  dashboardSession: 'parley_ds_',
  webhookSecret: 'parley_whsec_',
  catalogSecret: 'parley_catsec_',
  clientSecret: 'parley_cs_',
  invitation: 'parley_inv_',
} as const;

/** A new secret: the prefix then 32 random bytes in base64url. */
export function generateCredential(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** SHA-256 hex digest: how credentials are stored and looked up (one-shot: every request hashes one). */
export function hashCredential(credential: string): string {
  return hash('sha256', credential, 'hex');
}
