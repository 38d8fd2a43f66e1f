/** The Voice Agent tab: named by the specification, with nothing behind it yet. Said plainly. */
import { PageHeader, Section } from '../../components/ui.tsx';
import type { BotScreenProps } from '../bots/bot-screen.tsx';

export function VoiceScreen({ bot }: BotScreenProps) {
  return (
    <>
      <PageHeader title="Voice Agent" />
      <Section title="Not available yet">
        <p>
          Parley has no voice agent yet: {bot.name} answers in text, in the chat widget and through the API. This tab is reserved for it, and grants
          nothing today.
        </p>
        <p class="hint">The chat widget accepts audio files as attachments, which reach the Inbox; they are not transcribed.</p>
      </Section>
    </>
  );
}
