/** A webhook's delivery log of the last 30 days: every attempt, the exact body sent, and redelivery. */
import { api } from '../../api/client.ts';
import { useAction, useLoad } from '../../hooks.ts';
import { Badge, Button, ErrorNotice, Loading, Time } from '../../components/ui.tsx';

const DELIVERY_TONE = { delivered: 'good', pending: 'warn', dropped: 'bad' } as const;

export function Deliveries({ botId, webhookId }: { botId: string; webhookId: string }) {
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
