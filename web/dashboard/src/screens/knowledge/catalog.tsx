/**
 * The product catalog: items the bot answers about (products with prices, media), added and edited
 * here or by the business's system through the signed catalog webhook, whose secret owners and
 * admins rotate.
 */
import { useMemo, useRef, useState } from 'preact/hooks';
import { api, type ResponseOf } from '../../api/client.ts';
import { useAction, useLoad } from '../../hooks.ts';
import { ConfirmButton, Dialog } from '../../components/dialog.tsx';
import { placeError, useFocusInvalid } from '../../components/form-error.ts';
import { Button, DataTable, Empty, ErrorNotice, Loading, SecretOnce, Section, Select } from '../../components/ui.tsx';
import { isManager, useSession } from '../../session.tsx';
import { createBodyOf, draftOf, ITEM_FIELDS, ItemFields, updateBodyOf, type Item, type ItemDraft, type Kind } from './catalog-item-form.tsx';

const nameOf = (item: Item) => item.name ?? item.title ?? 'item';

type Secret = ResponseOf<'dashboardRotateCatalogSecret'>;

export function CatalogSection({ botId }: { botId: string }) {
  const { me } = useSession();
  const items = useLoad(() => api('dashboardListCatalogItems', { path: { bot_id: botId }, query: { limit: 200 } }), [botId]);
  const [secret, setSecret] = useState<Secret | null>(null);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Item | null>(null);

  return (
    <Section
      title="Product catalog"
      description="Products and media the bot answers about. Your shop can keep them in sync through the signed catalog webhook."
      actions={
        <Button variant="primary" onClick={() => setAdding(!adding)} aria-expanded={adding}>
          {adding ? 'Close' : 'Add an item'}
        </Button>
      }
    >
      {adding && (
        <AddItem
          botId={botId}
          onAdded={(item) => {
            items.setData((previous) => previous && { ...previous, items: [item, ...previous.items], total: previous.total + 1 });
            setAdding(false);
          }}
        />
      )}
      <ErrorNotice error={items.error} />
      {!items.data ? (
        <Loading />
      ) : items.data.items.length === 0 ? (
        <Empty title="No catalog items" />
      ) : (
        <DataTable label="Catalog items" columns={['Item', 'Kind', 'Price', 'SKU', 'External id']} actions>
        {items.data.items.map((item) => (
          <tr key={item.id} data-item={nameOf(item)}>
            <th scope="row" class="cell-name">
              {item.url ? (
                <a href={item.url} target="_blank" rel="noopener noreferrer">
                  {item.name ?? item.title}
                </a>
              ) : (
                (item.name ?? item.title)
              )}
              {item.description && <span class="cell-preview">{item.description}</span>}
            </th>
            <td>{item.kind === 'product' ? 'Product' : 'Media'}</td>
            <td>{item.price !== null ? `${item.price.toLocaleString()} ${item.currency ?? ''}` : <span class="muted">—</span>}</td>
            <td>{item.sku ?? <span class="muted">—</span>}</td>
            <td>{item.external_id ? <code>{item.external_id}</code> : <span class="muted">—</span>}</td>
            <td class="cell-actions">
              <Button small onClick={() => setEditing(item)} aria-label={`Edit ${nameOf(item)}`}>
                Edit
              </Button>
              <ConfirmButton
                small
                label="Delete"
                ariaLabel={`Delete ${nameOf(item)}`}
                title="Delete this item?"
                message={<p>The bot stops answering about it at once.</p>}
                confirmLabel="Delete item"
                onConfirm={async () => {
                  await api('dashboardDeleteCatalogItem', { path: { bot_id: botId, item_id: item.id } });
                  items.setData((previous) => previous && { ...previous, items: previous.items.filter((i) => i.id !== item.id), total: Math.max(0, previous.total - 1) });
                }}
              />
            </td>
          </tr>
        ))}
        </DataTable>
      )}
      {editing && (
        <EditItem
          botId={botId}
          item={editing}
          onClose={() => setEditing(null)}
          onSaved={(item) => {
            items.setData((previous) => previous && { ...previous, items: previous.items.map((i) => (i.id === item.id ? item : i)) });
            setEditing(null);
          }}
        />
      )}
      {isManager(me) && (
        <div class="subsection">
          <h3>Catalog webhook</h3>
          <p class="hint">
            Your system sends <code>product.created</code>, <code>product.updated</code>, <code>product.deleted</code> (and the same for <code>media</code>) to
            the delivery URL, signed with <code>X-Catalog-Signature</code>: the hex HMAC-SHA256 of the body under the secret. A new secret replaces the
            old one at once.
          </p>
          {secret ? (
            <>
              <p>
                Delivery URL: <code data-delivery-url>{secret.delivery_url}</code>
              </p>
              <SecretOnce label="Catalog signing secret" secret={secret.secret} onDone={() => setSecret(null)} />
            </>
          ) : (
            <ConfirmButton
              variant="secondary"
              label="Create or rotate the signing secret"
              title="Create a new catalog signing secret?"
              message={<p>A previous secret stops working at once: update your system with the new one.</p>}
              confirmLabel="Create secret"
              onConfirm={async () => setSecret(await api('dashboardRotateCatalogSecret', { path: { bot_id: botId } }))}
            />
          )}
        </div>
      )}
    </Section>
  );
}

