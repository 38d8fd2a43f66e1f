/**
 * `npm run generate:dashboard-api`: builds the app in memory (a throw-away SQLite directory),
 * reads its OpenAPI document and writes the dashboard's typed API description to
 * `web/dashboard/src/api/schema.gen.ts`. Run it after changing a route the dashboard calls.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config/config.ts';
import { openRuntime } from '../src/runtime.ts';
import { buildApp } from '../src/app.ts';
import { systemClock } from '../src/platform/clock.ts';
import { dashboardApiTypes, type OpenApiDocument } from './dashboard-api-types.ts';

export const GENERATED_FILE = fileURLToPath(new URL('../web/dashboard/src/api/schema.gen.ts', import.meta.url));

const dataDir = mkdtempSync(join(tmpdir(), 'parley-openapi-'));
try {
  const runtime = await openRuntime(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'test' }), systemClock);
  const app = await buildApp(runtime);
  await app.ready();
  const document = app.swagger() as unknown as OpenApiDocument;
  writeFileSync(GENERATED_FILE, dashboardApiTypes(document));
  await app.close();
  await runtime.close();
  console.log(`wrote ${GENERATED_FILE}`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
