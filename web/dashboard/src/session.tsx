/**
 * Who is signed in (`GET /api/auth/me`: user, account, role, tabs) and the account's bots, shared
 * by every screen, and the tab rules the navigation follows (interface.md section 5).
 */
import { createContext, type ComponentChildren } from 'preact';
import { useContext } from 'preact/hooks';
import type { ResponseOf } from './api/client.ts';
import { TAB_NAMES } from '../../../src/platform/auth/principal.ts';

export type Me = ResponseOf<'me'>;
export type Tab = Me['tabs'][number];
export type Role = Me['role'];
export type Bot = ResponseOf<'dashboardGetBot'>;
export type BotSummary = ResponseOf<'dashboardListBots'>['bots'][number];

export interface Session {
  me: Me;
  bots: BotSummary[];
  /** Reads the bots again (after one is created, renamed or deleted). */
  reloadBots(): Promise<void>;
  /** Reads the user again (after a profile change). */
  reloadMe(): Promise<void>;
  signOut(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ value, children }: { value: Session; children: ComponentChildren }) {
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}

/** True when the member holds `tab` (owners hold every tab). */
export function holds(me: Me, tab: Tab): boolean {
  return me.role === 'owner' || me.tabs.includes(tab);
}

export function isManager(me: Me): boolean {
  return me.role === 'owner' || me.role === 'admin';
}

/**
 * The dashboard's tabs in the order of the specification, with what each is called on screen: the
 * names the service's own messages use ("made by a member without the Webhooks tab").
 */
export const TAB_LABELS: Readonly<Record<Tab, string>> = TAB_NAMES;

export interface ScreenDef {
  /** The path segment after `/app/bots/{bot_id}/` (bot screens) or `/app/` (account screens). */
  segment: string;
  label: string;
  /** The tab whose navigation group lists the screen; holding it opens the screen, unless `roles` says otherwise. */
  tab: Tab;
  /**
   * A screen whose API asks for a role and no tab: members with one of these roles open it whatever
   * their tabs, and no one else does (the API refuses them too).
   */
  roles?: readonly Role[];
  scope: 'bot' | 'account';
}

/** Every screen behind a tab; a tab's first screen is where its navigation entry goes. */
export const SCREENS: readonly ScreenDef[] = [
  { segment: 'inbox', label: 'Inbox', tab: 'inbox', scope: 'bot' },
  { segment: 'leads', label: 'Leads', tab: 'inbox', scope: 'bot' },
  { segment: 'analytics', label: 'Analytics', tab: 'inbox', scope: 'bot' },
  { segment: 'knowledge', label: 'Knowledge', tab: 'knowledge', scope: 'bot' },
  { segment: 'customizer', label: 'Customizer', tab: 'customizer', scope: 'bot' },
  { segment: 'settings', label: 'Settings', tab: 'settings', scope: 'bot' },
  // `/api/keys` serves owners and admins, with or without the Settings tab.
  { segment: 'keys', label: 'API keys', tab: 'settings', roles: ['owner', 'admin'], scope: 'bot' },
  { segment: 'voice', label: 'Voice Agent', tab: 'voice_agent', scope: 'bot' },
  { segment: 'webhooks', label: 'Webhooks', tab: 'webhooks', scope: 'bot' },
  { segment: 'byok', label: 'BYOK', tab: 'byok', scope: 'bot' },
  { segment: 'team', label: 'Team', tab: 'team', scope: 'account' },
  { segment: 'billing', label: 'Billing', tab: 'billing', scope: 'account' },
];

/** True when the member may open the screen: exactly the members its API serves. */
export function canOpen(me: Me, screen: ScreenDef): boolean {
  return screen.roles ? screen.roles.includes(me.role) : holds(me, screen.tab);
}

/** Where a bot opens for this member: the first bot screen they may see, or null. */
export function firstBotScreen(me: Me): ScreenDef | null {
  return SCREENS.find((screen) => screen.scope === 'bot' && canOpen(me, screen)) ?? null;
}
