/** The lead form: the bot's `lead_fields`, sent to `/api/widget/leads`; the service's refusal shown as it words it. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api-client.ts';
import type { WidgetWords } from '../words.ts';
import { useWords } from './words-context.ts';

const FIELD_INPUTS: Record<string, { type: string; autocomplete: string }> = {
  name: { type: 'text', autocomplete: 'name' },
  email: { type: 'email', autocomplete: 'email' },
  phone: { type: 'tel', autocomplete: 'tel' },
};

/** The contact fields in the widget's words; the bot's other fields by their own name. */
const labelOf = (field: string, words: WidgetWords) =>
  field === 'name' || field === 'email' || field === 'phone' ? words.leadFields[field] : field.replace(/[_-]+/g, ' ').replace(/^./, (c) => c.toUpperCase());

export interface LeadFormProps {
  fields: string[];
  /** Opened by the visitor (not offered by the bot): focus its first field. */
  focusFirst: boolean;
  onSubmit(values: Record<string, string>): Promise<void>;
  onCancel(): void;
}

export function LeadForm({ fields, focusFirst, onSubmit, onCancel }: LeadFormProps) {
  const words = useWords();
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
      setProblem(err instanceof ApiError && err.status !== 0 ? err.detail : words.leadFailed);
      setBusy(false);
    }
  }

  return (
    <form class="lead-form" ref={formRef} aria-labelledby="parley-lead-title" onSubmit={submit}>
      <h3 id="parley-lead-title">{words.leadTitle}</h3>
      {fields.map((field) => {
        const input = FIELD_INPUTS[field];
        return (
          <label key={field}>
            {labelOf(field, words)}
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
          {words.notNow}
        </button>
        <button type="submit" class="primary-button" disabled={busy}>
          {words.sendDetails}
        </button>
      </div>
    </form>
  );
}
