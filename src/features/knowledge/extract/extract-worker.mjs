// The worker's entry: TypeScript is read through tsx, as in the service's own thread (workers do
// not inherit the `--import tsx` loader on Node 20).
import { tsImport } from 'tsx/esm/api';

await tsImport('./extract-worker.ts', import.meta.url);
