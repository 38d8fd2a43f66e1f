/** Knowledge bodies and the source view that carries the fields of both documented forms. */
import { Type, type Static } from 'typebox';
import { NullableTimestampSchema, TimestampSchema } from '../../platform/schemas.ts';
import type { SourceRow } from './knowledge.service.ts';

/** `POST /api/v1/knowledge`: both forms' fields, all optional here; the form rules are applied in knowledge.forms.ts. */
export const KnowledgeBodySchema = Type.Object({
  type: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  title: Type.Optional(Type.String()),
  content: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
});
export type KnowledgeBody = Static<typeof KnowledgeBodySchema>;

export const BotKnowledgeBodySchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  content: Type.String({ minLength: 1, maxLength: 100_000 }),
});

export const SourceSchema = Type.Object({
  id: Type.String(),
  bot_id: Type.String(),
  type: Type.String(),
  name: Type.String(),
  title: Type.String(),
  url: Type.Union([Type.String(), Type.Null()]),
  status: Type.String(),
  status_detail: Type.Union([Type.String(), Type.Null()]),
  char_count: Type.Integer(),
  content_preview: Type.String(),
  crawl_schedule: Type.Union([Type.String(), Type.Null()]),
  next_crawl_at: NullableTimestampSchema,
  last_crawled_at: NullableTimestampSchema,
  created_at: TimestampSchema,
});
export type SourceView = Static<typeof SourceSchema>;

/** The one view of a source (decisions.md: every object carries the fields of both forms). */
export function sourceView(row: SourceRow): SourceView {
  return {
    id: row.id,
    bot_id: row.bot_id,
    type: row.type,
    name: row.name,
    title: row.name,
    url: row.url,
    status: row.status,
    status_detail: row.status_detail,
    char_count: row.char_count,
    content_preview: row.content.slice(0, 200),
    crawl_schedule: row.crawl_schedule,
    next_crawl_at: row.next_crawl_at,
    last_crawled_at: row.last_crawled_at,
    created_at: row.created_at,
  };
}

export const Form1ResponseSchema = Type.Object({ success: Type.Boolean(), chars: Type.Optional(Type.Integer()), source: SourceSchema });
export const Form2ResponseSchema = Type.Object({ id: Type.String(), status: Type.String(), message: Type.String() });
export const SourceListSchema = Type.Object({ sources: Type.Array(SourceSchema), total: Type.Integer() });
export const SourceIdParamsSchema = Type.Object({ source_id: Type.String() });
