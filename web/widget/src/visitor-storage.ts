/**
 * What the widget keeps in the visitor's browser, per bot: a random visitor id and the current
 * session id, under the localStorage key `parley:<bot_id>`, so that a reload continues the
 * conversation. Nothing else is stored, and nothing at all until the visitor starts a conversation.
 */

/** The stored entry. */
export interface VisitorRecord {
  visitorId: string;
  sessionId: string | null;
}

/** A random version 4 UUID; `crypto.randomUUID` exists only on secure (https) pages. */
export function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export type VisitorStorage = ReturnType<typeof createVisitorStorage>;

/** The bot's record, read once; writes go to localStorage when the browser allows it, else stay in memory. */
export function createVisitorStorage(botId: string) {
  const key = `parley:${botId}`;
  let record: VisitorRecord | undefined;

  // localStorage throws when storage is disabled, and in some private modes.
  function read(): Partial<VisitorRecord> {
    try {
      const parsed = JSON.parse(localStorage.getItem(key) ?? 'null') as Partial<VisitorRecord> | null;
      return parsed && typeof parsed === 'object' ? parsed : {};
    } catch {
      return {};
    }
  }

  function write(next: VisitorRecord): void {
    record = next;
    try {
      localStorage.setItem(key, JSON.stringify(next));
    } catch {
      // The conversation then lasts as long as the page.
    }
  }

  function load(): VisitorRecord {
    if (record) return record;
    const stored = read();
    const visitorId = typeof stored.visitorId === 'string' && stored.visitorId ? stored.visitorId : randomUuid();
    const sessionId = typeof stored.sessionId === 'string' && stored.sessionId ? stored.sessionId : null;
    record = { visitorId, sessionId };
    return record;
  }

  return {
    load,
    setSession(sessionId: string | null): void {
      write({ ...load(), sessionId });
    },
  };
}
