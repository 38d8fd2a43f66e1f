/**
 * A bot's knowledge: adding text and pages, listing, deleting, re-crawling, and retrieval. A source's
 * passages and index entries change in one transaction with it, so answers never see half a source.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { DialectSeam } from '../../db/dialect.ts';
import { fullTextFor, queryTerms } from '../../db/full-text.ts';
import { characterCount } from '../../platform/characters.ts';
import { isoAt, type Clock } from '../../platform/clock.ts';
import { ForbiddenError, NotFoundError, UnprocessableError, UpstreamError } from '../../platform/errors.ts';
import type { Retriever, RetrievedPassage } from '../answers/answers.types.ts';
import { chunkText } from './chunking.ts';
import { createLocalEmbedder, encodeVector, type Embedder } from '../answers/semantic/embeddings.ts';
import { fuseRankings } from './hybrid-ranking.ts';
import { createVectorIndex } from './vector-index.ts';
import type { Bus } from '../../platform/bus.ts';
import { BOT_CHANGED, type BotChanged } from '../bots/bots.service.ts';
import * as repo from './knowledge.repository.ts';

export type SourceRow = repo.SourceRow;
export type CrawlSchedule = 'hourly' | 'daily' | 'weekly';

const SCHEDULE_MS: Record<CrawlSchedule, number> = { hourly: 3_600_000, daily: 86_400_000, weekly: 604_800_000 };
const LEASE_MS = 120_000;
/** Quiet time after the last knowledge write before the full-text index is compacted. */
const COMPACT_AFTER_MS = 2_000;
/** Announces that a bot's passages changed, so every instance drops its vectors of that bot. */
export const KNOWLEDGE_CHANGED = 'knowledge.changed';
// Below these cosines a passage is not near enough in meaning to be retrieved for it alone.
const LOCAL_MIN_SIMILARITY = 0.35;
const PROVIDER_MIN_SIMILARITY = 0.2;
const EMBED_BATCH = 64;
/** Longest wait for a provider to embed a question before searching without it. */
const QUERY_EMBEDDING_TIMEOUT_MS = 3_000;

/** A page fetched and reduced to text, or why not. */
export type FetchedPage =
  | { ok: true; url: string; title: string; text: string }
  | { ok: false; kind: 'unreachable' | 'no_text'; detail: string };

export type PageFetcher = (url: string) => Promise<FetchedPage>;

/** A source's text ready to store: its passages and their offline vector rows. */
interface PreparedContent {
  text: string;
  passages: { id: string; heading: string; body: string }[];
  vectorRows: { passage_id: string; model: string; bot_id: string; vector: Buffer }[];
}

export interface KnowledgeServiceDeps {
  db: Db;
  /** Announces bot deletions (the index is cleaned up after them). */
  bus?: Bus;
  dialect: DialectSeam;
  clock: Clock;
  fetchPage?: PageFetcher;
  log?: FastifyBaseLogger;
  /** This instance's name in crawl leases. */
  instanceId?: string;
  /** `parley-local`'s offline embedder (built from the shipped word vectors when not given). */
  localEmbedder?: Embedder;
  /** A provider's embedding model, when one is configured: passages are embedded in the background. */
  providerEmbedder?: Embedder;
  /** How much each ranking counts in the fusion (the evaluation turns parts off to measure them). */
  rankingWeights?: { fullText: number; local: number; provider: number };
}

export type KnowledgeService = ReturnType<typeof createKnowledgeService>;

