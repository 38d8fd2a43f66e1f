/** The tabs a member is given, as checkboxes: a tab the granter does not hold cannot be given (the API refuses it too). */
import { holds, TAB_LABELS, type Me, type Tab } from '../../session.tsx';

export type InvitableRole = 'admin' | 'agent';

const ALL_TABS = Object.keys(TAB_LABELS) as Tab[];

/** The tabs each role gets unless others are chosen (as the API's defaults). */
export const DEFAULT_TABS: Record<InvitableRole, Tab[]> = {
  admin: ALL_TABS.filter((t) => t !== 'billing' && t !== 'byok' && t !== 'webhooks'),
  agent: ['inbox'],
};

export function TabBoxes({ me, tabs, onChange }: { me: Me; tabs: Tab[]; onChange(tabs: Tab[]): void }) {
  return (
    <fieldset class="checks tab-checks">
      <legend>Tabs</legend>
      {ALL_TABS.map((tab) => {
        const grantable = holds(me, tab);
        return (
          <label key={tab} class="check">
            <input type="checkbox" checked={tabs.includes(tab)} disabled={!grantable} onChange={(event) => onChange((event.target as HTMLInputElement).checked ? [...tabs, tab] : tabs.filter((t) => t !== tab))} />
            {TAB_LABELS[tab]}
            {!grantable && <span class="hint"> (you do not hold it)</span>}
          </label>
        );
      })}
    </fieldset>
  );
}
