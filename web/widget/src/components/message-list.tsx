/**
 * The conversation log (`role="log"`, polite live region, so that screen readers read new
 * messages and finished answers without losing their place), kept scrolled to the newest entry.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { FailureKind, LogItem } from '../store.ts';
import { formatBytes } from '../upload-rules.ts';
import { Message } from './message.tsx';

const FAILURE_TEXT: Record<FailureKind, string> = {
  quota: 'This assistant has answered all the messages it can for now. Please try again later.',
  answer: 'Sorry, something went wrong while answering.',
  offline: 'The message could not be sent: you seem to be offline.',
  busy: 'You are sending messages quickly. Please wait a moment.',
  refused: 'This chat is not available on this page.',
};

type UploadItem = Extract<LogItem, { kind: 'upload' }>;

function Upload({ item }: { item: UploadItem }) {
  const status = item.status === 'sending' ? `Sending… ${Math.round(item.progress * 100)}%` : item.status === 'sent' ? 'Sent' : item.problem;
  return (
    <div class={`upload ${item.status}`}>
      {item.preview && item.status !== 'failed' && <img src={item.preview} alt="" onLoad={() => URL.revokeObjectURL(item.preview!)} />}
      <span>
        <span class="sr-only">File: </span>
        {item.name} · {formatBytes(item.size)}
      </span>
      {item.status === 'sending' && (
        <div class="progress" role="progressbar" aria-label={`Sending ${item.name}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(item.progress * 100)}>
          <div style={{ width: `${Math.round(item.progress * 100)}%` }} />
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
  const ref = useRef<HTMLDivElement>(null);
  const last = items[items.length - 1];
  const lastText = last?.kind === 'message' ? last.text.length : 0;
  useEffect(() => {
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [items.length, lastText, open]);

  return (
    <div class="log" role="log" aria-live="polite" aria-relevant="additions text" aria-label="Conversation" ref={ref} tabIndex={0}>
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
                <span>{item.detail ? `${FAILURE_TEXT[item.failure]} (${item.detail})` : FAILURE_TEXT[item.failure]}</span>
                <button type="button" onClick={() => onRetry(item.key)}>
                  Try again
                </button>
              </div>
            );
        }
      })}
    </div>
  );
}
