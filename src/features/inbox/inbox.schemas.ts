/** Parameters, bodies and views of the operators' inbox (`/api/dashboard/bots/{bot_id}/inbox…`). */
import { Type, type Static } from 'typebox';
import { NullableTimestampSchema, pageQuery, TimestampSchema, UuidSchema } from '../../platform/schemas.ts';
import { MAX_MESSAGE_CHARS, SessionKeySchema } from '../chat/chat.schemas.ts';

export const BotParamsSchema = Type.Object({ bot_id: UuidSchema });
export const SessionParamsSchema = Type.Object({ bot_id: UuidSchema, session_id: SessionKeySchema });

const SessionStatus = Type.Union([Type.Literal('active'), Type.Literal('ended')]);
const Role = Type.Union([Type.Literal('user'), Type.Literal('assistant')]);
const Author = Type.Union([Type.Literal('visitor'), Type.Literal('bot'), Type.Literal('operator')], {
  description: 'who wrote it: the visitor, the bot, or an operator from the inbox (role assistant)',
});

export const InboxQuerySchema = Type.Object({ status: Type.Optional(SessionStatus), ...pageQuery() });

const LastMessageSchema = Type.Union([
  Type.Object({ role: Role, author: Author, content: Type.String(), created_at: TimestampSchema }),
  Type.Null(),
]);

const sessionFields = {
  session_id: Type.String({ description: "the caller's session_id" }),
  visitor_id: Type.Union([Type.String(), Type.Null()]),
  visitor_timezone: Type.String(),
  metadata: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], { description: 'the object sent with the latest streamed message that had one' }),
  status: SessionStatus,
  taken_over: Type.Boolean({ description: 'an operator holds the session: the bot does not answer it' }),
  message_count: Type.Integer(),
  started_at: TimestampSchema,
  last_activity_at: TimestampSchema,
  ended_at: NullableTimestampSchema,
  last_message: LastMessageSchema,
};

/** A session as the inbox shows it. */
export const InboxSessionSchema = Type.Object(sessionFields);
export type InboxSession = Static<typeof InboxSessionSchema>;

export const InboxListSchema = Type.Object({
  sessions: Type.Array(InboxSessionSchema),
  total: Type.Integer({ description: 'sessions matching the status filter' }),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

/** A message in the inbox: the Conversations message plus who wrote it. */
export const InboxMessageSchema = Type.Object({
  id: Type.String(),
  role: Role,
  author: Author,
  content: Type.String(),
  feedback_rating: Type.Union([Type.String(), Type.Null()]),
  created_at: TimestampSchema,
});

/** A file the visitor uploaded into the session, with a signed link that works for `PARLEY_MEDIA_URL_TTL` seconds. */
export const InboxAttachmentSchema = Type.Object({
  id: Type.String(),
  file_name: Type.String(),
  mime_type: Type.String(),
  size_bytes: Type.Integer(),
  file_url: Type.String({ description: 'a signed link to the file, as the upload answered it' }),
  created_at: TimestampSchema,
});

export type InboxAttachment = Static<typeof InboxAttachmentSchema>;

export const InboxSessionDetailSchema = Type.Object({
  ...sessionFields,
  messages: Type.Array(InboxMessageSchema),
  attachments: Type.Array(InboxAttachmentSchema, { description: "the visitor's uploads, oldest first" }),
});

export const OperatorMessageBodySchema = Type.Object({
  content: Type.String({ minLength: 1, maxLength: MAX_MESSAGE_CHARS, format: 'not-blank', description: 'control characters are stripped first' }),
});

export const BotPauseSchema = Type.Object({ bot_id: Type.String(), paused: Type.Boolean() });
export const SessionDeletedSchema = Type.Object({ success: Type.Boolean(), session_id: Type.String() });
