/**
 * One conversation: the visitor's metadata and uploads, every message with who wrote it and the
 * visitor's rating of each answer, takeover and hand-back, the operator's reply box (replying takes
 * the conversation over, as the API does) and, for owners and admins, deletion.
 */
import { Fragment } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, type ResponseOf } from '../../api/client.ts';
import type { InboxMessage } from '../../api/inbox-events.ts';
import { useAction, useLoad } from '../../hooks.ts';
import { ConfirmButton } from '../../components/dialog.tsx';
import { Link } from '../../components/link.tsx';
import { Markdown } from '../../components/markdown.tsx';
import { Badge, Button, ErrorNotice, Loading, Time } from '../../components/ui.tsx';
import { navigate } from '../../router.ts';
import { isManager, useSession, type Bot } from '../../session.tsx';
import { visitorLabel } from './visitor.ts';

type Detail = ResponseOf<'dashboardGetInboxSession'>;

// How close to the bottom (in pixels) still counts as reading the newest message.
const NEAR_BOTTOM = 48;

export function Conversation({
  bot,
  sessionId,
  onMessage,
  onStatus,
  onDeleted,
}: {
  bot: Bot;
  sessionId: string;
  onMessage(listener: ((message: InboxMessage) => void) | null): void;
  onStatus(listener: ((takenOver: boolean) => void) | null): void;
  onDeleted(): void;
}) {
  const { me } = useSession();
  const path = { bot_id: bot.id, session_id: sessionId };
  const detail = useLoad(() => api('dashboardGetInboxSession', { path }), [bot.id, sessionId]);
  const [reply, setReply] = useState('');
  const list = useRef<HTMLOListElement>(null);
  // Whether the list follows new messages: true until the operator scrolls up to read.
  const pinned = useRef(true);
  const seen = useRef(0);
  const [unseen, setUnseen] = useState(0);

  useEffect(() => {
    onMessage((message) =>
      detail.setData((previous) => {
        if (!previous || previous.messages.some((m) => m.id === message.id)) return previous!;
        return { ...previous, messages: [...previous.messages, message], message_count: previous.message_count + 1 };
      }),
    );
    onStatus((takenOver) => detail.setData((previous) => previous && { ...previous, taken_over: takenOver }));
    return () => {
      onMessage(null);
      onStatus(null);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sessionId]);

  const count = detail.data?.messages.length ?? 0;
  // Only the list scrolls, never the page: the newest message stays in view while the operator
  // follows along, and one who scrolled up to read keeps their place (the button says more came).
  useLayoutEffect(() => {
    const el = list.current;
    if (!el) return;
    if (pinned.current) el.scrollTop = el.scrollHeight;
    else if (count > seen.current) setUnseen((n) => n + count - seen.current);
    seen.current = count;
  }, [count]);
  const scrollToNewest = () => {
    pinned.current = true;
    setUnseen(0);
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  };

  const takeover = useAction(async (take: boolean) => {
    const view = take ? await api('dashboardTakeOverSession', { path }) : await api('dashboardReleaseSession', { path });
    detail.setData((previous) => previous && { ...previous, taken_over: view.taken_over });
  });
  const send = useAction(async () => {
    const message = await api('dashboardSendOperatorMessage', { path, body: { content: reply } });
    setReply('');
    // The operator's own reply is shown, wherever they had scrolled.
    scrollToNewest();
    detail.setData((previous) => {
      if (!previous) return previous!;
      const messages = previous.messages.some((m) => m.id === message.id) ? previous.messages : [...previous.messages, message];
      return { ...previous, messages, taken_over: true };
    });
  });

  if (detail.error && !detail.data) return <ErrorNotice error={detail.error} />;
  if (!detail.data) return <Loading />;
  const data = detail.data;

  return (
    <article class="conversation" data-session={data.session_id}>
      <header class="conversation-header">
        <div>
          <Link href={`/app/bots/${bot.id}/inbox`} class="back-link">
            ← All conversations
          </Link>
          <h2>{visitorLabel(data)}</h2>
          <p class="hint">
            {data.status === 'active' ? <Badge tone="good">Active</Badge> : <Badge>Ended</Badge>}{' '}
            {data.taken_over ? <Badge tone="warn">You hold this conversation: the bot is quiet</Badge> : <Badge tone="info">The bot answers</Badge>}
          </p>
        </div>
        <div class="conversation-actions">
          {data.taken_over ? (
            <Button busy={takeover.busy} onClick={() => void takeover.run(false)}>
              Hand back to the bot
            </Button>
          ) : (
            <Button variant="primary" busy={takeover.busy} onClick={() => void takeover.run(true)}>
              Take over
            </Button>
          )}
          {isManager(me) && (
            <ConfirmButton
              label="Delete"
              title="Delete this conversation?"
              message={<p>Its messages and uploaded files are deleted for good. A lead captured in it stays.</p>}
              confirmLabel="Delete conversation"
              onConfirm={async () => {
                await api('dashboardDeleteInboxSession', { path });
                onDeleted();
                navigate(`/app/bots/${bot.id}/inbox`);
              }}
            />
          )}
        </div>
      </header>
      <ErrorNotice error={takeover.error} />
      <VisitorDetails data={data} />
      <div class="messages-frame">
        <ol
          class="messages"
          aria-label="Messages"
          ref={list}
          onScroll={(event) => {
            const el = event.currentTarget;
            pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight <= NEAR_BOTTOM;
            if (pinned.current) setUnseen(0);
          }}
        >
          {data.messages.map((message) => (
            <MessageItem key={message.id} message={message} />
          ))}
        </ol>
        {unseen > 0 && (
          <Button small variant="primary" class="new-messages" onClick={scrollToNewest}>
            {unseen === 1 ? '1 new message' : `${unseen} new messages`} <span aria-hidden="true">↓</span>
          </Button>
        )}
      </div>
      <form
        class="reply-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (reply.trim()) void send.run();
        }}
      >
        <label for="operator-reply">Reply as an operator</label>
        <textarea
          id="operator-reply"
          rows={3}
          maxLength={4000}
          value={reply}
          placeholder="Write to the visitor…"
          aria-describedby="operator-reply-hint"
          onInput={(event) => setReply((event.target as HTMLTextAreaElement).value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              if (reply.trim()) void send.run();
            }
          }}
        />
        <p class="hint" id="operator-reply-hint">
          Sending takes the conversation over: the bot stays quiet until you hand it back. Ctrl+Enter sends.
        </p>
        <ErrorNotice error={send.error} />
        <Button type="submit" variant="primary" busy={send.busy} disabled={!reply.trim()}>
          Send reply
        </Button>
      </form>
    </article>
  );
}

