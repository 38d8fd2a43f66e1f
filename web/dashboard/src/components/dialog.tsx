/**
 * Modal dialogs on the native `<dialog>` element: the page behind is inert, Escape closes, Tab and
 * Shift+Tab go round the dialog's controls (the browser alone would let the focus leave the page),
 * and closing hands the focus back to the control that opened it, even when the dialog closes by
 * leaving the page (an edit dialog shown only while editing) or its opener went away (a deleted
 * row), in which case the focus goes to the screen's content. `ConfirmButton` asks before anything
 * is deleted.
 */
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { Button, ErrorNotice } from './ui.tsx';
import { messageOf } from '../api/client.ts';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The controls Tab reaches in `root`, in order. */
function tabStops(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.tabIndex >= 0 && el.getClientRects().length > 0);
}

/** Keeps Tab and Shift+Tab inside the dialog by wrapping at its first and last control. */
function trapTab(event: JSX.TargetedKeyboardEvent<HTMLDialogElement>): void {
  if (event.key !== 'Tab') return;
  const stops = tabStops(event.currentTarget);
  if (stops.length === 0) return;
  const first = stops[0]!;
  const last = stops[stops.length - 1]!;
  const at = document.activeElement;
  if (event.shiftKey && (at === first || at === event.currentTarget)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && at === last) {
    event.preventDefault();
    first.focus();
  }
}

/** After the render that closed a dialog: the opener again, or the screen's content when the opener is gone. */
function handFocusBack(opener: HTMLElement | null): void {
  setTimeout(() => {
    const at = document.activeElement;
    if (at && at !== document.body) return;
    if (opener?.isConnected) opener.focus();
    else document.getElementById('main')?.focus();
  }, 0);
}

export function Dialog({ open, title, onClose, children }: { open: boolean; title: string; onClose(): void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const mounted = useRef(true);
  const titleId = useId();
  // In the render's own task (a layout effect), so that no queued event of the browser runs between
  // the state saying open and the dialog being open.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
    if (!open && opener.current) {
      handFocusBack(opener.current);
      opener.current = null;
    }
  }, [open]);
  // Escape fires cancel, handled at once; the browser then queues a close event (also the only event
  // when it closes the dialog without a cancel). By the time it arrives a quick keyboard user may have
  // opened the dialog again, or another one in its place: it is then about a closing already handled.
  const closed = (dialog: HTMLDialogElement) => {
    if (mounted.current && !dialog.open) onClose();
  };
  // Unmounted while open (its screen closed it by no longer rendering it).
  useEffect(
    () => () => {
      mounted.current = false;
      if (ref.current?.open) ref.current.close();
      if (opener.current) handFocusBack(opener.current);
    },
    [],
  );
  return (
    <dialog ref={ref} class="dialog" aria-labelledby={titleId} onCancel={onClose} onClose={(event) => closed(event.currentTarget)} onKeyDown={trapTab}>
      <h2 id={titleId}>{title}</h2>
      {open && children}
    </dialog>
  );
}

export function ConfirmButton({
  label,
  title,
  message,
  confirmLabel,
  onConfirm,
  small,
  variant = 'danger',
  ariaLabel,
}: {
  label: ComponentChildren;
  title: string;
  message: ComponentChildren;
  confirmLabel: string;
  onConfirm(): Promise<unknown>;
  small?: boolean;
  variant?: 'danger' | 'secondary';
  ariaLabel?: string;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <Button variant={variant} small={small} onClick={() => setOpen(true)} aria-label={ariaLabel} aria-haspopup="dialog">
        {label}
      </Button>
      <Dialog
        open={open}
        title={title}
        onClose={() => {
          setOpen(false);
          setError(null);
        }}
      >
        <div class="dialog-body">{message}</div>
        <ErrorNotice error={error} />
        <div class="dialog-actions">
          <Button onClick={() => setOpen(false)}>Cancel</Button>
          <Button
            variant="danger"
            busy={busy}
            onClick={async () => {
              setBusy(true);
              setError(null);
              try {
                await onConfirm();
                setOpen(false);
              } catch (err) {
                setError(messageOf(err));
              } finally {
                setBusy(false);
              }
            }}
          >
            {confirmLabel}
          </Button>
        </div>
      </Dialog>
    </>
  );
}
