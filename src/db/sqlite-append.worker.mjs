// A worker thread with its own SQLite connection that appends rows in batches and checkpoints the
// WAL, so that these writes and their fsyncs never stall the event loop that serves requests.
// Plain JavaScript: worker threads do not inherit the TypeScript loader.
// Messages in: { id, table, rows }; out: { id, error? }.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const CHECKPOINT_EVERY_MS = 1000;

const file = new SQLite(workerData.path);
file.pragma('journal_mode = WAL');
file.pragma('synchronous = NORMAL');
file.pragma('busy_timeout = 5000');

const statements = new Map();
function insertFor(table, columns) {
  const key = `${table}(${columns.join(',')})`;
  let statement = statements.get(key);
  if (!statement) {
    const names = columns.map((c) => `"${c}"`).join(', ');
    const params = columns.map((c) => `@${c}`).join(', ');
    statement = file.prepare(`insert into "${table}" (${names}) values (${params})`);
    statements.set(key, statement);
  }
  return statement;
}

const append = file.transaction((table, rows) => {
  const insert = insertFor(table, Object.keys(rows[0]));
  for (const row of rows) insert.run(row);
});

parentPort.on('message', ({ id, table, rows }) => {
  try {
    if (rows.length > 0) append.immediate(table, rows);
    parentPort.postMessage({ id });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err) });
  }
});

// The main connection does not checkpoint (see database.ts): this thread takes that work.
setInterval(() => {
  try {
    file.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // A busy database is checkpointed next time.
  }
}, CHECKPOINT_EVERY_MS);
