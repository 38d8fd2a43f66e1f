/**
 * True sliding-window rate limiting: a request is allowed when fewer than `limit` requests were
 * allowed in the `windowMs` before it. Each allowed request is remembered until it ages out, so
 * the window slides with every request (no fixed buckets).
 */
import type { Redis } from 'ioredis';

export interface WindowDecision {
  allowed: boolean;
  /** Allowed requests in the window, this one included when allowed. */
  count: number;
  /** Milliseconds until the oldest counted request leaves the window. */
  resetInMs: number;
}

export interface SlidingWindowStore {
  /** Counts one request against `key` if the window has room; atomic per key. (The in-process store answers synchronously.) */
  hit(key: string, limit: number, windowMs: number, now: number): WindowDecision | Promise<WindowDecision>;
  /** Requests counted in the window, without adding one. */
  count(key: string, windowMs: number, now: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * Timestamps in arrival order, dropped from the front as they age out: a ring buffer over a typed
 * array, so a busy key with a high limit costs no per-request allocation and no array copying.
 */
class TimestampQueue {
  private items = new Float64Array(16);
  private head = 0;
  private length = 0;

  prune(cutoff: number): void {
    const items = this.items;
    const mask = items.length - 1;
    while (this.length > 0 && items[this.head]! <= cutoff) {
      this.head = (this.head + 1) & mask;
      this.length--;
    }
  }
  get size(): number {
    return this.length;
  }
  get oldest(): number | undefined {
    return this.length > 0 ? this.items[this.head] : undefined;
  }
  push(at: number): void {
    if (this.length === this.items.length) this.grow();
    this.items[(this.head + this.length) & (this.items.length - 1)] = at;
    this.length++;
  }
  private grow(): void {
    const bigger = new Float64Array(this.items.length * 2);
    for (let i = 0; i < this.length; i++) bigger[i] = this.items[(this.head + i) & (this.items.length - 1)]!;
    this.items = bigger;
    this.head = 0;
  }
}

/** The in-process store (one instance). Idle keys are swept periodically. */
export function createMemoryWindowStore(sweepEveryMs = 60_000): SlidingWindowStore {
  const windows = new Map<string, { queue: TimestampQueue; windowMs: number; lastAt: number }>();
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const [key, entry] of windows) if (now - entry.lastAt > entry.windowMs * 2) windows.delete(key);
  }, sweepEveryMs);
  sweeper.unref();

  return {
    hit(key, limit, windowMs, now) {
      let entry = windows.get(key);
      if (!entry) {
        entry = { queue: new TimestampQueue(), windowMs, lastAt: now };
        windows.set(key, entry);
      }
      entry.lastAt = Date.now();
      const { queue } = entry;
      queue.prune(now - windowMs);
      if (queue.size < limit) {
        queue.push(now);
        return { allowed: true, count: queue.size, resetInMs: queue.oldest! + windowMs - now };
      }
      return { allowed: false, count: queue.size, resetInMs: queue.oldest! + windowMs - now };
    },
    async count(key, windowMs, now) {
      const entry = windows.get(key);
      if (!entry) return 0;
      entry.queue.prune(now - windowMs);
      return entry.queue.size;
    },
    async close() {
      clearInterval(sweeper);
      windows.clear();
    },
  };
}

// One script per check keeps the read-decide-write atomic across instances.
const HIT_SCRIPT = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count < limit then
  local seq = redis.call('INCR', key .. ':seq')
  redis.call('PEXPIRE', key .. ':seq', window)
  redis.call('ZADD', key, now, now .. '-' .. seq)
  redis.call('PEXPIRE', key, window)
  count = count + 1
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return {1, count, tonumber(oldest[2]) + window - now}
end
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
return {0, count, tonumber(oldest[2]) + window - now}
`;

const COUNT_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
return redis.call('ZCARD', KEYS[1])
`;

/** The Redis store: one sorted set per key, shared by every instance. */
export function createRedisWindowStore(redis: Redis, prefix: string): SlidingWindowStore {
  redis.defineCommand('parleyWindowHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  redis.defineCommand('parleyWindowCount', { numberOfKeys: 1, lua: COUNT_SCRIPT });
  const commands = redis as unknown as {
    parleyWindowHit(key: string, now: number, window: number, limit: number): Promise<[number, number, number]>;
    parleyWindowCount(key: string, now: number, window: number): Promise<number>;
  };
  return {
    async hit(key, limit, windowMs, now) {
      const [allowed, count, resetInMs] = await commands.parleyWindowHit(`${prefix}rl:${key}`, now, windowMs, limit);
      return { allowed: allowed === 1, count, resetInMs };
    },
    async count(key, windowMs, now) {
      return commands.parleyWindowCount(`${prefix}rl:${key}`, now, windowMs);
    },
    async close() {},
  };
}

/**
 * The Redis store while Redis answers, else an in-process one: when Redis goes away, limits hold
 * per instance instead of failing every request, with one warning per outage; when it is back,
 * the shared windows are used again without a restart. (Requests counted in-process during the
 * outage are not carried over to Redis.)
 */
export function createFailoverWindowStore(
  shared: SlidingWindowStore,
  redis: Pick<Redis, 'status'>,
  warn: (message: string) => void,
): SlidingWindowStore & { readonly degraded: boolean } {
  const local = createMemoryWindowStore();
  let degraded = false;
  function degrade(reason: string): void {
    if (degraded) return;
    degraded = true;
    warn(`rate limits: Redis unavailable (${reason}); limits are per instance until it is back`);
  }
  function restore(): void {
    if (!degraded) return;
    degraded = false;
    warn('rate limits: Redis is back; limits are shared again');
  }
  return {
    get degraded() {
      return degraded;
    },
    hit(key, limit, windowMs, now) {
      if (redis.status !== 'ready') {
        degrade(`connection ${redis.status}`);
        return local.hit(key, limit, windowMs, now);
      }
      return Promise.resolve(shared.hit(key, limit, windowMs, now)).then(
        (decision) => {
          restore();
          return decision;
        },
        (err: Error) => {
          degrade(err.message);
          return local.hit(key, limit, windowMs, now);
        },
      );
    },
    async count(key, windowMs, now) {
      if (redis.status !== 'ready') return local.count(key, windowMs, now);
      try {
        return await shared.count(key, windowMs, now);
      } catch {
        return local.count(key, windowMs, now);
      }
    },
    async close() {
      await local.close();
      await shared.close();
    },
  };
}
