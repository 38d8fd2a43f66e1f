/**
 * `window.Parley`, the host page's handle on the widget: open, close, send, visitor metadata and
 * events. Documented in the README ("The chat widget").
 */
import type { Source } from './api-client.ts';
import type { Author } from './store.ts';

/** A new message in the conversation (history loaded after a reload is not announced). */
export interface ParleyMessageEvent {
  id: string | null;
  author: Author;
  text: string;
  sources?: Source[];
}

/** Contact details the visitor sent with the lead form. */
export interface ParleyLeadEvent {
  name?: string;
  email?: string;
  phone?: string;
  extra?: Record<string, string>;
}

/** Each event of `Parley.on` and what its handler receives. */
export interface ParleyEvents {
  ready: { botId: string };
  opened: Record<string, never>;
  closed: Record<string, never>;
  message: ParleyMessageEvent;
  lead: ParleyLeadEvent;
}

export type ParleyEventName = keyof ParleyEvents;
type Handler<K extends ParleyEventName> = (detail: ParleyEvents[K]) => void;

export type Emitter = ReturnType<typeof createEmitter>;

/** The events of `Parley.on`, emitted by the controller. */
export function createEmitter() {
  const handlers = new Map<ParleyEventName, Set<Handler<any>>>();
  return {
    on<K extends ParleyEventName>(name: K, handler: Handler<K>): () => void {
      let set = handlers.get(name);
      if (!set) handlers.set(name, (set = new Set()));
      set.add(handler);
      return () => set!.delete(handler);
    },
    off<K extends ParleyEventName>(name: K, handler: Handler<K>): void {
      handlers.get(name)?.delete(handler);
    },
    emit<K extends ParleyEventName>(name: K, detail: ParleyEvents[K]): void {
      for (const handler of handlers.get(name) ?? []) {
        // A failing host handler must not break the widget, and is still reported.
        try {
          handler(detail);
        } catch (err) {
          setTimeout(() => {
            throw err;
          });
        }
      }
    },
  };
}

/** What the controller offers the host page. */
export interface WidgetControls {
  open(): void;
  close(): void;
  send(text: string): Promise<void>;
  setMetadata(metadata: Record<string, unknown> | null): void;
  isOpen(): boolean;
}

/** `window.Parley`. */
export interface ParleyApi {
  readonly version: string;
  open(): void;
  close(): void;
  toggle(): void;
  isOpen(): boolean;
  /** Sends a message as the visitor; resolves once the answer has arrived (or failed, shown in the panel). */
  send(text: string): Promise<void>;
  /** Data about the visitor (e.g. a signed-in customer's id), sent with each message as the stream's `metadata`; null clears it. */
  setMetadata(metadata: Record<string, unknown> | null): void;
  on<K extends ParleyEventName>(name: K, handler: Handler<K>): () => void;
  off<K extends ParleyEventName>(name: K, handler: Handler<K>): void;
}

/** `Parley.version`: changes when the API does. */
export const WIDGET_VERSION = '1';

/** The frozen object installed as `window.Parley`. */
export function createPublicApi(controls: WidgetControls, emitter: Emitter): ParleyApi {
  return Object.freeze({
    version: WIDGET_VERSION,
    open: () => controls.open(),
    close: () => controls.close(),
    toggle: () => (controls.isOpen() ? controls.close() : controls.open()),
    isOpen: () => controls.isOpen(),
    send: (text: string) => controls.send(String(text)),
    setMetadata: (metadata: Record<string, unknown> | null) => controls.setMetadata(metadata),
    on: emitter.on,
    off: emitter.off,
  });
}
