/**
 * A bot's knowledge: adding text and pages, listing, deleting, re-crawling, and retrieval. A source's
 * passages and index entries change in one transaction with it, so answers never see half a source.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { DialectSeam } from '../../db/dialect.ts';
import { fullTextFor, queryTerms } from '../../db/full-text.ts';
import { isoAt, type Clock } from '../../platform/clock.ts';
import { ForbiddenError, NotFoundError, UnprocessableError, UpstreamError } from '../../platform/errors.ts';
import type { Retriever, RetrievedPassage } from '../answers/answers.types.ts';
import { chunkText } from './chunking.ts';
import type { Bus } from '../../platform/bus.ts';
import { BOT_CHANGED, type BotChanged } from '../bots/bots.service.ts';
import * as repo from './knowledge.repository.ts';

export type SourceRow = repo.SourceRow;
export type CrawlSchedule = 'hourly' | 'daily' | 'weekly';

const SCHEDULE_MS: Record<CrawlSchedule, number> = { hourly: 3_600_000, daily: 86_400_000, weekly: 604_800_000 };
const LEASE_MS = 120_000;
/** Quiet time after the last knowledge write before the full-text index is compacted. */
const COMPACT_AFTER_MS = 2_000;

/** A page fetched and reduced to text, or why not. */
export type FetchedPage =
  | { ok: true; url: string; title: string; text: string }
  | { ok: false; kind: 'unreachable' | 'no_text'; detail: string };

export type PageFetcher = (url: string) => Promise<FetchedPage>;

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
}

export type KnowledgeService = ReturnType<typeof createKnowledgeService>;

export function createKnowledgeService({ db, bus, dialect, clock, fetchPage, log, instanceId = randomUUID() }: KnowledgeServiceDeps) {
  const fullText = fullTextFor(dialect.name);
  bus?.subscribe(BOT_CHANGED, (message) => {
    const change = message as BotChanged;
    if (change.deleted) fullText.unindexBot(db, change.botId).catch((err: unknown) => log?.error({ err }, 'knowledge: index clean-up failed'));
  });
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

  /** Stores the source's text and its passages in one transaction. */
  async function saveContent(trx: Db, source: { id: string; bot_id: string; name: string }, text: string): Promise<void> {
    const passages = chunkText(text).map((p) => ({ id: randomUUID(), heading: p.heading, body: p.text }));
    await repo.updateSource(trx, source.id, { content: text, char_count: text.length, updated_at: now() });
    await repo.replacePassages(trx, fullText, { id: source.id, bot_id: source.bot_id, title: source.name }, passages);
    compactSoon();
  }

  async function createSource(
    botId: string,
    fields: { type: 'text' | 'url' | 'file'; name: string; url?: string; status: SourceRow['status']; text: string },
  ): Promise<SourceRow> {
    const id = randomUUID();
    const at = now();
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
      if (fields.text) await saveContent(trx, { id, bot_id: botId, name: fields.name }, fields.text);
    });
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
    if (!(await repo.findSource(db, sourceId))) return; // deleted meanwhile
    await db.transaction().execute(async (trx) => {
      if (page.ok) {
        await saveContent(trx, source, page.text);
        await repo.updateSource(trx, sourceId, { status: source.status === 'trained' ? 'trained' : 'ready', status_detail: null });
      } else if (source.status === 'processing') {
        await repo.updateSource(trx, sourceId, { status: 'failed', status_detail: page.detail });
      } else {
        // A scheduled re-crawl that fails keeps serving the content it had.
        await repo.updateSource(trx, sourceId, { status_detail: page.detail });
      }
      await repo.updateSource(trx, sourceId, { last_crawled_at: at, next_crawl_at: next, lease_owner: null, lease_until: null });
    });
  }

  function inBackground(task: Promise<void>, failure = 'knowledge: background indexing failed'): void {
    const tracked = task.catch((err: unknown) => log?.error({ err }, failure));
    background.add(tracked);
    void tracked.finally(() => background.delete(tracked));
  }

  /** A source of this bot: 404 when it does not exist, 403 when another bot owns it. */
  async function requireOwn(botId: string, sourceId: string): Promise<SourceRow> {
    const source = await repo.findSource(db, sourceId);
    if (!source) throw new NotFoundError('Source not found');
    if (source.bot_id !== botId) throw new ForbiddenError('Source belongs to a different bot');
    return source;
  }

  const retriever: Retriever = {
    async search(botId, query, limit): Promise<RetrievedPassage[]> {
      const hits = await fullText.search(db, botId, queryTerms(query), limit);
      const rows = await repo.passagesWithSources(db, hits.map((h) => h.id));
      const byId = new Map(rows.map((r) => [r.id, r]));
      return hits.flatMap((hit) => {
        const row = byId.get(hit.id);
        return row
          ? [{ passageId: row.id, sourceId: row.source_id, sourceTitle: row.name, sourceUrl: row.url ?? '', heading: row.heading, text: row.body, score: hit.score }]
          : [];
      });
    },
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
      return { source, chars: page.text.length };
    },

    /** A page queued for indexing in the background (Form 2): `processing`, then `ready` or `failed`. */
    async queueUrl(botId: string, input: { name: string; url: string }): Promise<SourceRow> {
      const source = await createSource(botId, { type: 'url', name: input.name, url: input.url, status: 'processing', text: '' });
      inBackground(crawl(source.id));
      return source;
    },

    async list(botId: string, page?: { limit: number; offset: number }) {
      const [sources, total] = await Promise.all([repo.listSources(db, botId, page), repo.countSources(db, botId)]);
      return { sources, total };
    },

    requireOwn,

    async remove(botId: string, sourceId: string): Promise<void> {
      await requireOwn(botId, sourceId);
      await db.transaction().execute((trx) => repo.deleteSource(trx, fullText, sourceId));
      compactSoon();
    },

    /** Sets or clears a URL source's re-crawl schedule. */
    async setSchedule(source: SourceRow, schedule: CrawlSchedule | null): Promise<SourceRow> {
      const next = schedule ? isoAt(clock.now() + SCHEDULE_MS[schedule]) : null;
      await repo.updateSource(db, source.id, { crawl_schedule: schedule, next_crawl_at: next, updated_at: now() });
      return (await repo.findSource(db, source.id))!;
    },

    /** Crawls the sources that are due (or were left processing); each is claimed by one instance only. */
    async crawlDue(limit = 10): Promise<number> {
      const due = await repo.findDueSources(db, now(), limit);
      for (const { id } of due) await crawl(id);
      return due.length;
    },

    /** Waits for background indexing started by this instance; a compaction not yet begun is dropped. */
    async drain(): Promise<void> {
      clearTimeout(compactTimer);
      await Promise.allSettled([...background]);
    },
  };
}
