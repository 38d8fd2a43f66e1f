/**
 * Ids for rows written at a high rate (messages, events, request ids in the audit log). A random
 * UUID lands at a random page of every index on it, so each insert rewrites a different page; a
 * time-ordered one lands next to the previous insert.
 */
import { randomUUID } from 'node:crypto';

/** A UUID version 7 (RFC 9562): 48 bits of Unix time in milliseconds, then randomness. */
export function timeOrderedUuid(now = Date.now()): string {
  const time = now.toString(16).padStart(12, '0');
  // A random (version 4) UUID already has the variant bits; its version digit is replaced.
  const random = randomUUID();
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15)}`;
}
