/**
 * Modal dialogs on the native `<dialog>` element: it traps focus, closes on Escape and returns
 * focus to the button that opened it. `ConfirmButton` asks before anything is deleted.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { Button, ErrorNotice } from './ui.tsx';
import { messageOf } from '../api/client.ts';

export function Dialog({ open, title, onClose, children }: { open: boolean; title: string; onClose(): void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} class="dialog" aria-labelledby={titleId} onClose={onClose} onCancel={onClose}>
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
      <Button variant={variant} small={small} onClick={() => setOpen(true)} aria-label={ariaLabel}>
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
