/** Every migration, in order. One set serves SQLite and PostgreSQL. */
import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001-foundation.ts';
import * as m0002 from './0002-knowledge.ts';
import * as m0003 from './0003-provider-keys.ts';
import * as m0004 from './0004-conversations.ts';
import * as m0005 from './0005-knowledge-term-counts.ts';
import * as m0006 from './0006-knowledge-bot-ranges.ts';
import * as m0007 from './0007-knowledge-vectors.ts';
import * as m0008 from './0008-webhooks.ts';
import * as m0009 from './0009-leads.ts';
import * as m0010 from './0010-catalog.ts';
import * as m0011 from './0011-analytics-indexes.ts';
import * as m0012 from './0012-oauth.ts';
import * as m0013 from './0013-analytics-counters.ts';
import * as m0014 from './0014-stored-files.ts';
import * as m0015 from './0015-key-makers.ts';
import * as m0016 from './0016-visitor-sessions.ts';

const migrations: Record<string, Migration> = {
  '0001-foundation': m0001,
  '0002-knowledge': m0002,
  '0003-provider-keys': m0003,
  '0004-conversations': m0004,
  '0005-knowledge-term-counts': m0005,
  '0006-knowledge-bot-ranges': m0006,
  '0007-knowledge-vectors': m0007,
  '0008-webhooks': m0008,
  '0009-leads': m0009,
  '0010-catalog': m0010,
  '0011-analytics-indexes': m0011,
  '0012-oauth': m0012,
  '0013-analytics-counters': m0013,
  '0014-stored-files': m0014,
  '0015-key-makers': m0015,
  '0016-visitor-sessions': m0016,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
