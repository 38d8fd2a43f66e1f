/**
 * Webhooks: receivers of the bot's events, signed with a secret shown once; a test event; the
 * delivery log of the last 30 days with every attempt, the exact body sent, and redelivery.
 */
import { useState } from 'preact/hooks';
import { api, type ResponseOf } from '../../api/client.ts';
import { useAction, useLoad } from '../../hooks.ts';
import { ConfirmButton } from '../../components/dialog.tsx';
import { Badge, Button, Checkbox, Empty, ErrorNotice, Loading, Notice, PageHeader, SecretOnce, Section, TextField, Time } from '../../components/ui.tsx';
import type { BotScreenProps } from '../bots/bot-screen.tsx';

type Webhook = ResponseOf<'dashboardListWebhooks'>['webhooks'][number];
type EventName = 'lead.created' | 'message.user' | 'message.assistant' | 'session.started' | 'session.ended';
const EVENTS: Array<{ event: EventName; label: string }> = [
  { event: 'lead.created', label: 'lead.created: a visitor left contact details' },
  { event: 'message.user', label: 'message.user: a visitor wrote' },
  { event: 'message.assistant', label: 'message.assistant: the bot (or an operator) answered' },
  { event: 'session.started', label: 'session.started: a conversation began' },
  { event: 'session.ended', label: 'session.ended: a conversation went idle' },
];

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
                onDeleted={() => void hooks.reload()}
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
  const create = useAction(async () => {
    onCreated(await api('dashboardCreateWebhook', { path: { bot_id: botId }, body: { url: url.trim(), events } }));
    setUrl('');
  });
  return (
    <Section title="Add a webhook">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void create.run();
        }}
      >
        <TextField label="Receiver URL" type="url" required placeholder="https://example.com/parley-webhook" value={url} onValue={setUrl} />
        <fieldset class="checks">
          <legend>Events</legend>
          {EVENTS.map(({ event, label }) => (
            <Checkbox key={event} label={label} checked={events.includes(event)} onChecked={(on) => setEvents(on ? [...events, event] : events.filter((e) => e !== event))} />
          ))}
        </fieldset>
        <ErrorNotice error={create.error} />
        <Button type="submit" variant="primary" busy={create.busy} disabled={events.length === 0}>
          Add webhook
        </Button>
      </form>
    </Section>
  );
}

function WebhookItem({ botId, hook, expanded, onToggle, onDeleted }: { botId: string; hook: Webhook; expanded: boolean; onToggle(): void; onDeleted(): void }) {
  const path = { bot_id: botId, webhook_id: hook.id };
  const [tested, setTested] = useState<ResponseOf<'dashboardTestWebhook'> | null>(null);
  const test = useAction(async () => setTested(await api('dashboardTestWebhook', { path })));
  return (
    <li class="webhook-item">
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
              onDeleted();
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
    </li>
  );
}

const DELIVERY_TONE = { delivered: 'good', pending: 'warn', dropped: 'bad' } as const;

function Deliveries({ botId, webhookId }: { botId: string; webhookId: string }) {
  const path = { bot_id: botId, webhook_id: webhookId };
  const log = useLoad(() => api('dashboardListWebhookDeliveries', { path, query: { limit: 50 } }), [botId, webhookId]);
  const redeliver = useAction(async (deliveryId: string) => {
    await api('dashboardRedeliverWebhook', { path: { ...path, delivery_id: deliveryId } });
    await log.reload();
  });
  if (log.error) return <ErrorNotice error={log.error} />;
  if (!log.data) return <Loading />;
  if (log.data.deliveries.length === 0) return <p class="hint">No deliveries in the last 30 days.</p>;
  return (
    <div class="deliveries">
      <p class="hint">
        {log.data.total} deliveries in the last 30 days{' '}
        <Button small variant="ghost" onClick={() => void log.reload()}>
          Refresh
        </Button>
      </p>
      <ErrorNotice error={redeliver.error} />
      <ul class="delivery-list">
        {log.data.deliveries.map((d) => (
          <li key={d.id}>
            <details>
              <summary>
                <Badge tone={DELIVERY_TONE[d.status]}>{d.status}</Badge> <code>{d.event}</code> <Time at={d.created_at} /> · {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
                {d.last_status_code !== null && ` · last status ${d.last_status_code}`}
              </summary>
              <div class="delivery-body">
                {d.last_error && <p class="field-error">{d.last_error}</p>}
                <table class="table compact" aria-label="Attempts">
                  <thead>
                    <tr>
                      <th scope="col">#</th>
                      <th scope="col">Status</th>
                      <th scope="col">Latency</th>
                      <th scope="col">Error or answer</th>
                      <th scope="col">At</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.attempt_log.map((a, i) => (
                      <tr key={i}>
                        <td>{a.attempt}</td>
                        <td>{a.status_code ?? '—'}</td>
                        <td>{a.latency_ms} ms</td>
                        <td>{a.error ?? a.response_excerpt ?? ''}</td>
                        <td>
                          <Time at={a.created_at} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                <p class="label">Body sent</p>
                <pre class="code-block">{prettyJson(d.body)}</pre>
                <Button small onClick={() => void redeliver.run(d.id)} busy={redeliver.busy}>
                  Redeliver
                </Button>
              </div>
            </details>
          </li>
        ))}
      </ul>
    </div>
  );
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
