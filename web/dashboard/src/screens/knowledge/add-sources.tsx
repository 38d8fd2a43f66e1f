/**
 * Adding knowledge: a text, a web page (fetched in the background, with an optional re-crawl
 * schedule) or documents (dropped or chosen, several at once, each with its own progress bar).
 */
import { useRef, useState } from 'preact/hooks';
import { api, messageOf, upload } from '../../api/client.ts';
import { useAction } from '../../hooks.ts';
import { Button, ErrorNotice, Section, Select, TextArea, TextField } from '../../components/ui.tsx';
import type { Source } from './knowledge.tsx';
import { SCHEDULES } from './schedule-select.tsx';
import { formatBytes } from '../inbox/conversation.tsx';

type Mode = 'text' | 'url' | 'files';
const MODES: Array<{ mode: Mode; label: string }> = [
  { mode: 'text', label: 'Text' },
  { mode: 'url', label: 'Web page' },
  { mode: 'files', label: 'Documents' },
];

export function AddSources({ botId, onAdded }: { botId: string; onAdded(source: Source): void }) {
  const [mode, setMode] = useState<Mode>('text');
  return (
    <Section title="Add knowledge">
      <div class="segmented" role="group" aria-label="What to add">
        {MODES.map((m) => (
          <button key={m.mode} type="button" class="segment" aria-pressed={mode === m.mode} onClick={() => setMode(m.mode)}>
            {m.label}
          </button>
        ))}
      </div>
      {mode === 'text' && <AddText botId={botId} onAdded={onAdded} />}
      {mode === 'url' && <AddUrl botId={botId} onAdded={onAdded} />}
      {mode === 'files' && <AddFiles botId={botId} onAdded={onAdded} />}
    </Section>
  );
}

function AddText({ botId, onAdded }: { botId: string; onAdded(source: Source): void }) {
  const [name, setName] = useState('');
  const [content, setContent] = useState('');
  const add = useAction(async () => {
    const { source } = await api('dashboardAddKnowledge', { path: { bot_id: botId }, body: { type: 'text', name, content } });
    onAdded(source);
    setName('');
    setContent('');
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void add.run();
      }}
    >
      <TextField label="Name" required maxLength={200} placeholder="Shipping policy" value={name} onValue={setName} />
      <TextArea label="Text" required rows={6} maxLength={100000} hint="Up to 100,000 characters. Headings (# …) help the bot find the right passage." value={content} onValue={setContent} />
      <ErrorNotice error={add.error} />
      <Button type="submit" variant="primary" busy={add.busy}>
        Add text
      </Button>
    </form>
  );
}

function AddUrl({ botId, onAdded }: { botId: string; onAdded(source: Source): void }) {
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [schedule, setSchedule] = useState('');
  const add = useAction(async () => {
    const crawl_schedule = schedule === '' ? null : (schedule as 'hourly' | 'daily' | 'weekly');
    const { source } = await api('dashboardAddKnowledge', {
      path: { bot_id: botId },
      body: { type: 'url', url, ...(name.trim() && { name }), crawl_schedule },
    });
    onAdded(source);
    setUrl('');
    setName('');
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void add.run();
      }}
    >
      <TextField label="Page address" type="url" required placeholder="https://www.example.com/faq" value={url} onValue={setUrl} hint="Fetched in the background; its status below changes once it is indexed." />
      <TextField label="Name" maxLength={200} hint="Optional; the address by default." value={name} onValue={setName} />
      <Select label="Fetch it again" value={schedule} onValue={setSchedule} options={SCHEDULES} />
      <ErrorNotice error={add.error} />
      <Button type="submit" variant="primary" busy={add.busy}>
        Add page
      </Button>
    </form>
  );
}

interface Upload {
  id: number;
  name: string;
  size: number;
  progress: number;
  state: 'uploading' | 'done' | 'failed';
  error?: string;
}

let nextUploadId = 1;

function AddFiles({ botId, onAdded }: { botId: string; onAdded(source: Source): void }) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const update = (id: number, change: Partial<Upload>) => setUploads((all) => all.map((u) => (u.id === id ? { ...u, ...change } : u)));

  function start(files: FileList | File[]) {
    for (const file of Array.from(files)) {
      const id = nextUploadId++;
      setUploads((all) => [...all, { id, name: file.name, size: file.size, progress: 0, state: 'uploading' }]);
      const form = new FormData();
      form.append('file', file, file.name);
      upload('dashboardUploadKnowledgeFile', { path: { bot_id: botId }, body: form }, (fraction) => update(id, { progress: fraction }))
        .then(({ source }) => {
          update(id, { progress: 1, state: 'done' });
          onAdded(source);
        })
        .catch((err: unknown) => update(id, { state: 'failed', error: messageOf(err) }));
    }
  }

  return (
    <div>
      <div
        class={`dropzone${dragging ? ' dragging' : ''}`}
        data-dropzone
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          if (event.dataTransfer?.files.length) start(event.dataTransfer.files);
        }}
      >
        <p>Drop PDF, Word (DOCX), Markdown, text or CSV files here, several at once,</p>
        {/* Hidden: the button below opens it, so that Tab never stops on an invisible control. */}
        <input
          ref={input}
          id="knowledge-files"
          class="visually-hidden"
          tabIndex={-1}
          aria-hidden="true"
          type="file"
          multiple
          accept=".pdf,.docx,.md,.markdown,.txt,.csv,.html,.htm,application/pdf,text/plain,text/csv,text/markdown"
          onChange={(event) => {
            const target = event.target as HTMLInputElement;
            if (target.files?.length) start(target.files);
            target.value = '';
          }}
        />
        <Button onClick={() => input.current?.click()}>or choose files</Button>
      </div>
      {uploads.length > 0 && (
        <ul class="uploads" aria-label="Uploads">
          {uploads.map((u) => (
            <li key={u.id} class={`upload upload-${u.state}`} data-upload={u.name}>
              <span class="upload-name">
                {u.name} <span class="hint">{formatBytes(u.size)}</span>
              </span>
              <progress max={1} value={u.progress} aria-label={`Upload of ${u.name}`} />
              <span class="upload-state" role={u.state === 'failed' ? 'alert' : 'status'}>
                {u.state === 'uploading' ? `${Math.round(u.progress * 100)} %` : u.state === 'done' ? 'Added' : u.error}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
