/**
 * `/app/invite#token=…&email=…`: accepts an invitation. The token travels in the fragment, which
 * browsers never send to a server, so it stays out of logs and Referer headers.
 */
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { useAction } from '../../hooks.ts';
import { Link } from '../../components/link.tsx';
import { Button, ErrorNotice, Notice, TextField } from '../../components/ui.tsx';
import { go } from '../../router.ts';
import type { Me } from '../../session.tsx';
import { AuthFrame } from './auth-frame.tsx';

export function InviteScreen({ onSignedIn, signedInAs }: { onSignedIn(): Promise<void>; signedInAs: Me | null }) {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const token = fragment.get('token') ?? '';
  const [email, setEmail] = useState(fragment.get('email') ?? '');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const accept = useAction(async () => {
    await api('signup', { body: { email, password, invite_token: token, ...(name.trim() && { name }) } });
    history.replaceState(null, '', '/app/invite');
    await onSignedIn();
    go('/app');
  });

  if (!token) {
    return (
      <AuthFrame title="Invitation">
        <Notice kind="error">This invitation link is incomplete. Ask for a new one, and open it whole.</Notice>
        <p>
          <Link href="/app/login">Log in</Link>
        </p>
      </AuthFrame>
    );
  }
  if (signedInAs) {
    return (
      <AuthFrame title="Invitation">
        <p>
          You are signed in as <strong>{signedInAs.user.email}</strong>. A user belongs to one account: log out first to accept this invitation with
          its own email address.
        </p>
        <Button onClick={() => go('/app')}>Back to the dashboard</Button>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Join your team">
      <p>Choose a password to accept the invitation. It works once, for the email address it was sent for, within 7 days.</p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void accept.run();
        }}
      >
        <TextField label="Email" type="email" autoComplete="email" required value={email} onValue={setEmail} />
        <TextField label="Your name" autoComplete="name" value={name} onValue={setName} maxLength={200} />
        <TextField label="Password" type="password" autoComplete="new-password" required minLength={8} hint="At least 8 characters." value={password} onValue={setPassword} />
        <ErrorNotice error={accept.error} />
        <Button type="submit" variant="primary" busy={accept.busy} class="wide">
          Accept invitation
        </Button>
      </form>
    </AuthFrame>
  );
}
