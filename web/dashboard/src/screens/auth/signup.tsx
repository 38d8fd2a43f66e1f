/** `/app/signup`: creates an account and its owner (the first user of a new Parley becomes the owner). */
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { useAction, useLoad } from '../../hooks.ts';
import { Link } from '../../components/link.tsx';
import { Button, ErrorNotice, Loading, Notice, TextField } from '../../components/ui.tsx';
import { go } from '../../router.ts';
import { AuthFrame } from './auth-frame.tsx';

export function SignupScreen({ onSignedIn }: { onSignedIn(): Promise<void> }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [accountName, setAccountName] = useState('');
  const status = useLoad(() => api('signupStatus'), []);
  const signup = useAction(async () => {
    await api('signup', { body: { email, password, ...(name.trim() && { name }), ...(accountName.trim() && { account_name: accountName }) } });
    await onSignedIn();
    go('/app');
  });

  if (status.loading && !status.data) return <Loading />;
  if (status.data && !status.data.signup_open) {
    return (
      <AuthFrame title="Sign-up is closed">
        <p>This Parley accepts new members through invitation links only. Ask an owner or admin of your team for one.</p>
        <p>
          <Link href="/app/login">Log in</Link>
        </p>
      </AuthFrame>
    );
  }
  const firstRun = status.data?.mode === 'first';
  return (
    <AuthFrame title={firstRun ? 'Create the owner account' : 'Create an account'}>
      {firstRun && <Notice>You are the first user of this Parley: you become the owner of its account, and invite the others.</Notice>}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void signup.run();
        }}
      >
        <TextField label="Your name" autoComplete="name" value={name} onValue={setName} maxLength={200} />
        <TextField label="Email" type="email" autoComplete="email" required value={email} onValue={setEmail} />
        <TextField label="Password" type="password" autoComplete="new-password" required minLength={8} hint="At least 8 characters." value={password} onValue={setPassword} />
        <TextField label="Company or team name" hint="Optional; shown to the members you invite." value={accountName} onValue={setAccountName} maxLength={200} />
        <ErrorNotice error={signup.error} />
        <Button type="submit" variant="primary" busy={signup.busy} class="wide">
          Create account
        </Button>
      </form>
      <p class="auth-switch">
        Already have an account? <Link href="/app/login">Log in</Link>
      </p>
    </AuthFrame>
  );
}
