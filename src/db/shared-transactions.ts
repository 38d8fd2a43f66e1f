/**
 * Group commit for SQLite. Every SQLite commit writes its pages to the WAL, and on the chat path
 * that write costs more than the statements before it (two commits a message and its answer).
 * Writes that arrive in the same turn of the event loop are run one after another in a single
 * transaction, each inside its own savepoint, and committed once:
 *
 * - a work that throws rolls back to its savepoint: its writes are gone, the others' stay, and its
 *   caller gets its own error at once;
 * - a work that succeeds is resolved only after the commit, so no caller hears "stored" for a
 *   write that could still be lost; if the commit fails, every caller of the group gets that error;
 * - works run in the order they were asked for, so a later one sees an earlier one's writes, as it
 *   would after that one's own commit.
 *
 * A work must only touch the database through the transaction it is given: it holds the group's
 * (and SQLite's one) write lock while it runs. It must not wait for another shared transaction,
 * which would wait for this group to end.
 */
import { sql, type Kysely, type Transaction } from 'kysely';

export type TransactionWork<DB, T> = (trx: Transaction<DB>) => Promise<T>;

interface Pending<DB> {
  work: TransactionWork<DB, unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

export function groupCommitter<DB>(db: Kysely<DB>): <T>(work: TransactionWork<DB, T>) => Promise<T> {
  let queue: Pending<DB>[] = [];

  async function commitGroup(group: Pending<DB>[]): Promise<void> {
    if (group.length === 1) {
      const [only] = group as [Pending<DB>];
      await db.transaction().execute(only.work).then(only.resolve, only.reject);
      return;
    }
    const succeeded: { unit: Pending<DB>; value: unknown }[] = [];
    const failed = new Set<Pending<DB>>();
    try {
      await db.transaction().execute(async (trx) => {
        for (const unit of group) {
          await sql`savepoint group_unit`.execute(trx);
          let value: unknown;
          try {
            value = await unit.work(trx);
          } catch (err) {
            failed.add(unit);
            unit.reject(err);
            // If SQLite itself rolled the transaction back (a full disk), this throws and the
            // whole group fails below.
            await sql`rollback to group_unit`.execute(trx);
            await sql`release group_unit`.execute(trx);
            continue;
          }
          await sql`release group_unit`.execute(trx);
          succeeded.push({ unit, value });
        }
      });
    } catch (err) {
      for (const unit of group) if (!failed.has(unit)) unit.reject(err);
      return;
    }
    for (const { unit, value } of succeeded) unit.resolve(value);
  }

  function flush(): void {
    const group = queue;
    queue = [];
    void commitGroup(group);
  }

  return function inSharedTransaction<T>(work: TransactionWork<DB, T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (queue.length === 0) setImmediate(flush);
      queue.push({ work: work as TransactionWork<DB, unknown>, resolve: resolve as (value: unknown) => void, reject });
    });
  };
}
