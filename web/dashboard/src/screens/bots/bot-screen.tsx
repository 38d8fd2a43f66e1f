/** A bot's screen: loads the bot (any member may read it) and shows the screen the path names. */
import { api } from '../../api/client.ts';
import { useLoad } from '../../hooks.ts';
import { ErrorNotice, Loading } from '../../components/ui.tsx';
import type { Bot, ScreenDef } from '../../session.tsx';
import { InboxScreen } from '../inbox/inbox.tsx';
import { LeadsScreen } from '../leads/leads.tsx';
import { AnalyticsScreen } from '../analytics/analytics.tsx';
import { KnowledgeScreen } from '../knowledge/knowledge.tsx';
import { CustomizerScreen } from '../customizer/customizer.tsx';
import { SettingsScreen } from '../settings/settings.tsx';
import { KeysScreen } from '../keys/keys.tsx';
import { VoiceScreen } from '../voice/voice.tsx';
import { WebhooksScreen } from '../webhooks/webhooks.tsx';
import { ByokScreen } from '../byok/byok.tsx';

export interface BotScreenProps {
  bot: Bot;
  /** Replaces the bot shown (after a change saved by the screen). */
  onBotChange(bot: Bot): void;
  item?: string;
}

const SCREEN_COMPONENTS: Record<string, (props: BotScreenProps) => preact.JSX.Element> = {
  inbox: InboxScreen,
  leads: LeadsScreen,
  analytics: AnalyticsScreen,
  knowledge: KnowledgeScreen,
  customizer: CustomizerScreen,
  settings: SettingsScreen,
  keys: KeysScreen,
  voice: VoiceScreen,
  webhooks: WebhooksScreen,
  byok: ByokScreen,
};

export function BotScreen({ botId, screen, item }: { botId: string; screen: ScreenDef; item?: string }) {
  const bot = useLoad(() => api('dashboardGetBot', { path: { bot_id: botId } }), [botId]);
  const Screen = SCREEN_COMPONENTS[screen.segment]!;
  if (bot.error && !bot.data) return <ErrorNotice error={bot.error} />;
  if (!bot.data) return <Loading />;
  return (
    <div data-screen={screen.segment}>
      <Screen key={botId} bot={bot.data} onBotChange={(next) => bot.setData(next)} item={item} />
    </div>
  );
}
