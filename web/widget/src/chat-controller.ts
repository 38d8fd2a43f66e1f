/**
 * What the widget does, apart from drawing: loads the bot's configuration and the visitor's
 * conversation, sends messages and streams the answers into the store, follows the live stream,
 * rates answers, uploads files and sends the lead form. The components call these actions; the
 * host page reaches some of them through `window.Parley`.
 */
import { ApiError, type ApiClient, type DoneEvent, type History, type LeadRequest, type Rating, type StoredAttachment, type StoredMessage } from './api-client.ts';
import type { Emitter, WidgetControls } from './public-api.ts';
import { itemKey, type FailureKind, type LogItem, type Store } from './store.ts';
import { randomUuid, type VisitorStorage } from './visitor-storage.ts';
import { createLiveConnection, type LiveState } from './live-connection.ts';
import { uploadProblem } from './upload-rules.ts';
import { chooseLanguage, WORDS } from './words.ts';

/** The service's limit on a message (interface.md section 8). */
export const MAX_MESSAGE_CHARS = 4000;

const CONTACT_FIELDS = ['name', 'email', 'phone'] as const;

/** What the controller works with. */
export interface ControllerDeps {
  api: ApiClient;
  storage: VisitorStorage;
  store: Store;
  emitter: Emitter;
  /** The visitor's languages, most preferred first (`navigator.languages`), for the widget's own words. */
  browserLanguages: readonly string[];
  /** Told whenever the live stream connects or drops (shown on the host element for tests and support). */
  onLiveState?(state: LiveState): void;
}

export type ChatController = ReturnType<typeof createChatController>;

/** The visitor's IANA time zone, when the browser knows a plausible one. */
function visitorTimezone(): string | undefined {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return zone && zone !== 'Etc/Unknown' && /^[A-Za-z]+(?:\/[A-Za-z0-9_+-]+)*$/.test(zone) ? zone : undefined;
  } catch {
    return undefined;
  }
}

function failureOf(err: unknown): FailureKind {
  if (!(err instanceof ApiError) || err.status === 0) return 'offline';
  if (err.status === 429) return 'busy';
  if (err.status === 401 || err.status === 403) return 'refused';
  return 'answer';
}

function itemOf(message: StoredMessage): LogItem {
  const author = message.author === 'operator' ? 'operator' : message.role === 'user' ? 'visitor' : 'bot';
  return { kind: 'message', key: itemKey(), id: message.id, author, text: message.content, sources: message.sources ?? [], rating: message.feedback_rating ?? null };
}

function uploadOf(file: StoredAttachment): LogItem {
  return { kind: 'upload', key: itemKey(), name: file.file_name, size: file.size_bytes, progress: 1, status: 'sent', url: file.file_url, mime: file.mime_type };
}

/** The history's messages and uploads as one log in time order; an upload goes first when both share a millisecond. */
function historyItems({ messages, attachments = [] }: History): LogItem[] {
  const items: LogItem[] = [];
  let next = 0;
  for (const message of messages) {
    // ISO 8601 timestamps of one format sort as strings.
    while (next < attachments.length && attachments[next]!.created_at <= message.created_at) items.push(uploadOf(attachments[next++]!));
    items.push(itemOf(message));
  }
  return items.concat(attachments.slice(next).map(uploadOf));
}