function AddItem({ botId, onAdded }: { botId: string; onAdded(item: Item): void }) {
  const [kind, setKind] = useState<Kind>('product');
  const [draft, setDraft] = useState<ItemDraft>(() => draftOf());
  const form = useRef<HTMLFormElement>(null);
  const add = useAction(async () => onAdded(await api('dashboardCreateCatalogItem', { path: { bot_id: botId }, body: createBodyOf(kind, draft) })));
  const placed = placeError(add.error, ITEM_FIELDS[kind]);
  useFocusInvalid(form, add.error);
  return (
    <form
      ref={form}
      class="subsection"
      aria-label="Add a catalog item"
      onSubmit={(event) => {
        event.preventDefault();
        void add.run();
      }}
    >
      <Select label="Kind" value={kind} onValue={(v) => setKind(v as Kind)} options={[{ value: 'product', label: 'Product' }, { value: 'media', label: 'Media (video, image, document link)' }]} />
      <ItemFields kind={kind} draft={draft} onChange={setDraft} placed={placed} />
      <ErrorNotice error={placed.formError} />
      <Button type="submit" variant="primary" busy={add.busy}>
        Add item
      </Button>
    </form>
  );
}

/** Changes an item's fields in a dialog; the API's message for a field shows under it. */
function EditItem({ botId, item, onClose, onSaved }: { botId: string; item: Item; onClose(): void; onSaved(item: Item): void }) {
  const [draft, setDraft] = useState<ItemDraft>(() => draftOf(item));
  const form = useRef<HTMLFormElement>(null);
  const unchanged = useMemo(() => JSON.stringify(draft) === JSON.stringify(draftOf(item)), [item, draft]);
  const save = useAction(async () => onSaved(await api('dashboardUpdateCatalogItem', { path: { bot_id: botId, item_id: item.id }, body: updateBodyOf(item, draft) })));
  const placed = placeError(save.error, ITEM_FIELDS[item.kind]);
  useFocusInvalid(form, save.error);
  return (
    <Dialog open title={`Edit “${nameOf(item)}”`} onClose={onClose}>
      <form
        ref={form}
        onSubmit={(event) => {
          event.preventDefault();
          void save.run();
        }}
      >
        <p class="hint">{item.kind === 'product' ? 'A product.' : 'A media item.'} The bot answers from the change as soon as it is saved.</p>
        <ItemFields kind={item.kind} draft={draft} onChange={setDraft} placed={placed} />
        <ErrorNotice error={placed.formError} />
        <div class="dialog-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={save.busy} disabled={unchanged}>
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
