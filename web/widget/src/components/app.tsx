/**
 * The widget's root: nothing until the bot's configuration has loaded (and nothing at all when the
 * bot refuses this page), then the launcher and the panel. Opening moves focus into the panel;
 * closing brings it back to the launcher.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ChatController } from '../chat-controller.ts';
import { useStore, type Store } from '../store.ts';
import { FULL_SCREEN_QUERY } from '../styles.ts';
import { WORDS } from '../words.ts';
import { Launcher } from './launcher.tsx';
import { Panel } from './panel.tsx';
import { WordsContext } from './words-context.ts';

export interface AppProps {
  store: Store;
  controller: ChatController;
  /** The custom element holding the shadow root (the page's activeElement while focus is inside). */
  host: HTMLElement;
  /** Called once the launcher is on the page and answers clicks. */
  onLauncherReady(): void;
}

/** Whether the media query matches, kept up to date as the window is resized or turned. */
function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => matchMedia(query).matches);
  useEffect(() => {
    const list = matchMedia(query);
    const update = () => setMatches(list.matches);
    update();
    list.addEventListener('change', update);
    return () => list.removeEventListener('change', update);
  }, [query]);
  return matches;
}

export function App({ store, controller, host, onLauncherReady }: AppProps) {
  const state = useStore(store);
  const launcherRef = useRef<HTMLButtonElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const wasOpen = useRef(false);
  const fullScreen = useMediaQuery(FULL_SCREEN_QUERY);
  const loaded = state.config !== null;

  useEffect(() => {
    if (loaded) onLauncherReady();
  }, [loaded]);

  useEffect(() => {
    if (!loaded) return;
    if (state.open && !wasOpen.current) inputRef.current?.focus();
    if (!state.open && wasOpen.current) {
      // Focus that was in the panel has fallen back to the page's body: return it to the launcher,
      // but leave it alone when the host page itself closed the widget from one of its controls.
      const active = document.activeElement;
      if (!active || active === document.body || active === host) launcherRef.current?.focus();
    }
    wasOpen.current = state.open;
  }, [state.open, loaded]);

  if (!state.config) return null;
  return (
    <WordsContext.Provider value={WORDS[state.language]}>
      <Launcher
        name={state.config.name}
        open={state.open}
        fullScreen={fullScreen}
        unread={state.unread}
        buttonRef={launcherRef}
        onToggle={() => (state.open ? controller.close() : controller.open())}
        onEscape={() => controller.close()}
      />
      <Panel state={state} controller={controller} fullScreen={fullScreen} inputRef={inputRef} />
    </WordsContext.Provider>
  );
}
