/**
 * API keys of the bot (owners and admins): create one with its scopes and IP allowlist (the key is
 * shown once), change scopes and addresses, revoke. Revoked keys stay listed, marked.
 */
import { useState } from 'preact/hooks';
import { api, type ResponseOf } from '../../api/client.ts';
import { useAction, useLoad } from '../../hooks.ts';
import { ConfirmButton, Dialog } from '../../components/dialog.tsx';
import { Badge, Button, Checkbox, DataTable, Empty, ErrorNotice, Loading, PageHeader, SecretOnce, Section, TextArea, TextField, Time } from '../../components/ui.tsx';
import type { BotScreenProps } from '../bots/bot-screen.tsx';

type Key = ResponseOf<'dashboardListKeys'>['keys'][number];
type Scope = 'chat' | 'read' | 'write' | 'admin';

const SCOPES: Array<{ scope: Scope; label: string }> = [
  { scope: 'chat', label: 'chat: send messages (POST /api/v1/chat)' },
  { scope: 'read', label: 'read: conversations, leads, knowledge, analytics, usage' },
  { scope: 'write', label: 'write: add and delete knowledge, delete conversations, webhooks' },
  { scope: 'admin', label: 'admin: everything, including managing keys' },
];

const parseIps = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((ip) => ip.trim())
    .filter(Boolean);

export function KeysScreen({ bot }: BotScreenProps) {
  const keys = useLoad(() => api('dashboardListKeys', { query: { bot_id: bot.id } }), [bot.id]);
  const [created, setCreated] = useState<ResponseOf<'dashboardCreateKey'> | null>(null);
  const [editing, setEditing] = useState<Key | null>(null);

  return (
    <>
      <PageHeader title="API keys" description={`Keys for your backend to call the API as ${bot.name}. Each key is shown once, when it is created.`} />
      <CreateKey
        botId={bot.id}
        onCreated={(key) => {
          setCreated(key);
          void keys.reload();
        }}
      />
      {created && (
        <SecretOnce label={`New key “${created.name}”`} secret={created.key} onDone={() => setCreated(null)} />
      )}
      <Section title="Keys">
        <ErrorNotice error={keys.error} />
        {!keys.data ? (
          <Loading />
        ) : keys.data.keys.length === 0 ? (
          <Empty title="No keys yet" />
        ) : (
          <DataTable label="API keys" columns={['Name', 'Key', 'Scopes', 'Allowed addresses', 'Last used']} actions>
          {keys.data.keys.map((key) => (
            <tr key={key.id} data-key={key.name} class={key.revoked_at ? 'revoked' : ''}>
              <th scope="row">
                {key.name}
                {key.revoked_at && (
                  <>
                    {' '}
                    <Badge tone="bad">Revoked</Badge>
                  </>
                )}
                {!key.revoked_at && key.created_by === null && (
                  <>
                    {' '}
                    <Badge tone="warn">Unbound</Badge>
                  </>
                )}
              </th>
              <td>
                <code>{key.prefix}…</code>
              </td>
              <td>{key.scopes.join(', ')}</td>
              <td>{key.allowed_ips.length ? key.allowed_ips.join(', ') : <span class="muted">any</span>}</td>
              <td>
                <Time at={key.last_used_at} />
              </td>
              <td class="cell-actions">
                {!key.revoked_at && (
                  <>
                    <Button small onClick={() => setEditing(key)} aria-label={`Edit ${key.name}`}>
                      Edit
                    </Button>
                    <ConfirmButton
                      small
                      label="Revoke"
                      ariaLabel={`Revoke ${key.name}`}
                      title={`Revoke “${key.name}”?`}
                      message={<p>Calls with this key are refused at once, for good.</p>}
                      confirmLabel="Revoke key"
                      onConfirm={async () => {
                        await api('dashboardRevokeKey', { path: { id: key.id } });
                        await keys.reload();
                      }}
                    />
                  </>
                )}
              </td>
            </tr>
          ))}
          </DataTable>
        )}
        {keys.data?.keys.some((key) => !key.revoked_at && key.created_by === null) && (
          <p class="muted">
            An unbound key was made before keys recorded who made them: it acts for the whole account, whatever the tabs of the member
            holding it, and cannot create keys. Replace it with a new key and revoke it.
          </p>
        )}
      </Section>
      {editing && (
        <EditKey
          keyRow={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void keys.reload();
          }}
        />
      )}
    </>
  );
}

function ScopeBoxes({ scopes, onChange }: { scopes: Scope[]; onChange(scopes: Scope[]): void }) {
  return (
    <fieldset class="checks">
      <legend>Scopes</legend>
      {SCOPES.map(({ scope, label }) => (
        <Checkbox key={scope} label={label} checked={scopes.includes(scope)} onChecked={(on) => onChange(on ? [...scopes, scope] : scopes.filter((s) => s !== scope))} />
      ))}
    </fieldset>
  );
}

function CreateKey({ botId, onCreated }: { botId: string; onCreated(key: ResponseOf<'dashboardCreateKey'>): void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['chat', 'read']);
  const [ips, setIps] = useState('');
  const create = useAction(async () => {
    const key = await api('dashboardCreateKey', { body: { bot_id: botId, name: name.trim(), scopes, allowed_ips: parseIps(ips) } });
    setName('');
    setIps('');
    onCreated(key);
  });
  return (
    <Section title="Create a key">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void create.run();
        }}
      >
        <TextField label="Name" required maxLength={100} placeholder="Production backend" value={name} onValue={setName} />
        <ScopeBoxes scopes={scopes} onChange={setScopes} />
        <TextArea label="Allowed IP addresses" hint="Addresses or CIDR ranges, one per line (IPv4 or IPv6). Empty: any address." rows={2} value={ips} onValue={setIps} />
        <ErrorNotice error={create.error} />
        <Button type="submit" variant="primary" busy={create.busy} disabled={scopes.length === 0}>
          Create key
        </Button>
      </form>
    </Section>
  );
}

function EditKey({ keyRow, onClose, onSaved }: { keyRow: Key; onClose(): void; onSaved(): void }) {
  const [name, setName] = useState(keyRow.name);
  const [scopes, setScopes] = useState<Scope[]>(keyRow.scopes as Scope[]);
  const [ips, setIps] = useState(keyRow.allowed_ips.join('\n'));
  const save = useAction(async () => {
    await api('dashboardUpdateKey', { path: { id: keyRow.id }, body: { name: name.trim(), scopes, allowed_ips: parseIps(ips) } });
    onSaved();
  });
  return (
    <Dialog open title={`Edit “${keyRow.name}”`} onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save.run();
        }}
      >
        <TextField label="Name" required maxLength={100} value={name} onValue={setName} />
        <ScopeBoxes scopes={scopes} onChange={setScopes} />
        <TextArea label="Allowed IP addresses" hint="One per line. Empty: any address." rows={3} value={ips} onValue={setIps} />
        <ErrorNotice error={save.error} />
        <div class="dialog-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={save.busy} disabled={scopes.length === 0}>
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
