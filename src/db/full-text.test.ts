import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { migrationProvider } from './migrations/index.ts';
import { fullTextFor } from './full-text.ts';

// The row-id ranges exist on SQLite only (PostgreSQL filters on its bot_id column, and its
// migration is a no-op), so this upgrade is tested on the embedded database alone.
describe('full-text index upgrade to per-bot row ranges (SQLite)', () => {
  it('moves rows indexed before it into each bot’s range, and search and indexing go on from there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-fts-'));
    const file = new SQLite(join(dir, 'db.sqlite'));
    // The passages below stand without their sources and bots.
    file.pragma('foreign_keys = OFF');
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: file }) });
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
      assert.equal((await migrator.migrateTo('0005-knowledge-term-counts')).error, undefined);

      // Passages as the earlier code indexed them: default row ids, bots told apart by bot_key.
      const passages = [
        { id: 'p1', bot: '00000000-0000-4000-8000-00000000000a', body: 'Wheels are trued by hand.' },
        { id: 'p2', bot: '00000000-0000-4000-8000-00000000000b', body: 'Wheels ship within two days.' },
        { id: 'p3', bot: '00000000-0000-4000-8000-00000000000a', body: 'Frames are welded in Leeds.' },
      ];
      for (const [i, p] of passages.entries()) {
        await sql`insert into knowledge_passages (id, source_id, bot_id, position, title, heading, body) values (${p.id}, 's', ${p.bot}, ${i}, 'T', '', ${p.body})`.execute(db);
        await sql`insert into knowledge_fts (passage_id, bot_key, title, heading, body) values (${p.id}, ${`b${p.bot.replace(/-/g, '')}`}, 'T', '', ${p.body})`.execute(db);
      }

      assert.equal((await migrator.migrateToLatest()).error, undefined);
      const fullText = fullTextFor('sqlite');
      const [a, b] = [passages[0]!.bot, passages[1]!.bot];
      assert.deepEqual((await fullText.search(db, a, ['wheels'], 8)).map((h) => h.id), ['p1']);
      assert.deepEqual((await fullText.search(db, b, ['wheels'], 8)).map((h) => h.id), ['p2']);
      assert.deepEqual((await fullText.search(db, a, ['frames', 'wheels'], 8)).map((h) => h.id).sort(), ['p1', 'p3']);

      await fullText.index(db, [{ id: 'p4', bot_id: a, title: 'T', heading: '', body: 'Spare wheels come boxed.' }]);
      assert.deepEqual((await fullText.search(db, a, ['spare'], 8)).map((h) => h.id), ['p4']);
      const { rows } = await sql<{ passage_id: string; rowid: number }>`select rowid, passage_id from knowledge_fts order by rowid`.execute(db);
      const rangeOf = (rowid: number) => Math.floor(rowid / 2 ** 28);
      const ranges = new Map(rows.map((r) => [r.passage_id, rangeOf(r.rowid)]));
      assert.equal(ranges.get('p1'), ranges.get('p3'));
      assert.equal(ranges.get('p1'), ranges.get('p4'));
      assert.notEqual(ranges.get('p1'), ranges.get('p2'));

      await fullText.unindexBot(db, a);
      assert.deepEqual((await fullText.search(db, a, ['wheels', 'spare', 'frames'], 8)), []);
      assert.deepEqual((await fullText.search(db, b, ['wheels'], 8)).map((h) => h.id), ['p2']);
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
