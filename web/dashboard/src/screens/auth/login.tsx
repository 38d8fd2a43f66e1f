/** `/app/login?next=…`: signs in and returns to `next` (a path on this service only). */
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { useAction, useLoad } from '../../hooks.ts';
import { Link } from '../../components/link.tsx';
import { Button, ErrorNotice, Notice, TextField } from '../../components/ui.tsx';
import { go, safeNext, useLocation } from '../../router.ts';
import type { Me } from '../../session.tsx';
import { AuthFrame } from './auth-frame.tsx';

export function LoginScreen({ onSignedIn, signedInAs }: { onSignedIn(): Promise<void>; signedInAs: Me | null }) {
  const { query } = useLocation();
  const next = safeNext(query.get('next'));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const status = useLoad(() => api('signupStatus'), []);
  const login = useAction(async () => {
    await api('login', { body: { email, password } });
    await onSignedIn();
    go(next);
  });

  if (signedInAs) {
    return (
      <AuthFrame title="You are signed in">
        <p>
          Signed in as <strong>{signedInAs.user.email}</strong>.
        </p>
        <Button variant="primary" onClick={() => go(next)}>
          Continue
        </Button>
      </AuthFrame>
    );
  }

  const firstRun = status.data?.signup_open && status.data.mode === 'first';
  return (
    <AuthFrame title="Log in">
      {firstRun && (
        <Notice>
          This Parley has no users yet. <Link href="/app/signup">Create the owner account</Link> first.
        </Notice>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void login.run();
        }}
      >
        <TextField label="Email" type="email" autoComplete="username" required value={email} onValue={setEmail} />
        <TextField label="Password" type="password" autoComplete="current-password" required value={password} onValue={setPassword} />
        <ErrorNotice error={login.error} />
        <Button type="submit" variant="primary" busy={login.busy} class="wide">
          Log in
        </Button>
      </form>
      {status.data?.signup_open && !firstRun && (
        <p class="auth-switch">
          New here? <Link href="/app/signup">Create an account</Link>
        </p>
      )}
      {status.data && !status.data.signup_open && <p class="hint auth-switch">New members join through an invitation link from an owner or admin.</p>}
    </AuthFrame>
  );
}
