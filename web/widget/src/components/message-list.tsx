/**
 * The conversation log (`role="log"`, polite live region, so that screen readers read new
 * messages and finished answers without losing their place), kept scrolled to the newest entry.
 */
import { useEffect, useRef } from 'preact/hooks';
import { safeHttpUrl } from '../markdown.ts';
import type { LogItem } from '../store.ts';
import { FileIcon } from './icons.tsx';
import { Message } from './message.tsx';
import { useWords } from './words-context.ts';

type UploadItem = Extract<LogItem, { kind: 'upload' }>;

/**
 * An attached file: an image as a preview (the local copy while it is sent, the signed link when
 * shown again after a reload), any other file as a chip; the name links to the file once stored.
 */
function Upload({ item }: { item: UploadItem }) {
  const words = useWords();
  const percent = Math.round(item.progress * 100);
  const status = item.status === 'sending' ? words.sending(percent) : item.status === 'sent' ? words.sent : item.problem;
  const href = item.url ? safeHttpUrl(item.url) : null;
  const image = item.status === 'failed' ? undefined : (item.preview ?? (href && item.mime?.startsWith('image/') ? href : undefined));
  return (
    <div class={`upload ${item.status}`}>
      {image && <img src={image} alt="" onLoad={() => item.preview && URL.revokeObjectURL(item.preview)} />}
      <span class={image ? 'file' : 'file chip'}>
        {!image && <FileIcon />}
        <span>
          <span class="sr-only">{words.said(words.file)}</span>
          {href ? (
            <a href={href} target="_blank" rel="noopener noreferrer">
              {item.name}
            </a>
          ) : (
            item.name
          )}{' '}
          · {words.fileSize(item.size)}
        </span>
      </span>
      {item.status === 'sending' && (
        <div class="progress" role="progressbar" aria-label={words.sendingFile(item.name)} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
          <div style={{ width: `${percent}%` }} />
        </div>
      )}
      <span class="status">{status}</span>
    </div>
  );
}

export interface MessageListProps {
  items: LogItem[];
  /** The panel is shown (a hidden log cannot scroll, so it scrolls again once shown). */
  open: boolean;
  welcome: string;
  botName: string;
  onRate(key: string, rating: 'up' | 'down'): void;
  onRetry(key: string): void;
}

export function MessageList({ items, open, welcome, botName, onRate, onRetry }: MessageListProps) {
  const words = useWords();
  const ref = useRef<HTMLDivElement>(null);
  const last = items[items.length - 1];
  const lastText = last?.kind === 'message' ? last.text.length : 0;
  useEffect(() => {
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [items.length, lastText, open]);

  return (
    <div class="log" role="log" aria-live="polite" aria-relevant="additions text" aria-label={words.conversation} ref={ref} tabIndex={0}>
      {welcome && <Message item={{ kind: 'message', key: 'welcome', id: null, author: 'bot', text: welcome }} botName={botName} onRate={onRate} />}
      {items.map((item) => {
        switch (item.kind) {
          case 'message':
            return <Message key={item.key} item={item} botName={botName} onRate={onRate} />;
          case 'upload':
            return <Upload key={item.key} item={item} />;
          case 'note':
            return (
              <p key={item.key} class="note">
                {item.text}
              </p>
            );
          case 'failure':
            return (
              <div key={item.key} class="failure" role="alert">
                <span>{item.detail ? `${words.failures[item.failure]} (${item.detail})` : words.failures[item.failure]}</span>
                <button type="button" onClick={() => onRetry(item.key)}>
                  {words.tryAgain}
                </button>
              </div>
            );
        }
      })}
    </div>
  );
}
