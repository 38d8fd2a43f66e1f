/**
 * Chat through an LLM provider, Parley beside the smallest useful service: the same local provider
 * (bench/lean-provider.ts) behind `POST /api/v1/chat` of a bot without knowledge and behind a
 * 20-line Node proxy (bench/provider-proxy.ts), in alternating runs. Reported: requests per second
 * at the configured connections (Parley as a share of the proxy) and, one request at a time, the
 * p50 that Parley adds (auth, quota, the session and both messages stored, retrieval, the prompt,
 * the provider client).
 */
import fs from 'node:fs';
import { measure, type LoadOptions, type LoadResult } from './lib.ts';
import type { Fixtures } from './bench.ts';

export interface ProviderThroughput {
  proxyRps: number[];
  parleyRps: number[];
  /** Parley's requests per second over the proxy's, summed over the runs. */
  ratio: number;
  /** p50 one request at a time: the proxy's and Parley's (medians of the runs), and the difference. */
  proxyP50: number;
  parleyP50: number;
  addedP50: number;
  failed: number;
  /**
   * Parley's own CPU time (user + system) per answered request under load, through the provider and,
   * for the same bot without a provider, with `parley-local`: a figure that the machine's other load
   * moves less than requests per second.
   */
  cpuMsPerRequest?: { provider: number; local: number };
}

/** A process's CPU time so far in ms (Linux /proc), or undefined where it cannot be read. */
function cpuMsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

export const PROVIDER_TARGETS = { minRatio: 0.6, maxAddedMs: 2 };

export async function measureProviderThroughput(fixtures: Fixtures, proxyUrl: string, load: LoadOptions, parleyPid?: number, pairs = 2): Promise<ProviderThroughput> {
  const newBot = async (name: string, model: string) => {
    const bot = await fixtures.api<{ id: string }>('POST', '/api/dashboard/bots', { token: fixtures.token, body: { name, selected_model: model } });
    return (await fixtures.api<{ key: string }>('POST', '/api/keys', { token: fixtures.token, body: { bot_id: bot.id, name, scopes: ['chat'] } })).key;
  };
  const providerKey = await newBot('Provider bench bot', 'gpt-4o-mini');
  const localKey = await newBot('Local bench bot', 'parley-local');
  const body = JSON.stringify({ text: 'What are your opening hours on Saturday?' });
  const proxy = { url: `${proxyUrl}/`, method: 'POST', headers: { 'content-type': 'application/json' }, body };
  const parley = { url: `${fixtures.parleyUrl}/api/v1/chat`, method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${providerKey}` }, body };
  const local = { ...parley, headers: { ...parley.headers, authorization: `Bearer ${localKey}` } };

  const result: ProviderThroughput = { proxyRps: [], parleyRps: [], ratio: 0, proxyP50: 0, parleyP50: 0, addedP50: 0, failed: 0 };
  const count = (r: LoadResult) => (result.failed += r.non2xx + r.errors);
  const runLoad = { ...load, durationSec: Math.max(3, Math.round(load.durationSec / 2)) };
  // The run's whole CPU over all its answers, the warm-up's included.
  const cpu = { provider: { ms: 0, requests: 0 }, local: { ms: 0, requests: 0 } };
  const measureCpu = async (target: typeof parley, into: { ms: number; requests: number }) => {
    const before = cpuMsOf(parleyPid);
    const r = await measure(target, runLoad);
    const after = cpuMsOf(parleyPid);
    if (before !== undefined && after !== undefined) {
      into.ms += after - before;
      into.requests += r.responses;
    }
    return r;
  };
  for (let i = 0; i < pairs; i++) {
    const p = await measure(proxy, runLoad);
    const q = await measureCpu(parley, cpu.provider);
    const l = await measureCpu(local, cpu.local);
    count(p);
    count(q);
    count(l);
    result.proxyRps.push(p.rps);
    result.parleyRps.push(q.rps);
  }
  if (cpu.provider.requests > 0 && cpu.local.requests > 0) {
    result.cpuMsPerRequest = { provider: cpu.provider.ms / cpu.provider.requests, local: cpu.local.ms / cpu.local.requests };
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  result.ratio = sum(result.parleyRps) / Math.max(1, sum(result.proxyRps));

  const single = { connections: 1, warmupSec: 1, durationSec: 3 };
  const proxyP50s: number[] = [];
  const parleyP50s: number[] = [];
  for (let i = 0; i < 3; i++) {
    proxyP50s.push((await measure(proxy, single)).p50);
    parleyP50s.push((await measure(parley, single)).p50);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  result.proxyP50 = median(proxyP50s);
  result.parleyP50 = median(parleyP50s);
  result.addedP50 = result.parleyP50 - result.proxyP50;
  return result;
}
