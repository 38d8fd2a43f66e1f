/**
 * Client-side routing with the History API: every dashboard page lives under `/app`, and the
 * service answers the same shell for each, so a reload or a shared link opens the same screen.
 */
import { useEffect, useState } from 'preact/hooks';

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());
window.addEventListener('popstate', notify);

/** Goes to `to` (a path on this origin) without reloading. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === location.pathname + location.search) return;
  history[options.replace ? 'replaceState' : 'pushState'](null, '', to);
  notify();
}

export interface Location {
  path: string;
  query: URLSearchParams;
}

/** The current location; re-renders the caller when it changes. */
export function useLocation(): Location {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = () => setTick((n) => n + 1);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  return { path: location.pathname.replace(/\/+$/, '') || '/', query: new URLSearchParams(location.search) };
}

/** `/app/bots/:bot_id/inbox/:session_id?` against a path: the named segments, or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const have = path.split('/');
  const params: Record<string, string> = {};
  for (let i = 0; i < Math.max(want.length, have.length); i++) {
    const segment = want[i];
    const value = have[i];
    if (segment === undefined) return null;
    if (segment.startsWith(':')) {
      const optional = segment.endsWith('?');
      const name = segment.slice(1, optional ? -1 : undefined);
      if (value === undefined || value === '') {
        if (!optional) return null;
        continue;
      }
      params[name] = decodeURIComponent(value);
    } else if (segment !== value) {
      return null;
    }
  }
  return params;
}

/**
 * A path the login may return to: only a path on this origin (not `//host` or `/\\host`, which
 * browsers read as another origin), else the dashboard's start.
 */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/app';
  try {
    const url = new URL(next, location.origin);
    return url.origin === location.origin ? url.pathname + url.search + url.hash : '/app';
  } catch {
    return '/app';
  }
}

/** Opens `to`: in the app when it is a dashboard path, else as a page load (the OAuth consent page). */
export function go(to: string): void {
  if (to === '/app' || to.startsWith('/app/') || to.startsWith('/app?')) navigate(to);
  else location.assign(to);
}
