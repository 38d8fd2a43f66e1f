/**
 * The product catalog: items the bot answers about (products with prices, media), added here or
 * by the business's system through the signed catalog webhook, whose secret owners and admins rotate.
 */
import { useState } from 'preact/hooks';
import { api, type ResponseOf } from '../../api/client.ts';
import { useAction, useLoad } from '../../hooks.ts';
import { ConfirmButton } from '../../components/dialog.tsx';
import { Button, Empty, ErrorNotice, Loading, SecretOnce, Section, Select, TextArea, TextField } from '../../components/ui.tsx';
import { isManager, useSession } from '../../session.tsx';

type Item = ResponseOf<'dashboardListCatalogItems'>['items'][number];
type Secret = ResponseOf<'dashboardRotateCatalogSecret'>;

export function CatalogSection({ botId }: { botId: string }) {
  const { me } = useSession();
  const items = useLoad(() => api('dashboardListCatalogItems', { path: { bot_id: botId }, query: { limit: 200 } }), [botId]);
  const [secret, setSecret] = useState<Secret | null>(null);
  const [adding, setAdding] = useState(false);

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
        <div class="table-wrap">
          <table class="table" aria-label="Catalog items">
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">Kind</th>
                <th scope="col">Price</th>
                <th scope="col">SKU</th>
                <th scope="col">External id</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.data.items.map((item) => (
                <tr key={item.id}>
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
                  <td>
                    <ConfirmButton
                      small
                      label="Delete"
                      ariaLabel={`Delete ${item.name ?? item.title ?? 'item'}`}
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
            </tbody>
          </table>
        </div>
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
  const [kind, setKind] = useState<'product' | 'media'>('product');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [price, setPrice] = useState('');
  const [currency, setCurrency] = useState('');
  const [sku, setSku] = useState('');
  const [url, setUrl] = useState('');
  const [externalId, setExternalId] = useState('');
  const add = useAction(async () => {
    const common = { ...(description.trim() && { description }), ...(externalId.trim() && { external_id: externalId.trim() }) };
    const body =
      kind === 'product'
        ? {
            kind,
            name,
            ...common,
            ...(price.trim() && { price: Number(price) }),
            ...(currency.trim() && { currency: currency.trim().toUpperCase() }),
            ...(sku.trim() && { sku }),
            ...(url.trim() && { url: url.trim() }),
          }
        : { kind, title: name, url: url.trim(), ...common };
    onAdded(await api('dashboardCreateCatalogItem', { path: { bot_id: botId }, body }));
  });
  return (
    <form
      class="subsection"
      onSubmit={(event) => {
        event.preventDefault();
        void add.run();
      }}
    >
      <Select label="Kind" value={kind} onValue={(v) => setKind(v as 'product' | 'media')} options={[{ value: 'product', label: 'Product' }, { value: 'media', label: 'Media (video, image, document link)' }]} />
      <TextField label={kind === 'product' ? 'Name' : 'Title'} required maxLength={500} value={name} onValue={setName} />
      <TextArea label="Description" rows={2} value={description} onValue={setDescription} />
      {kind === 'product' && (
        <div class="field-row">
          <TextField label="Price" type="number" min={0} step="any" value={price} onValue={setPrice} />
          <TextField label="Currency" maxLength={3} placeholder="EUR" value={currency} onValue={setCurrency} />
          <TextField label="SKU" value={sku} onValue={setSku} />
        </div>
      )}
      <TextField label="Link" type="url" required={kind === 'media'} value={url} onValue={setUrl} />
      <TextField label="External id" hint="Optional: your system's id, which the catalog webhook matches." maxLength={256} value={externalId} onValue={setExternalId} />
      <ErrorNotice error={add.error} />
      <Button type="submit" variant="primary" busy={add.busy}>
        Add item
      </Button>
    </form>
  );
}
