/** What the widget reads: the bot's public configuration and the visitor's conversation so far. */
import { Type } from 'typebox';
import { EXAMPLE, withExamples } from '../../platform/schemas.ts';
import { SessionAttachmentSchema } from '../media/media.schemas.ts';

/** `GET /api/widget/config`: what the widget shows and checks; nothing private. */
export const WidgetConfigSchema = withExamples(
  Type.Object({
    bot_id: Type.String(),
    name: Type.String(),
    welcome_message: Type.String(),
    primary_color: Type.String(),
    widget_style: Type.String(),
    response_language: Type.String(),
    lead_capture_enabled: Type.Boolean(),
    lead_fields: Type.Array(Type.String()),
    calendar_scheduling_enabled: Type.Boolean(),
    meeting_url: Type.Union([Type.String(), Type.Null()]),
    uploads: Type.Object({ max_bytes: Type.Integer(), types: Type.Array(Type.Object({ extension: Type.String(), mime: Type.String() })) }),
  }),
  {
    bot_id: EXAMPLE.botId,
    name: 'Support',
    welcome_message: 'Hi! Ask me about orders, shipping and returns.',
    primary_color: '#2563eb',
    widget_style: 'classic',
    response_language: '',
    lead_capture_enabled: true,
    lead_fields: ['name', 'email', 'phone'],
    calendar_scheduling_enabled: false,
    meeting_url: null,
    uploads: { max_bytes: 20971520, types: [{ extension: '.png', mime: 'image/png' }] },
  },
);

/** An uploaded file's id in the history's example. */
const EXAMPLE_FILE_ID = '6d1f3b5a-2c4e-4f8a-9b0d-7e5c3a1f9d2b';

/** `GET /api/widget/sessions/{session_id}/messages`: what the widget shows after a reload. */
export const HistorySchema = withExamples(
  Type.Object({
    session_id: Type.String(),
    taken_over: Type.Boolean(),
    messages: Type.Array(
      Type.Object({
        id: Type.String(),
        role: Type.String(),
        author: Type.String(),
        content: Type.String(),
        feedback_rating: Type.Union([Type.String(), Type.Null()]),
        sources: Type.Array(Type.Object({ title: Type.String(), url: Type.String() })),
        created_at: Type.String(),
      }),
    ),
    attachments: Type.Array(SessionAttachmentSchema, { description: "the visitor's uploads, oldest first" }),
  }),
  {
    session_id: EXAMPLE.sessionId,
    taken_over: false,
    messages: [
      { id: EXAMPLE.messageId, role: 'user', author: 'visitor', content: 'Do you ship to Canada?', feedback_rating: null, sources: [], created_at: EXAMPLE.time },
      {
        id: EXAMPLE.replyId,
        role: 'assistant',
        author: 'bot',
        content: 'Yes. We ship to Canada within 5 to 7 business days.',
        feedback_rating: 'up',
        sources: [{ title: 'Shipping policy', url: 'https://shop.example.com/shipping' }],
        created_at: EXAMPLE.later,
      },
    ],
    attachments: [
      {
        id: EXAMPLE_FILE_ID,
        file_name: 'parcel.png',
        mime_type: 'image/png',
        size_bytes: 48213,
        file_url: `https://parley.example.com/api/widget/media/${EXAMPLE_FILE_ID}/parcel.png?expires=1772447400&signature=9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c2e4b6d8f0a1c3e5b7d9f1a3c5e7b9d0f`,
        created_at: EXAMPLE.time,
      },
    ],
  },
);
