/**
 * Opens the database the configuration names (embedded SQLite by default, PostgreSQL with
 * DATABASE_URL) and applies the migrations.
 */
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type Driver,
  type Insertable,
  type SqliteDialectConfig,
} from 'kysely';
import type { Database } from './schema.ts';
import { dialectSeam, type DialectSeam } from './dialect.ts';
import { migrationProvider } from './migrations/index.ts';
import { groupCommitter, type TransactionWork } from './shared-transactions.ts';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  dialect: DialectSeam;
  /**
   * Appends many rows to a table as cheaply as the dialect allows: the write-behind buffers (audit
   * log) use it. Rows of one call must share their columns.
   */
  appendRows<T extends keyof Database>(table: T, rows: Insertable<Database[T]>[]): Promise<void>;
  /**
   * Runs `work` in a transaction, like `db.transaction().execute(work)`, that SQLite may share with
   * the other writes of the same moment (group commit, see shared-transactions.ts); PostgreSQL runs
   * it alone. For hot paths whose work touches only the database.
   */
  inSharedTransaction<T>(work: TransactionWork<Database, T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl?: string;
  databaseSchema?: string;
}

// int8 (counts, sums) as JS numbers rather than strings.
pg.types.setTypeParser(20, (value) => Number(value));

/** Opens the database and brings its schema up to date. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (!options.databaseUrl) {
    const handle = openSqlite(options.dataDir);
    await migrate(handle.db, undefined);
    return handle;
  }
  const { databaseUrl, databaseSchema: schema } = options;
  // Kysely's migrator reads the catalog of every schema in the database, which fails when another
  // process drops one meanwhile (test schemas come and go): creating, migrating and dropping
  // schemas take turns.
  return withSchemaChangeLock(databaseUrl, async (admin) => {
    if (schema) await admin.query(`create schema if not exists "${schema}"`);
    const handle = openPostgres(databaseUrl, schema);
    try {
      await migrate(handle.db, schema);
    } catch (err) {
      await handle.close();
      throw err;
    }
    return handle;
  });
}

function openSqlite(dataDir: string): DatabaseHandle {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = new SQLite(path.join(dataDir, 'parley.sqlite'));
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  // The appender thread checkpoints the WAL, keeping checkpoint fsyncs off the event loop.
  file.pragma('wal_autocheckpoint = 0');
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(file) }) });

  const appender = startSqliteAppender(path.join(dataDir, 'parley.sqlite'));
  return {
    db,
    dialect: dialectSeam('sqlite'),
    appendRows: appender.append as DatabaseHandle['appendRows'],
    inSharedTransaction: groupCommitter(db),
    async close() {
      await appender.close();
      await db.destroy();
    },
  };
}

const STATEMENT_CACHE_LIMIT = 1000;

/**
 * The connection as Kysely sees it, with prepared statements kept by their SQL. Kysely prepares
 * every query afresh, and preparing (an FTS5 query above all) costs more than running it; the
 * same few dozen statements make up nearly every request. Statements run synchronously, so one
 * is never used by two queries at once.
 */
function withStatementCache(file: SQLite.Database): SqliteDialectConfig['database'] {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => file.close(),
    prepare(sqlText: string) {
      let statement = statements.get(sqlText);
      if (!statement) {
        statement = file.prepare(sqlText);
        // Multi-row inserts make a new text per row count; a full cache starts over rather than grow.
        if (statements.size >= STATEMENT_CACHE_LIMIT) statements.clear();
        statements.set(sqlText, statement);
      }
      return statement;
    },
  };
}

/**
 * SQLite transactions that take the write lock when they begin. A deferred transaction that reads
 * and then writes fails at once (SQLITE_BUSY_SNAPSHOT) when another connection (the append thread)
 * committed in between; an immediate one waits its turn under busy_timeout instead.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings);
  }
}

/**
 * Appends go to a worker thread with its own connection. Building a multi-row insert through
 * Kysely costs ~17 µs a row; the worker's cached prepared statement ~2, and none of it, nor the
 * WAL checkpoints, runs on the event loop.
 */
function startSqliteAppender(file: string) {
  const worker = new Worker(new URL('./sqlite-append.worker.mjs', import.meta.url), { workerData: { path: file } });
  const pending = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  const inFlight = new Set<Promise<void>>();
  let nextId = 1;
  worker.on('message', ({ id, error }: { id: number; error?: string }) => {
    const waiter = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    if (error) waiter?.reject(new Error(error));
    else waiter?.resolve();
  });
  let failure: Error | undefined;
  worker.on('error', (err) => {
    failure = err;
    for (const waiter of pending.values()) waiter.reject(err);
    pending.clear();
  });
  worker.unref();
  return {
    append(table: string, rows: Record<string, unknown>[]): Promise<void> {
      if (rows.length === 0) return Promise.resolve();
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      // Keep the process alive while a write is on its way (e.g. the last flush at shutdown).
      worker.ref();
      // Sent as one flat array of values: copying it to the thread costs half what the objects would.
      const columns = Object.keys(rows[0]!);
      const values: unknown[] = [];
      for (const row of rows) for (const column of columns) values.push(row[column]);
      const written = new Promise<void>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, table, columns, values });
      });
      inFlight.add(written);
      void written.catch(() => {}).finally(() => inFlight.delete(written));
      return written;
    },
    /** Waits for the appends already sent, then stops the thread. */
    async close(): Promise<void> {
      await Promise.allSettled([...inFlight]);
      await worker.terminate();
    },
  };
}

function openPostgres(databaseUrl: string, schema: string | undefined): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 10,
    ...(schema ? { options: `-c search_path="${schema}"` } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  async function appendRows<T extends keyof Database>(table: T, rows: Insertable<Database[T]>[]): Promise<void> {
    // PostgreSQL caps a statement at 65,535 parameters.
    for (let i = 0; i < rows.length; i += 1000) {
      await db.insertInto(table).values(rows.slice(i, i + 1000) as never).execute();
    }
  }
  return {
    db,
    dialect: dialectSeam('postgres'),
    appendRows,
    // Each transaction has a connection of its own and commits alone; nothing to share.
    inSharedTransaction: (work) => db.transaction().execute(work),
    close: () => db.destroy(),
  };
}

async function migrate(db: Db, schema: string | undefined): Promise<void> {
  // Naming the schema keeps Kysely from mistaking another schema's migration tables for ours.
  const migrator = new Migrator({ db, provider: migrationProvider, ...(schema && { migrationTableSchema: schema }) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

/** Drops a PostgreSQL schema and everything in it (test clean-up). */
export async function dropPostgresSchema(databaseUrl: string, schema: string): Promise<void> {
  await withSchemaChangeLock(databaseUrl, (admin) => admin.query(`drop schema if exists "${schema}" cascade`));
}

// Any fixed number: PostgreSQL advisory locks are named by integers.
const SCHEMA_CHANGE_LOCK = 7_263_015;

/** Runs `work` holding a database-wide advisory lock, on a connection of its own. */
async function withSchemaChangeLock<T>(databaseUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock($1)', [SCHEMA_CHANGE_LOCK]);
    return await work(admin);
  } finally {
    // Ending the session releases the lock.
    await admin.end();
  }
}

export { sql };
