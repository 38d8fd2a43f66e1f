/** The media upload's form fields and answer, and the signed link's parameters (interface.md section 4, "Chat"). */
import { Type, type Static } from 'typebox';
import { stripControlChars } from '../../platform/http-rules.ts';
import { describeValidationError, validatorCompiler } from '../../platform/validation.ts';
import { ValidationError } from '../../platform/errors.ts';
import { EXAMPLE, TimestampSchema, withExamples } from '../../platform/schemas.ts';
import { SessionKeySchema } from '../chat/chat.schemas.ts';

/** The text fields of `POST /api/widget/chat/media` (the file travels beside them). */
export const UploadFieldsSchema = Type.Object({
  session_id: SessionKeySchema,
  bot_id: Type.Optional(Type.String({ maxLength: 64 })),
});
export type UploadFields = Static<typeof UploadFieldsSchema>;

/** The form as the documentation shows it (the route reads it as a stream, field by field). */
export const MediaUploadFormSchema = Type.Object({
  file: Type.String({ format: 'binary', description: 'the file; its type is decided from its content, which must agree with its extension' }),
  ...UploadFieldsSchema.properties,
});

export const MediaUploadSchema = withExamples(
  Type.Object({
    file_url: Type.String({ description: 'signed link, valid for PARLEY_MEDIA_URL_TTL seconds' }),
    file_name: Type.String({ description: 'the sanitized name' }),
    mime_type: Type.String({ description: 'detected from the content' }),
    size_bytes: Type.Integer(),
  }),
  {
    file_url: `https://parley.example.com/api/widget/media/${EXAMPLE.messageId}/order-1042.pdf?expires=1772447400&signature=9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f1a3c5e7b9d0f`,
    file_name: 'order-1042.pdf',
    mime_type: 'application/pdf',
    size_bytes: 48213,
  },
);
export type MediaUpload = Static<typeof MediaUploadSchema>;

/** One of a session's uploads as the widget shows it again after a reload. */
export const SessionAttachmentSchema = Type.Object({
  id: Type.String(),
  file_name: Type.String({ description: 'the sanitized name' }),
  mime_type: Type.String({ description: 'detected from the content' }),
  size_bytes: Type.Integer(),
  file_url: Type.String({ description: 'a fresh signed link, valid for PARLEY_MEDIA_URL_TTL seconds (as in the upload answer)' }),
  created_at: TimestampSchema,
});
export type SessionAttachment = Static<typeof SessionAttachmentSchema>;

export const MediaLinkParamsSchema = Type.Object({
  file_id: Type.String({ maxLength: 64 }),
  file_name: Type.String({ maxLength: 255 }),
});

export const MediaLinkQuerySchema = Type.Object({
  expires: Type.Optional(Type.String({ maxLength: 20 })),
  signature: Type.Optional(Type.String({ maxLength: 128 })),
});

const checkFields = validatorCompiler({ schema: UploadFieldsSchema, httpPart: 'body', method: 'POST', url: '/api/widget/chat/media' });

/** The form's text fields checked as a JSON body would be (control characters stripped first); 400 naming the field otherwise. */
export function uploadFieldsOf(fields: Record<string, string>): UploadFields {
  const value = stripControlChars({ ...fields });
  const result = checkFields(value);
  if (result !== true) {
    const errors = (checkFields as unknown as { errors?: Parameters<typeof describeValidationError>[0] }).errors ?? [];
    throw new ValidationError(describeValidationError(errors, 'body'));
  }
  return value as UploadFields;
}

// Characters a stored name may keep (decisions.md, "Uploads").
const UNSAFE_NAME_CHARS = /[^A-Za-z0-9._ -]/gu;
const MAX_NAME_CHARS = 200;

/**
 * The name an upload is shown under: the last segment of the uploaded name (either slash), leading
 * dots removed, characters outside `[A-Za-z0-9._ -]` replaced by `_`. Never used as a path.
 */
export function sanitizeFileName(uploaded: string): string {
  const last = uploaded.split(/[/\\]/).pop() ?? '';
  let name = last.replace(/^\.+/, '').replace(UNSAFE_NAME_CHARS, '_');
  if (name.length > MAX_NAME_CHARS) {
    // Keep the extension: it decides the type.
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
    name = name.slice(0, MAX_NAME_CHARS - ext.length) + ext;
  }
  return name.trim() ? name : 'file';
}
