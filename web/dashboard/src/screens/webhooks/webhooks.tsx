/**
 * Webhooks: receivers of the bot's events, signed with a secret shown once; changing a receiver's
 * address and events; a test event; the delivery log of the last 30 days with every attempt, the
 * exact body sent, and redelivery.
 */
import { useId, useRef, useState } from 'preact/hooks';
import { api, type ResponseOf } from '../../api/client.ts';
import { useAction, useLoad } from '../../hooks.ts';
import { ConfirmButton, Dialog } from '../../components/dialog.tsx';
import { placeError, useFocusInvalid } from '../../components/form-error.ts';
import { Button, Checkbox, Empty, ErrorNotice, Loading, Notice, PageHeader, SecretOnce, Section, TextField, Time } from '../../components/ui.tsx';
import type { BotScreenProps } from '../bots/bot-screen.tsx';
import { Deliveries } from './deliveries.tsx';

type Webhook = ResponseOf<'dashboardListWebhooks'>['webhooks'][number];
type EventName = 'lead.created' | 'message.user' | 'message.assistant' | 'session.started' | 'session.ended';
const EVENTS: Array<{ event: EventName; label: string }> = [
  { event: 'lead.created', label: 'lead.created: a visitor left contact details' },
  { event: 'message.user', label: 'message.user: a visitor wrote' },
  { event: 'message.assistant', label: 'message.assistant: the bot (or an operator) answered' },
  { event: 'session.started', label: 'session.started: a conversation began' },
  { event: 'session.ended', label: 'session.ended: a conversation went idle' },
];

/** The events to send, as checkboxes; `error` is the API's message about them. */
function EventChecks({ events, onChange, error }: { events: EventName[]; onChange(events: EventName[]): void; error?: string | null }) {
  const errorId = useId();
  return (
    <fieldset class="checks" aria-describedby={error ? errorId : undefined}>
      <legend>Events</legend>
      {EVENTS.map(({ event, label }) => (
        <Checkbox key={event} label={label} checked={events.includes(event)} onChecked={(on) => onChange(on ? [...events, event] : events.filter((e) => e !== event))} />
      ))}
      {error && (
        <p class="field-error" id={errorId}>
          {error}
        </p>
      )}
    </fieldset>
  );
}

