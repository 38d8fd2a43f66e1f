/**
 * Full-text search over knowledge passages: SQLite FTS5 (porter, unicode61, BM25) on the embedded
 * default, PostgreSQL tsvector + GIN (ts_rank_cd) otherwise. The only place the two differ in
 * search; callers see one interface.
 */
import { sql, type Kysely } from 'kysely';
import { stemmer } from 'stemmer';
import type { DialectName } from './dialect.ts';

export interface IndexedPassage {
  id: string;
  bot_id: string;
  title: string;
  heading: string;
  body: string;
}

export interface PassageHit {
  id: string;
  score: number;
}

export interface FullText {
  createIndex(db: Kysely<any>): Promise<void>;
  dropIndex(db: Kysely<any>): Promise<void>;
  /** Per-term row counts that search reads (a view of the index, kept by the engine). */
  createTermCounts(db: Kysely<any>): Promise<void>;
  dropTermCounts(db: Kysely<any>): Promise<void>;
  /** Gives each bot a range of the index's row ids of its own, moving the rows already indexed. */
  createBotRanges(db: Kysely<any>): Promise<void>;
  /** Adds passages to the index (call in the transaction that inserts them). */
  index(trx: Kysely<any>, passages: IndexedPassage[]): Promise<void>;
  /** Removes a source's passages from the index (call before deleting them, in the same transaction). */
  unindexSource(trx: Kysely<any>, sourceId: string): Promise<void>;
  /** Removes whatever a deleted bot left in the index (its passages are already gone). */
  unindexBot(db: Kysely<any>, botId: string): Promise<void>;
  /** The bot's passages matching any of the terms, best first. */
  search(db: Kysely<any>, botId: string, terms: string[], limit: number): Promise<PassageHit[]>;
  /**
   * Tidies the index after writes, in short steps that let other queries run in between; resolves
   * when nothing is left to do.
   */
  compact(db: Kysely<any>): Promise<void>;
}

/** Pages of index merged per compaction step: a few milliseconds of work holding the write lock. */
const MERGE_PAGES_PER_STEP = 100;

/** Words safe to put in a full-text query of either dialect. */
export function queryTerms(text: string): string[] {
  const words = text.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, 32);
}

/**
 * On SQLite each bot's rows sit in a row-id range of their own (its bucket times ROWS_PER_BOT
 * onwards), and a search reads only that range of each term's list: FTS5 seeks to it. Matching a
 * per-bot token instead (the bot_key column, still written) made FTS5 merge and score that token's
 * list, the bot's every row, on every query: about a fifth of the query's cost. Buckets are never
 * reused (AUTOINCREMENT), and 2^28 rows per bot times 2^24 bots stay within exact JS integers.
 */
const ROWS_PER_BOT = 2 ** 28;

