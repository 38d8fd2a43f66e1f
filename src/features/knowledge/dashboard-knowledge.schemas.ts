/** Bodies and answers of the dashboard's knowledge endpoints: adding a text or a page, and the search preview. */
import { Type, type Static } from 'typebox';
import { ValidationError } from '../../platform/errors.ts';
import { EXAMPLE, withExamples, withNamedExamples } from '../../platform/schemas.ts';
import { isHttpUrl } from './knowledge.forms.ts';
import { SourceSchema } from './knowledge.schemas.ts';
import type { CrawlSchedule } from './knowledge.service.ts';

const TEXT_MAX = 100_000;
const Schedule = Type.Union([Type.Literal('hourly'), Type.Literal('daily'), Type.Literal('weekly'), Type.Null()]);

export const DashboardKnowledgeBodySchema = withNamedExamples(
  Type.Object({
    type: Type.Union([Type.Literal('text'), Type.Literal('url')]),
    name: Type.Optional(Type.String({ maxLength: 200, description: "the source's name (required for text; a page defaults to its URL)" })),
    content: Type.Optional(Type.String({ maxLength: TEXT_MAX, description: 'the text (type text)' })),
    url: Type.Optional(Type.String({ maxLength: 2000, description: 'the page, http:// or https:// (type url)' })),
    crawl_schedule: Type.Optional(Schedule),
  }),
  {
    text: {
      summary: 'Text, indexed before the answer',
      value: { type: 'text', name: 'Shipping policy', content: 'We ship to the United States, Canada and the European Union. Orders leave our warehouse within 2 business days.' },
    },
    url: { summary: 'A page, fetched in the background and again every week', value: { type: 'url', url: 'https://shop.example.com/faq', crawl_schedule: 'weekly' } },
  },
);
export type DashboardKnowledgeBody = Static<typeof DashboardKnowledgeBodySchema>;

export type DashboardKnowledgeCommand =
  | { type: 'text'; name: string; content: string }
  | { type: 'url'; name: string; url: string; crawlSchedule: CrawlSchedule | null };

/** Applies the rules the schema cannot say: which fields each type needs. */
export function parseDashboardKnowledge(body: DashboardKnowledgeBody): DashboardKnowledgeCommand {
  const name = body.name?.trim() ?? '';
  if (body.type === 'text') {
    if (!name) throw new ValidationError("field 'name' is required for type 'text'");
    if (!body.content?.trim()) throw new ValidationError("field 'content' is required for type 'text'");
    return { type: 'text', name, content: body.content };
  }
  const url = body.url?.trim() ?? '';
  if (!url) throw new ValidationError("field 'url' is required for type 'url'");
  if (!isHttpUrl(url, false)) throw new ValidationError("field 'url' must be a fully qualified http(s) URL");
  return { type: 'url', name: name || url, url, crawlSchedule: body.crawl_schedule ?? null };
}

export const DashboardSourceCreatedSchema = withExamples(Type.Object({ success: Type.Boolean(), source: SourceSchema }), {
  success: true,
  source: {
    id: EXAMPLE.sourceId,
    bot_id: EXAMPLE.botId,
    type: 'url',
    name: 'https://shop.example.com/faq',
    title: 'https://shop.example.com/faq',
    url: 'https://shop.example.com/faq',
    status: 'processing',
    status_detail: null,
    char_count: 0,
    content_preview: '',
    crawl_schedule: 'weekly',
    next_crawl_at: '2026-03-09T09:30:00.000Z',
    last_crawled_at: null,
    created_at: EXAMPLE.time,
  },
});

export const KnowledgeSearchQuerySchema = Type.Object({
  q: Type.String({ minLength: 1, maxLength: 4000, description: 'the question, as a visitor would ask it', examples: ['How long does shipping take?'] }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 8, description: 'passages to return (parley-local reads the best 8)' })),
});

export const KnowledgeSearchResultSchema = withExamples(
  Type.Object({
    query: Type.String(),
    passages: Type.Array(
      Type.Object({
        source_id: Type.String(),
        source_name: Type.String(),
        source_url: Type.Union([Type.String(), Type.Null()]),
        heading: Type.String({ description: "the passage's heading path inside its source, '' when none" }),
        text: Type.String(),
        score: Type.Number({ description: 'fused rank score: higher is better, comparable only within one answer' }),
      }),
    ),
    reply: Type.Union(
      [
        Type.Object({
          kind: Type.Union([Type.Literal('answer'), Type.Literal('refusal'), Type.Literal('small_talk')]),
          text: Type.String(),
        }),
        Type.Null(),
      ],
      { description: "what a parley-local bot would reply to `q` as a visitor's first message; null for a bot answering with a provider model, whose reply only the model decides" },
    ),
  }),
  {
    query: 'How long does shipping take?',
    passages: [
      {
        source_id: EXAMPLE.sourceId,
        source_name: 'Shipping policy',
        source_url: null,
        heading: '',
        text: 'We ship to the United States, Canada and the European Union. Orders leave our warehouse within 2 business days.',
        score: 0.0952,
      },
    ],
    reply: { kind: 'answer', text: 'Orders leave our warehouse within 2 business days.' },
  },
);
