/** Every migration, in order. One set serves SQLite and PostgreSQL. */
import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001-foundation.ts';

const migrations: Record<string, Migration> = {
  '0001-foundation': m0001,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
