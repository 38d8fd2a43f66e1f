/** The message and conversation views of the Conversations endpoints (interface.md section 2, "Message"). */
import { Type } from 'typebox';
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

export const MessageListSchema = Type.Object({ messages: Type.Array(ListedMessageSchema), limit: Type.Integer(), offset: Type.Integer() });
export const ConversationSchema = Type.Object({ session_id: Type.String(), messages: Type.Array(SessionMessageSchema) });
export const SessionParamsSchema = Type.Object({ session_id: SessionKeySchema });
