// A worker thread with its own SQLite connection that appends rows in batches and checkpoints the
// WAL, so that these writes and their fsyncs never stall the event loop that serves requests.
// Plain JavaScript: worker threads do not inherit the TypeScript loader.
// Messages in: { id, table, columns, values } (the rows' values one after another); out: { id, error? }.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const CHECKPOINT_EVERY_MS = 1000;
// With no appends arriving, the WAL is still checkpointed this often.
const IDLE_CHECKPOINT_MS = 3000;

const file = new SQLite(workerData.path);
file.pragma('journal_mode = WAL');
file.pragma('synchronous = NORMAL');
file.pragma('busy_timeout = 5000');

// Rows go in 50 to a statement: one statement per row spends more on running it than on the row.
const ROWS_PER_STATEMENT = 50;

const statements = new Map();
function insertFor(table, columns, rowCount) {
  const key = `${table}(${columns.join(',')})x${rowCount}`;
  let statement = statements.get(key);
  if (!statement) {
    const names = columns.map((c) => `"${c}"`).join(', ');
    const row = `(${columns.map(() => '?').join(', ')})`;
    statement = file.prepare(`insert into "${table}" (${names}) values ${Array(rowCount).fill(row).join(', ')}`);
    statements.set(key, statement);
  }
  return statement;
}

const append = file.transaction((table, columns, values) => {
  const perRow = columns.length;
  const rowCount = values.length / perRow;
  let row = 0;
  for (; row + ROWS_PER_STATEMENT <= rowCount; row += ROWS_PER_STATEMENT) {
    insertFor(table, columns, ROWS_PER_STATEMENT).run(values.slice(row * perRow, (row + ROWS_PER_STATEMENT) * perRow));
  }
  for (; row < rowCount; row++) insertFor(table, columns, 1).run(values.slice(row * perRow, (row + 1) * perRow));
});

// The first write after a complete checkpoint starts the WAL over and fsyncs its header, and on
// a busy disk that fsync takes tens of milliseconds. Checkpointing just before this thread's own
// append makes that append the first write, so the wait falls here and not on the event loop.
// Without appends (an idle or widget-only service) a timer checkpoints instead.
let lastCheckpoint = 0;
function checkpoint() {
  lastCheckpoint = Date.now();
  try {
    file.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // A busy database is checkpointed next time.
  }
}

parentPort.on('message', ({ id, table, columns, values }) => {
  try {
    if (values.length > 0) {
      if (Date.now() - lastCheckpoint >= CHECKPOINT_EVERY_MS) checkpoint();
      append.immediate(table, columns, values);
    }
    parentPort.postMessage({ id });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err) });
  }
});

// The main connection does not checkpoint (see database.ts): this thread takes that work.
setInterval(() => {
  if (Date.now() - lastCheckpoint >= IDLE_CHECKPOINT_MS) checkpoint();
}, CHECKPOINT_EVERY_MS);
