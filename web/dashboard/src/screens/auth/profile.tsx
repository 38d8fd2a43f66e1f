/** `/app/profile`: the member's name and password, and what their membership grants. */
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { useAction } from '../../hooks.ts';
import { Badge, Button, ErrorNotice, Notice, PageHeader, Section, TextField } from '../../components/ui.tsx';
import { TAB_LABELS, useSession } from '../../session.tsx';

export function ProfileScreen() {
  const { me, reloadMe } = useSession();
  const [name, setName] = useState(me.user.name);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const rename = useAction(async () => {
    await api('updateProfile', { body: { name } });
    await reloadMe();
    setSaved('Your name was saved.');
  });
  const changePassword = useAction(async () => {
    await api('updateProfile', { body: { current_password: current, new_password: next } });
    setCurrent('');
    setNext('');
    setSaved('Your password was changed. Your other sessions have ended.');
  });

  return (
    <>
      <PageHeader title="Profile" description={`${me.user.email} · ${me.account.name}`} />
      {saved && <Notice kind="success">{saved}</Notice>}
      <Section title="Your membership">
        <p>
          Role: <Badge tone="info">{me.role}</Badge>
        </p>
        <p>Tabs: {me.role === 'owner' ? 'every tab' : me.tabs.map((tab) => TAB_LABELS[tab]).join(', ') || 'none'}</p>
      </Section>
      <Section title="Name">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setSaved(null);
            void rename.run();
          }}
        >
          <TextField label="Name" required maxLength={200} value={name} onValue={setName} autoComplete="name" />
          <ErrorNotice error={rename.error} />
          <Button type="submit" variant="primary" busy={rename.busy}>
            Save name
          </Button>
        </form>
      </Section>
      <Section title="Password" description="Changing it ends your sessions on other devices.">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setSaved(null);
            void changePassword.run();
          }}
        >
          <TextField label="Current password" type="password" autoComplete="current-password" required value={current} onValue={setCurrent} />
          <TextField label="New password" type="password" autoComplete="new-password" required minLength={8} hint="At least 8 characters." value={next} onValue={setNext} />
          <ErrorNotice error={changePassword.error} />
          <Button type="submit" variant="primary" busy={changePassword.busy}>
            Change password
          </Button>
        </form>
      </Section>
    </>
  );
}
