/**
 * The Inbox: the bot's conversations, newest activity first, updated live over the operators'
 * event stream (a new visitor message moves its session to the top without a reload), and the
 * open conversation beside the list. Pausing the whole bot is here too: the bot then answers no one.
 */
import { useRef, useState } from 'preact/hooks';
import { api, type ResponseOf } from '../../api/client.ts';
import { useInboxEvents, type InboxMessage } from '../../api/inbox-events.ts';
import { useAction, useLoad } from '../../hooks.ts';
import { Link } from '../../components/link.tsx';
import { markdownAsLine } from '../../components/markdown.tsx';
import { Badge, Button, Empty, ErrorNotice, Loading, Notice, PageHeader, Select } from '../../components/ui.tsx';
import type { BotScreenProps } from '../bots/bot-screen.tsx';
import { Conversation } from './conversation.tsx';
import { visitorLabel } from './visitor.ts';

type InboxSession = ResponseOf<'dashboardListInbox'>['sessions'][number];

const PAGE = 50;

export function InboxScreen({ bot, onBotChange, item }: BotScreenProps) {
  const [status, setStatus] = useState<'' | 'active' | 'ended'>('');
  const list = useLoad(() => api('dashboardListInbox', { path: { bot_id: bot.id }, query: { limit: PAGE, ...(status && { status }) } }), [bot.id, status]);
  // The open conversation hears about its own messages through this.
  const conversationListener = useRef<((message: InboxMessage) => void) | null>(null);
  const statusListener = useRef<((takenOver: boolean) => void) | null>(null);
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const shown = useRef<InboxSession[]>([]);
  shown.current = list.data?.sessions ?? [];

  const reloadSoon = () => {
    clearTimeout(reloadTimer.current);
    reloadTimer.current = setTimeout(() => void list.reload(), 150);
  };

  const live = useInboxEvents(bot.id, {
    message({ session_id, message }) {
      if (session_id === item) conversationListener.current?.(message);
      const known = shown.current.some((s) => s.session_id === session_id);
      if (!known) return reloadSoon();
      list.setData((previous) => {
        if (!previous) return previous!;
        const sessions = previous.sessions.map((s) => {
          if (s.session_id !== session_id) return s;
          return {
            ...s,
            status: 'active' as const,
            message_count: s.message_count + 1,
            last_activity_at: message.created_at,
            last_message: { role: message.role, author: message.author, content: message.content, created_at: message.created_at },
          };
        });
        sessions.sort((a, b) => b.last_activity_at.localeCompare(a.last_activity_at));
        return { ...previous, sessions };
      });
    },
    status({ session_id, taken_over }) {
      if (session_id === null) {
        onBotChange({ ...bot, paused: taken_over });
        return;
      }
      if (session_id === item) statusListener.current?.(taken_over);
      list.setData((previous) => previous && { ...previous, sessions: previous.sessions.map((s) => (s.session_id === session_id ? { ...s, taken_over } : s)) });
    },
    reconnected: () => void list.reload(),
  });

  const pause = useAction(async () => {
    const result = bot.paused ? await api('dashboardResumeBot', { path: { bot_id: bot.id } }) : await api('dashboardPauseBot', { path: { bot_id: bot.id } });
    onBotChange({ ...bot, paused: result.paused });
  });

  const sessions = list.data?.sessions ?? [];
  return (
    <div class={`inbox${item ? ' has-conversation' : ''}`}>
      <PageHeader
        title="Inbox"
        description={
          <>
            <span class={`live-dot live-${live}`} aria-hidden="true" />
            <span data-live={live}>{live === 'live' ? 'Live: new messages appear as they arrive.' : live === 'connecting' ? 'Connecting to live updates…' : 'Live updates are off; reload the page.'}</span>
          </>
        }
        actions={
          <Button variant={bot.paused ? 'primary' : 'secondary'} busy={pause.busy} onClick={() => void pause.run()}>
            {bot.paused ? 'Resume the bot' : 'Pause the bot'}
          </Button>
        }
      />
      <ErrorNotice error={pause.error} />
      {bot.paused && <Notice kind="warning">The bot is paused: it answers no visitor until it is resumed. Operators can still reply.</Notice>}
      <div class="inbox-panes">
        <section class="inbox-list" aria-label="Conversations">
          <div class="inbox-filter">
            <Select
              label="Show"
              value={status}
              onValue={(value) => setStatus(value as typeof status)}
              options={[
                { value: '', label: 'All conversations' },
                { value: 'active', label: 'Active' },
                { value: 'ended', label: 'Ended' },
              ]}
            />
          </div>
          <ErrorNotice error={list.error} />
          {list.loading && !list.data ? (
            <Loading />
          ) : sessions.length === 0 ? (
            <Empty title="No conversations yet">
              <p>When visitors write to the bot, their conversations appear here at once.</p>
            </Empty>
          ) : (
            <ul class="session-list">
              {sessions.map((session) => (
                <SessionItem key={session.session_id} botId={bot.id} session={session} selected={session.session_id === item} />
              ))}
            </ul>
          )}
          {list.data && list.data.total > sessions.length && (
            <p class="hint">
              Showing the {sessions.length} most recent of {list.data.total}.
            </p>
          )}
        </section>
        <section class="inbox-conversation" aria-label="Conversation">
          {item ? (
            <Conversation
              key={item}
              bot={bot}
              sessionId={item}
              onMessage={(listener) => (conversationListener.current = listener)}
              onStatus={(listener) => (statusListener.current = listener)}
              onDeleted={() => void list.reload()}
            />
          ) : (
            <Empty title="Choose a conversation">
              <p>Open one to read it, take it over and reply.</p>
            </Empty>
          )}
        </section>
      </div>
    </div>
  );
}

function SessionItem({ botId, session, selected }: { botId: string; session: InboxSession; selected: boolean }) {
  const last = session.last_message;
  return (
    <li class={`session-item${selected ? ' selected' : ''}`} data-session={session.session_id}>
      <Link href={`/app/bots/${botId}/inbox/${encodeURIComponent(session.session_id)}`} aria-current={selected ? 'page' : undefined}>
        <span class="session-top">
          <span class="session-visitor">{visitorLabel(session)}</span>
          <time dateTime={session.last_activity_at}>{new Date(session.last_activity_at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })}</time>
        </span>
        <span class="session-preview">
          {last ? `${last.author === 'visitor' ? '' : last.author === 'operator' ? 'You: ' : 'Bot: '}${last.author === 'visitor' ? last.content : markdownAsLine(last.content)}` : 'No messages'}
        </span>
        <span class="session-badges">
          {session.status === 'active' ? <Badge tone="good">Active</Badge> : <Badge>Ended</Badge>}
          {session.taken_over && <Badge tone="warn">Taken over</Badge>}
          <span class="hint">{session.message_count} messages</span>
        </span>
      </Link>
    </li>
  );
}
