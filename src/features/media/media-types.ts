/**
 * The upload types of interface.md section 8, decided from the bytes: the type `file-type` reads
 * from the content must be an allowed one and must agree with the file's extension. Plain text and
 * CSV have no magic number, so they are accepted only as valid UTF-8 without NULs that is not a
 * script (`#!`). Containers are reported with the spec's MIME type whatever `file-type` calls them.
 */
import path from 'node:path';
import { UnsupportedMediaTypeError } from '../../platform/errors.ts';

/** What an allowed upload is, for the engines: images are shown, documents read, audio kept. */
export type MediaKind = 'image' | 'document' | 'audio';

/** An accepted upload's type. */
export interface MediaType {
  /** The spec's MIME type (section 8). */
  mime: string;
  kind: MediaKind;
}

interface AllowedType extends MediaType {
  /** Types `file-type` may report for this extension's content; 'text' = no magic, checked as UTF-8 text. */
  detected: readonly string[] | 'text';
  /** How the refusal names the expected content. */
  label: string;
}

const PNG: AllowedType = { mime: 'image/png', kind: 'image', label: 'a PNG image', detected: ['image/png', 'image/apng'] };
const JPEG: AllowedType = { mime: 'image/jpeg', kind: 'image', label: 'a JPEG image', detected: ['image/jpeg'] };

/** Allowed extensions and the content each must have. */
const BY_EXTENSION: Record<string, AllowedType> = {
  png: PNG,
  jpg: JPEG,
  jpeg: JPEG,
  webp: { mime: 'image/webp', kind: 'image', label: 'a WebP image', detected: ['image/webp'] },
  gif: { mime: 'image/gif', kind: 'image', label: 'a GIF image', detected: ['image/gif'] },
  pdf: { mime: 'application/pdf', kind: 'document', label: 'a PDF document', detected: ['application/pdf'] },
  txt: { mime: 'text/plain', kind: 'document', label: 'UTF-8 text', detected: 'text' },
  csv: { mime: 'text/csv', kind: 'document', label: 'UTF-8 text', detected: 'text' },
  mp3: { mime: 'audio/mpeg', kind: 'audio', label: 'MP3 audio', detected: ['audio/mpeg'] },
  wav: { mime: 'audio/wav', kind: 'audio', label: 'WAV audio', detected: ['audio/wav', 'audio/vnd.wave', 'audio/wave', 'audio/x-wav'] },
  // Vorbis, Opus and FLAC streams in an Ogg container.
  ogg: { mime: 'audio/ogg', kind: 'audio', label: 'Ogg audio', detected: ['audio/ogg', 'audio/opus'] },
  // WebM is one container for audio and video; file-type names it video/webm either way.
  webm: { mime: 'audio/webm', kind: 'audio', label: 'WebM audio', detected: ['video/webm', 'audio/webm'] },
  m4a: { mime: 'audio/x-m4a', kind: 'audio', label: 'M4A audio', detected: ['audio/x-m4a', 'audio/mp4', 'audio/m4a'] },
};

/** What file-type may call content that is plain UTF-8 text all the same. */
const TEXT_DETECTIONS = new Set(['application/xml', 'text/xml']);

/** The allowed extensions, for messages and documentation. */
export const ALLOWED_EXTENSIONS = Object.keys(BY_EXTENSION).map((ext) => `.${ext}`);

/** Each allowed extension with its MIME type, for a client that checks a file before sending it. */
export const ALLOWED_UPLOADS: ReadonlyArray<{ extension: string; mime: string }> = Object.entries(BY_EXTENSION).map(([ext, type]) => ({ extension: `.${ext}`, mime: type.mime }));

/** What the bytes of an upload say about themselves when no magic number matched. */
export type TextVerdict = 'text' | 'empty' | 'binary' | 'script';

/**
 * Reads an upload's bytes as they stream past and tells whether they are UTF-8 text: valid
 * sequences throughout, no NUL, and not opening with `#!` (after a byte-order mark).
 */
export class TextSniffer {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  private head = Buffer.alloc(0);
  private bytes = 0;
  private valid = true;

  push(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.head.length < 5) this.head = Buffer.concat([this.head, chunk.subarray(0, 5 - this.head.length)]);
    if (!this.valid) return;
    if (chunk.includes(0)) {
      this.valid = false;
      return;
    }
    try {
      this.decoder.decode(chunk, { stream: true });
    } catch {
      this.valid = false;
    }
  }

  verdict(): TextVerdict {
    if (this.bytes === 0) return 'empty';
    if (this.valid) {
      try {
        this.decoder.decode();
      } catch {
        // A multi-byte sequence cut off at the end.
        this.valid = false;
      }
    }
    if (!this.valid) return 'binary';
    const start = this.head[0] === 0xef && this.head[1] === 0xbb && this.head[2] === 0xbf ? this.head.subarray(3) : this.head;
    return start[0] === 0x23 && start[1] === 0x21 ? 'script' : 'text';
  }
}

/** The extension of a file name, lower case, without the dot ('' when none). */
export function extensionOf(fileName: string): string {
  return path.extname(fileName).slice(1).toLowerCase();
}

/**
 * The type of an upload named `fileName`, from what `file-type` detected in its bytes (undefined:
 * no magic number) and the text verdict; refuses anything not allowed, or not what its name says,
 * with UnsupportedMediaTypeError.
 */
export function decideMediaType(fileName: string, detectedMime: string | undefined, text: TextVerdict): MediaType {
  const ext = extensionOf(fileName);
  const allowed = ext ? BY_EXTENSION[ext] : undefined;
  if (!allowed) {
    const what = ext ? `Files of type '.${ext}' are not accepted` : 'The file name has no extension';
    throw new UnsupportedMediaTypeError(`${what}; allowed: ${ALLOWED_EXTENSIONS.join(' ')}`);
  }
  // 'audio/ogg; codecs=opus' → 'audio/ogg'.
  const detected = detectedMime?.split(';')[0]!.trim().toLowerCase();
  // XML is the one text format file-type names: in a .txt or .csv it is text like any other.
  const textual = allowed.detected === 'text' && detected !== undefined && TEXT_DETECTIONS.has(detected) && text === 'text';
  if (detected && !textual) {
    if (allowed.detected !== 'text' && allowed.detected.includes(detected)) return { mime: allowed.mime, kind: allowed.kind };
    if (isAllowedContent(detected)) {
      throw new UnsupportedMediaTypeError(`The content is ${detected}, which does not match the extension '.${ext}'`);
    }
    throw new UnsupportedMediaTypeError(`Content of type ${detected} is not accepted (executables, scripts, archives and other types are refused)`);
  }
  if (allowed.detected !== 'text') {
    const looksLike = text === 'script' ? 'a script' : text === 'text' ? 'text' : text === 'empty' ? 'empty' : 'of an unrecognised type';
    throw new UnsupportedMediaTypeError(`The content is ${looksLike}, not ${allowed.label} as the extension '.${ext}' says`);
  }
  switch (text) {
    case 'text':
      return { mime: allowed.mime, kind: allowed.kind };
    case 'script':
      throw new UnsupportedMediaTypeError('Scripts are not accepted (the content starts with #!)');
    case 'empty':
      throw new UnsupportedMediaTypeError('The file is empty');
    default:
      throw new UnsupportedMediaTypeError(`The content is binary data, not UTF-8 text as the extension '.${ext}' says`);
  }
}

function isAllowedContent(detected: string): boolean {
  return Object.values(BY_EXTENSION).some((t) => t.detected !== 'text' && t.detected.includes(detected));
}
