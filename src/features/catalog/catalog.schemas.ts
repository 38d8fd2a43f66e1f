/** The catalog's items and delivery events (decisions.md "The product catalog webhook"). */
import { Type, type Static } from 'typebox';
import { EXAMPLE, NullableTimestampSchema, TimestampSchema, withExamples } from '../../platform/schemas.ts';

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

/** What every delivery must carry, checked before its event (and so its kind) is known. */
export const CatalogEnvelopeSchema = Type.Object({
  // A union built from the list has no static type of its own: Unsafe names it.
  event: Type.Unsafe<(typeof CATALOG_EVENTS)[number]>(Type.Union(CATALOG_EVENTS.map((e) => Type.Literal(e)))),
  external_id: ExternalId,
});

/** The body of a signed delivery, as documented. */
export const CatalogEventSchema = Type.Object({
  ...CatalogEnvelopeSchema.properties,
  item: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'required for created and updated (the fields of its kind); ignored for deleted' })),
});
export type CatalogEvent = Static<typeof CatalogEventSchema>;

/** The `item` a created or updated event needs, by kind: errors name `item.<field>`. */
export const EventItemSchemas = {
  product: Type.Object({ item: ProductFieldsSchema }),
  media: Type.Object({ item: MediaFieldsSchema }),
};
export type ProductFields = Static<typeof ProductFieldsSchema>;
export type MediaFields = Static<typeof MediaFieldsSchema>;

const productExample = {
  name: 'Trail running shoes',
  description: 'Light shoes for rocky trails.',
  price: 129,
  currency: 'EUR',
  sku: 'TR-1042',
  url: 'https://shop.example.com/p/1042',
  image_url: 'https://shop.example.com/img/1042.jpg',
  metadata: { sizes: [40, 41, 42, 43] },
};

/** A dashboard item: flat, with its kind. */
export const CatalogItemSchema = withExamples(Type.Object({
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
}), { id: EXAMPLE.itemId, kind: 'product', external_id: 'SKU-1042', title: null, mime_type: null, ...productExample, created_at: EXAMPLE.time, updated_at: null });

export const CreateItemSchema = withExamples(
  Type.Object({
    kind: Type.Union([Type.Literal('product'), Type.Literal('media')]),
    external_id: Type.Optional(Type.Union([ExternalId, Type.Null()])),
    ...ProductFieldsSchema.properties,
    ...MediaFieldsSchema.properties,
    url: Type.Optional(Type.Union([Url, Type.Null()])),
  }),
  { kind: 'product', external_id: 'SKU-1042', ...productExample },
);
export const UpdateItemSchema = withExamples(
  Type.Object({
    external_id: Type.Optional(Type.Union([ExternalId, Type.Null()])),
    ...ProductFieldsSchema.properties,
    ...MediaFieldsSchema.properties,
    url: Type.Optional(Type.Union([Url, Type.Null()])),
  }),
  { price: 109, metadata: { sizes: [41, 42], sale: true } },
);
