/**
 * The one place where SQLite and PostgreSQL differ. Feature code asks this seam, never `if (sqlite)`.
 */
import { SqliteAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

export interface DialectSeam {
  readonly name: DialectName;
  /** Column definition for an auto-incrementing integer primary key. */
  serialPrimaryKey(col: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /** SQL type of that column. */
  readonly serialType: 'integer' | 'bigserial';
  /** A cheap query that proves the database answers. */
  ping(db: Kysely<any>): Promise<void>;
}

const sqlite: DialectSeam = {
  name: 'sqlite',
  serialType: 'integer',
  serialPrimaryKey: (col) => col.primaryKey().autoIncrement(),
  async ping(db) {
    await sql`select 1`.execute(db);
  },
};

const postgres: DialectSeam = {
  name: 'postgres',
  serialType: 'bigserial',
  serialPrimaryKey: (col) => col.primaryKey(),
  async ping(db) {
    await sql`select 1`.execute(db);
  },
};

export function dialectSeam(name: DialectName): DialectSeam {
  return name === 'sqlite' ? sqlite : postgres;
}

/** The seam for an open Kysely instance (migrations receive only the instance). */
export function seamOf(db: Kysely<any>): DialectSeam {
  return db.getExecutor().adapter instanceof SqliteAdapter ? sqlite : postgres;
}
