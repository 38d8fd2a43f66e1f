import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type Generated } from 'kysely';
import { groupCommitter } from './shared-transactions.ts';

interface Notes {
  notes: { id: Generated<number>; text: string };
}

/** A Kysely over a SQLite file that counts the commits it runs, and a second connection to the same file. */
function openCountingDatabase() {
  const file = join(mkdtempSync(join(tmpdir(), 'parley-group-')), 'db.sqlite');
  const connection = new SQLite(file);
  connection.pragma('journal_mode = WAL');
  connection.exec('create table notes (id integer primary key, text text not null unique)');
  let commits = 0;
  const counting = {
    close: () => connection.close(),
    prepare(sqlText: string) {
      if (/^commit/i.test(sqlText)) commits++;
      return connection.prepare(sqlText);
    },
  };
  const db = new Kysely<Notes>({ dialect: new SqliteDialect({ database: counting }) });
  const reader = new SQLite(file, { readonly: true });
  const committedTexts = () => (reader.prepare('select text from notes order by id').all() as { text: string }[]).map((r) => r.text);
  return { db, connection, reader, committedTexts, commits: () => commits };
}

describe('group commit (SQLite)', () => {
  it('commits the writes asked for together once, in order, and rolls back only the one that fails', async () => {
    const { db, reader, committedTexts, commits } = openCountingDatabase();
    const shared = groupCommitter(db);
    const settled: string[] = [];
    const write = (text: string, fail = false) =>
      shared(async (trx) => {
        await trx.insertInto('notes').values({ text }).execute();
        const seen = await trx.selectFrom('notes').select('text').orderBy('id').execute();
        if (fail) throw new Error(`refused ${text}`);
        return seen.map((r) => r.text);
      }).then(
        (seen) => {
          // Heard only once it is committed: another connection already sees it.
          assert.ok(committedTexts().includes(text), `${text} is committed before its caller hears of it`);
          settled.push(`ok ${text}`);
          return seen;
        },
        (err: Error) => {
          settled.push(err.message);
          throw err;
        },
      );
    const before = commits();
    const results = await Promise.allSettled([write('a'), write('b'), write('c', true), write('d')]);
    assert.equal(commits() - before, 1, 'one commit for the four');
    assert.deepEqual(committedTexts(), ['a', 'b', 'd']);
    assert.deepEqual(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)), [['a'], ['a', 'b'], 'refused c', ['a', 'b', 'd']]);
    assert.equal(settled[0], 'refused c', 'a failed write hears at once, before the commit');

    // A failing statement (a duplicate) is rolled back the same way; a write alone commits alone.
    const duplicate = await Promise.allSettled([write('e'), write('a')]);
    assert.equal(duplicate[0]!.status, 'fulfilled');
    assert.match(String((duplicate[1] as PromiseRejectedResult).reason), /UNIQUE constraint failed/);
    await write('f');
    assert.deepEqual(committedTexts(), ['a', 'b', 'd', 'e', 'f']);
    assert.equal(commits() - before, 3);
    reader.close();
    await db.destroy();
  });

  it('fails every write of the group when the commit fails, and commits nothing', async () => {
    const { db, reader, committedTexts, connection } = openCountingDatabase();
    // A deferred foreign key is checked at the commit: a write that breaks it succeeds by itself and
    // makes the commit of its whole group fail.
    connection.pragma('foreign_keys = ON');
    connection.exec('create table tags (note_id integer not null references notes (id) deferrable initially deferred)');
    const shared = groupCommitter(db);
    const results = await Promise.allSettled([
      shared((trx) => trx.insertInto('notes').values({ text: 'x' }).execute()),
      shared(async (trx) => {
        await sql`insert into tags (note_id) values (999)`.execute(trx);
        return 'written';
      }),
      shared((trx) => trx.insertInto('notes').values({ text: 'y' }).execute()),
    ]);
    assert.deepEqual(results.map((r) => r.status), ['rejected', 'rejected', 'rejected']);
    for (const r of results) assert.match(String((r as PromiseRejectedResult).reason), /FOREIGN KEY constraint failed/);
    assert.deepEqual(committedTexts(), []);
    // The database is usable afterwards.
    await shared((trx) => trx.insertInto('notes').values({ text: 'z' }).execute());
    assert.deepEqual(committedTexts(), ['z']);
    reader.close();
    await db.destroy();
  });
});
