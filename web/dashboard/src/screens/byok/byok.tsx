/**
 * Bring your own key: the bot's own key per model provider. Keys are write-only: the page shows
 * which providers have one, never the key; removing one returns the bot to the shared pool.
 */
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { useAction, useLoad } from '../../hooks.ts';
import { ConfirmButton } from '../../components/dialog.tsx';
import { Badge, Button, ErrorNotice, Loading, Notice, PageHeader, Section, TextField, Time } from '../../components/ui.tsx';
import { isManager, useSession } from '../../session.tsx';
import type { BotScreenProps } from '../bots/bot-screen.tsx';

type Provider = 'openai' | 'anthropic' | 'google' | 'mistral';
const PROVIDERS: Array<{ provider: Provider; name: string; models: string }> = [
  { provider: 'openai', name: 'OpenAI', models: 'gpt-…, o1…, o3…, o4… (and an OpenAI-compatible server)' },
  { provider: 'anthropic', name: 'Anthropic', models: 'claude-…' },
  { provider: 'google', name: 'Google', models: 'gemini-…' },
  { provider: 'mistral', name: 'Mistral', models: 'mistral-…, open-mistral-…, ministral-…' },
];

export function ByokScreen({ bot }: BotScreenProps) {
  const { me } = useSession();
  const keys = useLoad(() => api('dashboardListProviderKeys', { path: { bot_id: bot.id } }), [bot.id]);
  const canChange = isManager(me);
  return (
    <>
      <PageHeader
        title="Bring your own key"
        description={`${bot.name} can answer with your own provider account. Keys are encrypted at rest and never shown again, not even here.`}
      />
      {!canChange && <Notice>Only owners and admins change keys.</Notice>}
      <ErrorNotice error={keys.error} />
      {!keys.data ? (
        <Loading />
      ) : (
        PROVIDERS.map((p) => {
          const stored = keys.data!.providers.find((k) => k.provider === p.provider);
          return <ProviderKey key={p.provider} botId={bot.id} provider={p.provider} name={p.name} models={p.models} storedAt={stored?.created_at ?? null} canChange={canChange} onChange={() => void keys.reload()} />;
        })
      )}
      <p class="hint">A bot uses its own key for its model's provider, else the server's shared key, else the built-in parley-local engine. Choose the model in Settings.</p>
    </>
  );
}

function ProviderKey(props: { botId: string; provider: Provider; name: string; models: string; storedAt: string | null; canChange: boolean; onChange(): void }) {
  const [value, setValue] = useState('');
  const path = { bot_id: props.botId, provider: props.provider };
  const save = useAction(async () => {
    await api('dashboardPutProviderKey', { path, body: { api_key: value.trim() } });
    setValue('');
    props.onChange();
  });
  return (
    <Section
      title={props.name}
      description={`Models: ${props.models}`}
      actions={
        props.storedAt ? (
          <Badge tone="good">
            Key stored <Time at={props.storedAt} />
          </Badge>
        ) : (
          <Badge>No key</Badge>
        )
      }
    >
      {props.canChange && (
        <form
          class="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            void save.run();
          }}
        >
          <TextField
            label={props.storedAt ? `Replace the ${props.name} key` : `${props.name} API key`}
            type="password"
            autoComplete="off"
            required
            maxLength={500}
            value={value}
            onValue={setValue}
          />
          <Button type="submit" variant="primary" busy={save.busy}>
            {props.storedAt ? 'Replace key' : 'Save key'}
          </Button>
          {props.storedAt && (
            <ConfirmButton
              label="Remove"
              ariaLabel={`Remove the ${props.name} key`}
              title={`Remove the ${props.name} key?`}
              message={<p>The bot falls back to the server's shared key for {props.name}, or to parley-local.</p>}
              confirmLabel="Remove key"
              onConfirm={async () => {
                await api('dashboardDeleteProviderKey', { path });
                props.onChange();
              }}
            />
          )}
        </form>
      )}
      <ErrorNotice error={save.error} />
    </Section>
  );
}
