/** The catalog's items and delivery events (decisions.md "The product catalog webhook"). */
import { Type, type Static } from 'typebox';
import { NullableTimestampSchema, TimestampSchema } from '../../platform/schemas.ts';

export const CATALOG_EVENTS = ['product.created', 'product.updated', 'product.deleted', 'media.created', 'media.updated', 'media.deleted'] as const;

const Text = (max: number) => Type.String({ maxLength: max });
const Url = Type.String({ maxLength: 2048, pattern: '^https?://' });
const Metadata = Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), { maxProperties: 100 });

/** A product's fields (all optional here; `name` is required on create, checked by the service). */
export const ProductFieldsSchema = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  description: Type.Optional(Text(20_000)),
  price: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  currency: Type.Optional(Type.Union([Type.String({ pattern: '^[A-Za-z]{3}$' }), Type.Null()])),
  sku: Type.Optional(Type.Union([Text(200), Type.Null()])),
  url: Type.Optional(Type.Union([Url, Type.Null()])),
  image_url: Type.Optional(Type.Union([Url, Type.Null()])),
  metadata: Type.Optional(Metadata),
});

/** A media item's fields (`title` and `url` required on create). */
export const MediaFieldsSchema = Type.Object({
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  url: Type.Optional(Url),
  description: Type.Optional(Text(20_000)),
  mime_type: Type.Optional(Type.Union([Text(200), Type.Null()])),
  metadata: Type.Optional(Metadata),
});

const ExternalId = Type.String({ minLength: 1, maxLength: 256 });

/** The body of a signed delivery; `item` is checked against its kind's fields by the service. */
export const CatalogEventSchema = Type.Object({
  event: Type.Union(CATALOG_EVENTS.map((e) => Type.Literal(e))),
  external_id: ExternalId,
  item: Type.Optional(Type.Object({}, { additionalProperties: true })),
});
export type CatalogEvent = Static<typeof CatalogEventSchema>;
export type ProductFields = Static<typeof ProductFieldsSchema>;
export type MediaFields = Static<typeof MediaFieldsSchema>;

/** A dashboard item: flat, with its kind. */
export const CatalogItemSchema = Type.Object({
  id: Type.String(),
  kind: Type.Union([Type.Literal('product'), Type.Literal('media')]),
  external_id: Type.Union([Type.String(), Type.Null()]),
  name: Type.Union([Type.String(), Type.Null()]),
  title: Type.Union([Type.String(), Type.Null()]),
  description: Type.Union([Type.String(), Type.Null()]),
  price: Type.Union([Type.Number(), Type.Null()]),
  currency: Type.Union([Type.String(), Type.Null()]),
  sku: Type.Union([Type.String(), Type.Null()]),
  url: Type.Union([Type.String(), Type.Null()]),
  image_url: Type.Union([Type.String(), Type.Null()]),
  mime_type: Type.Union([Type.String(), Type.Null()]),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  created_at: TimestampSchema,
  updated_at: NullableTimestampSchema,
});

export const CreateItemSchema = Type.Object({
  kind: Type.Union([Type.Literal('product'), Type.Literal('media')]),
  external_id: Type.Optional(Type.Union([ExternalId, Type.Null()])),
  ...ProductFieldsSchema.properties,
  ...MediaFieldsSchema.properties,
  url: Type.Optional(Type.Union([Url, Type.Null()])),
});
export const UpdateItemSchema = Type.Object({
  external_id: Type.Optional(Type.Union([ExternalId, Type.Null()])),
  ...ProductFieldsSchema.properties,
  ...MediaFieldsSchema.properties,
  url: Type.Optional(Type.Union([Url, Type.Null()])),
});
