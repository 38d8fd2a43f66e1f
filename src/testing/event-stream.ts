/** Reading Server-Sent Events in tests with a real SSE parser (`eventsource-parser`). */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { TestApp } from './test-app.ts';

export interface ReceivedEvent {
  event: string;
  data: any;
}

export interface StreamResponse {
  status: number;
  headers: Headers;
  /** Parsed events, in order (an error response has none and a JSON `body`). */
  events: ReceivedEvent[];
  /** Keep-alive comment lines received. */
  comments: string[];
  body?: any;
}

export interface StreamRequest {
  method?: string;
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  /** Called with each event as it arrives; return true to stop reading (the client disconnects). */
  onEvent?: (event: ReceivedEvent) => boolean | void;
  signal?: AbortSignal;
}

/** Sends a request to an SSE endpoint and reads the stream to its end (or until `onEvent` says stop). */
export async function readEventStream(t: TestApp, path: string, options: StreamRequest = {}): Promise<StreamResponse> {
  const headers: Record<string, string> = { accept: 'text/event-stream', ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const controller = new AbortController();
  options.signal?.addEventListener('abort', () => controller.abort());
  const res = await fetch(t.url + path, {
    method: options.method ?? 'POST',
    headers,
    body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
    signal: controller.signal,
  });
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    const text = await res.text();
    return { status: res.status, headers: res.headers, events: [], comments: [], body: text ? JSON.parse(text) : undefined };
  }
  const events: ReceivedEvent[] = [];
  const comments: string[] = [];
  let stop = false;
  const parser = createParser({
    onEvent(message: EventSourceMessage) {
      const received = { event: message.event ?? 'message', data: JSON.parse(message.data) };
      events.push(received);
      if (options.onEvent?.(received)) stop = true;
    },
    onComment: (comment) => void comments.push(comment),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  try {
    while (!stop) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } catch (err) {
    if (!controller.signal.aborted) throw err;
  } finally {
    if (stop) controller.abort();
  }
  return { status: res.status, headers: res.headers, events, comments };
}
