/** `/app/bots`: the account's bots; owners and admins create and delete them. */
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { useAction } from '../../hooks.ts';
import { ConfirmButton } from '../../components/dialog.tsx';
import { Link } from '../../components/link.tsx';
import { Button, Empty, ErrorNotice, PageHeader, Section, TextField, Time } from '../../components/ui.tsx';
import { navigate } from '../../router.ts';
import { firstBotScreen, isManager, useSession } from '../../session.tsx';

export function BotsScreen() {
  const { me, bots, reloadBots } = useSession();
  const [name, setName] = useState('');
  const manager = isManager(me);
  const first = firstBotScreen(me);
  const create = useAction(async () => {
    const bot = await api('dashboardCreateBot', { body: { name: name.trim() } });
    setName('');
    await reloadBots();
    navigate(`/app/bots/${bot.id}/${first?.segment ?? 'inbox'}`);
  });

  return (
    <>
      <PageHeader title="Bots" description="Each bot has its own knowledge, widget, inbox and keys." />
      {manager && (
        <Section title="Create a bot">
          <form
            class="inline-form"
            onSubmit={(event) => {
              event.preventDefault();
              void create.run();
            }}
          >
            <TextField label="Name" required maxLength={100} placeholder="Support" value={name} onValue={setName} />
            <Button type="submit" variant="primary" busy={create.busy}>
              Create bot
            </Button>
          </form>
          <ErrorNotice error={create.error} />
        </Section>
      )}
      <Section title="Your bots">
        {bots.length === 0 ? (
          <Empty title="No bots yet">{manager ? <p>Create one above: it answers from the knowledge you give it.</p> : <p>An owner or admin creates the bots.</p>}</Empty>
        ) : (
          <ul class="bot-list">
            {bots.map((bot) => (
              <li key={bot.id} class="bot-item">
                <span class="bot-swatch" data-color={bot.primary_color} aria-hidden="true" ref={(el) => {
                    if (el) el.style.background = bot.primary_color;
                  }} />
                <div class="bot-main">
                  {first ? (
                    <Link href={`/app/bots/${bot.id}/${first.segment}`} class="bot-name">
                      {bot.name}
                    </Link>
                  ) : (
                    <span class="bot-name">{bot.name}</span>
                  )}
                  <p class="hint">
                    {bot.selected_model} · created <Time at={bot.created_at} />
                  </p>
                </div>
                {manager && (
                  <ConfirmButton
                    small
                    label="Delete"
                    ariaLabel={`Delete ${bot.name}`}
                    title={`Delete ${bot.name}?`}
                    message={
                      <p>
                        This deletes the bot with its knowledge, conversations, leads, webhooks and API keys (they stop working at once). It cannot be
                        undone.
                      </p>
                    }
                    confirmLabel="Delete bot"
                    onConfirm={async () => {
                      await api('dashboardDeleteBot', { path: { bot_id: bot.id } });
                      await reloadBots();
                    }}
                  />
                )}
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}
