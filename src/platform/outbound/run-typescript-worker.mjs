// Starts a worker thread on a TypeScript module: worker threads do not inherit the tsx loader the
// process was started with, so this plain-JavaScript entry registers it, then imports the module
// named in workerData.entry (a file URL).
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);
