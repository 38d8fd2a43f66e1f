/**
 * The process's connections to the outside: database, Redis, rate-limit store and bus. The entry
 * point and the tests open one and hand it to `buildApp`.
 */
import { once } from 'node:events';
import { Redis } from 'ioredis';
import type { Config } from './config/config.ts';
import { openDatabase, type DatabaseHandle } from './db/database.ts';
import { createLocalBus, createRedisBus, type Bus } from './platform/bus.ts';
import { systemClock, type Clock } from './platform/clock.ts';
import { createFailoverWindowStore, createMemoryWindowStore, createRedisWindowStore, type SlidingWindowStore } from './platform/rate-limit/sliding-window.ts';

export interface Runtime {
  config: Config;
  clock: Clock;
  database: DatabaseHandle;
  redis?: Redis;
  windowStore: SlidingWindowStore;
  bus: Bus;
  /** Resolves when every backing service answers; rejects otherwise. */
  checkReady(): Promise<void>;
  close(): Promise<void>;
}

/** How long start-up waits for Redis before serving with per-instance limits. */
const REDIS_START_WAIT_MS = 3000;

export async function openRuntime(config: Config, clock: Clock = systemClock, log: (message: string) => void = console.error): Promise<Runtime> {
  const database = await openDatabase(config);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2 }) : undefined;
  let lastRedisError = '';
  redis?.on('error', (err: Error) => {
    // Report each distinct outage once rather than on every reconnection attempt.
    if (err.message !== lastRedisError) log(`redis: ${err.message}`);
    lastRedisError = err.message;
  });
  redis?.on('ready', () => (lastRedisError = ''));
  // Start with shared limits when Redis answers soon; a Redis that is down does not stop the service
  // (limits fall back to per instance until it is back, see createFailoverWindowStore).
  if (redis && redis.status !== 'ready') {
    await Promise.race([once(redis, 'ready').catch(() => undefined), new Promise((resolve) => setTimeout(resolve, REDIS_START_WAIT_MS).unref())]);
  }
  const windowStore = redis ? createFailoverWindowStore(createRedisWindowStore(redis, config.redisPrefix), redis, log) : createMemoryWindowStore();
  const bus = redis ? createRedisBus(redis, config.redisPrefix) : createLocalBus();

  return {
    config,
    clock,
    database,
    redis,
    windowStore,
    bus,
    async checkReady() {
      await database.dialect.ping(database.db);
      if (redis && (await redis.ping()) !== 'PONG') throw new Error('Redis did not answer PONG');
    },
    async close() {
      await bus.close();
      await windowStore.close();
      redis?.disconnect();
      await database.close();
    },
  };
}
