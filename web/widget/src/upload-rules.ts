/**
 * The upload check made before a file leaves the browser, against the bot's `uploads` rules, so
 * that a visitor learns at once rather than after sending 20 MB. The service decides again from
 * the bytes.
 */
import type { UploadRules } from './api-client.ts';
import type { WidgetWords } from './words.ts';

const extensionOf = (name: string) => /\.[^./\\]+$/.exec(name)?.[0].toLowerCase() ?? '';

/** What browsers report for allowed files under another name than the service's (section 8). */
const BROWSER_ALIASES: Record<string, string[]> = {
  'text/csv': ['application/vnd.ms-excel', 'application/csv'],
  'audio/webm': ['video/webm'],
  'audio/x-m4a': ['audio/mp4', 'audio/m4a'],
  'audio/wav': ['audio/x-wav', 'audio/wave', 'audio/vnd.wave'],
  'audio/mpeg': ['audio/mp3'],
};

/** Why the file cannot be sent (in the widget's words), or null when it may be. */
export function uploadProblem(file: { name: string; size: number; type: string }, rules: UploadRules, words: WidgetWords): string | null {
  const allowed = rules.types.find((t) => t.extension.toLowerCase() === extensionOf(file.name));
  const reported = file.type.toLowerCase();
  // The browser's type comes from the extension too; an empty one (unknown to the OS) is let through.
  const typeAgrees = allowed && (!reported || reported === allowed.mime || BROWSER_ALIASES[allowed.mime]?.includes(reported));
  if (!typeAgrees) {
    const list = Array.from(new Set(rules.types.map((t) => t.extension))).join(' ');
    return words.typeRefused(list);
  }
  if (file.size > rules.max_bytes) return words.tooLarge(words.fileSize(file.size), words.fileSize(rules.max_bytes));
  if (file.size === 0) return words.emptyFile;
  return null;
}

/** The `accept` attribute of the file picker. */
export const acceptAttribute = (rules: UploadRules) => rules.types.map((t) => t.extension).join(',');
