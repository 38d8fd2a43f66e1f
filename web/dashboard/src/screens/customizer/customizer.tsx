/**
 * The Customizer: the widget's name, welcome message, colour and style preset, beside a preview
 * that is the real widget (the bot's demo page, same origin, in a frame) talking to the real bot.
 * Saving refreshes the preview.
 */
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { useAction } from '../../hooks.ts';
import { Button, ErrorNotice, Field, Notice, PageHeader, Section, TextArea, TextField } from '../../components/ui.tsx';
import type { BotScreenProps } from '../bots/bot-screen.tsx';
import { contrastRatio } from './contrast.ts';
import { PreviewFrame } from '../../components/preview-frame.tsx';

const STYLES = [
  { value: 'classic', label: 'Classic', description: 'A panel docked at the bottom right.' },
  { value: 'bubble', label: 'Bubble', description: 'Rounded bubbles and a floating panel.' },
  { value: 'minimal', label: 'Minimal', description: 'Flat and quiet, for busy pages.' },
];

export function CustomizerScreen({ bot, onBotChange }: BotScreenProps) {
  const [name, setName] = useState(bot.name);
  const [welcome, setWelcome] = useState(bot.welcome_message);
  const [color, setColor] = useState(bot.primary_color);
  const [style, setStyle] = useState(bot.widget_style);
  const [previewVersion, setPreviewVersion] = useState(0);
  const [saved, setSaved] = useState(false);

  const validColor = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(color);
  const dirty = name !== bot.name || welcome !== bot.welcome_message || color.toLowerCase() !== bot.primary_color.toLowerCase() || style !== bot.widget_style;
  const save = useAction(async () => {
    const updated = await api('dashboardUpdateBot', { path: { bot_id: bot.id }, body: { name: name.trim(), welcome_message: welcome, primary_color: color, widget_style: style } });
    onBotChange(updated);
    // The widget's configuration may be cached for a minute: fetch it afresh, as the widget asks for
    // it (without credentials), so that the reloaded preview reads the change.
    await fetch(`/api/widget/config?bot_id=${encodeURIComponent(bot.id)}`, { cache: 'reload', credentials: 'omit' }).catch(() => undefined);
    setPreviewVersion((v) => v + 1);
    setSaved(true);
  });

  const contrast = validColor ? contrastRatio(color, '#ffffff') : null;
  return (
    <>
      <PageHeader title="Customizer" description="How the chat widget looks on your site. Save to see the change in the preview." />
      <div class="customizer">
        <Section title="Appearance">
          <form
            onSubmit={(event) => {
              event.preventDefault();
              setSaved(false);
              void save.run();
            }}
          >
            <TextField label="Bot name" hint="Shown in the widget's header." required maxLength={100} value={name} onValue={setName} />
            <TextArea label="Welcome message" hint="The first message visitors see." rows={3} maxLength={1000} value={welcome} onValue={setWelcome} />
            <Field label="Colour" hint="A hex colour such as #2563eb. Text on it stays readable: the widget darkens a colour that is too light." error={validColor ? null : 'Enter a hex colour, e.g. #2563eb'}>
              {({ id, describedBy, invalid }) => (
                <div class="color-row">
                  <input type="color" value={validColor && color.length === 7 ? color : '#2563eb'} aria-label="Pick a colour" onInput={(event) => setColor((event.target as HTMLInputElement).value)} />
                  <input id={id} type="text" value={color} maxLength={7} aria-describedby={describedBy} aria-invalid={invalid || undefined} onInput={(event) => setColor((event.target as HTMLInputElement).value.trim())} />
                </div>
              )}
            </Field>
            {contrast !== null && contrast < 4.5 && <Notice kind="warning">White text on this colour has a contrast of {contrast.toFixed(1)}:1 (below 4.5:1); the widget uses a darker shade for text.</Notice>}
            <fieldset class="style-presets">
              <legend>Style preset</legend>
              {STYLES.map((preset) => (
                <label key={preset.value} class={`preset${style === preset.value ? ' selected' : ''}`}>
                  <input type="radio" name="widget-style" value={preset.value} checked={style === preset.value} onChange={() => setStyle(preset.value)} />
                  <span class="preset-name">{preset.label}</span>
                  <span class="hint">{preset.description}</span>
                </label>
              ))}
            </fieldset>
            <ErrorNotice error={save.error} />
            {saved && !dirty && <Notice kind="success">Saved. The preview shows the change.</Notice>}
            <Button type="submit" variant="primary" busy={save.busy} disabled={!dirty || !validColor || !name.trim()}>
              Save and preview
            </Button>
          </form>
        </Section>
        <Section
          title="Live preview"
          description="The real widget on this bot's demo page: messages you send here are real conversations and appear in the Inbox."
          actions={
            <a class="btn btn-ghost btn-small" href={`/demo/${bot.id}`} target="_blank" rel="noopener noreferrer">
              Open the demo page
            </a>
          }
        >
          {bot.allowed_domains.length > 0 && (
            <Notice kind="info">
              The preview runs on this service's own address; it shows only when the allowed domains ({bot.allowed_domains.join(', ')}) include it.
            </Notice>
          )}
          <PreviewFrame key={previewVersion} title={`Chat widget preview for ${bot.name}`} src={`/demo/${bot.id}?preview=${previewVersion}`} />
        </Section>
      </div>
    </>
  );
}
