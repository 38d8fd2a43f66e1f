/** The lead form: the bot's `lead_fields`, sent to `/api/widget/leads`; the service's refusal shown as it words it. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api-client.ts';

const FIELD_INPUTS: Record<string, { label: string; type: string; autocomplete: string }> = {
  name: { label: 'Name', type: 'text', autocomplete: 'name' },
  email: { label: 'Email', type: 'email', autocomplete: 'email' },
  phone: { label: 'Phone', type: 'tel', autocomplete: 'tel' },
};

const labelOf = (field: string) => FIELD_INPUTS[field]?.label ?? field.replace(/[_-]+/g, ' ').replace(/^./, (c) => c.toUpperCase());

export interface LeadFormProps {
  fields: string[];
  /** Opened by the visitor (not offered by the bot): focus its first field. */
  focusFirst: boolean;
  onSubmit(values: Record<string, string>): Promise<void>;
  onCancel(): void;
}

export function LeadForm({ fields, focusFirst, onSubmit, onCancel }: LeadFormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (focusFirst) formRef.current?.querySelector('input')?.focus();
  }, [focusFirst]);

  async function submit(event: Event): Promise<void> {
    event.preventDefault();
    setBusy(true);
    setProblem('');
    try {
      await onSubmit(values);
    } catch (err) {
      setProblem(err instanceof ApiError && err.status !== 0 ? err.detail : 'Your details could not be sent. Please try again.');
      setBusy(false);
    }
  }

  return (
    <form class="lead-form" ref={formRef} aria-labelledby="parley-lead-title" onSubmit={submit}>
      <h3 id="parley-lead-title">Leave your details and we will get back to you</h3>
      {fields.map((field) => {
        const input = FIELD_INPUTS[field];
        return (
          <label key={field}>
            {labelOf(field)}
            <input
              name={field}
              type={input?.type ?? 'text'}
              autoComplete={input?.autocomplete ?? 'off'}
              maxLength={field === 'email' ? 320 : field === 'phone' ? 40 : 200}
              value={values[field] ?? ''}
              onInput={(event) => setValues({ ...values, [field]: event.currentTarget.value })}
            />
          </label>
        );
      })}
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      <div class="actions">
        <button type="button" class="text-button" onClick={onCancel}>
          Not now
        </button>
        <button type="submit" class="primary-button" disabled={busy}>
          Send details
        </button>
      </div>
    </form>
  );
}