/** The widget's actions over one bot's endpoints, one visitor's storage and one store. */
export function createChatController({ api, storage, store, emitter, browserLanguages, onLiveState }: ControllerDeps) {
  let metadata: Record<string, unknown> | null = null;
  let resolveReady: (ready: boolean) => void = () => {};
  const ready = new Promise<boolean>((resolve) => (resolveReady = resolve));
  let sendQueue: Promise<void> = Promise.resolve();
  /** Ids of stored messages in the log, so that one that arrives twice is shown once. */
  const shown = new Set<string>();

  /** Counts the live takeover changes, so that a catch-up answered before one does not undo it. */
  let statusChanges = 0;

  const live = createLiveConnection({
    onEvent(name, data) {
      if (name === 'status') {
        statusChanges++;
        store.set({ takenOver: Boolean(data.taken_over) });
      } else if (data?.author === 'operator') addOperatorMessage(data as StoredMessage);
    },
    onOpen: () => void catchUp().catch(() => {}),
    onState: (state) => onLiveState?.(state),
    async beforeReconnect() {
      try {
        await catchUp();
        return true;
      } catch (err) {
        // The session is gone (deleted by an operator): the next message starts a new one.
        if (err instanceof ApiError && err.status === 404) storage.setSession(null);
        return !(err instanceof ApiError && err.status === 404);
      }
    },
  });

  const followLive = (sessionId: string) => live.follow(api.liveEventsUrl(sessionId, storage.load().visitorId));

  /** The session's id, made here for a new conversation (the service accepts any id the client picks). */
  function ensureSession(): string {
    const current = storage.load().sessionId;
    if (current) return current;
    const sessionId = randomUuid();
    storage.setSession(sessionId);
    return sessionId;
  }

  function addOperatorMessage(message: StoredMessage): void {
    if (shown.has(message.id)) return;
    shown.add(message.id);
    store.add(itemOf(message));
    if (!store.get().open) store.set((s) => ({ unread: s.unread + 1 }));
    emitter.emit('message', { id: message.id, author: 'operator', text: message.content });
  }

  /** What happened while the live stream was down: operator messages and the takeover. */
  async function catchUp(): Promise<void> {
    const sessionId = storage.load().sessionId;
    if (!sessionId) return;
    const changesBefore = statusChanges;
    const history = await api.history(sessionId, storage.load().visitorId);
    // A takeover change that came live while the history was on its way is newer than the history.
    if (statusChanges === changesBefore) store.set({ takenOver: history.taken_over });
    for (const message of history.messages) if (message.author === 'operator') addOperatorMessage(message);
  }

  async function loadConversation(sessionId: string): Promise<void> {
    try {
      const history = await api.history(sessionId, storage.load().visitorId);
      for (const message of history.messages) shown.add(message.id);
      store.set({ items: historyItems(history), takenOver: history.taken_over });
      followLive(sessionId);
    } catch (err) {
      // Unknown (never written to, or deleted): the next message starts a new one.
      if (err instanceof ApiError && err.status === 404) return storage.setSession(null);
      followLive(sessionId);
    }
  }

  /** Loads the configuration (false: the bot is unknown or refuses this page; show nothing) and the conversation. */
  async function start(): Promise<boolean> {
    try {
      const config = await api.config();
      store.set({ config, language: chooseLanguage(config.response_language, browserLanguages) });
      const { sessionId } = storage.load();
      if (sessionId) await loadConversation(sessionId);
      resolveReady(true);
      emitter.emit('ready', { botId: config.bot_id });
      return true;
    } catch {
      resolveReady(false);
      return false;
    }
  }

  function fail(answerKey: string, failure: FailureKind, retryText: string, detail?: string): void {
    store.remove(answerKey);
    store.add({ kind: 'failure', key: itemKey(), failure, retryText, detail });
  }

  function finishAnswer(answerKey: string, done: DoneEvent): void {
    const text = (store.find(answerKey) as { text?: string } | undefined)?.text ?? '';
    const sources = Array.isArray(done.sources) ? done.sources : [];
    store.update(answerKey, { id: done.message_id, streaming: false, sources, rating: null });
    shown.add(done.message_id);
    if (done.session_id && done.session_id !== storage.load().sessionId) storage.setSession(done.session_id);
    followLive(done.session_id || ensureSession());
    const config = store.get().config;
    if (done.lead_form && config && !store.get().leadSent) {
      store.set({ leadForm: { fields: done.lead_form.fields?.length ? done.lead_form.fields : config.lead_fields, byVisitor: false } });
    }
    emitter.emit('message', { id: done.message_id, author: 'bot', text, sources });
  }

  async function sendNow(rawText: string, isRetry: boolean): Promise<void> {
    if (!(await ready)) return;
    const text = rawText.trim().slice(0, MAX_MESSAGE_CHARS);
    if (!text) return;
    if (!isRetry) {
      store.add({ kind: 'message', key: itemKey(), id: null, author: 'visitor', text });
      emitter.emit('message', { id: null, author: 'visitor', text });
    }
    const sessionId = ensureSession();
    const answerKey = store.add({ kind: 'message', key: itemKey(), id: null, author: 'bot', text: '', streaming: true });
    store.set({ sending: true });
    try {
      await api.stream(
        { text, session_id: sessionId, visitor_id: storage.load().visitorId, visitor_timezone: visitorTimezone(), ...(metadata && { metadata }) },
        {
          onToken(token) {
            const item = store.find(answerKey);
            if (item?.kind === 'message') store.update(answerKey, { text: item.text + token });
          },
          onDone: (done) => finishAnswer(answerKey, done),
          onPaused() {
            store.remove(answerKey);
            store.set({ takenOver: true });
            followLive(sessionId);
          },
          onError: (error) => fail(answerKey, error.code === 'quota_exceeded' ? 'quota' : 'answer', text),
        },
      );
    } catch (err) {
      fail(answerKey, failureOf(err), text, err instanceof ApiError && err.status === 400 ? err.detail : undefined);
    } finally {
      store.set({ sending: false });
    }
  }

  /** Messages go one after another: an answer streams before the next question is sent. */
  function enqueue(text: string, isRetry: boolean): Promise<void> {
    const run = sendQueue.then(() => sendNow(text, isRetry));
    sendQueue = run.catch(() => {});
    return run;
  }

  const controls: WidgetControls = {
    open() {
      if (store.get().open) return;
      store.set({ open: true, unread: 0 });
      emitter.emit('opened', {});
    },
    close() {
      if (!store.get().open) return;
      store.set({ open: false });
      emitter.emit('closed', {});
    },
    isOpen: () => store.get().open,
    send: (text) => enqueue(text, false),
    setMetadata(next) {
      metadata = next && typeof next === 'object' && !Array.isArray(next) ? { ...next } : null;
    },
  };

  return {
    ...controls,
    start,
    ready,

    retry(failureKey: string): void {
      const item = store.find(failureKey);
      if (item?.kind !== 'failure') return;
      store.remove(failureKey);
      void enqueue(item.retryText, true);
    },

    async rate(key: string, rating: Exclude<Rating, null>): Promise<void> {
      const item = store.find(key);
      const sessionId = storage.load().sessionId;
      if (item?.kind !== 'message' || !item.id || !sessionId) return;
      const before = item.rating ?? null;
      const next = before === rating ? null : rating;
      store.update(key, { rating: next });
      try {
        await api.rate(item.id, sessionId, next);
      } catch {
        store.update(key, { rating: before });
      }
    },

    async upload(file: File): Promise<void> {
      if (!(await ready)) return;
      const words = WORDS[store.get().language];
      const problem = uploadProblem(file, store.get().config!.uploads, words);
      const preview = !problem && /^image\//.test(file.type) ? URL.createObjectURL(file) : undefined;
      const key = store.add({ kind: 'upload', key: itemKey(), name: file.name, size: file.size, progress: 0, status: problem ? 'failed' : 'sending', problem: problem ?? undefined, preview });
      if (problem) return;
      const sessionId = ensureSession();
      try {
        const result = await api.upload(file, sessionId, (progress) => store.update(key, { progress }));
        store.update(key, { status: 'sent', progress: 1, name: result.file_name, url: result.file_url, mime: result.mime_type });
        followLive(sessionId);
      } catch (err) {
        const why = failureOf(err) === 'offline' ? words.uploadOffline : err instanceof ApiError ? err.detail : words.uploadFailed;
        store.update(key, { status: 'failed', problem: why });
      }
    },

    showLeadForm(): void {
      const config = store.get().config;
      if (config) store.set({ leadForm: { fields: config.lead_fields, byVisitor: true } });
    },
    hideLeadForm: () => store.set({ leadForm: null }),

    /** Sends the lead form; throws an ApiError (with the service's `detail`) for the form to show. */
    async submitLead(values: Record<string, string>): Promise<void> {
      const sessionId = ensureSession();
      const lead: LeadRequest = { session_id: sessionId };
      const extra: Record<string, string> = {};
      for (const [field, raw] of Object.entries(values)) {
        const value = raw.trim();
        if (!value) continue;
        if ((CONTACT_FIELDS as readonly string[]).includes(field)) lead[field as (typeof CONTACT_FIELDS)[number]] = value;
        else extra[field] = value;
      }
      if (Object.keys(extra).length > 0) lead.extra = extra;
      await api.submitLead(lead);
      store.set({ leadForm: null, leadSent: true });
      store.add({ kind: 'note', key: itemKey(), text: WORDS[store.get().language].leadThanks });
      followLive(sessionId);
      const { session_id: _session, ...details } = lead;
      emitter.emit('lead', details);
    },
  };
}
