/**
 * Settings: how the bot answers (model, instructions, strict mode, language), lead capture and its
 * fields, meeting booking, where the widget may run, the monthly quota, and pause. One form, saved
 * with one PATCH of the fields that changed.
 */
import { useMemo, useState } from 'preact/hooks';
import { api, type BodyOf } from '../../api/client.ts';
import { useAction, useLoad } from '../../hooks.ts';
import { Button, Checkbox, ErrorNotice, Notice, PageHeader, Section, Select, TextArea, TextField } from '../../components/ui.tsx';
import type { Bot } from '../../session.tsx';
import type { BotScreenProps } from '../bots/bot-screen.tsx';
import { LeadFieldsEditor } from './lead-fields.tsx';

type Patch = BodyOf<'dashboardUpdateBot'>;

const LANGUAGES = [
  { value: '', label: "Mirror the visitor's language" },
  { value: 'en', label: 'English' },
  { value: 'es', label: 'Spanish' },
  { value: 'fr', label: 'French' },
  { value: 'de', label: 'German' },
  { value: 'pt', label: 'Portuguese' },
  { value: 'it', label: 'Italian' },
  { value: 'nl', label: 'Dutch' },
  { value: 'pl', label: 'Polish' },
  { value: 'sv', label: 'Swedish' },
  { value: 'ja', label: 'Japanese' },
  { value: 'zh', label: 'Chinese' },
];

const PROVIDER_NAMES: Record<string, string> = {
  local: 'Built in',
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  google: 'Google',
  mistral: 'Mistral',
  'openai-compatible': 'Your OpenAI-compatible server',
};
const OTHER_MODEL = '__other__';

interface Form {
  selected_model: string;
  system_instructions: string;
  strict_mode: boolean;
  response_language: string;
  lead_capture_enabled: boolean;
  lead_fields: string[];
  calendar_scheduling_enabled: boolean;
  meeting_provider: 'calendly' | 'cal_com' | null;
  meeting_url: string;
  allowed_domains: string;
  monthly_message_quota: string;
  paused: boolean;
}

function formOf(bot: Bot): Form {
  return {
    selected_model: bot.selected_model,
    system_instructions: bot.system_instructions,
    strict_mode: bot.strict_mode,
    response_language: bot.response_language,
    lead_capture_enabled: bot.lead_capture_enabled,
    lead_fields: bot.lead_fields,
    calendar_scheduling_enabled: bot.calendar_scheduling_enabled,
    meeting_provider: bot.meeting_provider === 'calendly' || bot.meeting_provider === 'cal_com' ? bot.meeting_provider : null,
    meeting_url: bot.meeting_url ?? '',
    allowed_domains: bot.allowed_domains.join('\n'),
    monthly_message_quota: String(bot.monthly_message_quota),
    paused: bot.paused,
  };
}

/** The fields that differ from the bot, as the PATCH body. */
function changesOf(bot: Bot, form: Form): Patch {
  const patch: Patch = {};
  const before = formOf(bot);
  if (form.selected_model !== before.selected_model) patch.selected_model = form.selected_model.trim();
  if (form.system_instructions !== before.system_instructions) patch.system_instructions = form.system_instructions;
  if (form.strict_mode !== before.strict_mode) patch.strict_mode = form.strict_mode;
  if (form.response_language !== before.response_language) patch.response_language = form.response_language.trim();
  if (form.lead_capture_enabled !== before.lead_capture_enabled) patch.lead_capture_enabled = form.lead_capture_enabled;
  if (form.lead_fields.join(',') !== before.lead_fields.join(',')) patch.lead_fields = form.lead_fields;
  if (form.calendar_scheduling_enabled !== before.calendar_scheduling_enabled) patch.calendar_scheduling_enabled = form.calendar_scheduling_enabled;
  if (form.meeting_provider !== before.meeting_provider) patch.meeting_provider = form.meeting_provider;
  if (form.meeting_url !== before.meeting_url) patch.meeting_url = form.meeting_url.trim() || null;
  if (form.allowed_domains !== before.allowed_domains) {
    patch.allowed_domains = form.allowed_domains
      .split(/[\s,]+/)
      .map((d) => d.trim())
      .filter(Boolean);
  }
  if (form.monthly_message_quota !== before.monthly_message_quota) patch.monthly_message_quota = Number(form.monthly_message_quota);
  if (form.paused !== before.paused) patch.paused = form.paused;
  return patch;
}