function VisitorDetails({ data }: { data: Detail }) {
  const metadata = Object.entries(data.metadata ?? {});
  return (
    <details class="visitor-details" open>
      <summary>Visitor details</summary>
      <dl class="meta-list">
        <dt>Session</dt>
        <dd>
          <code>{data.session_id}</code>
        </dd>
        <dt>Visitor id</dt>
        <dd>{data.visitor_id ? <code>{data.visitor_id}</code> : <span class="muted">none</span>}</dd>
        <dt>Time zone</dt>
        <dd>{data.visitor_timezone}</dd>
        <dt>Started</dt>
        <dd>
          <Time at={data.started_at} />
        </dd>
        {metadata.map(([key, value]) => (
          <Fragment key={key}>
            <dt>{key}</dt>
            <dd>{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
          </Fragment>
        ))}
      </dl>
      {data.attachments.length > 0 && (
        <>
          <h3>Attachments</h3>
          <ul class="attachments">
            {data.attachments.map((file) => (
              <li key={file.id}>
                {file.mime_type.startsWith('image/') && file.file_url && <img src={file.file_url} alt={file.file_name} class="attachment-thumb" loading="lazy" />}
                <a href={file.file_url} target="_blank" rel="noopener noreferrer">
                  {file.file_name}
                </a>{' '}
                <span class="hint">
                  {file.mime_type}, {formatBytes(file.size_bytes)}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </details>
  );
}

function MessageItem({ message }: { message: InboxMessage }) {
  const who = message.author === 'visitor' ? 'Visitor' : message.author === 'operator' ? 'Operator' : 'Bot';
  return (
    <li class={`message message-${message.author}`} data-author={message.author}>
      <p class="message-meta">
        <span class="message-author">{who}</span> <Time at={message.created_at} />
        {message.feedback_rating === 'up' && (
          <Badge tone="good">
            <span aria-hidden="true">👍</span> Rated helpful
          </Badge>
        )}
        {message.feedback_rating === 'down' && (
          <Badge tone="bad">
            <span aria-hidden="true">👎</span> Rated not helpful
          </Badge>
        )}
      </p>
      {/* The visitor's words are shown as typed; answers and replies as the widget renders them. */}
      {message.author === 'visitor' ? <p class="message-text">{message.content}</p> : <Markdown class="message-text markdown" text={message.content} />}
    </li>
  );
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
