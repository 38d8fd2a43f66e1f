/** The dashboard's small set of accessible building blocks: buttons, fields, notices, empty states. */
import type { ComponentChildren, JSX } from 'preact';
import { useId, useState } from 'preact/hooks';

type ButtonProps = JSX.HTMLAttributes<HTMLButtonElement> & {
  variant?: 'primary' | 'secondary' | 'danger' | 'ghost';
  busy?: boolean;
  type?: 'button' | 'submit';
  disabled?: boolean;
  small?: boolean;
};

export function Button({ variant = 'secondary', busy = false, type = 'button', disabled, small, children, class: className, ...rest }: ButtonProps) {
  const classes = ['btn', `btn-${variant}`, small ? 'btn-small' : '', typeof className === 'string' ? className : ''].filter(Boolean).join(' ');
  return (
    <button type={type} class={classes} disabled={disabled || busy} aria-busy={busy || undefined} {...rest}>
      {busy && <span class="spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}

interface FieldShell {
  label: ComponentChildren;
  hint?: ComponentChildren;
  error?: string | null;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ComponentChildren;
}

/** A label, the control, an optional hint and error, tied together for screen readers. */
export function Field({ label, hint, error, children }: FieldShell) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field${error ? ' field-invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {hint && (
        <p class="hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p class="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

type InputProps = Omit<JSX.HTMLAttributes<HTMLInputElement>, 'label' | 'value' | 'onInput'> & {
  label: ComponentChildren;
  hint?: ComponentChildren;
  error?: string | null;
  value: string;
  onValue(value: string): void;
  type?: string;
  required?: boolean;
  autoComplete?: string;
  placeholder?: string;
  maxLength?: number;
  minLength?: number;
  min?: number;
  step?: number | 'any';
  max?: number;
};

export function TextField({ label, hint, error, value, onValue, type = 'text', ...rest }: InputProps) {
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          type={type}
          value={value}
          onInput={(event) => onValue((event.target as HTMLInputElement).value)}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          {...rest}
        />
      )}
    </Field>
  );
}

type AreaProps = Omit<JSX.HTMLAttributes<HTMLTextAreaElement>, 'label' | 'value' | 'onInput'> & {
  label: ComponentChildren;
  hint?: ComponentChildren;
  error?: string | null;
  value: string;
  onValue(value: string): void;
  rows?: number;
  required?: boolean;
  maxLength?: number;
  placeholder?: string;
};

export function TextArea({ label, hint, error, value, onValue, rows = 4, ...rest }: AreaProps) {
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => (
        <textarea
          id={id}
          rows={rows}
          value={value}
          onInput={(event) => onValue((event.target as HTMLTextAreaElement).value)}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          {...rest}
        />
      )}
    </Field>
  );
}

export interface Option {
  value: string;
  label: string;
}

export function Select({
  label,
  hint,
  value,
  onValue,
  options,
  disabled,
}: {
  label: ComponentChildren;
  hint?: ComponentChildren;
  value: string;
  onValue(value: string): void;
  options: readonly Option[];
  disabled?: boolean;
}) {
  return (
    <Field label={label} hint={hint}>
      {({ id, describedBy }) => (
        <select id={id} value={value} disabled={disabled} aria-describedby={describedBy} onChange={(event) => onValue((event.target as HTMLSelectElement).value)}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export function Checkbox({ label, hint, checked, onChecked, disabled }: { label: ComponentChildren; hint?: ComponentChildren; checked: boolean; onChecked(value: boolean): void; disabled?: boolean }) {
  const id = useId();
  return (
    <div class="check">
      <input id={id} type="checkbox" checked={checked} disabled={disabled} aria-describedby={hint ? `${id}-hint` : undefined} onChange={(event) => onChecked((event.target as HTMLInputElement).checked)} />
      <label for={id}>{label}</label>
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}

/** A message in the flow of the page; errors are announced at once (role alert), successes politely. */
export function Notice({ kind = 'info', children }: { kind?: 'info' | 'error' | 'success' | 'warning'; children: ComponentChildren }) {
  return (
    <div class={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

export function ErrorNotice({ error }: { error: string | null | undefined }) {
  return error ? <Notice kind="error">{error}</Notice> : null;
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p class="loading" role="status">
      <span class="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

export function Empty({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{title}</p>
      {children}
    </div>
  );
}

/** The screen's title (focused after navigation so screen readers announce the new page) and its actions. */
export function PageHeader({ title, description, actions }: { title: string; description?: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <header class="page-header">
      <div>
        <h1 tabIndex={-1}>{title}</h1>
        {description && <p class="page-description">{description}</p>}
      </div>
      {actions && <div class="page-actions">{actions}</div>}
    </header>
  );
}

export function Section({ title, description, children, actions }: { title: string; description?: ComponentChildren; children: ComponentChildren; actions?: ComponentChildren }) {
  const id = useId();
  return (
    <section class="card" aria-labelledby={id}>
      <div class="card-header">
        <div>
          <h2 id={id}>{title}</h2>
          {description && <p class="card-description">{description}</p>}
        </div>
        {actions && <div class="card-actions">{actions}</div>}
      </div>
      {children}
    </section>
  );
}

/**
 * A secret the service shows once (an API key, a signing secret): selectable, with a copy button,
 * and a plain warning that it cannot be shown again.
 */
export function SecretOnce({ label, secret, onDone }: { label: string; secret: string; onDone?(): void }) {
  const [copied, setCopied] = useState(false);
  const id = useId();
  return (
    <div class="secret-once" role="region" aria-labelledby={id}>
      <p id={id} class="secret-title">
        {label}
      </p>
      <p class="hint">Copy it now: it is shown only this once and cannot be retrieved later.</p>
      <div class="secret-row">
        <input type="text" class="secret-value" readOnly value={secret} aria-label={label} onFocus={(event) => (event.target as HTMLInputElement).select()} data-secret />
        <Button
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(secret);
              setCopied(true);
            } catch {
              setCopied(false);
            }
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
        {onDone && (
          <Button variant="ghost" onClick={onDone}>
            Done
          </Button>
        )}
      </div>
      <p class="visually-hidden" role="status">
        {copied ? 'Copied to the clipboard' : ''}
      </p>
    </div>
  );
}

/**
 * A table of records: column headings, then (with `actions`) a last column for each row's buttons,
 * named for screen readers only; the rows are the children.
 */
export function DataTable({ label, columns, actions = false, children }: { label: string; columns: string[]; actions?: boolean; children: ComponentChildren }) {
  return (
    <div class="table-wrap">
      <table class="table" aria-label={label}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            {actions && (
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

export function Badge({ tone = 'neutral', children }: { tone?: 'neutral' | 'good' | 'warn' | 'bad' | 'info'; children: ComponentChildren }) {
  return <span class={`badge badge-${tone}`}>{children}</span>;
}

/** A date and time in the reader's locale, with the exact value on hover. */
export function Time({ at }: { at: string | null | undefined }) {
  if (!at) return <span class="muted">—</span>;
  const date = new Date(at);
  return (
    <time dateTime={at} title={date.toISOString()}>
      {date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
    </time>
  );
}
