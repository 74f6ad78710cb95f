/**
 * The nodes' full-text index of a full write, built in a side thread (issue 35). The writer posts
 * each node's full-text row as it inserts the node (the same texts the view `node_fts_text` gives:
 * a segmented column where `node_segmented` has one, else the node's own), a thread
 * (fts-worker.ts) tokenizes them into `node_fts` of its own new file meanwhile, and the writer
 * then copies that file's shadow tables into the index file. The tokenizing, about half of a
 * 100k-node write, so runs beside the rest of the write instead of as a `rebuild` at its end.
 *
 * The copied index is the index a `rebuild` makes of the same rows: same rowids, column texts,
 * tokenizer and totals, so bm25, `snippet` and every match are the same (FTS5's segment layout may
 * differ; nothing reads it). Should the thread fail, the writer rebuilds as before. The side file is
 * named `<index file>.fts-side`: a crash leaves it with the `.build-` prefix the next publication's
 * sweep removes (publication.ts).
 */
import { rmSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/** One row of `node_fts`: the node's rowid, then id, title, headings, summary, body, tags, terms. */
export type SideFtsRow = [number, string, string, string, string, string, string, string];

/** Rows per message to the thread: large enough that posting costs little, small enough to overlap. */
const ROWS_PER_MESSAGE = 1000;

/** A side full-text build in progress; see the module comment. */
export class SideFtsBuild {
  private pending: SideFtsRow[] = [];
  private readonly worker: Worker;
  /** Settles with null once the side file is complete, else with why it is not. */
  private readonly outcome: Promise<string | null>;
  private ended = false;

  /** Starts the thread on the new file `file` (removed by {@link SideFtsBuild.dispose}). */
  constructor(readonly file: string) {
    this.worker = new Worker(new URL('./fts-worker.js', import.meta.url), { workerData: { file } });
    this.outcome = new Promise((resolve) => {
      this.worker.on('message', (message: { done?: true; error?: string }) => resolve(message.done === true ? null : message.error ?? 'no answer'));
      this.worker.on('error', (error) => resolve(error.message));
      this.worker.on('exit', (code) => resolve(`side full-text thread exited (${code})`));
    });
  }

  /** Queues one row (posted in batches). */
  add(row: SideFtsRow): void {
    this.pending.push(row);
    if (this.pending.length >= ROWS_PER_MESSAGE) this.post();
  }

  private post(): void {
    if (this.pending.length === 0) return;
    this.worker.postMessage({ rows: this.pending });
    this.pending = [];
  }

  /**
   * Posts the last rows and waits for the thread to commit its file.
   * @returns null when the side file holds every row posted, else why not (the caller rebuilds)
   */
  async finish(): Promise<string | null> {
    if (!this.ended) {
      this.ended = true;
      this.post();
      this.worker.postMessage({ end: true });
    }
    return this.outcome;
  }

  /** Stops the thread (when still running) and removes the side file. Never throws. */
  async dispose(): Promise<void> {
    await this.worker.terminate().catch(() => undefined);
    rmSync(this.file, { force: true });
  }
}

/**
 * Replaces `node_fts`'s index in the index file open as `db` (a full write, committed, with no
 * transaction open and no row written to `node_fts` yet) by the side file's: its data, term index
 * and document sizes, as stored. The configuration rows (FTS5 version, the `rank` function) stay
 * the index file's. The connection must not write `node_fts` afterwards (FTS5 may have cached the
 * empty index's structure): the writer closes it.
 * @throws SQLite errors (the caller removes the file)
 */
export function adoptSideFts(db: InstanceType<typeof Database>, sideFile: string): void {
  db.prepare('ATTACH DATABASE ? AS fts_side').run(sideFile);
  try {
    // The shadow tables are read-only to plain SQL in defensive mode (better-sqlite3's default).
    db.unsafeMode(true);
    db.transaction(() => {
      for (const table of ['node_fts_data', 'node_fts_idx', 'node_fts_docsize']) {
        db.exec(`DELETE FROM main.${table}`);
        db.exec(`INSERT INTO main.${table} SELECT * FROM fts_side.${table}`);
      }
    })();
  } finally {
    db.unsafeMode(false);
    db.exec('DETACH DATABASE fts_side');
  }
}
