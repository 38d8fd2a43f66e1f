/**
 * Chat figures for `npm run bench`: a bot with 1,000 knowledge sources loaded through the API,
 * questions drawn from them, the time to the first `token` event on the widget stream with
 * `parley-local`, and what Parley adds before the first token on the OpenAI-compatible path
 * against a local fake provider that streams at once (measured side by side with the provider
 * alone).
 */
import { performance } from 'node:perf_hooks';
import { makeDocument, percentile, pseudoRandom, row, type LatencyRow } from './knowledge.ts';

/** Characters per generated source: a help-centre article's size. */
export const CHAT_SOURCE_CHARS = 2_000;

/** Adds `count` generated sources through `POST /api/v1/knowledge`, a few requests at a time; returns their texts. */
export async function loadChatKnowledge(parleyUrl: string, writeKey: string, count = 1000): Promise<string[]> {
  const docs = Array.from({ length: count }, (_, i) => makeDocument(CHAT_SOURCE_CHARS, 5000 + i));
  let next = 0;
  async function worker(): Promise<void> {
    while (next < docs.length) {
      const i = next++;
      const res = await fetch(`${parleyUrl}/api/v1/knowledge`, {
        method: 'POST',
        headers: { authorization: `Bearer ${writeKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'text', name: `Article ${i}`, content: docs[i] }),
      });
      await res.text();
      if (res.status !== 200) throw new Error(`loading knowledge: POST /api/v1/knowledge answered ${res.status}`);
    }
  }
  await Promise.all(Array.from({ length: 4 }, worker));
  return docs;
}

/** Questions made of words from one sentence of a random source each. */
export function chatQuestions(docs: string[], count: number, seed = 42): string[] {
  const random = pseudoRandom(seed);
  return Array.from({ length: count }, () => {
    const sentences = docs[Math.floor(random() * docs.length)]!.split(/(?<=\.)\s+/).filter((s) => !s.startsWith('#'));
    const words = sentences[Math.floor(random() * sentences.length)]!.split(/\s+/).slice(0, 6);
    return `What about ${words.join(' ').replace(/[.\d]/g, '')}?`;
  });
}

/** Milliseconds from sending the request to the first chunk holding `marker`, then reads to the end. */
async function timeToFirst(url: string, init: RequestInit, marker: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, init);
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let seen = '';
  let first = NaN;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (Number.isNaN(first)) {
      seen += decoder.decode(value, { stream: true });
      if (seen.includes(marker)) first = performance.now() - started;
    }
  }
  if (Number.isNaN(first)) throw new Error(`${url}: no '${marker}' in the response: ${seen.slice(0, 300)}`);
  return first;
}

function streamRequest(botId: string, text: string): RequestInit {
  return {
    method: 'POST',
    headers: { authorization: `Bearer ${botId}`, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ text }),
  };
}

/** Time to the first `token` event on the widget stream, one request at a time. */
export async function measureFirstToken(parleyUrl: string, botId: string, questions: string[]): Promise<LatencyRow> {
  const times: number[] = [];
  for (let i = 0; i < questions.length; i++) {
    const ms = await timeToFirst(`${parleyUrl}/api/widget/chat/stream`, streamRequest(botId, questions[i]!), 'event: token');
    if (i >= 20) times.push(ms); // the first requests warm up
  }
  return row('stream: time to first token, parley-local, 1,000 sources', times, { percentile: 'p50', maxMs: 15 });
}

export interface ProviderOverhead {
  direct: LatencyRow;
  viaParley: LatencyRow;
  /** p50 through Parley minus p50 straight from the provider. */
  addedP50: number;
}

/**
 * The OpenAI-compatible path: the same local provider (streaming at once) asked directly and
 * through Parley's stream, alternating request by request, so that both see the same machine.
 */
export async function measureProviderOverhead(parleyUrl: string, botId: string, providerBaseUrl: string, questions: string[]): Promise<ProviderOverhead> {
  const direct: number[] = [];
  const via: number[] = [];
  for (let i = 0; i < questions.length; i++) {
    const question = questions[i]!;
    const d = await timeToFirst(
      `${providerBaseUrl}/chat/completions`,
      {
        method: 'POST',
        headers: { authorization: 'Bearer bench', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: question }] }),
      },
      'The answer',
    );
    const p = await timeToFirst(`${parleyUrl}/api/widget/chat/stream`, streamRequest(botId, question), 'event: token');
    if (i >= 20) {
      direct.push(d);
      via.push(p);
    }
  }
  const directRow = row('fake provider alone: time to first chunk', direct, { percentile: 'p50', maxMs: Infinity });
  const viaRow = row('stream: time to first token, OpenAI-compatible fake provider', via, { percentile: 'p50', maxMs: Infinity });
  return { direct: directRow, viaParley: viaRow, addedP50: percentile(via, 50) - percentile(direct, 50) };
}
