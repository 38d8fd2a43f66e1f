/**
 * The visitor's live stream (`GET /api/widget/sessions/{id}/events`): operator messages and
 * takeover changes. EventSource retries by itself only while the server keeps answering 200 and
 * without any back-off, so every failure closes it and this module reconnects after 1, 2, 4 … 30
 * seconds (with jitter, so that a restarted service is not met by every visitor at once), or at
 * once when the browser comes back online.
 */

/** Whether the live stream is followed, and whether it is connected. */
export type LiveState = 'off' | 'connecting' | 'open';

/** What the connection reports to the controller. */
export interface LiveHandlers {
  onEvent(name: 'message' | 'status', data: any): void;
  /** The stream is open: what was missed while it was not can be fetched now. */
  onOpen(): void;
  onState(state: LiveState): void;
  /** Before each reconnection; false stops for good (e.g. the session no longer exists). */
  beforeReconnect(): Promise<boolean>;
}

const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;

export type LiveConnection = ReturnType<typeof createLiveConnection>;

/** One live stream at a time, reconnected with back-off until stopped. */
export function createLiveConnection(handlers: LiveHandlers) {
  let url: string | null = null;
  let source: EventSource | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;

  function listen(name: 'message' | 'status', target: EventSource): void {
    target.addEventListener(name, (event) => {
      try {
        handlers.onEvent(name, JSON.parse((event as MessageEvent<string>).data));
      } catch {
        // A frame that is not JSON is not ours to show.
      }
    });
  }

  function open(): void {
    if (!url || source) return;
    handlers.onState('connecting');
    const target = new EventSource(url);
    source = target;
    listen('message', target);
    listen('status', target);
    target.onopen = () => {
      failures = 0;
      handlers.onState('open');
      handlers.onOpen();
    };
    target.onerror = () => {
      target.close();
      if (source !== target) return;
      source = null;
      handlers.onState('connecting');
      const delay = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** failures++);
      timer = setTimeout(reconnect, delay / 2 + Math.random() * (delay / 2));
    };
  }

  async function reconnect(): Promise<void> {
    timer = undefined;
    if (!url) return;
    if (await handlers.beforeReconnect()) open();
    else stop();
  }

  function stop(): void {
    url = null;
    clearTimeout(timer);
    timer = undefined;
    source?.close();
    source = null;
    handlers.onState('off');
  }

  addEventListener('online', () => {
    if (url && !source && timer !== undefined) {
      clearTimeout(timer);
      void reconnect();
    }
  });

  return {
    /** Follows the stream at `streamUrl` (a no-op when already following it). */
    follow(streamUrl: string): void {
      if (url === streamUrl) return;
      stop();
      url = streamUrl;
      open();
    },
    stop,
  };
}
