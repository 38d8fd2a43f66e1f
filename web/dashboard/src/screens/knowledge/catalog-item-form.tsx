/**
 * A catalog item's fields, shared by adding and editing: a product's (name, description, price,
 * currency, SKU, link, image) or a media item's (title, link, description, MIME type), its external
 * id and its details as JSON. The form holds text; the bodies sent are built here: a new item with
 * the fields filled in, a change with only the fields that differ (emptied ones as null).
 */
import { ApiError, type BodyOf, type ResponseOf } from '../../api/client.ts';
import type { PlacedError } from '../../components/form-error.ts';
import { TextArea, TextField } from '../../components/ui.tsx';

export type Item = ResponseOf<'dashboardListCatalogItems'>['items'][number];
export type Kind = Item['kind'];
type CreateBody = BodyOf<'dashboardCreateCatalogItem'>;
type UpdateBody = BodyOf<'dashboardUpdateCatalogItem'>;

/** The form's text for each field; `name` is a product's name or a media item's title. */
export interface ItemDraft {
  name: string;
  description: string;
  price: string;
  currency: string;
  sku: string;
  url: string;
  image_url: string;
  mime_type: string;
  external_id: string;
  metadata: string;
}

/** The fields a kind has, by the names the API gives them (and its messages use). */
export const ITEM_FIELDS: Record<Kind, readonly string[]> = {
  product: ['name', 'description', 'price', 'currency', 'sku', 'url', 'image_url', 'external_id', 'metadata'],
  media: ['title', 'url', 'description', 'mime_type', 'external_id', 'metadata'],
};

/** The draft of an item as stored, or an empty one. */
export function draftOf(item?: Item): ItemDraft {
  const metadata = item && Object.keys(item.metadata).length > 0 ? JSON.stringify(item.metadata, null, 2) : '';
  return {
    name: (item?.kind === 'media' ? item.title : item?.name) ?? '',
    description: item?.description ?? '',
    price: item?.price != null ? String(item.price) : '',
    currency: item?.currency ?? '',
    sku: item?.sku ?? '',
    url: item?.url ?? '',
    image_url: item?.image_url ?? '',
    mime_type: item?.mime_type ?? '',
    external_id: item?.external_id ?? '',
    metadata,
  };
}

/** The details as an object; a message naming the field when they are not a JSON object. */
function metadataOf(text: string): Record<string, unknown> {
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ApiError(400, `field 'metadata' must be a JSON object, e.g. {"sizes": [40, 41]}`);
  return value as Record<string, unknown>;
}

function priceOf(text: string): number | null {
  if (!text.trim()) return null;
  const price = Number(text);
  if (!Number.isFinite(price)) throw new ApiError(400, "field 'price' must be a number");
  return price;
}

const orNull = (text: string) => text.trim() || null;

/** The body that adds an item of `kind` with the fields filled in. */
export function createBodyOf(kind: Kind, draft: ItemDraft): CreateBody {
  const metadata = metadataOf(draft.metadata);
  const common = {
    ...(draft.description.trim() && { description: draft.description }),
    ...(draft.external_id.trim() && { external_id: draft.external_id.trim() }),
    ...(Object.keys(metadata).length > 0 && { metadata }),
  };
  if (kind === 'media') return { kind, title: draft.name, url: draft.url.trim(), ...common, ...(draft.mime_type.trim() && { mime_type: draft.mime_type.trim() }) };
  const price = priceOf(draft.price);
  return {
    kind,
    name: draft.name,
    ...common,
    ...(price !== null && { price }),
    ...(draft.currency.trim() && { currency: draft.currency.trim().toUpperCase() }),
    ...(draft.sku.trim() && { sku: draft.sku.trim() }),
    ...(draft.url.trim() && { url: draft.url.trim() }),
    ...(draft.image_url.trim() && { image_url: draft.image_url.trim() }),
  };
}

/** The body that changes `item` into `draft`: only the fields that differ, an emptied one as null. */
export function updateBodyOf(item: Item, draft: ItemDraft): UpdateBody {
  const before = draftOf(item);
  const changed = (field: keyof ItemDraft) => draft[field] !== before[field];
  const body: UpdateBody = {};
  if (changed('name')) body[item.kind === 'media' ? 'title' : 'name'] = draft.name;
  if (changed('description')) body.description = draft.description;
  if (changed('url')) body.url = item.kind === 'media' ? draft.url.trim() : orNull(draft.url);
  if (changed('external_id')) body.external_id = orNull(draft.external_id);
  if (changed('metadata')) body.metadata = metadataOf(draft.metadata);
  if (item.kind === 'product') {
    if (changed('price')) body.price = priceOf(draft.price);
    if (changed('currency')) body.currency = orNull(draft.currency)?.toUpperCase() ?? null;
    if (changed('sku')) body.sku = orNull(draft.sku);
    if (changed('image_url')) body.image_url = orNull(draft.image_url);
  } else if (changed('mime_type')) {
    body.mime_type = orNull(draft.mime_type);
  }
  return body;
}

/** The inputs of a kind's fields; `placed` puts the API's message under the field it names. */
export function ItemFields({ kind, draft, onChange, placed }: { kind: Kind; draft: ItemDraft; onChange(draft: ItemDraft): void; placed: PlacedError }) {
  const field = (name: keyof ItemDraft) => ({ value: draft[name], onValue: (value: string) => onChange({ ...draft, [name]: value }), error: placed.errorOf(name) });
  const product = kind === 'product';
  return (
    <>
      <TextField label={product ? 'Name' : 'Title'} required maxLength={500} {...field('name')} error={placed.errorOf(product ? 'name' : 'title')} />
      <TextArea label="Description" rows={2} maxLength={20000} {...field('description')} />
      {product && (
        <div class="field-row">
          <TextField label="Price" type="number" min={0} step="any" {...field('price')} />
          <TextField label="Currency" hint="Three letters, e.g. EUR" maxLength={3} placeholder="EUR" {...field('currency')} />
          <TextField label="SKU" maxLength={200} {...field('sku')} />
        </div>
      )}
      <TextField label="Link" type="url" required={!product} maxLength={2048} hint={product ? 'The product page.' : 'The video, image or document.'} {...field('url')} />
      {product ? (
        <TextField label="Image link" type="url" maxLength={2048} {...field('image_url')} />
      ) : (
        <TextField label="MIME type" placeholder="video/mp4" maxLength={200} {...field('mime_type')} />
      )}
      <TextField label="External id" hint="Optional: your system's id, which the catalog webhook matches." maxLength={256} {...field('external_id')} />
      <TextArea label="Details (JSON)" hint='Optional facts the bot reads, one sentence each, e.g. {"sizes": [40, 41], "colour": "red"}.' rows={3} {...field('metadata')} />
    </>
  );
}
