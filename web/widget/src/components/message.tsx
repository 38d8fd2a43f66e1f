/**
 * One message of the conversation: the visitor's as plain text, the bot's and operators' as safe
 * Markdown (built as DOM nodes, see markdown.ts), an answer's sources and its thumbs up and down.
 */
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { Rating, Source } from '../api-client.ts';
import { renderMarkdown, safeHttpUrl } from '../markdown.ts';
import type { LogItem } from '../store.ts';
import { ThumbDownIcon, ThumbUpIcon } from './icons.tsx';
import { useWords } from './words-context.ts';

type MessageItem = Extract<LogItem, { kind: 'message' }>;

/** Markdown text, re-rendered as it grows while an answer streams. */
function MarkdownText({ text }: { text: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.textContent = '';
    el.appendChild(renderMarkdown(text, el.ownerDocument));
  }, [text]);
  return <div class="content" ref={ref} />;
}

function Sources({ sources }: { sources: Source[] }) {
  const words = useWords();
  const unique = sources.filter((s, i) => sources.findIndex((o) => o.title === s.title && o.url === s.url) === i);
  if (unique.length === 0) return null;
  return (
    <div class="sources">
      <span class="author">{words.sources}</span>
      <ul>
        {unique.map((source) => {
          const href = safeHttpUrl(source.url);
          const label = source.title || source.url;
          return (
            <li key={`${source.title}\n${source.url}`}>
              {href ? (
                <a href={href} target="_blank" rel="noopener noreferrer">
                  {label}
                </a>
              ) : (
                label
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function Feedback({ rating, onRate }: { rating: Rating; onRate: (rating: 'up' | 'down') => void }) {
  const words = useWords();
  return (
    <div class="feedback" role="group" aria-label={words.wasHelpful}>
      <button type="button" aria-label={words.helpful} title={words.helpful} aria-pressed={rating === 'up'} onClick={() => onRate('up')}>
        <ThumbUpIcon />
      </button>
      <button type="button" aria-label={words.notHelpful} title={words.notHelpful} aria-pressed={rating === 'down'} onClick={() => onRate('down')}>
        <ThumbDownIcon />
      </button>
    </div>
  );
}

export function Message({ item, botName, onRate }: { item: MessageItem; botName: string; onRate: (key: string, rating: 'up' | 'down') => void }) {
  const words = useWords();
  if (item.author === 'visitor') {
    return (
      <div class="message from-visitor">
        <span class="sr-only">{words.said(words.you)}</span>
        {item.text}
      </div>
    );
  }
  const waiting = item.streaming && item.text === '';
  return (
    <div class={`message from-${item.author}`} aria-busy={item.streaming ? 'true' : undefined}>
      <span class={item.author === 'operator' ? 'author' : 'sr-only'}>{item.author === 'operator' ? words.team : words.said(botName)}</span>
      {waiting ? (
        <span class="typing" aria-label={words.writing}>
          •••
        </span>
      ) : (
        <MarkdownText text={item.text} />
      )}
      {!item.streaming && item.sources && <Sources sources={item.sources} />}
      {!item.streaming && item.author === 'bot' && item.id && <Feedback rating={item.rating ?? null} onRate={(rating) => onRate(item.key, rating)} />}
    </div>
  );
}
