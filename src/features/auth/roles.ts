/** Dashboard roles and tabs (interface.md section 5), and the checks routes use. */
import { ForbiddenError } from '../../platform/errors.ts';
import { TABS, type DashboardPrincipal, type Role, type Tab } from '../../platform/auth/principal.ts';

const DEFAULT_TABS: Record<Role, readonly Tab[]> = {
  owner: TABS,
  admin: TABS.filter((tab) => tab !== 'billing' && tab !== 'byok' && tab !== 'webhooks'),
  agent: ['inbox'],
};

/**
 * The roles that may hand out credentials acting for the account (API keys, OAuth approvals); a
 * credential lives only as long as its maker holds one of them.
 */
export const CREDENTIAL_ROLES: readonly Role[] = ['owner', 'admin'];

/** The tabs a role gets when none are granted explicitly. */
export function defaultTabs(role: Role): Tab[] {
  return [...DEFAULT_TABS[role]];
}

/** Refuses unless the user's role is one of `roles`. */
export function assertRole(principal: DashboardPrincipal, roles: readonly Role[]): void {
  if (!roles.includes(principal.role)) {
    throw new ForbiddenError(`This action needs the ${roles.join(' or ')} role`);
  }
}

/** Whether the user has been granted `tab` (owners have every tab). */
export function hasTab(principal: DashboardPrincipal, tab: Tab): boolean {
  return principal.role === 'owner' || principal.tabs.includes(tab);
}

/** Refuses unless the user has been granted `tab` (owners have every tab). */
export function assertTab(principal: DashboardPrincipal, tab: Tab): void {
  if (!hasTab(principal, tab)) {
    throw new ForbiddenError(`This action needs access to the ${tab} tab`);
  }
}
