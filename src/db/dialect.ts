/**
 * The one place where SQLite and PostgreSQL differ. Feature code asks this seam, never `if (sqlite)`.
 */
import { SqliteAdapter, sql, type ColumnDefinitionBuilder, type Kysely, type RawBuilder } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

export interface DialectSeam {
  readonly name: DialectName;
  /** Column definition for an auto-incrementing integer primary key. */
  serialPrimaryKey(col: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /** SQL type of that column. */
  readonly serialType: 'integer' | 'bigserial';
  /** SQL type of a column of bytes (read back as a Buffer on both). */
  readonly binaryType: 'blob' | 'bytea';
  /** A cheap query that proves the database answers. */
  ping(db: Kysely<any>): Promise<void>;
  /**
   * Serializes transactions that take the same named lock until they end. SQLite already runs one
   * write transaction at a time; PostgreSQL takes a transaction-scoped advisory lock.
   */
  lockTransaction(trx: Kysely<any>, name: string): Promise<void>;
  /**
   * Ends a `select … limit n` that picks rows to claim: PostgreSQL locks them and skips rows another
   * transaction is claiming (several instances); SQLite has one writer and needs nothing.
   */
  readonly skipLockedRows: RawBuilder<unknown>;
}

const sqlite: DialectSeam = {
  name: 'sqlite',
  serialType: 'integer',
  binaryType: 'blob',
  serialPrimaryKey: (col) => col.primaryKey().autoIncrement(),
  async ping(db) {
    await sql`select 1`.execute(db);
  },
  async lockTransaction() {},
  skipLockedRows: sql``,
};

const postgres: DialectSeam = {
  name: 'postgres',
  serialType: 'bigserial',
  binaryType: 'bytea',
  serialPrimaryKey: (col) => col.primaryKey(),
  async ping(db) {
    await sql`select 1`.execute(db);
  },
  async lockTransaction(trx, name) {
    await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(trx);
  },
  skipLockedRows: sql`for update skip locked`,
};

export function dialectSeam(name: DialectName): DialectSeam {
  return name === 'sqlite' ? sqlite : postgres;
}

/** The seam for an open Kysely instance (migrations receive only the instance). */
export function seamOf(db: Kysely<any>): DialectSeam {
  return db.getExecutor().adapter instanceof SqliteAdapter ? sqlite : postgres;
}