const sqliteFullText: FullText = {
  async createIndex(db) {
    await sql`create virtual table knowledge_fts using fts5(passage_id unindexed, bot_key, title, heading, body, tokenize = 'porter unicode61')`.execute(db);
  },
  async dropIndex(db) {
    await sql`drop table if exists knowledge_fts`.execute(db);
  },
  async createTermCounts(db) {
    await sql`create virtual table knowledge_fts_terms using fts5vocab(knowledge_fts, 'row')`.execute(db);
  },
  async dropTermCounts(db) {
    await sql`drop table if exists knowledge_fts_terms`.execute(db);
  },
  async createBotRanges(db) {
    await sql`create table knowledge_fts_buckets (bucket integer primary key autoincrement, bot_id text not null unique)`.execute(db);
    await sql`insert into knowledge_fts_buckets (bot_id) select distinct bot_id from knowledge_passages order by bot_id`.execute(db);
    await sql`delete from knowledge_fts`.execute(db);
    await sql`
      insert into knowledge_fts (rowid, passage_id, bot_key, title, heading, body)
      select b.bucket * ${ROWS_PER_BOT} + row_number() over (partition by p.bot_id order by p.rowid) - 1,
             p.id, 'b' || replace(p.bot_id, '-', ''), p.title, p.heading, p.body
      from knowledge_passages p join knowledge_fts_buckets b on b.bot_id = p.bot_id`.execute(db);
  },
  async index(trx, passages) {
    if (passages.length === 0) return;
    forgetTermCounts();
    const botId = passages[0]!.bot_id;
    await sql`insert into knowledge_fts_buckets (bot_id) values (${botId}) on conflict (bot_id) do nothing`.execute(trx);
    const range = (await botRange(trx, botId))!;
    const { rows } = await sql<{ rowid: number }>`
      select rowid from knowledge_fts where rowid between ${range.first} and ${range.last} order by rowid desc limit 1`.execute(trx);
    let next = rows.length > 0 ? rows[0]!.rowid + 1 : range.first;
    for (const p of passages) {
      if (p.bot_id !== botId) throw new Error('index: passages of one bot at a time');
      await sql`insert into knowledge_fts (rowid, passage_id, bot_key, title, heading, body)
        values (${next++}, ${p.id}, ${botKey(p.bot_id)}, ${p.title}, ${p.heading}, ${p.body})`.execute(trx);
    }
  },
  async unindexSource(trx, sourceId) {
    forgetTermCounts();
    const source = await sql<{ bot_id: string }>`select bot_id from knowledge_sources where id = ${sourceId}`.execute(trx);
    const range = source.rows[0] && (await botRange(trx, source.rows[0].bot_id));
    if (!range) return;
    await sql`delete from knowledge_fts where rowid between ${range.first} and ${range.last}
      and passage_id in (select id from knowledge_passages where source_id = ${sourceId})`.execute(trx);
  },
  async unindexBot(db, botId) {
    forgetTermCounts();
    knownRanges.get(db)?.delete(botId);
    await db.transaction().execute(async (trx) => {
      const range = await botRange(trx, botId);
      if (!range) return;
      await sql`delete from knowledge_fts where rowid between ${range.first} and ${range.last}`.execute(trx);
      await sql`delete from knowledge_fts_buckets where bot_id = ${botId}`.execute(trx);
    });
  },
  async search(db, botId, terms, limit) {
    if (terms.length === 0) return [];
    // bm25() gives a term found in at least half of the index's rows an IDF of ~0 (FTS5 clamps it
    // to 1e-6), yet matching it makes FTS5 read and score every such row, which in a large
    // knowledge base is most of them. Searching without those terms ranks the same rows in the
    // same order; rows that hold nothing but such terms rank below all of those, so they are only
    // fetched when too few others were found.
    const range = await botRange(db, botId);
    if (!range) return [];
    const telling = await tellingTerms(db, terms);
    const hits = await rankedMatches(db, range, telling, limit);
    if (hits.length >= limit || telling.length === terms.length) return hits;
    const seen = new Set(hits.map((h) => h.id));
    const rest = (await rankedMatches(db, range, terms, limit)).filter((h) => !seen.has(h.id));
    return [...hits, ...rest].slice(0, limit);
  },
  async compact(db) {
    // Every write transaction adds a segment to the FTS5 index and a query reads each segment of
    // each term, so an index built a source at a time answers about a third slower than a merged
    // one. FTS5 reports a merge step that found nothing to do as fewer than two changes.
    for (;;) {
      const merged = await db.transaction().execute(async (trx) => {
        const before = await sql<{ n: number }>`select total_changes() as n`.execute(trx);
        await sql`insert into knowledge_fts(knowledge_fts, rank) values ('merge', ${-MERGE_PAGES_PER_STEP})`.execute(trx);
        const after = await sql<{ n: number }>`select total_changes() as n`.execute(trx);
        return after.rows[0]!.n - before.rows[0]!.n >= 2;
      });
      if (!merged) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  },
};

/** The bot's rows (its row-id range) matching any of the terms, by bm25. */
async function rankedMatches(db: Kysely<any>, range: RowRange, terms: string[], limit: number): Promise<PassageHit[]> {
  if (terms.length === 0) return [];
  const match = terms.map((t) => `"${t}"`).join(' OR ');
  // bm25() is lower-is-better; the weights favour title and heading matches over body ones.
  const { rows } = await sql<{ passage_id: string; rank: number }>`
    select passage_id, bm25(knowledge_fts, 0, 0, 2.0, 1.5, 1.0) as rank
    from knowledge_fts where knowledge_fts match ${match} and rowid between ${range.first} and ${range.last}
    order by rank limit ${limit}`.execute(db);
  return rows.map((r) => ({ id: r.passage_id, score: -r.rank }));
}

interface RowRange {
  first: number;
  last: number;
}

// A bot keeps its bucket until it is deleted (unindexBot forgets it), so searches read it once.
const knownRanges = new WeakMap<Kysely<any>, Map<string, RowRange>>();

/** The bot's row ids in the index, or undefined when it has never had a passage indexed. */
async function botRange(db: Kysely<any>, botId: string): Promise<RowRange | undefined> {
  let known = knownRanges.get(db);
  const cached = known?.get(botId);
  if (cached) return cached;
  const { rows } = await sql<{ bucket: number }>`select bucket from knowledge_fts_buckets where bot_id = ${botId}`.execute(db);
  if (rows.length === 0) return undefined;
  const first = rows[0]!.bucket * ROWS_PER_BOT;
  const range = { first, last: first + ROWS_PER_BOT - 1 };
  if (!known) knownRanges.set(db, (known = new Map()));
  known.set(botId, range);
  return range;
}

/** Row counts per indexed term, and of the whole index, as last read from one database. */
interface TermCounts {
  rows: number;
  terms: Map<string, number>;
  readAt: number;
}

// Counts move slowly and a stale one only decides whether a near-zero term is searched, so they
// are read once a while rather than on every search.
const TERM_COUNTS_TTL_MS = 30_000;
let termCounts = new WeakMap<Kysely<any>, TermCounts>();

/**
 * Drops every cached count after a knowledge write (writes run in transactions, which are not the
 * database object the cache is keyed by): a count of rows read before a large source was added,
 * compared with a term's count read after, would leave out words that are rare in the new index.
 */
function forgetTermCounts(): void {
  termCounts = new WeakMap();
}

/** The terms found in fewer than half of the index's rows (bm25's IDF is above zero only for those). */
async function tellingTerms(db: Kysely<any>, terms: string[]): Promise<string[]> {
  const now = Date.now();
  let counts = termCounts.get(db);
  if (!counts || now - counts.readAt > TERM_COUNTS_TTL_MS) {
    const { rows } = await sql<{ n: number }>`select count(*) as n from knowledge_fts_docsize`.execute(db);
    counts = { rows: Number(rows[0]!.n), terms: new Map(), readAt: now };
    termCounts.set(db, counts);
  }
  const forms = terms.map(indexedForm);
  const unknown = [...new Set(forms.filter((f) => !counts.terms.has(f)))];
  if (unknown.length > 0) {
    const { rows } = await sql<{ term: string; doc: number }>`
      select term, doc from knowledge_fts_terms where term in (${sql.join(unknown)})`.execute(db);
    for (const form of unknown) counts.terms.set(form, 0);
    for (const row of rows) counts.terms.set(row.term, Number(row.doc));
  }
  return terms.filter((_, i) => counts.terms.get(forms[i]!)! * 2 < counts.rows);
}

/**
 * How the porter tokenizer stores a word: without diacritics, and stemmed (Porter's algorithm,
 * as the `stemmer` package implements it) when it is made of ASCII letters. A word this gets wrong
 * is simply not found among the term counts and stays in the search.
 */
function indexedForm(term: string): string {
  const plain = term.normalize('NFD').replace(/\p{M}/gu, '');
  return /^[a-z]+$/.test(plain) ? stemmer(plain) : plain;
}

/** The bot id as one token (FTS5 splits on '-'): the bot_key column, kept for the rows it names, no longer searched. */
function botKey(botId: string): string {
  return `b${botId.replace(/-/g, '')}`;
}

const postgresFullText: FullText = {
  async createIndex(db) {
    await sql`alter table knowledge_passages add column tsv tsvector generated always as (
      setweight(to_tsvector('english', coalesce(title, '')), 'A') ||
      setweight(to_tsvector('english', coalesce(heading, '')), 'B') ||
      setweight(to_tsvector('english', coalesce(body, '')), 'C')) stored`.execute(db);
    await sql`create index knowledge_passages_tsv on knowledge_passages using gin (tsv)`.execute(db);
    await sql`create index knowledge_passages_bot on knowledge_passages (bot_id)`.execute(db);
  },
  async dropIndex(db) {
    await sql`drop index if exists knowledge_passages_tsv`.execute(db);
  },
  // ts_rank_cd weighs no term by its rarity, so there is nothing to prune and nothing to count.
  async createTermCounts() {},
  async dropTermCounts() {},
  // Search filters on the indexed bot_id column.
  async createBotRanges() {},
  // The generated column indexes rows as they are written.
  async index() {},
  async unindexSource() {},
  async unindexBot() {},
  // GIN keeps its own pending list and autovacuum merges it.
  async compact() {},
  async search(db, botId, terms, limit) {
    if (terms.length === 0) return [];
    const query = terms.join(' | ');
    const { rows } = await sql<{ id: string; score: number }>`
      select id, ts_rank_cd(tsv, q) as score
      from knowledge_passages, to_tsquery('english', ${query}) q
      where bot_id = ${botId} and tsv @@ q
      order by score desc limit ${limit}`.execute(db);
    return rows.map((r) => ({ id: r.id, score: Number(r.score) }));
  },
};

export function fullTextFor(dialect: DialectName): FullText {
  return dialect === 'sqlite' ? sqliteFullText : postgresFullText;
}
