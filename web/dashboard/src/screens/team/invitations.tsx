/**
 * Invitations (owners and admins with the Team tab): invite by link with a role and tabs (the link
 * is shown once: Parley sends no email), and the invitations still pending, each revocable, which
 * makes its link stop working. Only the owner revokes an invitation to be an admin.
 */
import { useState } from 'preact/hooks';
import { api, type ResponseOf } from '../../api/client.ts';
import { useAction, useLoad } from '../../hooks.ts';
import { ConfirmButton } from '../../components/dialog.tsx';
import { Badge, Button, DataTable, ErrorNotice, Loading, Notice, SecretOnce, Section, Select, TextField, Time } from '../../components/ui.tsx';
import { holds, TAB_LABELS, type Me, type Tab } from '../../session.tsx';
import { DEFAULT_TABS, TabBoxes, type InvitableRole } from './tab-boxes.tsx';

type Invitation = ResponseOf<'listInvitations'>['invitations'][number];

export function Invitations({ me }: { me: Me }) {
  const pending = useLoad(() => api('listInvitations'), []);
  return (
    <>
      <Invite me={me} onInvited={() => void pending.reload()} />
      <Section title="Pending invitations" description="Links given out and not yet used. Revoke one to make its link stop working.">
        <ErrorNotice error={pending.error} />
        {!pending.data ? (
          <Loading />
        ) : pending.data.invitations.length === 0 ? (
          <p class="hint">No invitation is waiting.</p>
        ) : (
          <DataTable label="Pending invitations" columns={['Email', 'Role', 'Tabs', 'Sent', 'Expires']} actions>
          {pending.data.invitations.map((invitation) => (
            <PendingRow
              key={invitation.id}
              me={me}
              invitation={invitation}
              onRevoked={() => pending.setData((previous) => previous && { invitations: previous.invitations.filter((i) => i.id !== invitation.id) })}
            />
          ))}
          </DataTable>
        )}
      </Section>
    </>
  );
}

function PendingRow({ me, invitation, onRevoked }: { me: Me; invitation: Invitation; onRevoked(): void }) {
  const revocable = invitation.role !== 'admin' || me.role === 'owner';
  return (
    <tr data-invitation={invitation.email}>
      <th scope="row">{invitation.email}</th>
      <td>
        <Badge>{invitation.role}</Badge>
      </td>
      <td>{invitation.tabs.map((t) => TAB_LABELS[t as Tab] ?? t).join(', ') || 'none'}</td>
      <td>
        <Time at={invitation.created_at} />
      </td>
      <td>
        <Time at={invitation.expires_at} />
      </td>
      <td class="cell-actions">
        {revocable && (
          <ConfirmButton
            small
            label="Revoke"
            ariaLabel={`Revoke the invitation for ${invitation.email}`}
            title={`Revoke the invitation for ${invitation.email}?`}
            message={<p>Its link stops working at once. You can invite them again later.</p>}
            confirmLabel="Revoke invitation"
            onConfirm={async () => {
              await api('revokeInvitation', { path: { id: invitation.id } });
              onRevoked();
            }}
          />
        )}
      </td>
    </tr>
  );
}

function Invite({ me, onInvited }: { me: Me; onInvited(): void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<InvitableRole>('agent');
  const [tabs, setTabs] = useState<Tab[]>(DEFAULT_TABS.agent);
  const [link, setLink] = useState<{ email: string; url: string; expires: string } | null>(null);
  const invite = useAction(async () => {
    const created = await api('inviteMember', { body: { email: email.trim(), role, tabs: tabs.filter((t) => holds(me, t)) } });
    const fragment = new URLSearchParams({ token: created.token, email: created.email });
    setLink({ email: created.email, url: `${location.origin}/app/invite#${fragment.toString()}`, expires: created.expires_at });
    setEmail('');
    onInvited();
  });
  const roles = me.role === 'owner' ? [{ value: 'agent', label: 'Agent' }, { value: 'admin', label: 'Admin' }] : [{ value: 'agent', label: 'Agent' }];
  return (
    <Section title="Invite a member" description="Parley sends no email: copy the link and give it to them. It works once, for that email address, for 7 days.">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void invite.run();
        }}
      >
        <TextField label="Email" type="email" required value={email} onValue={setEmail} />
        <Select
          label="Role"
          hint="Admins manage bots, keys and agents; agents answer conversations."
          value={role}
          onValue={(value) => {
            setRole(value as InvitableRole);
            setTabs(DEFAULT_TABS[value as InvitableRole]);
          }}
          options={roles}
        />
        <TabBoxes me={me} tabs={tabs} onChange={setTabs} />
        <ErrorNotice error={invite.error} />
        <Button type="submit" variant="primary" busy={invite.busy}>
          Create invitation link
        </Button>
      </form>
      {link && (
        <>
          <Notice kind="success">
            Invitation for {link.email}, valid until <Time at={link.expires} />.
          </Notice>
          <SecretOnce label="Invitation link" secret={link.url} onDone={() => setLink(null)} />
        </>
      )}
    </Section>
  );
}
