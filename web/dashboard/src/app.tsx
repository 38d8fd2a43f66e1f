/**
 * The app: who is signed in decides between the sign-in pages and the dashboard; the path decides
 * the screen. A member sees only the screens of the tabs they hold; opening another one by its
 * address shows why not (and its API answers 403 anyway).
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError, handleUnauthorized, messageOf } from './api/client.ts';
import { matchPath, navigate, useLocation } from './router.ts';
import { canOpen, firstBotScreen, SCREENS, SessionProvider, type BotSummary, type Me, type Session } from './session.tsx';
import { Layout } from './components/layout.tsx';
import { Loading, Notice } from './components/ui.tsx';
import { LoginScreen } from './screens/auth/login.tsx';
import { SignupScreen } from './screens/auth/signup.tsx';
import { InviteScreen } from './screens/auth/invite.tsx';
import { ProfileScreen } from './screens/auth/profile.tsx';
import { BotsScreen } from './screens/bots/bots.tsx';
import { BotScreen } from './screens/bots/bot-screen.tsx';
import { TeamScreen } from './screens/team/team.tsx';
import { BillingScreen } from './screens/billing/billing.tsx';
import { NoAccess, NotFound } from './screens/not-found.tsx';

const PUBLIC_PATHS = ['/app/login', '/app/signup', '/app/invite'];

type State = { status: 'loading' } | { status: 'signed-out' } | { status: 'signed-in'; me: Me; bots: BotSummary[] } | { status: 'failed'; error: string };

/** Remembers the bot last opened, so that account screens link the bot tabs to it. */
const LAST_BOT = 'parley.dashboard.lastBot';

export function App() {
  const { path } = useLocation();
  const [state, setState] = useState<State>({ status: 'loading' });

  const load = useCallback(async () => {
    try {
      const me = await api('me');
      const { bots } = await api('dashboardListBots');
      setState({ status: 'signed-in', me, bots });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) setState({ status: 'signed-out' });
      else setState({ status: 'failed', error: messageOf(err) });
    }
  }, []);

  useEffect(() => {
    void load();
    handleUnauthorized(() => setState({ status: 'signed-out' }));
  }, [load]);

  const isPublic = PUBLIC_PATHS.includes(path);

  // Signed out on a private page: to the login, which brings the user back here.
  useEffect(() => {
    if (state.status === 'signed-out' && !isPublic) {
      const here = location.pathname + location.search;
      navigate(here === '/app' || here === '/app/' ? '/app/login' : `/app/login?next=${encodeURIComponent(here)}`, { replace: true });
    }
  }, [state.status, isPublic]);

  if (state.status === 'loading') return <Loading label="Loading Parley…" />;
  if (state.status === 'failed') {
    return (
      <main class="auth-page">
        <Notice kind="error">The dashboard could not start: {state.error}</Notice>
      </main>
    );
  }
  if (state.status === 'signed-out' || isPublic) {
    const signedIn = state.status === 'signed-in' ? state.me : null;
    if (path === '/app/signup') return <SignupScreen onSignedIn={load} />;
    if (path === '/app/invite') return <InviteScreen onSignedIn={load} signedInAs={signedIn} />;
    if (path === '/app/login') return <LoginScreen onSignedIn={load} signedInAs={signedIn} />;
    return <Loading />;
  }

  const session: Session = {
    me: state.me,
    bots: state.bots,
    reloadBots: async () => {
      const { bots } = await api('dashboardListBots');
      setState((s) => (s.status === 'signed-in' ? { ...s, bots } : s));
    },
    reloadMe: async () => {
      const me = await api('me');
      setState((s) => (s.status === 'signed-in' ? { ...s, me } : s));
    },
    signOut: async () => {
      try {
        await api('logout');
      } finally {
        setState({ status: 'signed-out' });
        navigate('/app/login');
      }
    },
  };

  return (
    <SessionProvider value={session}>
      <SignedIn path={path} me={state.me} bots={state.bots} />
    </SessionProvider>
  );
}

function SignedIn({ path, me, bots }: { path: string; me: Me; bots: BotSummary[] }) {
  const botMatch = matchPath('/app/bots/:bot_id/:screen/:item?', path);
  const botId = botMatch?.bot_id ?? rememberedBot(bots);
  useEffect(() => {
    if (botMatch?.bot_id) localStorage.setItem(LAST_BOT, botMatch.bot_id);
  }, [botMatch?.bot_id]);

  // `/app` opens the bot last used (or the first) on the first screen this member may see.
  useEffect(() => {
    if (path !== '/app') return;
    const first = firstBotScreen(me);
    navigate(botId && first ? `/app/bots/${botId}/${first.segment}` : '/app/bots', { replace: true });
  }, [path, botId, me]);

  let content;
  if (path === '/app') content = <Loading />;
  else if (path === '/app/bots') content = <BotsScreen />;
  else if (path === '/app/profile') content = <ProfileScreen />;
  else if (botMatch) {
    const screen = SCREENS.find((s) => s.scope === 'bot' && s.segment === botMatch.screen);
    if (!screen) content = <NotFound />;
    else if (!canOpen(me, screen)) content = <NoAccess screen={screen} />;
    else content = <BotScreen botId={botMatch.bot_id!} screen={screen} item={botMatch.item} />;
  } else {
    const account = matchPath('/app/:screen', path);
    const screen = SCREENS.find((s) => s.scope === 'account' && s.segment === account?.screen);
    if (!screen) content = <NotFound />;
    else if (!canOpen(me, screen)) content = <NoAccess screen={screen} />;
    else content = screen.segment === 'team' ? <TeamScreen /> : <BillingScreen />;
  }

  return (
    <Layout path={path} botId={botId}>
      {content}
    </Layout>
  );
}

function rememberedBot(bots: BotSummary[]): string | null {
  const last = localStorage.getItem(LAST_BOT);
  return bots.find((b) => b.id === last)?.id ?? bots[0]?.id ?? null;
}
