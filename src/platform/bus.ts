/**
 * Notifications between the parts of the service, and between instances when Redis is configured
 * (cache invalidation now, operator messages later). Delivery is best-effort and fire-and-forget.
 */
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';

export type BusHandler = (message: unknown) => void;

export interface Bus {
  publish(channel: string, message: unknown): Promise<void>;
  subscribe(channel: string, handler: BusHandler): () => void;
  close(): Promise<void>;
}

/** A bus inside this process only. */
export function createLocalBus(): Bus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(channel, message) {
      emitter.emit(channel, message);
    },
    subscribe(channel, handler) {
      emitter.on(channel, handler);
      return () => emitter.off(channel, handler);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

/** A bus over Redis pub/sub: every instance sharing the Redis (and prefix) hears every message. */
export function createRedisBus(publisher: Redis, prefix: string): Bus {
  // No ready check: its INFO command is refused once the connection is in subscriber mode.
  const subscriber = publisher.duplicate({ enableReadyCheck: false });
  subscriber.on('error', () => {
    // Reconnection is automatic; the publisher's error handler reports the outage.
  });
  const local = new EventEmitter();
  local.setMaxListeners(0);
  const counts = new Map<string, number>();

  subscriber.on('message', (redisChannel: string, payload: string) => {
    const channel = redisChannel.slice(prefix.length);
    try {
      local.emit(channel, JSON.parse(payload));
    } catch {
      // A message this version cannot read is ignored.
    }
  });

  return {
    async publish(channel, message) {
      await publisher.publish(prefix + channel, JSON.stringify(message));
    },
    subscribe(channel, handler) {
      local.on(channel, handler);
      const count = (counts.get(channel) ?? 0) + 1;
      counts.set(channel, count);
      // ioredis subscribes again after a reconnection; a call cut short by close() has nothing left to do.
      if (count === 1) subscriber.subscribe(prefix + channel).catch(() => {});
      return () => {
        local.off(channel, handler);
        const left = (counts.get(channel) ?? 1) - 1;
        counts.set(channel, left);
        if (left === 0) {
          counts.delete(channel);
          subscriber.unsubscribe(prefix + channel).catch(() => {});
        }
      };
    },
    async close() {
      local.removeAllListeners();
      subscriber.disconnect();
    },
  };
}
