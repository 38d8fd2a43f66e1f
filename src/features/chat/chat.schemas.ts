/** Bodies and responses of the chat endpoints (interface.md section 4, "Chat"). */
import { Type, type Static } from 'typebox';

/** Longest message text (interface.md section 8). */
export const MAX_MESSAGE_CHARS = 4000;

const MessageText = Type.String({ minLength: 1, maxLength: MAX_MESSAGE_CHARS, format: 'not-blank', description: 'control characters are stripped first' });
/** decisions.md: free-form, 1 to 128 printable characters. */
export const SessionKeySchema = Type.String({ minLength: 1, maxLength: 128, pattern: '^[^\\u0000-\\u001F\\u007F-\\u009F]+$' });
const TimeZone = Type.String({ maxLength: 64, format: 'iana-timezone', description: 'IANA time zone, default UTC' });
const LanguageCode = Type.String({ pattern: '^(?:[a-zA-Z]{2,3}(?:-[A-Za-z0-9]{2,8})*)?$', maxLength: 35, description: "forces the reply's language for this message; '' mirrors the visitor" });

export const ChatBodySchema = Type.Object({
  text: MessageText,
  session_id: Type.Optional(SessionKeySchema),
  visitor_timezone: Type.Optional(TimeZone),
  response_language: Type.Optional(LanguageCode),
});
export type ChatBody = Static<typeof ChatBodySchema>;

export const ChatResponseSchema = Type.Object({
  reply: Type.String(),
  session_id: Type.String(),
  paused: Type.Optional(Type.Boolean({ description: 'true when an operator holds the conversation: no AI reply was produced' })),
});

export const StreamBodySchema = Type.Object({
  text: MessageText,
  session_id: Type.Optional(SessionKeySchema),
  visitor_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  visitor_timezone: Type.Optional(TimeZone),
  response_language: Type.Optional(LanguageCode),
  metadata: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), { maxProperties: 50 })),
  bot_id: Type.Optional(Type.String({ maxLength: 64 })),
});
export type StreamBody = Static<typeof StreamBodySchema>;

/** The largest `metadata` object stored with a session, as JSON. */
export const MAX_METADATA_BYTES = 8192;
