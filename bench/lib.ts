/**
 * Helpers for `npm run bench`: free ports, child server processes (always killed on exit), HTTP
 * readiness, and a load run with autocannon (an uncounted warm-up, then the measured run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

// ---------------------------------------------------------------------------------------------
// Clean-up: children and temporary directories are released on every way out of the process.

const children = new Set<ServerProcess>();
const tempDirs = new Set<string>();
let exitHooksInstalled = false;

function installExitHooks(): void {
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  // Last resort (synchronous): whatever is still alive is killed and temp dirs are removed.
  process.on('exit', () => {
    for (const child of children) child.killNow();
    for (const dir of tempDirs) removeDir(dir);
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\nbench: ${signal} received, stopping the servers`);
      void cleanup().finally(() => process.exit(130));
    });
  }
}

/** Stops every child server (gracefully, then by force) and removes the temporary directories. */
export async function cleanup(): Promise<void> {
  await Promise.all([...children].map((child) => child.stop()));
  for (const dir of tempDirs) removeDir(dir);
  tempDirs.clear();
}

function removeDir(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // Best effort: never let clean-up hide the real outcome.
  }
}

/** A fresh temporary directory, removed by `cleanup()` or at exit. */
export function makeTempDir(prefix: string): string {
  installExitHooks();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

// ---------------------------------------------------------------------------------------------
// Ports and child processes.

/** A TCP port that is free right now on `host` (the OS picks it). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('could not find a free port'))));
    });
  });
}

export interface ServerProcess {
  name: string;
  url: string;
  pid: number | undefined;
  /** The last lines the process wrote (for error messages). */
  recentOutput(): string;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`. Resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL now (synchronous; for the exit hook). */
  killNow(): void;
  hasExited(): boolean;
}

export interface StartServerOptions {
  name: string;
  /** Arguments to `node` (the same binary as this process). */
  args: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  url: string;
  /** Forward the child's output to this process's stderr, each line prefixed with `[name]`. */
  echo?: boolean;
}

/** Spawns a server as a child process of this one; it is stopped by `cleanup()` or at exit. */
export function startServer(options: StartServerOptions): ServerProcess {
  installExitHooks();
  const child: ChildProcess = spawn(process.execPath, options.args, {
    cwd: options.cwd,
    env: options.env as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stopping = false;
  let exited = false;
  const exitPromise = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = true;
      if (!stopping && code !== 0) console.error(`bench: ${options.name} exited unexpectedly (code ${code}, signal ${signal})`);
      resolve();
    });
    child.once('error', (err) => {
      exited = true;
      lines.push(`spawn error: ${err.message}`);
      resolve();
    });
  });

  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      lines.push(line);
      if (lines.length > 50) lines.shift();
      if (options.echo !== false) console.error(`[${options.name}] ${line}`);
    }
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  const handle: ServerProcess = {
    name: options.name,
    url: options.url,
    pid: child.pid,
    recentOutput: () => lines.join('\n'),
    async stop(graceMs = 5000) {
      if (exited) {
        children.delete(handle);
        return;
      }
      stopping = true;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exitPromise;
      clearTimeout(timer);
      children.delete(handle);
    },
    killNow() {
      if (!exited) child.kill('SIGKILL');
    },
    hasExited: () => exited,
  };
  children.add(handle);
  return handle;
}

/** Polls `path` on the server until it answers 2xx; fails early if the process exits. */
export async function waitForHttp(server: ServerProcess, path: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (server.hasExited()) {
      throw new Error(`${server.name} exited before answering ${path}:\n${server.recentOutput()}`);
    }
    try {
      const res = await fetch(server.url + path, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.ok) return;
      lastError = `HTTP ${res.status}`;
    } catch (err) {
      lastError = (err as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${server.name} did not answer ${path} within ${timeoutMs} ms (${lastError}):\n${server.recentOutput()}`);
}

// ---------------------------------------------------------------------------------------------
// Load.

export interface LoadTarget {
  url: string;
  method: string;
  headers?: Record<string, string>;
  body?: string;
  /** Bodies sent in turn, one per request (instead of `body`). */
  bodies?: string[];
}

export interface LoadOptions {
  connections: number;
  warmupSec: number;
  durationSec: number;
}

export interface LoadResult {
  /** Responses per second over the measured part of the run. */
  rps: number;
  /** Latency percentiles in ms, from every measured response (sub-millisecond resolution). */
  p50: number;
  p99: number;
  mean: number;
  max: number;
  total: number;
  /** Responses over the whole run, warm-up included. */
  responses: number;
  non2xx: number;
  /** Connection errors and time-outs over the whole run, warm-up included. */
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

/**
 * One autocannon run of warm-up plus measured seconds against one request; only responses that
 * arrive after the warm-up count. The connections opened for the warm-up carry on into the
 * measured part: a run that opened 32 fresh connections at once against a busy server would
 * time their first requests from before the server could accept them (it accepts about one
 * connection per turn of its event loop), which measures the load generator's start, not the
 * service.
 */
export async function measure(target: LoadTarget, options: LoadOptions): Promise<LoadResult> {
  const latencies = new LatencySamples();
  const statusCodes: Record<string, number> = {};
  let non2xx = 0;
  let responses = 0;
  const measuredFrom = performance.now() + options.warmupSec * 1000;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        method: target.method as autocannon.Request['method'],
        headers: target.headers,
        body: target.body,
        ...(target.bodies && { requests: [rotatingBodies(target.bodies)] }),
        connections: options.connections,
        duration: options.warmupSec + options.durationSec,
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    // autocannon's own histogram has 1 ms resolution; each response time is recorded here instead.
    instance.on('response', (_client, statusCode, _resBytes, responseTime) => {
      responses++;
      if (performance.now() < measuredFrom) return;
      latencies.add(responseTime);
      statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
      if (statusCode < 200 || statusCode > 299) non2xx++;
    });
  });
  const measuredSec = Math.max(0.001, (performance.now() - measuredFrom) / 1000);
  return {
    rps: latencies.count / measuredSec,
    p50: latencies.percentile(50),
    p99: latencies.percentile(99),
    mean: latencies.mean(),
    max: latencies.percentile(100),
    total: latencies.count,
    responses,
    non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
  };
}

/** An autocannon request that sends the bodies in turn. */
function rotatingBodies(bodies: string[]): autocannon.Request {
  let next = 0;
  return { setupRequest: (request: autocannon.Request) => ({ ...request, body: bodies[next++ % bodies.length] }) } as autocannon.Request;
}

/** Response times in ms, in a growable Float64Array (cheap to record on the load generator's loop). */
class LatencySamples {
  private values = new Float64Array(1 << 16);
  count = 0;
  private sorted = false;

  add(ms: number): void {
    if (this.count === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.count++] = ms;
    this.sorted = false;
  }

  percentile(p: number): number {
    if (this.count === 0) return NaN;
    if (!this.sorted) {
      this.values.subarray(0, this.count).sort();
      this.sorted = true;
    }
    const rank = Math.min(this.count - 1, Math.max(0, Math.ceil((p / 100) * this.count) - 1));
    return this.values[rank]!;
  }

  mean(): number {
    if (this.count === 0) return NaN;
    let sum = 0;
    for (let i = 0; i < this.count; i++) sum += this.values[i]!;
    return sum / this.count;
  }
}

// ---------------------------------------------------------------------------------------------
// Output.

/** A plain left/right-aligned text table. */
export function table(header: string[], rows: string[][], rightAligned: boolean[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (rightAligned[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
