/**
 * Billing: the account's visitor messages this month against each bot's monthly allowance. Parley
 * takes no payments; the allowance is a setting (Settings, or PARLEY_MONTHLY_MESSAGES for new bots).
 */
import { api } from '../../api/client.ts';
import { useLoad } from '../../hooks.ts';
import { ErrorNotice, Loading, PageHeader, Section, Time } from '../../components/ui.tsx';

export function BillingScreen() {
  const usage = useLoad(() => api('dashboardUsage'), []);
  if (usage.error) return <ErrorNotice error={usage.error} />;
  if (!usage.data) return <Loading />;
  const { month, messages_used, resets_at, bots } = usage.data;
  const label = new Date(`${month}-01T00:00:00Z`).toLocaleDateString(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  return (
    <>
      <PageHeader title="Billing" description="Usage of the monthly message allowance. This Parley takes no payments: there is nothing to pay here." />
      <Section title={`Messages in ${label}`}>
        <p class="big-number" data-usage={messages_used}>
          {messages_used.toLocaleString()} <span class="hint">visitor messages across all bots</span>
        </p>
        <p class="hint">
          The count starts again on <Time at={resets_at} /> (UTC).
        </p>
      </Section>
      <Section title="Allowance per bot" description="A bot stops answering (quota exceeded) once the account's count reaches its quota; change it in the bot's Settings.">
        {bots.length === 0 ? (
          <p class="hint">No bots yet.</p>
        ) : (
          <ul class="usage-list">
            {bots.map((bot) => {
              const share = bot.monthly_message_quota > 0 ? Math.min(1, messages_used / bot.monthly_message_quota) : 1;
              return (
                <li key={bot.id}>
                  <p>
                    <strong>{bot.name}</strong>: {messages_used.toLocaleString()} of {bot.monthly_message_quota.toLocaleString()} ({bot.remaining.toLocaleString()} left)
                  </p>
                  <meter min={0} max={1} low={0.75} high={0.9} optimum={0} value={share} aria-label={`${bot.name}: share of the allowance used`} />
                </li>
              );
            })}
          </ul>
        )}
      </Section>
    </>
  );
}