export function createKnowledgeService(deps: KnowledgeServiceDeps) {
  const { db, bus, dialect, clock, fetchPage, log, instanceId = randomUUID(), providerEmbedder } = deps;
  const weights = deps.rankingWeights ?? { fullText: 1, local: 1, provider: 1 };
  const localEmbedder = deps.localEmbedder ?? createLocalEmbedder();
  const fullText = fullTextFor(dialect.name);
  const vectors = createVectorIndex({ load: (botId, model) => repo.botVectors(db, botId, model), now: () => clock.now() });
  bus?.subscribe(BOT_CHANGED, (message) => {
    const change = message as BotChanged;
    if (!change.deleted) return;
    fullText.unindexBot(db, change.botId).catch((err: unknown) => log?.error({ err }, 'knowledge: index clean-up failed'));
    vectors.forget(change.botId);
  });
  bus?.subscribe(KNOWLEDGE_CHANGED, (message) => vectors.forget((message as { botId: string }).botId));
  const background = new Set<Promise<void>>();

  function now(): string {
    return isoAt(clock.now());
  }

  // A burst of writes (a bulk load, a crawl) leaves the index in many pieces; it is compacted once
  // the writes stop, so that retrieval stays fast.
  let compactTimer: NodeJS.Timeout | undefined;
  function compactSoon(): void {
    clearTimeout(compactTimer);
    compactTimer = setTimeout(() => {
      compactTimer = undefined;
      inBackground(fullText.compact(db), 'knowledge: index compaction failed');
    }, COMPACT_AFTER_MS);
    compactTimer.unref();
  }

  /** What an embedding of a passage reads: where it sits and what it says. */
  const embeddingText = (p: { title: string; heading: string; body: string }) => `${p.title}\n${p.heading}\n${p.body}`;

  /**
   * The rows of an embedder's vectors for these passages. A passage it has nothing to say about gets
   * an empty vector, so that it counts as done: the back-fill would otherwise meet it first again and
   * again and never reach the passages after it.
   */
  async function embedPassages(embedder: Embedder, passages: { id: string; bot_id: string; title: string; heading: string; body: string }[], signal?: AbortSignal) {
    const embedded = await embedder.embed(passages.map(embeddingText), signal);
    return passages.map((p, i) => ({ passage_id: p.id, model: embedder.model, bot_id: p.bot_id, vector: encodeVector(embedded[i] ?? new Float32Array(0)) }));
  }

  /**
   * A source's text cut into passages with their offline embeddings, computed before any
   * transaction opens: SQLite has one writer, and every millisecond spent inside a write transaction
   * is one that the audit and counter appenders wait for the lock.
   */
  async function prepareContent(source: { id: string; bot_id: string; name: string }, text: string): Promise<PreparedContent> {
    const passages = chunkText(text).map((p) => ({ id: randomUUID(), heading: p.heading, body: p.text }));
    const vectorRows = await embedPassages(localEmbedder, passages.map((p) => ({ ...p, bot_id: source.bot_id, title: source.name })));
    return { text, passages, vectorRows };
  }

  /** Stores prepared content: the source's text, its passages and their embeddings. */
  async function saveContent(trx: Db, source: { id: string; bot_id: string; name: string }, content: PreparedContent): Promise<void> {
    await repo.updateSource(trx, source.id, { content: content.text, char_count: characterCount(content.text), updated_at: now() });
    await repo.replacePassages(trx, fullText, { id: source.id, bot_id: source.bot_id, title: source.name }, content.passages);
    await repo.insertVectors(trx, content.vectorRows);
    compactSoon();
  }

  /** After a committed change: drop the bot's vectors here and on other instances; embed new passages with the provider. */
  function knowledgeChanged(botId: string): void {
    vectors.forget(botId);
    bus?.publish(KNOWLEDGE_CHANGED, { botId }).catch((err: unknown) => log?.warn({ err }, 'knowledge: change notice not published'));
    if (providerEmbedder) inBackground(embedMissing(providerEmbedder).then(() => undefined), 'knowledge: embedding passages failed');
  }

  /**
   * Embeds passages that lack a vector of this model (new ones, or every one stored before the model
   * was configured), a batch at a time, until none is left; returns how many were embedded.
   */
  async function embedMissing(embedder: Embedder, maxBatches = Infinity): Promise<number> {
    let done = 0;
    for (let batch = 0; batch < maxBatches; batch++) {
      const passages = await repo.passagesWithoutVectors(db, embedder.model, EMBED_BATCH);
      if (passages.length === 0) break;
      const rows = await embedPassages(embedder, passages);
      // Passages deleted meanwhile make the insert fail on its foreign key: the next round skips them.
      await repo.insertVectors(db, rows).catch(async () => {
        for (const row of rows) await repo.insertVectors(db, [row]).catch(() => undefined);
      });
      for (const botId of new Set(rows.map((r) => r.bot_id))) vectors.forget(botId);
      done += rows.length;
    }
    return done;
  }

  /** The query's embedding by the provider, or null when it fails or takes too long (search goes on without it). */
  async function providerQueryVector(query: string): Promise<Float32Array | null> {
    if (!providerEmbedder) return null;
    try {
      const [vector] = await providerEmbedder.embed([query], AbortSignal.timeout(QUERY_EMBEDDING_TIMEOUT_MS));
      return vector ?? null;
    } catch (err) {
      log?.warn({ err }, 'knowledge: the question could not be embedded by the provider');
      return null;
    }
  }

  async function createSource(
    botId: string,
    fields: { type: 'text' | 'url' | 'file'; name: string; url?: string; status: SourceRow['status']; text: string },
  ): Promise<SourceRow> {
    const id = randomUUID();
    const at = now();
    const content = fields.text ? await prepareContent({ id, bot_id: botId, name: fields.name }, fields.text) : undefined;
    await db.transaction().execute(async (trx) => {
      await repo.insertSource(trx, {
        id,
        bot_id: botId,
        type: fields.type,
        name: fields.name,
        url: fields.url ?? null,
        status: fields.status,
        status_detail: null,
        content: '',
        char_count: 0,
        crawl_schedule: null,
        next_crawl_at: null,
        last_crawled_at: fields.type === 'url' && fields.status !== 'processing' ? at : null,
        lease_owner: null,
        lease_until: null,
        created_at: at,
        updated_at: at,
      });
      if (content) await saveContent(trx, { id, bot_id: botId, name: fields.name }, content);
    });
    if (fields.text) knowledgeChanged(botId);
    return (await repo.findSource(db, id))!;
  }

  async function fetchOrThrow(url: string) {
    if (!fetchPage) throw new UpstreamError('Fetching pages is not available');
    const page = await fetchPage(url);
    if (!page.ok) {
      if (page.kind === 'no_text') throw new UnprocessableError(`The page has no usable text: ${page.detail}`);
      throw new UpstreamError(`The page could not be fetched: ${page.detail}`);
    }
    return page;
  }

  /** Fetches a URL source again and swaps its content in; the old passages serve until then. */
  async function crawl(sourceId: string): Promise<void> {
    const leaseUntil = isoAt(clock.now() + LEASE_MS);
    if (!(await repo.claimSource(db, sourceId, instanceId, now(), leaseUntil))) return;
    const source = await repo.findSource(db, sourceId);
    if (!source || !source.url) return;
    const page = fetchPage ? await fetchPage(source.url) : ({ ok: false, kind: 'unreachable', detail: 'fetching is not available' } as const);
    const at = now();
    const next = source.crawl_schedule ? isoAt(clock.now() + SCHEDULE_MS[source.crawl_schedule]) : null;
    const content = page.ok ? await prepareContent(source, page.text) : undefined;
    if (!(await repo.findSource(db, sourceId))) return; // deleted meanwhile
    await db.transaction().execute(async (trx) => {
      if (page.ok) {
        await saveContent(trx, source, content!);
        await repo.updateSource(trx, sourceId, { status: source.status === 'trained' ? 'trained' : 'ready', status_detail: null });
      } else if (source.status === 'processing') {
        await repo.updateSource(trx, sourceId, { status: 'failed', status_detail: page.detail });
      } else {
        // A scheduled re-crawl that fails keeps serving the content it had.
        await repo.updateSource(trx, sourceId, { status_detail: page.detail });
      }
      await repo.updateSource(trx, sourceId, { last_crawled_at: at, next_crawl_at: next, lease_owner: null, lease_until: null });
    });
    if (page.ok) knowledgeChanged(source.bot_id);
  }

  function inBackground(task: Promise<void>, failure = 'knowledge: background indexing failed'): void {
    const tracked = task.catch((err: unknown) => log?.error({ err }, failure));
    background.add(tracked);
    void tracked.finally(() => background.delete(tracked));
  }

  async function setSchedule(source: SourceRow, schedule: CrawlSchedule | null): Promise<SourceRow> {
    const next = schedule ? isoAt(clock.now() + SCHEDULE_MS[schedule]) : null;
    await repo.updateSource(db, source.id, { crawl_schedule: schedule, next_crawl_at: next, updated_at: now() });
    return (await repo.findSource(db, source.id))!;
  }

  /** A source of this bot: 404 when it does not exist, 403 when another bot owns it. */
  async function requireOwn(botId: string, sourceId: string): Promise<SourceRow> {
    const source = await repo.findSource(db, sourceId);
    // A catalog item's source is the catalog's to change.
    if (!source || source.type === 'catalog') throw new NotFoundError('Source not found');
    if (source.bot_id !== botId) throw new ForbiddenError('Source belongs to a different bot');
    return source;
  }

  // Hybrid retrieval: the full-text ranking and the embeddings' rankings, fused by rank.
  const retriever: Retriever = {
    async search(botId, query, limit, options = {}): Promise<RetrievedPassage[]> {
      const wide = limit * 2;
      const [localQuery] = await localEmbedder.embed([query]);
      const [lexical, local, provider] = await Promise.all([
        fullText.search(db, botId, queryTerms(query), wide),
        localQuery ? vectors.nearest(botId, localEmbedder.model, localQuery, wide, LOCAL_MIN_SIMILARITY) : [],
        options.providerEmbeddings && providerEmbedder
          ? providerQueryVector(options.meaningText ?? query).then((v) => (v ? vectors.nearest(botId, providerEmbedder.model, v, wide, PROVIDER_MIN_SIMILARITY) : []))
          : [],
      ]);
      const hits = fuseRankings([lexical, local, provider], limit, [weights.fullText, weights.local, weights.provider]);
      const rows = await repo.passagesWithSources(db, hits.map((h) => h.id));
      const byId = new Map(rows.map((r) => [r.id, r]));
      return hits.flatMap((hit) => {
        const row = byId.get(hit.id);
        return row
          ? [{ passageId: row.id, sourceId: row.source_id, sourceTitle: row.name, sourceUrl: row.url ?? '', heading: row.heading, text: row.body, score: hit.score }]
          : [];
      });
    },
    hasKnowledge: (botId) => repo.hasSources(db, botId),
  };

  return {
    retriever,

    /** A text source, searchable when this returns. */
    addText: (botId: string, input: { name: string; content: string }, status: 'trained' | 'ready' = 'trained') =>
      createSource(botId, { type: 'text', name: input.name, status, text: input.content }),

    /** A document's extracted text (dashboard uploads). */
    addDocument: (botId: string, input: { name: string; content: string }) =>
      createSource(botId, { type: 'file', name: input.name, status: 'trained', text: input.content }),

    /** A page fetched now and indexed before this returns (Form 1). */
    async addUrl(botId: string, input: { name: string; url: string }): Promise<{ source: SourceRow; chars: number }> {
      const page = await fetchOrThrow(input.url);
      if (!page.text.trim()) throw new UnprocessableError('The page has no usable text');
      const source = await createSource(botId, { type: 'url', name: input.name, url: input.url, status: 'trained', text: page.text });
      return { source, chars: characterCount(page.text) };
    },

    /**
     * A page queued for indexing in the background (Form 2, the dashboard): `processing`, then
     * `ready` or `failed`. A schedule is set before the first crawl, which then plans the next one.
     */
    async queueUrl(botId: string, input: { name: string; url: string; crawlSchedule?: CrawlSchedule | null }): Promise<SourceRow> {
      let source = await createSource(botId, { type: 'url', name: input.name, url: input.url, status: 'processing', text: '' });
      if (input.crawlSchedule) source = await setSchedule(source, input.crawlSchedule);
      inBackground(crawl(source.id));
      return source;
    },

    async list(botId: string, page?: { limit: number; offset: number }) {
      const [sources, total] = await Promise.all([repo.listSources(db, botId, page), repo.countSources(db, botId)]);
      return { sources, total };
    },

    requireOwn,

    /**
     * Catalog items are knowledge: each has a source of type `catalog`, written in the catalog's own
     * transaction so that an item and what the bot answers about it change together. `prepare`
     * does the slow part (passages, embeddings) before that transaction opens; `changed` tells the
     * caches once it has committed.
     */
    catalogSources: {
      prepare: (source: { id: string; bot_id: string; name: string }, text: string) => prepareContent(source, text),
      async write(trx: Db, source: { id: string; bot_id: string; name: string; url: string | null }, content: PreparedContent, exists: boolean) {
        const at = now();
        if (!exists) {
          await repo.insertSource(trx, {
            id: source.id,
            bot_id: source.bot_id,
            type: 'catalog',
            name: source.name,
            url: source.url,
            status: 'trained',
            status_detail: null,
            content: '',
            char_count: 0,
            crawl_schedule: null,
            next_crawl_at: null,
            last_crawled_at: null,
            lease_owner: null,
            lease_until: null,
            created_at: at,
            updated_at: at,
          });
        } else {
          await repo.updateSource(trx, source.id, { name: source.name, url: source.url });
        }
        await saveContent(trx, source, content);
      },
      remove: (trx: Db, sourceId: string) => repo.deleteSource(trx, fullText, sourceId),
      changed: (botId: string) => {
        knowledgeChanged(botId);
        compactSoon();
      },
    },

    async remove(botId: string, sourceId: string): Promise<void> {
      await requireOwn(botId, sourceId);
      await db.transaction().execute((trx) => repo.deleteSource(trx, fullText, sourceId));
      knowledgeChanged(botId);
      compactSoon();
    },

    /** Sets or clears a URL source's re-crawl schedule. */
    setSchedule,

    /** Crawls the sources that are due (or were left processing); each is claimed by one instance only. */
    async crawlDue(limit = 10): Promise<number> {
      const due = await repo.findDueSources(db, now(), limit);
      for (const { id } of due) await crawl(id);
      return due.length;
    },

    /**
     * Embeds passages still lacking a vector: the offline ones stored before embeddings existed, and
     * (when configured) the provider's; the recurring knowledge job calls it. Returns how many.
     */
    async embedMissing(maxBatches = 20): Promise<number> {
      let done = await embedMissing(localEmbedder, maxBatches);
      if (providerEmbedder) done += await embedMissing(providerEmbedder, maxBatches);
      return done;
    },

    /** Waits for background indexing started by this instance; a compaction not yet begun is dropped. */
    async drain(): Promise<void> {
      clearTimeout(compactTimer);
      await Promise.allSettled([...background]);
    },
  };
}
