/** The round (or pill, or square) button that opens and closes the panel, with a count of unread operator messages. */
import type { Ref } from 'preact';
import { ChatIcon, CloseIcon } from './icons.tsx';

export interface LauncherProps {
  name: string;
  open: boolean;
  unread: number;
  buttonRef: Ref<HTMLButtonElement>;
  onToggle(): void;
  onEscape(): void;
}

export function Launcher({ name, open, unread, buttonRef, onToggle, onEscape }: LauncherProps) {
  const label = open ? 'Close chat' : unread > 0 ? `Open chat with ${name} (${unread} new)` : `Open chat with ${name}`;
  return (
    <button
      ref={buttonRef}
      type="button"
      class="launcher"
      aria-label={label}
      aria-expanded={open}
      aria-controls="parley-panel"
      onClick={onToggle}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) onEscape();
      }}
    >
      {open ? <CloseIcon /> : <ChatIcon />}
      <span class="launcher-label" aria-hidden="true">
        {open ? 'Close' : 'Chat'}
      </span>
      {unread > 0 && !open && (
        <span class="badge" aria-hidden="true">
          {unread}
        </span>
      )}
    </button>
  );
}
