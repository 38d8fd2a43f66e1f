#!/usr/bin/env node
// Runs every *.test.ts under src/ with Node's test runner (TypeScript through tsx).
// Storage tests use SQLite, or PostgreSQL and Redis when TEST_DATABASE_URL / TEST_REDIS_URL are set.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function findTests(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return findTests(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const filter = process.argv.slice(2);
const files = findTests('src')
  .filter((file) => filter.length === 0 || filter.some((f) => file.includes(f)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// The service serves the built browser code: rebuild what changed since, so that tests always run
// the current code. A bundle that fails to build is removed, so its own tests fail and say why.
const built = spawnSync(process.execPath, ['scripts/build-web.mjs', '--if-stale'], { stdio: 'inherit' });
if (built.status !== 0) console.error('test: some browser code failed to build (see above); its tests will fail');

const concurrency = process.env.TEST_CONCURRENCY ?? '2';
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);
