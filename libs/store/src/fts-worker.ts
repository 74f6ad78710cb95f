/**
 * Thread entry of a side full-text build (fts-side.ts, issue 35): builds `node_fts` alone in its
 * own new SQLite file from the rows the index writer posts while it writes the nodes table, so the
 * tokenizing overlaps the writer's own work instead of a `rebuild` at the end of the write.
 *
 * Messages in: `{ rows: SideFtsRow[] }` any number of times, then `{ end: true }`. Message out:
 * `{ done: true }` once the file is committed and closed, or `{ error: string }` (the writer then
 * rebuilds the index itself). The thread writes nothing to stdout or stderr and loads no adapter.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { NODE_FTS_DDL } from './schema.js';
import { sqliteDatabase } from './sqlite.js';
import type { SideFtsRow } from './fts-side.js';

/** Opens the side file (`workerData.file`, new) and answers the writer's messages until `end`. */
function run(port: NonNullable<typeof parentPort>, file: string): void {
  const db = new (sqliteDatabase())(file);
  let failed = false;
  const fail = (error: unknown): void => {
    if (failed) return;
    failed = true;
    try {
      db.close();
    } catch {
      // already unusable: the writer removes the file
    }
    port.postMessage({ error: error instanceof Error ? error.message : String(error) });
  };
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('page_size = 8192');
    db.exec(NODE_FTS_DDL);
    db.exec('BEGIN');
  } catch (error) {
    fail(error);
    return;
  }
  const insert = db.prepare('INSERT INTO node_fts (rowid, id, title, headings, summary, body, tags, terms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  port.on('message', (message: { rows?: SideFtsRow[]; end?: true }) => {
    if (failed) return;
    try {
      if (message.rows !== undefined) for (const row of message.rows) insert.run(row);
      if (message.end === true) {
        db.exec('COMMIT');
        db.close();
        port.postMessage({ done: true });
        port.close();
      }
    } catch (error) {
      fail(error);
    }
  });
}

if (parentPort !== null) run(parentPort, (workerData as { file: string }).file);
