/**
 * The lead form: the bot's `lead_fields`, sent to `/api/widget/leads`. A refusal is told in the
 * widget's words beside the field it names (which then has the focus), or as a general failure.
 */
import { Fragment } from 'preact';
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

/** The fields whose refusals have their own words. */
const CHECKED_FIELDS = ['email', 'phone'] as const;
type CheckedField = (typeof CHECKED_FIELDS)[number];

/**
 * The field a refusal is about: the first of the form's checked fields that its `detail` names in
 * quotes ("field 'email' is not an email address"). The detail is in English and technical, so
 * nothing else of it is shown.
 */
function fieldNamedIn(detail: string, fields: string[]): CheckedField | null {
  const named = (detail.match(/'[^']+'/g) ?? []).map((quoted) => quoted.slice(1, -1));
  return CHECKED_FIELDS.find((field) => named.includes(field) && fields.includes(field)) ?? null;
}

/** What went wrong, and the field it is about (null: the form as a whole). */
interface Problem {
  field: CheckedField | null;
  text: string;
}

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
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (focusFirst) formRef.current?.querySelector('input')?.focus();
  }, [focusFirst]);

  async function submit(event: Event): Promise<void> {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await onSubmit(values);
    } catch (err) {
      const field = err instanceof ApiError && err.status === 400 ? fieldNamedIn(err.detail, fields) : null;
      if (!field) {
        setProblem({ field: null, text: words.leadFailed });
      } else {
        // An empty field is named when neither contact field was filled in.
        setProblem({ field, text: values[field]?.trim() ? words.leadInvalid[field] : words.leadContactNeeded });
        (formRef.current?.elements.namedItem(field) as HTMLInputElement | null)?.focus();
      }
      setBusy(false);
    }
  }

  return (
    <form class="lead-form" ref={formRef} aria-labelledby="parley-lead-title" onSubmit={submit}>
      <h3 id="parley-lead-title">{words.leadTitle}</h3>
      {fields.map((field) => {
        const input = FIELD_INPUTS[field];
        const invalid = problem?.field === field;
        const problemId = `parley-lead-problem-${field}`;
        return (
          <Fragment key={field}>
            <label>
              {labelOf(field, words)}
              <input
                name={field}
                type={input?.type ?? 'text'}
                autoComplete={input?.autocomplete ?? 'off'}
                maxLength={field === 'email' ? 320 : field === 'phone' ? 40 : 200}
                value={values[field] ?? ''}
                aria-invalid={invalid || undefined}
                aria-describedby={invalid ? problemId : undefined}
                onInput={(event) => setValues({ ...values, [field]: event.currentTarget.value })}
              />
            </label>
            {/* Outside the label, which would otherwise add it to the field's name. */}
            {invalid && (
              <p class="problem" id={problemId} role="alert">
                {problem.text}
              </p>
            )}
          </Fragment>
        );
      })}
      {problem && !problem.field && (
        <p class="problem" role="alert">
          {problem.text}
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
