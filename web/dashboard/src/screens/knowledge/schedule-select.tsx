/** A web page's re-crawl schedule, changed in place. */
import { useId } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { useAction } from '../../hooks.ts';
import type { Source } from './knowledge.tsx';

export const SCHEDULES = [
  { value: '', label: 'Never' },
  { value: 'hourly', label: 'Every hour' },
  { value: 'daily', label: 'Every day' },
  { value: 'weekly', label: 'Every week' },
] as const;

export function ScheduleSelect({ botId, source, onChange }: { botId: string; source: Source; onChange(source: Source): void }) {
  const id = useId();
  const save = useAction(async (value: string) => {
    const schedule = value === '' ? null : (value as 'hourly' | 'daily' | 'weekly');
    onChange(await api('dashboardUpdateKnowledge', { path: { bot_id: botId, source_id: source.id }, body: { crawl_schedule: schedule } }));
  });
  return (
    <>
      <label for={id} class="visually-hidden">
        Re-crawl {source.name}
      </label>
      <select id={id} value={source.crawl_schedule ?? ''} disabled={save.busy} onChange={(event) => void save.run((event.target as HTMLSelectElement).value)}>
        {SCHEDULES.map((s) => (
          <option key={s.value} value={s.value}>
            {s.label}
          </option>
        ))}
      </select>
      {save.error && (
        <span class="cell-detail field-error" role="alert">
          {save.error}
        </span>
      )}
    </>
  );
}
