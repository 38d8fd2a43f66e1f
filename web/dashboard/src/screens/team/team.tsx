/**
 * Team: the account's members with their role and tabs; owners and admins (with the Team tab)
 * invite by link with a role and tabs, see and revoke pending invitations, change roles and tabs,
 * and remove members. Only the owner handles admins; nobody but the owner grants a tab they do not
 * hold (the API enforces both).
 */
import { useState } from 'preact/hooks';
import { api, type ResponseOf } from '../../api/client.ts';
import { useAction, useLoad } from '../../hooks.ts';
import { ConfirmButton, Dialog } from '../../components/dialog.tsx';
import { Badge, Button, DataTable, Empty, ErrorNotice, Loading, PageHeader, Section, Select, Time } from '../../components/ui.tsx';
import { Invitations } from './invitations.tsx';
import { isManager, TAB_LABELS, useSession, type Me, type Tab } from '../../session.tsx';
import { DEFAULT_TABS, TabBoxes, type InvitableRole } from './tab-boxes.tsx';

type Member = ResponseOf<'listMembers'>['members'][number];

export function TeamScreen() {
  const { me } = useSession();
  const members = useLoad(() => api('listMembers'), []);
  const [editing, setEditing] = useState<Member | null>(null);
  const manager = isManager(me);
  return (
    <>
      <PageHeader title="Team" description={`The members of ${me.account.name}, and what each may see.`} />
      {manager && <Invitations me={me} />}
      <Section title="Members">
        <ErrorNotice error={members.error} />
        {!members.data ? (
          <Loading />
        ) : members.data.members.length === 0 ? (
          <Empty title="No members" />
        ) : (
          <DataTable label="Members" columns={['Member', 'Role', 'Tabs', 'Joined']} actions>
          {members.data.members.map((member) => {
            const editable = manager && member.role !== 'owner' && member.user_id !== me.user.id && (me.role === 'owner' || member.role === 'agent');
            return (
              <tr key={member.user_id} data-member={member.email}>
                <th scope="row">
                  {member.name}
                  <span class="cell-preview">{member.email}</span>
                </th>
                <td>
                  <Badge tone={member.role === 'owner' ? 'info' : 'neutral'}>{member.role}</Badge>
                </td>
                <td>{member.role === 'owner' ? 'every tab' : member.tabs.map((t) => TAB_LABELS[t as Tab] ?? t).join(', ') || 'none'}</td>
                <td>
                  <Time at={member.created_at} />
                </td>
                <td class="cell-actions">
                  {editable && (
                    <>
                      <Button small onClick={() => setEditing(member)} aria-label={`Change ${member.email}`}>
                        Change
                      </Button>
                      <ConfirmButton
                        small
                        label="Remove"
                        ariaLabel={`Remove ${member.email}`}
                        title={`Remove ${member.email}?`}
                        message={<p>They lose access at once and their sessions end.</p>}
                        confirmLabel="Remove member"
                        onConfirm={async () => {
                          await api('removeMember', { path: { user_id: member.user_id } });
                          await members.reload();
                        }}
                      />
                    </>
                  )}
                </td>
              </tr>
            );
          })}
          </DataTable>
        )}
      </Section>
      {editing && (
        <EditMember
          me={me}
          member={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void members.reload();
          }}
        />
      )}
    </>
  );
}

function EditMember({ me, member, onClose, onSaved }: { me: Me; member: Member; onClose(): void; onSaved(): void }) {
  const [role, setRole] = useState<InvitableRole>(member.role === 'admin' ? 'admin' : 'agent');
  const [tabs, setTabs] = useState<Tab[]>(member.tabs as Tab[]);
  const save = useAction(async () => {
    await api('updateMember', { path: { user_id: member.user_id }, body: { role, tabs } });
    onSaved();
  });
  return (
    <Dialog open title={`Change ${member.email}`} onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save.run();
        }}
      >
        {me.role === 'owner' && (
          <Select
            label="Role"
            value={role}
            onValue={(value) => {
              setRole(value as InvitableRole);
              setTabs(DEFAULT_TABS[value as InvitableRole]);
            }}
            options={[
              { value: 'agent', label: 'Agent' },
              { value: 'admin', label: 'Admin' },
            ]}
          />
        )}
        <TabBoxes me={me} tabs={tabs} onChange={setTabs} />
        <ErrorNotice error={save.error} />
        <div class="dialog-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={save.busy}>
            Save
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
