/** Who is calling: the one shape every authenticated request carries as `request.principal`. */

export const SCOPES = ['chat', 'read', 'write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

export const ROLES = ['owner', 'admin', 'agent'] as const;
export type Role = (typeof ROLES)[number];

export const TABS = ['inbox', 'knowledge', 'customizer', 'settings', 'voice_agent', 'team', 'billing', 'byok', 'webhooks'] as const;
export type Tab = (typeof TABS)[number];

/** The tabs as the dashboard names them, in the specification's order (the dashboard imports these too). */
export const TAB_NAMES: Record<Tab, string> = {
  inbox: 'Inbox',
  knowledge: 'Knowledge',
  customizer: 'Customizer',
  settings: 'Settings',
  voice_agent: 'Voice Agent',
  team: 'Team',
  billing: 'Billing',
  byok: 'BYOK',
  webhooks: 'Webhooks',
};

/** A bot-scoped API key (`parley_sk_…`). */
export interface ApiKeyPrincipal {
  kind: 'api_key';
  /** What the per-credential rate limit and usage counters are keyed on. */
  credentialId: string;
  keyId: string;
  botId: string;
  accountId: string;
  scopes: readonly Scope[];
  /** The user who made the key, or null for a key made before makers were recorded. */
  makerId: string | null;
  /** The dashboard tabs its maker holds now, which bound what the key can do; null: every tab (an owner's key). */
  memberTabs: readonly Tab[] | null;
}

/** A signed-in dashboard user (`parley_ds_…`, bearer or cookie). */
export interface DashboardPrincipal {
  kind: 'dashboard';
  sessionId: string;
  userId: string;
  accountId: string;
  role: Role;
  tabs: readonly Tab[];
}

/** An OAuth2 access token acting for an account (`parley_oat_…`). */
export interface OAuthPrincipal {
  kind: 'oauth';
  credentialId: string;
  tokenId: string;
  clientId: string;
  userId: string;
  accountId: string;
  scopes: readonly Scope[];
  /** The dashboard tabs of the user who authorized it, held now; null: every tab (the owner). */
  memberTabs: readonly Tab[] | null;
}

/** Widget public access: the bot id is the credential. */
export interface WidgetPrincipal {
  kind: 'widget';
  botId: string;
  accountId: string;
  /** The bot's `allowed_domains`: the origins its widget may call from (empty = any). */
  allowedDomains: readonly string[];
}

export type Principal = ApiKeyPrincipal | DashboardPrincipal | OAuthPrincipal | WidgetPrincipal;
export type PrincipalKind = Principal['kind'];

/**
 * The tabs a credential made by a member acts within: a key or token can do no more than its
 * maker can now do in the dashboard. Null means every tab (the owner, or an account-wide key).
 */
export function tabsOfMember(role: Role, tabs: readonly Tab[]): readonly Tab[] | null {
  return role === 'owner' ? null : tabs;
}

/** True when the granted scopes satisfy `needed` (`admin` satisfies every scope). */
export function hasScope(granted: readonly Scope[], needed: Scope): boolean {
  return granted.includes(needed) || granted.includes('admin');
}