export function SettingsScreen({ bot, onBotChange }: BotScreenProps) {
  const [form, setForm] = useState<Form>(() => formOf(bot));
  const [saved, setSaved] = useState(false);
  const models = useLoad(() => api('dashboardListModels', { query: { bot_id: bot.id } }), [bot.id]);
  const set = <K extends keyof Form>(key: K) => (value: Form[K]) => {
    setSaved(false);
    setForm((f) => ({ ...f, [key]: value }));
  };
  const changes = useMemo(() => changesOf(bot, form), [bot, form]);
  const dirty = Object.keys(changes).length > 0;
  const save = useAction(async () => {
    const updated = await api('dashboardUpdateBot', { path: { bot_id: bot.id }, body: changes });
    onBotChange(updated);
    setForm(formOf(updated));
    setSaved(true);
  });

  const known = models.data?.models ?? [];
  const listed = known.some((m) => m.id === form.selected_model);
  const [customModel, setCustomModel] = useState(false);
  const modelOptions = [
    ...known.map((m) => ({ value: m.id, label: `${m.id} · ${PROVIDER_NAMES[m.provider] ?? m.provider}${m.key === 'bot' ? ' (this bot’s key)' : ''}` })),
    ...(!listed && !customModel ? [{ value: form.selected_model, label: `${form.selected_model} (not offered by a configured provider)` }] : []),
    { value: OTHER_MODEL, label: 'Another model id…' },
  ];
  const languageListed = LANGUAGES.some((l) => l.value === form.response_language);

  return (
    <>
      <PageHeader title="Settings" description={`How ${bot.name} answers, and what it may do.`} />
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save.run();
        }}
      >
        <Section title="Answers">
          <Select
            label="Model"
            hint="parley-local runs on this server with no model and no key; the others need their provider's key (shared, or this bot's own in BYOK)."
            value={customModel ? OTHER_MODEL : form.selected_model}
            onValue={(value) => {
              if (value === OTHER_MODEL) setCustomModel(true);
              else {
                setCustomModel(false);
                set('selected_model')(value);
              }
            }}
            options={modelOptions}
          />
          {customModel && (
            <TextField
              label="Model id"
              hint="gpt-…, o1…, o3…, o4… go to OpenAI; claude-… to Anthropic; gemini-… to Google; mistral-… to Mistral; anything else to the OpenAI-compatible server."
              required
              maxLength={100}
              value={form.selected_model}
              onValue={set('selected_model')}
            />
          )}
          <ErrorNotice error={models.error} />
          <TextArea
            label="System instructions"
            hint="Who the bot speaks for and how. Visitors never see them."
            rows={6}
            maxLength={20000}
            value={form.system_instructions}
            onValue={set('system_instructions')}
          />
          <Checkbox
            label="Strict mode"
            hint="Answer only from the knowledge; otherwise say so. Off, the model may use general knowledge but never invents facts about your business."
            checked={form.strict_mode}
            onChecked={set('strict_mode')}
          />
          <Select
            label="Response language"
            value={form.response_language}
            onValue={set('response_language')}
            options={languageListed ? LANGUAGES : [...LANGUAGES, { value: form.response_language, label: form.response_language }]}
          />
        </Section>
        <Section title="Lead capture">
          <Checkbox label="Capture leads" hint="The bot asks for the fields below, one at a time and once each, and reads contact details visitors give." checked={form.lead_capture_enabled} onChecked={set('lead_capture_enabled')} />
          <LeadFieldsEditor fields={form.lead_fields} onChange={set('lead_fields')} />
        </Section>
        <Section title="Meetings">
          <Checkbox label="Offer to book a meeting" hint="A visitor who asks for a call or a meeting gets your booking link." checked={form.calendar_scheduling_enabled} onChecked={set('calendar_scheduling_enabled')} />
          <Select
            label="Calendar provider"
            value={form.meeting_provider ?? ''}
            onValue={(value) => set('meeting_provider')(value === '' ? null : (value as 'calendly' | 'cal_com'))}
            options={[
              { value: '', label: 'None' },
              { value: 'calendly', label: 'Calendly' },
              { value: 'cal_com', label: 'Cal.com' },
            ]}
          />
          <TextField label="Booking link" type="url" placeholder="https://calendly.com/your-team/30min" value={form.meeting_url} onValue={set('meeting_url')} />
        </Section>
        <Section title="Where the widget may run">
          <TextArea
            label="Allowed domains"
            hint="One host per line, e.g. shop.example.com, or *.example.com for every subdomain. Empty: any site may embed the widget."
            rows={4}
            value={form.allowed_domains}
            onValue={set('allowed_domains')}
          />
        </Section>
        <Section title="Limits">
          <TextField
            label="Monthly message quota"
            type="number"
            min={0}
            hint="Visitor messages per calendar month (UTC) across the account; over it the bot stops answering until the month ends."
            value={form.monthly_message_quota}
            onValue={set('monthly_message_quota')}
          />
          <Checkbox label="Pause the bot" hint="A paused bot answers no one; visitors' messages still reach the Inbox, where operators can reply." checked={form.paused} onChecked={set('paused')} />
        </Section>
        <div class="form-footer">
          <ErrorNotice error={save.error} />
          {saved && !dirty && <Notice kind="success">Settings saved.</Notice>}
          <Button type="submit" variant="primary" busy={save.busy} disabled={!dirty}>
            Save settings
          </Button>
        </div>
      </form>
    </>
  );
}
