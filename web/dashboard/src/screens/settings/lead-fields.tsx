/** The lead fields the bot asks for, in order: the three standard ones and custom fields stored in `extra`. */
import { useState } from 'preact/hooks';
import { Button, TextField } from '../../components/ui.tsx';

const FIELD_NAME = /^[a-z][a-z0-9_]{0,39}$/;

export function LeadFieldsEditor({ fields, onChange }: { fields: string[]; onChange(fields: string[]): void }) {
  const [draft, setDraft] = useState('');
  const name = draft.trim().toLowerCase().replace(/[\s-]+/g, '_');
  const error = draft && !FIELD_NAME.test(name) ? 'Lower-case letters, digits and _, starting with a letter' : fields.includes(name) ? 'Already in the list' : null;
  const move = (index: number, by: number) => {
    const next = [...fields];
    const [field] = next.splice(index, 1);
    next.splice(index + by, 0, field!);
    onChange(next);
  };
  return (
    <div class="lead-fields">
      <p class="label">Fields to collect, in the order the bot asks</p>
      {fields.length === 0 ? (
        <p class="hint">None: the bot still records an email or phone a visitor gives.</p>
      ) : (
        <ol class="chip-list">
          {fields.map((field, i) => (
            <li key={field} class="chip">
              <span>{field}</span>
              <Button small variant="ghost" disabled={i === 0} onClick={() => move(i, -1)} aria-label={`Ask for ${field} earlier`}>
                ↑
              </Button>
              <Button small variant="ghost" disabled={i === fields.length - 1} onClick={() => move(i, 1)} aria-label={`Ask for ${field} later`}>
                ↓
              </Button>
              <Button small variant="ghost" onClick={() => onChange(fields.filter((f) => f !== field))} aria-label={`Remove ${field}`}>
                ✕
              </Button>
            </li>
          ))}
        </ol>
      )}
      <div class="inline-form">
        <TextField label="Add a field" placeholder="company" hint="name, email and phone are read from the conversation; other fields store the visitor's answer." value={draft} error={error} onValue={setDraft} maxLength={40} />
        <Button
          disabled={!draft || Boolean(error) || fields.length >= 20}
          onClick={() => {
            onChange([...fields, name]);
            setDraft('');
          }}
        >
          Add field
        </Button>
      </div>
    </div>
  );
}
