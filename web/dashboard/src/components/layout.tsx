/**
 * The signed-in frame: a header (bot switcher, account menu), the navigation of the tabs the
 * member holds, and the screen. On a phone the navigation folds behind a Menu button. After each
 * navigation the new screen's heading takes the focus, so keyboard and screen-reader users land on it.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Link } from './link.tsx';
import { navigate } from '../router.ts';
import { canOpen, holds, SCREENS, TAB_LABELS, useSession, type ScreenDef, type Tab } from '../session.tsx';

const TAB_ORDER: Tab[] = ['inbox', 'knowledge', 'customizer', 'settings', 'voice_agent', 'webhooks', 'byok', 'team', 'billing'];

function hrefOf(screen: ScreenDef, botId: string | null): string | null {
  if (screen.scope === 'account') return `/app/${screen.segment}`;
  return botId ? `/app/bots/${botId}/${screen.segment}` : null;
}

export function Layout({ path, botId, children }: { path: string; botId: string | null; children: ComponentChildren }) {
  const { me, bots, signOut } = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);

  useEffect(() => {
    setMenuOpen(false);
    if (first.current) {
      first.current = false;
      return;
    }
    // Wait for the screen to render its heading.
    const timer = setTimeout(() => (main.current?.querySelector('h1') ?? main.current)?.focus(), 0);
    return () => clearTimeout(timer);
  }, [path]);

  const closeMenu = () => setMenuOpen(false);
  const current = bots.find((b) => b.id === botId);
  const screenSegment = /^\/app\/bots\/[^/]+\/([^/]+)/.exec(path)?.[1] ?? null;

  const groups = TAB_ORDER.map((tab) => ({ tab, screens: SCREENS.filter((s) => s.tab === tab && canOpen(me, s)) })).filter((g) => g.screens.length > 0);
  const botGroups = groups.filter((g) => g.screens[0]!.scope === 'bot');
  const accountGroups = groups.filter((g) => g.screens[0]!.scope === 'account');

  const renderGroup = ({ tab, screens }: { tab: Tab; screens: ScreenDef[] }) => {
    const [head, ...rest] = screens;
    const href = hrefOf(head!, botId);
    // A member without the tab may still open one of its screens (API keys for an admin without Settings): name that screen.
    const label = holds(me, tab) ? TAB_LABELS[tab] : head!.label;
    return (
      <li key={tab} data-tab={tab}>
        <NavLink href={href} path={path} label={label} onChoose={closeMenu} />
        {rest.length > 0 && (
          <ul class="subnav">
            {rest.map((screen) => (
              <li key={screen.segment}>
                <NavLink href={hrefOf(screen, botId)} path={path} label={screen.label} onChoose={closeMenu} />
              </li>
            ))}
          </ul>
        )}
      </li>
    );
  };

  return (
    <div class="frame">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <button class="menu-button" type="button" aria-expanded={menuOpen} aria-controls="sidebar" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
        <Link href="/app" class="brand">
          <span class="brand-mark" aria-hidden="true" />
          Parley
        </Link>
        {bots.length > 0 && (
          <div class="bot-switcher">
            <label for="bot-switcher">Bot</label>
            <select
              id="bot-switcher"
              value={current?.id ?? ''}
              onChange={(event) => {
                const id = (event.target as HTMLSelectElement).value;
                const segment = screenSegment && SCREENS.some((s) => s.scope === 'bot' && s.segment === screenSegment) ? screenSegment : 'inbox';
                navigate(`/app/bots/${id}/${segment}`);
              }}
            >
              {!current && <option value="">Choose a bot</option>}
              {bots.map((bot) => (
                <option key={bot.id} value={bot.id}>
                  {bot.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <Link href="/app/bots" class="topbar-link" aria-current={path === '/app/bots' ? 'page' : undefined}>
          All bots
        </Link>
        <div class="account-menu">
          <Link href="/app/profile" class="topbar-link" aria-current={path === '/app/profile' ? 'page' : undefined}>
            <span class="visually-hidden">Profile: </span>
            {me.user.name}
          </Link>
          <button type="button" class="topbar-link" onClick={() => void signOut()}>
            Log out
          </button>
        </div>
      </header>
      <div class="body">
        <nav id="sidebar" class={`sidebar${menuOpen ? ' open' : ''}`} aria-label="Dashboard">
          {botGroups.length > 0 && (
            <>
              <p class="nav-heading">{current ? current.name : 'Bot'}</p>
              {botId ? (
                <ul class="nav-list" data-nav="bot">
                  {botGroups.map(renderGroup)}
                </ul>
              ) : (
                <p class="hint nav-note">Create a bot to use these tabs.</p>
              )}
            </>
          )}
          {accountGroups.length > 0 && (
            <>
              <p class="nav-heading">Account</p>
              <ul class="nav-list" data-nav="account">
                {accountGroups.map(renderGroup)}
              </ul>
            </>
          )}
        </nav>
        <main id="main" ref={main} tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}

function NavLink({ href, path, label, onChoose }: { href: string | null; path: string; label: string; onChoose(): void }) {
  if (!href) return <span class="nav-link disabled">{label}</span>;
  const active = path === href || path.startsWith(`${href}/`);
  return (
    <Link href={href} class={`nav-link${active ? ' active' : ''}`} aria-current={active ? 'page' : undefined} onClick={onChoose}>
      {label}
    </Link>
  );
}
