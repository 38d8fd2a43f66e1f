/**
 * The widget's only network code: the service's widget endpoints (interface.md sections 4 and 6,
 * decisions.md), called with the bot id as the credential. Everything goes to the service the
 * script came from; nothing to a third party.
 */
import { createSseParser } from './sse-parser.ts';

/** What may be attached: the size limit and each allowed extension with its MIME type (section 8). */
export interface UploadRules {
  max_bytes: number;
  types: { extension: string; mime: string }[];
}

/** `GET /api/widget/config`. */
export interface WidgetConfig {
  bot_id: string;
  name: string;
  welcome_message: string;
  primary_color: string;
  widget_style: string;
  response_language: string;
  lead_capture_enabled: boolean;
  lead_fields: string[];
  calendar_scheduling_enabled: boolean;
  meeting_url: string | null;
  uploads: UploadRules;
}

/** Where an answer comes from; `url` is empty for text sources. */
export interface Source {
  title: string;
  url: string;
}

/** An answer's feedback. */
export type Rating = 'up' | 'down' | null;

/** A stored message as the history and the live stream give it. */
export interface StoredMessage {
  id: string;
  role: string;
  author: 'visitor' | 'bot' | 'operator';
  content: string;
  feedback_rating?: Rating;
  sources?: Source[];
  created_at: string;
}

/** One of the session's uploads, with a fresh signed link. */
export interface StoredAttachment {
  id: string;
  file_name: string;
  mime_type: string;
  size_bytes: number;
  file_url: string;
  created_at: string;
}

/** `GET /api/widget/sessions/{id}/messages`. */
export interface History {
  session_id: string;
  taken_over: boolean;
  messages: StoredMessage[];
  attachments: StoredAttachment[];
}

/** The stream's last event when an answer was stored (decisions.md: `message_id`, `lead_form`). */
export interface DoneEvent {
  session_id: string;
  sources: Source[];
  message_id: string;
  lead_form?: { fields: string[] };
}

/** What to do with each event of the chat stream. */
export interface StreamHandlers {
  onToken(token: string): void;
  onDone(done: DoneEvent): void;
  onPaused(paused: { reason: string; message: string }): void;
  onError(error: { code: string; message: string }): void;
}

/** The body of `POST /api/widget/chat/stream`. */
export interface StreamRequest {
  text: string;
  session_id: string;
  visitor_id: string;
  visitor_timezone?: string;
  metadata?: Record<string, unknown>;
}

/** `POST /api/widget/chat/media`'s answer. */
export interface UploadResult {
  file_url: string;
  file_name: string;
  mime_type: string;
  size_bytes: number;
}

/** The body of `POST /api/widget/leads`. */
export interface LeadRequest {
  session_id: string;
  name?: string;
  email?: string;
  phone?: string;
  extra?: Record<string, string>;
}

/** A refusal from the service: its status and `detail`; status 0 when the network failed. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

const networkError = () => new ApiError(0, 'The network request failed');

async function readJson<T>(response: Response): Promise<T> {
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const detail = (body as { detail?: unknown } | undefined)?.detail;
    throw new ApiError(response.status, typeof detail === 'string' ? detail : `HTTP ${response.status}`);
  }
  return body as T;
}

/** The widget endpoints for one bot. */
export type ApiClient = ReturnType<typeof createApiClient>;

/** The widget endpoints of the service at `base` (the script's own origin and path), for one bot. */
export function createApiClient(base: string, botId: string) {
  const bot = encodeURIComponent(botId);
  const bearer = { authorization: `Bearer ${botId}` };

  async function request<T>(path: string, init?: RequestInit): Promise<T> {
    let response: Response;
    try {
      response = await fetch(base + path, { credentials: 'omit', ...init });
    } catch {
      throw networkError();
    }
    return readJson<T>(response);
  }

  const postJson = <T>(path: string, body: unknown) =>
    request<T>(path, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  return {
    // GETs carry the bot in the query, not a header, so the browser sends them without a preflight.
    config: () => request<WidgetConfig>(`/api/widget/config?bot_id=${bot}`),

    history: (sessionId: string, visitorId: string) =>
      request<History>(`/api/widget/sessions/${encodeURIComponent(sessionId)}/messages?bot_id=${bot}&visitor_id=${encodeURIComponent(visitorId)}`, { cache: 'no-store' }),

    liveEventsUrl: (sessionId: string, visitorId: string) =>
      `${base}/api/widget/sessions/${encodeURIComponent(sessionId)}/events?bot_id=${bot}&visitor_id=${encodeURIComponent(visitorId)}`,

    rate: (messageId: string, sessionId: string, rating: Rating) =>
      postJson<{ feedback_rating: Rating }>(`/api/widget/messages/${encodeURIComponent(messageId)}/feedback`, { session_id: sessionId, rating }),

    submitLead: (lead: LeadRequest) => postJson<{ success: boolean }>('/api/widget/leads', lead),

    /** Sends a message and reads the answer's events as they arrive; resolves once the stream ends. */
    async stream(body: StreamRequest, handlers: StreamHandlers): Promise<void> {
      let response: Response;
      try {
        response = await fetch(`${base}/api/widget/chat/stream`, {
          method: 'POST',
          credentials: 'omit',
          headers: { ...bearer, 'content-type': 'application/json', accept: 'text/event-stream' },
          body: JSON.stringify(body),
        });
      } catch {
        throw networkError();
      }
      if (!response.ok) await readJson(response);
      if (!response.body) throw networkError();

      let finished = false;
      const parser = createSseParser(({ event, data }) => {
        let payload: any;
        try {
          payload = JSON.parse(data);
        } catch {
          return;
        }
        if (event === 'token') handlers.onToken(String(payload.token ?? ''));
        else if (event === 'done') (finished = true), handlers.onDone(payload as DoneEvent);
        else if (event === 'paused') (finished = true), handlers.onPaused(payload);
        else if (event === 'error') (finished = true), handlers.onError(payload);
      });
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.feed(decoder.decode(value, { stream: true }));
        }
      } catch {
        if (!finished) throw networkError();
      }
      // A stream cut before its last event (the connection dropped) is a network failure.
      if (!finished) throw networkError();
    },

    /** Uploads a file into the session with XMLHttpRequest, which reports upload progress (fetch does not). */
    upload(file: File, sessionId: string, onProgress: (fraction: number) => void): Promise<UploadResult> {
      return new Promise((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open('POST', `${base}/api/widget/chat/media`);
        xhr.setRequestHeader('authorization', bearer.authorization);
        xhr.upload.onprogress = (event) => {
          if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
        };
        xhr.onerror = () => reject(networkError());
        xhr.onload = () => {
          let body: any;
          try {
            body = JSON.parse(xhr.responseText);
          } catch {
            body = undefined;
          }
          if (xhr.status >= 200 && xhr.status < 300 && body) resolve(body as UploadResult);
          else reject(new ApiError(xhr.status, typeof body?.detail === 'string' ? body.detail : `HTTP ${xhr.status}`));
        };
        // The fields first: the service reads the credential before the file's bytes.
        const form = new FormData();
        form.append('session_id', sessionId);
        form.append('bot_id', botId);
        form.append('file', file, file.name);
        xhr.send(form);
      });
    },
  };
}
