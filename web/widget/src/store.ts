/**
 * The widget's state, in one place: the controller changes it, the components render it.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Rating, Source, WidgetConfig } from './api-client.ts';
import type { WidgetLanguage } from './words.ts';

/** Who wrote a message. */
export type Author = 'visitor' | 'bot' | 'operator';

/** Why a message could not be answered: each kind has its own kind words. */
export type FailureKind = 'quota' | 'answer' | 'offline' | 'busy' | 'refused';

/** One entry of the conversation log. */
export type LogItem =
  | {
      kind: 'message';
      key: string;
      /** The stored message's id (null for the visitor's own messages and answers still streaming). */
      id: string | null;
      author: Author;
      text: string;
      streaming?: boolean;
      sources?: Source[];
      rating?: Rating;
    }
  | {
      kind: 'upload';
      key: string;
      name: string;
      size: number;
      progress: number;
      status: 'sending' | 'sent' | 'failed';
      problem?: string;
      /** A local preview of an image (a blob: URL). */
      preview?: string;
      /** The file's signed link and detected type, once the service has it. */
      url?: string;
      mime?: string;
    }
  | { kind: 'failure'; key: string; failure: FailureKind; detail?: string; retryText: string }
  | { kind: 'note'; key: string; text: string };

/** Everything the components draw. */
export interface WidgetState {
  config: WidgetConfig | null;
  /** The language of the widget's own words, chosen once the configuration has loaded. */
  language: WidgetLanguage;
  open: boolean;
  items: LogItem[];
  /** An answer is on its way (the send button waits). */
  sending: boolean;
  /** A person from the team holds the conversation. */
  takenOver: boolean;
  /** Operator messages that arrived while the panel was closed. */
  unread: number;
  /** The lead form, with the fields it asks for, or null when hidden. */
  leadForm: { fields: string[]; byVisitor: boolean } | null;
  leadSent: boolean;
}

export const initialState: WidgetState = {
  config: null,
  language: 'en',
  open: false,
  items: [],
  sending: false,
  takenOver: false,
  unread: 0,
  leadForm: null,
  leadSent: false,
};

export type Store = ReturnType<typeof createStore>;

let nextKey = 0;
/** A key for a new log item (stable across renders). */
export const itemKey = () => `i${++nextKey}`;

/** A store of the widget's state with the log's list operations. */
export function createStore(initial: WidgetState = initialState) {
  let state = initial;
  const listeners = new Set<() => void>();
  const store = {
    get: () => state,
    set(patch: Partial<WidgetState> | ((current: WidgetState) => Partial<WidgetState>)): void {
      state = { ...state, ...(typeof patch === 'function' ? patch(state) : patch) };
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Appends a log item and returns its key. */
    add(item: LogItem): string {
      store.set((s) => ({ items: [...s.items, item] }));
      return item.key;
    },
    /** Changes one log item (when it is still there). */
    update(key: string, patch: Partial<LogItem>): void {
      store.set((s) => ({ items: s.items.map((item) => (item.key === key ? ({ ...item, ...patch } as LogItem) : item)) }));
    },
    remove(key: string): void {
      store.set((s) => ({ items: s.items.filter((item) => item.key !== key) }));
    },
    find(key: string): LogItem | undefined {
      return state.items.find((item) => item.key === key);
    },
  };
  return store;
}

/** The store's current state, re-rendering the component on every change. */
export function useStore(store: Store): WidgetState {
  const [state, setState] = useState(store.get());
  useEffect(() => {
    setState(store.get());
    return store.subscribe(() => setState(store.get()));
  }, [store]);
  return state;
}
