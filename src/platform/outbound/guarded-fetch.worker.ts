/**
 * The worker side of `createGuardedFetchWorker`: one guarded client, built from the options in
 * workerData, that runs each request the parent posts and posts back its result (a success's body
 * cut to `excerptBytes`).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createGuardedFetch, type FetchInit, type GuardedFetchOptions } from './guarded-fetch.ts';

const { options, excerptBytes } = workerData as { options: GuardedFetchOptions; excerptBytes: number; entry: string };
const fetchGuarded = createGuardedFetch(options);

parentPort!.on('message', async ({ id, url, init }: { id: number; url: string; init: FetchInit }) => {
  const result = await fetchGuarded(url, init);
  parentPort!.postMessage({ id, result: result.ok ? { ...result, body: result.body.subarray(0, excerptBytes) } : result });
});
