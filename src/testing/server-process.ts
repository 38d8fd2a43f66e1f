/**
 * The real entry point (`src/server.ts`) as a child process, for tests of what only a process
 * shows: configuration refused at start-up, SIGTERM, SIGKILL and a restart.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { usingPostgres } from './test-app.ts';

/** The environment of a production-mode server on 127.0.0.1:`port` with its own data (and PostgreSQL schema). */
export function serverProcessEnv(options: { port: number; dataDir: string; schema: string; extra?: Record<string, string> }): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: String(options.port),
    DATA_DIR: options.dataDir,
    PARLEY_SIGNUP: 'open',
    PARLEY_PASSWORD_HASH_COST: '10',
    ...(usingPostgres && { DATABASE_URL: process.env.TEST_DATABASE_URL!, DATABASE_SCHEMA: options.schema }),
    ...options.extra,
  };
}

/** Starts the server and resolves once `/healthz` answers; otherwise kills it and throws with its stderr. */
export async function startServerProcess(env: Record<string, string>): Promise<ChildProcess> {
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  server.stderr!.on('data', (chunk) => (errors += chunk));
  const base = `http://127.0.0.1:${env.PORT}`;
  // Generous: a cold start compiles the TypeScript while other test files load the machine.
  for (let i = 0; i < 300 && server.exitCode === null; i++) {
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) return server;
    await new Promise((r) => setTimeout(r, 100));
  }
  server.kill('SIGKILL');
  throw new Error(`the server did not answer /healthz (exit code ${server.exitCode}, stderr: ${errors || 'empty'})`);
}
