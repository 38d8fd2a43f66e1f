/** The message and conversation views of the Conversations endpoints (interface.md section 2, "Message"). */
import { Type } from 'typebox';
import { EXAMPLE, withExamples } from '../../platform/schemas.ts';
import { SessionKeySchema } from '../chat/chat.schemas.ts';

const messageFields = {
  id: Type.String(),
  role: Type.Union([Type.Literal('user'), Type.Literal('assistant')]),
  content: Type.String(),
  feedback_rating: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
};

/** A message in the cross-session list (with its session_id). */
const { id, ...rest } = messageFields;
export const ListedMessageSchema = Type.Object({ id, session_id: Type.String(), ...rest });
/** A message in one session's view. */
export const SessionMessageSchema = Type.Object(messageFields);

const question = { id: EXAMPLE.messageId, role: 'user' as const, content: 'Do you ship to Canada?', feedback_rating: null, created_at: EXAMPLE.time };
const answer = {
  id: EXAMPLE.replyId,
  role: 'assistant' as const,
  content: 'Yes. We ship to Canada within 5 to 7 business days, and orders over CA$75 ship free.',
  feedback_rating: 'up',
  created_at: EXAMPLE.later,
};

export const MessageListSchema = withExamples(Type.Object({ messages: Type.Array(ListedMessageSchema), limit: Type.Integer(), offset: Type.Integer() }), {
  messages: [answer, question].map((message) => ({ ...message, session_id: EXAMPLE.sessionId })),
  limit: 50,
  offset: 0,
});
export const ConversationSchema = withExamples(Type.Object({ session_id: Type.String(), messages: Type.Array(SessionMessageSchema) }), {
  session_id: EXAMPLE.sessionId,
  messages: [question, answer],
});
export const ConversationDeletedSchema = withExamples(Type.Object({ success: Type.Boolean(), session_id: Type.String() }), {
  success: true,
  session_id: EXAMPLE.sessionId,
});
export const SessionParamsSchema = Type.Object({ session_id: SessionKeySchema });
