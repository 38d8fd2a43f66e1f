/**
 * Live activity of conversations, for the visitor's widget and the operators' inbox: operator
 * messages and takeover changes, carried by the bus (Redis pub/sub across instances when
 * REDIS_URL is set, in process otherwise). Best-effort: the stored messages remain the record.
 */
import type { Bus } from '../../platform/bus.ts';
import type { StoredMessage } from './conversations.service.ts';

const CHANNEL = 'conversations.activity';

export type SessionActivity =
  | { type: 'message'; botId: string; sessionKey: string; message: StoredMessage }
  | { type: 'status'; botId: string; sessionKey: string | null; takenOver: boolean };

export type LiveSessions = ReturnType<typeof createLiveSessions>;

export function createLiveSessions(bus: Bus) {
  // One bus subscription per instance; listeners are found by bot here.
  const listeners = new Map<string, Set<(activity: SessionActivity) => void>>();
  let unsubscribe: (() => void) | undefined;

  function deliver(message: unknown): void {
    const activity = message as SessionActivity;
    for (const listener of listeners.get(activity.botId) ?? []) listener(activity);
  }

  return {
    publish: (activity: SessionActivity) => bus.publish(CHANNEL, activity),

    /** Calls `listener` with the bot's activity (of one session when `sessionKey` is given; bot-wide status changes included). */
    subscribe(botId: string, sessionKey: string | null, listener: (activity: SessionActivity) => void): () => void {
      unsubscribe ??= bus.subscribe(CHANNEL, deliver);
      const filtered = (activity: SessionActivity) => {
        if (sessionKey === null || activity.sessionKey === sessionKey || activity.sessionKey === null) listener(activity);
      };
      let set = listeners.get(botId);
      if (!set) listeners.set(botId, (set = new Set()));
      set.add(filtered);
      return () => {
        set.delete(filtered);
        if (set.size === 0) listeners.delete(botId);
      };
    },
  };
}
