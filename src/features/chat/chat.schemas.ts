/** Bodies and responses of the chat endpoints (interface.md section 4, "Chat"). */
import { Type, type Static } from 'typebox';
import { EXAMPLE, withExamples } from '../../platform/schemas.ts';

/** Longest message text (interface.md section 8). */
export const MAX_MESSAGE_CHARS = 4000;

const MessageText = Type.String({ minLength: 1, maxLength: MAX_MESSAGE_CHARS, format: 'not-blank', description: 'control characters are stripped first' });
/**
 * decisions.md: free-form, 1 to 128 printable characters. Printable: no control character, and no
 * half of a surrogate pair, which storage would turn into U+FFFD so that the session could no longer
 * be named (the pattern runs in Unicode mode, where a whole pair is one character and passes).
 */
export const SessionKeySchema = Type.String({ minLength: 1, maxLength: 128, pattern: '^[^\\u0000-\\u001F\\u007F-\\u009F\\uD800-\\uDFFF]+$' });
const TimeZone = Type.String({ maxLength: 64, format: 'iana-timezone', description: 'IANA time zone, default UTC' });
const LanguageCode = Type.String({ pattern: '^(?:[a-zA-Z]{2,3}(?:-[A-Za-z0-9]{2,8})*)?$', maxLength: 35, description: "forces the reply's language for this message; '' mirrors the visitor" });

export const ChatBodySchema = withExamples(
  Type.Object({
    text: MessageText,
    session_id: Type.Optional(SessionKeySchema),
    visitor_timezone: Type.Optional(TimeZone),
    response_language: Type.Optional(LanguageCode),
  }),
  { text: 'Do you ship to Canada?', session_id: EXAMPLE.sessionId, visitor_timezone: 'America/Toronto' },
);
export type ChatBody = Static<typeof ChatBodySchema>;

export const ChatResponseSchema = withExamples(
  Type.Object({
    reply: Type.String(),
    session_id: Type.String(),
    paused: Type.Optional(Type.Boolean({ description: 'true when an operator holds the conversation: no AI reply was produced' })),
  }),
  { reply: 'Yes. We ship to Canada within 5 to 7 business days, and orders over CA$75 ship free.', session_id: EXAMPLE.sessionId },
);

export const StreamBodySchema = withExamples(
  Type.Object({
    text: MessageText,
    session_id: Type.Optional(SessionKeySchema),
    visitor_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    visitor_timezone: Type.Optional(TimeZone),
    response_language: Type.Optional(LanguageCode),
    metadata: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), { maxProperties: 50 })),
    bot_id: Type.Optional(Type.String({ maxLength: 64 })),
  }),
  {
    text: 'Do you ship to Canada?',
    session_id: EXAMPLE.sessionId,
    visitor_id: 'visitor-5f2c9e',
    visitor_timezone: 'America/Toronto',
    metadata: { page: '/shipping', plan: 'pro' },
  },
);

/** What the stream of `POST /api/widget/chat/stream` looks like on the wire. */
export const CHAT_STREAM_EXAMPLE = [
  'event: token\ndata: {"token":"Yes. We ship to Canada"}\n',
  'event: token\ndata: {"token":" within 5 to 7 business days."}\n',
  `event: done\ndata: {"session_id":"${EXAMPLE.sessionId}","sources":[{"title":"Shipping policy","url":"https://shop.example.com/shipping"}],"message_id":"${EXAMPLE.replyId}"}\n`,
  '',
].join('\n');
export type StreamBody = Static<typeof StreamBodySchema>;

/** The largest `metadata` object stored with a session, as JSON. */
export const MAX_METADATA_BYTES = 8192;
