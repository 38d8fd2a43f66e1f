/** Knowledge bodies and the source view that carries the fields of both documented forms. */
import { Type, type Static } from 'typebox';
import { firstCharacters } from '../../platform/characters.ts';
import { EXAMPLE, NullableTimestampSchema, TimestampSchema, withExamples, withNamedExamples } from '../../platform/schemas.ts';
import type { SourceRow } from './knowledge.service.ts';

/** `POST /api/v1/knowledge`: both forms' fields, all optional here; the form rules are applied in knowledge.forms.ts. */
export const KnowledgeBodySchema = withNamedExamples(
  Type.Object({
    type: Type.Optional(Type.String({ description: '`text` or `url`' })),
    name: Type.Optional(Type.String({ description: 'Form 1: the display name' })),
    title: Type.Optional(Type.String({ description: 'Form 2: the display name (default: the URL, or the first 80 characters of the text)' })),
    content: Type.Optional(Type.String({ description: 'the text (Form 1: up to 100,000 characters; Form 2: 50,000), or for Form 2 a https:// URL' })),
    url: Type.Optional(Type.String({ description: 'Form 1: the page to fetch and index now' })),
  }),
  {
    form1Text: {
      summary: 'Form 1: text, indexed before the answer (200)',
      value: { type: 'text', name: 'Shipping policy', content: 'We ship to the United States, Canada and the European Union. Orders leave our warehouse within 2 business days.' },
    },
    form1Url: { summary: 'Form 1: a page, fetched and indexed before the answer (200)', value: { type: 'url', name: 'Returns', url: 'https://shop.example.com/returns' } },
    form2Text: { summary: 'Form 2: text (201, ready)', value: { type: 'text', title: 'Opening hours', content: 'Our support team answers Monday to Friday, 9:00 to 18:00 CET.' } },
    form2Url: { summary: 'Form 2: a page, indexed in the background (201, processing)', value: { type: 'url', content: 'https://shop.example.com/faq' } },
  },
);
export type KnowledgeBody = Static<typeof KnowledgeBodySchema>;

export const BotKnowledgeBodySchema = withExamples(
  Type.Object({
    name: Type.String({ minLength: 1, maxLength: 200, format: 'not-blank' }),
    content: Type.String({ minLength: 1, maxLength: 100_000, format: 'not-blank' }),
  }),
  { name: 'Shipping policy', content: 'We ship to the United States, Canada and the European Union. Orders leave our warehouse within 2 business days.' },
);

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
    content_preview: firstCharacters(row.content, 200),
    crawl_schedule: row.crawl_schedule,
    next_crawl_at: row.next_crawl_at,
    last_crawled_at: row.last_crawled_at,
    created_at: row.created_at,
  };
}

/** A source as the examples of the documentation show it. */
const sourceExample: SourceView = {
  id: EXAMPLE.sourceId,
  bot_id: EXAMPLE.botId,
  type: 'text',
  name: 'Shipping policy',
  title: 'Shipping policy',
  url: null,
  status: 'trained',
  status_detail: null,
  char_count: 112,
  content_preview: 'We ship to the United States, Canada and the European Union. Orders leave our warehouse within 2 business days.',
  crawl_schedule: null,
  next_crawl_at: null,
  last_crawled_at: null,
  created_at: EXAMPLE.time,
};

export const Form1ResponseSchema = withExamples(Type.Object({ success: Type.Boolean(), chars: Type.Optional(Type.Integer()), source: SourceSchema }), {
  success: true,
  source: sourceExample,
});
export const Form2ResponseSchema = withExamples(Type.Object({ id: Type.String(), status: Type.String(), message: Type.String() }), {
  id: EXAMPLE.sourceId,
  status: 'processing',
  message: 'URL queued for indexing',
});
export const SourceListSchema = withExamples(Type.Object({ sources: Type.Array(SourceSchema), total: Type.Integer() }), { sources: [sourceExample], total: 1 });
/** `POST /api/v1/bots/{bot_id}/knowledge`: a Form 1 text source, `trained`. */
export const BotKnowledgeCreatedSchema = withExamples(Type.Object({ success: Type.Boolean(), source: SourceSchema }), { success: true, source: sourceExample });
export const SourceIdParamsSchema = Type.Object({ source_id: Type.String({ format: 'uuid' }) });
