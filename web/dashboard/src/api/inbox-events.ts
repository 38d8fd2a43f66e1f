/**
 * The operators' live stream of a bot (`GET …/inbox-events`, Server-Sent Events over the session
 * cookie): every stored message and every takeover or pause, as it happens. EventSource reconnects
 * by itself; the hook reports whether the stream is open so the screen can say so.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { urlOf, type ResponseOf } from './client.ts';

export type InboxMessage = ResponseOf<'dashboardGetInboxSession'>['messages'][number];

export interface InboxEventHandlers {
  message(event: { session_id: string; message: InboxMessage }): void;
  status(event: { session_id: string | null; taken_over: boolean }): void;
  /** The stream (re)opened: whatever happened while it was closed is unknown, so reload. */
  reconnected?(): void;
}

export function useInboxEvents(botId: string, handlers: InboxEventHandlers): 'connecting' | 'live' | 'offline' {
  const [state, setState] = useState<'connecting' | 'live' | 'offline'>('connecting');
  const saved = useRef(handlers);
  saved.current = handlers;

  useEffect(() => {
    const source = new EventSource(urlOf('dashboardInboxEvents', { path: { bot_id: botId } }));
    let opened = false;
    source.onopen = () => {
      setState('live');
      if (opened) saved.current.reconnected?.();
      opened = true;
    };
    source.onerror = () => setState(source.readyState === EventSource.CLOSED ? 'offline' : 'connecting');
    source.addEventListener('message', (event) => saved.current.message(JSON.parse((event as MessageEvent<string>).data)));
    source.addEventListener('status', (event) => saved.current.status(JSON.parse((event as MessageEvent<string>).data)));
    return () => source.close();
  }, [botId]);

  return state;
}
