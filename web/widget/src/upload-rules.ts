/**
 * The upload check made before a file leaves the browser, against the bot's `uploads` rules, so
 * that a visitor learns at once rather than after sending 20 MB. The service decides again from
 * the bytes.
 */
import type { UploadRules } from './api-client.ts';

/** `12 kB`, `3.4 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} kB`;
  return `${(bytes / 1_000_000).toFixed(1).replace(/\.0$/, '')} MB`;
}

const extensionOf = (name: string) => /\.[^./\\]+$/.exec(name)?.[0].toLowerCase() ?? '';

/** What browsers report for allowed files under another name than the service's (section 8). */
const BROWSER_ALIASES: Record<string, string[]> = {
  'text/csv': ['application/vnd.ms-excel', 'application/csv'],
  'audio/webm': ['video/webm'],
  'audio/x-m4a': ['audio/mp4', 'audio/m4a'],
  'audio/wav': ['audio/x-wav', 'audio/wave', 'audio/vnd.wave'],
  'audio/mpeg': ['audio/mp3'],
};

/** Why the file cannot be sent, or null when it may be. */
export function uploadProblem(file: { name: string; size: number; type: string }, rules: UploadRules): string | null {
  const allowed = rules.types.find((t) => t.extension.toLowerCase() === extensionOf(file.name));
  const reported = file.type.toLowerCase();
  // The browser's type comes from the extension too; an empty one (unknown to the OS) is let through.
  const typeAgrees = allowed && (!reported || reported === allowed.mime || BROWSER_ALIASES[allowed.mime]?.includes(reported));
  if (!typeAgrees) {
    const list = Array.from(new Set(rules.types.map((t) => t.extension))).join(' ');
    return `This type of file cannot be sent. Allowed: ${list}`;
  }
  if (file.size > rules.max_bytes) return `This file is ${formatBytes(file.size)}; the limit is ${formatBytes(rules.max_bytes)}.`;
  if (file.size === 0) return 'This file is empty.';
  return null;
}

/** The `accept` attribute of the file picker. */
export const acceptAttribute = (rules: UploadRules) => rules.types.map((t) => t.extension).join(',');
