/**
 * A guarded fetch that runs on a worker thread: the same client, policy and results as
 * `createGuardedFetch`, but the HTTP work (sockets, TLS, parsing answers) stays off the event loop
 * that serves requests. Webhook deliveries use it, thousands a second at times. The worker starts
 * with the first request, and again after a crash (requests under way then fail as network
 * errors). A success's body comes back cut to `excerptBytes`.
 */
import { Worker } from 'node:worker_threads';
import type { FetchInit, FetchResult, GuardedFetch, GuardedFetchOptions } from './guarded-fetch.ts';

export function createGuardedFetchWorker(options: Omit<GuardedFetchOptions, 'resolve' | 'isAllowedAddress'>, excerptBytes = 4096): GuardedFetch {
  let worker: Worker | undefined;
  const pending = new Map<number, (result: FetchResult) => void>();
  let nextId = 1;

  function failAll(detail: string): void {
    for (const settle of pending.values()) settle({ ok: false, reason: 'network_error', detail });
    pending.clear();
  }

  function start(): Worker {
    const started = new Worker(new URL('./run-typescript-worker.mjs', import.meta.url), {
      workerData: { entry: new URL('./guarded-fetch.worker.ts', import.meta.url).href, options, excerptBytes },
    });
    started.on('message', ({ id, result }: { id: number; result: FetchResult }) => {
      const settle = pending.get(id);
      pending.delete(id);
      if (result.ok) result.body = Buffer.from(result.body);
      settle?.(result);
      if (pending.size === 0) started.unref();
    });
    started.on('error', (err) => {
      worker = undefined;
      failAll(`the sending thread failed: ${err.message}`);
    });
    started.on('exit', () => {
      if (worker === started) worker = undefined;
      failAll('the sending thread stopped');
    });
    started.unref();
    return started;
  }

  const fetchInWorker = (url: string, init: FetchInit = {}): Promise<FetchResult> => {
    worker ??= start();
    const id = nextId++;
    // Keep the process alive while a request is on its way.
    worker.ref();
    return new Promise((resolve) => {
      pending.set(id, resolve);
      worker!.postMessage({ id, url, init });
    });
  };

  return Object.assign(fetchInWorker, {
    async close() {
      const running = worker;
      worker = undefined;
      if (running) await running.terminate();
    },
  });
}