export function WebhooksScreen({ bot }: BotScreenProps) {
  const hooks = useLoad(() => api('dashboardListWebhooks', { path: { bot_id: bot.id } }), [bot.id]);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Your server receives the bot's events as signed POSTs: X-Service-Signature is the hex HMAC-SHA256 of the body under the webhook's secret. Failed deliveries are retried."
      />
      <CreateWebhook
        botId={bot.id}
        onCreated={(created) => {
          setSecret({ url: created.url, secret: created.secret });
          void hooks.reload();
        }}
      />
      {secret && <SecretOnce label={`Signing secret for ${secret.url}`} secret={secret.secret} onDone={() => setSecret(null)} />}
      <Section title="Receivers">
        <ErrorNotice error={hooks.error} />
        {!hooks.data ? (
          <Loading />
        ) : hooks.data.webhooks.length === 0 ? (
          <Empty title="No webhooks yet" />
        ) : (
          <ul class="webhook-list">
            {hooks.data.webhooks.map((hook) => (
              <WebhookItem
                key={hook.id}
                botId={bot.id}
                hook={hook}
                expanded={open === hook.id}
                onToggle={() => setOpen(open === hook.id ? null : hook.id)}
                onChanged={() => void hooks.reload()}
              />
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}

function CreateWebhook({ botId, onCreated }: { botId: string; onCreated(hook: ResponseOf<'dashboardCreateWebhook'>): void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<EventName[]>(['lead.created']);
  const form = useRef<HTMLFormElement>(null);
  const create = useAction(async () => {
    onCreated(await api('dashboardCreateWebhook', { path: { bot_id: botId }, body: { url: url.trim(), events } }));
    setUrl('');
  });
  const placed = placeError(create.error, ['url', 'events']);
  useFocusInvalid(form, create.error);
  return (
    <Section title="Add a webhook">
      <form
        ref={form}
        onSubmit={(event) => {
          event.preventDefault();
          void create.run();
        }}
      >
        <TextField label="Receiver URL" type="url" required maxLength={2048} placeholder="https://example.com/parley-webhook" value={url} onValue={setUrl} error={placed.errorOf('url')} />
        <EventChecks events={events} onChange={setEvents} error={placed.errorOf('events')} />
        <ErrorNotice error={placed.formError} />
        <Button type="submit" variant="primary" busy={create.busy} disabled={events.length === 0}>
          Add webhook
        </Button>
      </form>
    </Section>
  );
}

function WebhookItem({ botId, hook, expanded, onToggle, onChanged }: { botId: string; hook: Webhook; expanded: boolean; onToggle(): void; onChanged(): void }) {
  const path = { bot_id: botId, webhook_id: hook.id };
  const [editing, setEditing] = useState(false);
  const [tested, setTested] = useState<ResponseOf<'dashboardTestWebhook'> | null>(null);
  const test = useAction(async () => setTested(await api('dashboardTestWebhook', { path })));
  return (
    <li class="webhook-item" data-webhook={hook.url}>
      <div class="webhook-head">
        <div>
          <p class="webhook-url">
            <code>{hook.url}</code>
          </p>
          <p class="hint">
            {hook.events.join(', ')} · added <Time at={hook.created_at} />
          </p>
        </div>
        <div class="cell-actions">
          <Button small onClick={() => setEditing(true)} aria-label={`Edit the webhook to ${hook.url}`}>
            Edit
          </Button>
          <Button small busy={test.busy} onClick={() => void test.run()}>
            Send a test
          </Button>
          <Button small onClick={onToggle} aria-expanded={expanded}>
            {expanded ? 'Hide deliveries' : 'Deliveries'}
          </Button>
          <ConfirmButton
            small
            label="Delete"
            ariaLabel={`Delete the webhook to ${hook.url}`}
            title="Delete this webhook?"
            message={<p>Deliveries waiting for it are dropped.</p>}
            confirmLabel="Delete webhook"
            onConfirm={async () => {
              await api('dashboardDeleteWebhook', { path });
              onChanged();
            }}
          />
        </div>
      </div>
      <ErrorNotice error={test.error} />
      {tested && (
        <Notice kind={tested.success ? 'success' : 'error'}>
          Test {tested.event}: {tested.success ? `delivered (${tested.status_code}) in ${tested.latency_ms} ms` : `failed: ${tested.error ?? `status ${tested.status_code}`}`}
        </Notice>
      )}
      {expanded && <Deliveries botId={botId} webhookId={hook.id} />}
      {editing && (
        <EditWebhook
          botId={botId}
          hook={hook}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            onChanged();
          }}
        />
      )}
    </li>
  );
}

/** Changes a receiver's address or events (the secret stays); the API checks the address again. */
function EditWebhook({ botId, hook, onClose, onSaved }: { botId: string; hook: Webhook; onClose(): void; onSaved(): void }) {
  const [url, setUrl] = useState(hook.url);
  const [events, setEvents] = useState<EventName[]>(hook.events as EventName[]);
  const form = useRef<HTMLFormElement>(null);
  const urlChanged = url.trim() !== hook.url;
  const eventsChanged = events.join() !== hook.events.join();
  const save = useAction(async () => {
    await api('dashboardUpdateWebhook', {
      path: { bot_id: botId, webhook_id: hook.id },
      body: { ...(urlChanged && { url: url.trim() }), ...(eventsChanged && { events }) },
    });
    onSaved();
  });
  const placed = placeError(save.error, ['url', 'events']);
  useFocusInvalid(form, save.error);
  return (
    <Dialog open title="Edit the webhook" onClose={onClose}>
      <form
        ref={form}
        onSubmit={(event) => {
          event.preventDefault();
          void save.run();
        }}
      >
        <TextField label="Receiver URL" type="url" required maxLength={2048} value={url} onValue={setUrl} error={placed.errorOf('url')} hint="Its signing secret stays the same." />
        <EventChecks events={events} onChange={setEvents} error={placed.errorOf('events')} />
        <ErrorNotice error={placed.formError} />
        <div class="dialog-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={save.busy} disabled={events.length === 0 || (!urlChanged && !eventsChanged)}>
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
