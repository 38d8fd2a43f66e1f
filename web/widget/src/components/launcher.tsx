/**
 * The round (or pill, or square) button that opens and closes the panel, with a count of unread
 * operator messages. Where the open panel fills the screen it covers the launcher, which is then
 * hidden (out of the Tab order and the accessibility tree) until the panel closes.
 */
import type { Ref } from 'preact';
import { ChatIcon, CloseIcon } from './icons.tsx';
import { useWords } from './words-context.ts';

export interface LauncherProps {
  name: string;
  open: boolean;
  /** The panel fills the screen (a phone). */
  fullScreen: boolean;
  unread: number;
  buttonRef: Ref<HTMLButtonElement>;
  onToggle(): void;
  onEscape(): void;
}

export function Launcher({ name, open, fullScreen, unread, buttonRef, onToggle, onEscape }: LauncherProps) {
  const words = useWords();
  const label = open ? words.hideChat : words.openChat(name, unread);
  return (
    <button
      ref={buttonRef}
      type="button"
      class="launcher"
      aria-label={label}
      aria-expanded={open}
      aria-controls="parley-panel"
      hidden={open && fullScreen}
      onClick={onToggle}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) onEscape();
      }}
    >
      {open ? <CloseIcon /> : <ChatIcon />}
      <span class="launcher-label" aria-hidden="true">
        {open ? words.launcherHide : words.launcherOpen}
      </span>
      {unread > 0 && !open && (
        <span class="badge" aria-hidden="true">
          {unread}
        </span>
      )}
    </button>
  );
}
