import path from 'node:path';

/**
 * The paths of one project's state directory (DESIGN.md section 3 `[state]`, section 4):
 * `index/` is disposable (published SQLite files, `current.json`, the generation receipt),
 * `changesets/` is durable, `previews/` holds rendered previews, `locks/` holds the lock
 * directories of {@link withLock}.
 */
export interface StateLayout {
  /** Absolute project root the state directory must stay inside (see `ensureStateDir`). */
  root: string;
  /** Absolute state directory (`<root>/<state.dir>`). */
  stateDir: string;
  /** `<state>/index`: published index files, `current.json`, the receipt. */
  indexDir: string;
  /** `<state>/index/current.json`: the publication record. */
  currentFile: string;
  /** `<state>/index/generation-receipt.json`: the latest generation receipt. */
  receiptFile: string;
  /** `<state>/changesets`: durable proposal store. */
  changesetsDir: string;
  /** `<state>/previews`: rendered previews. */
  previewsDir: string;
  /** `<state>/locks`: lock directories. */
  locksDir: string;
  /** `<state>/locks/index-publication.lock`: serializes publications of `current.json`. */
  publicationLock: string;
  /** `<state>/locks/index-build.lock`: one build per project at a time, across processes (libs/sync build-turn.ts). */
  buildLock: string;
  /** `<state>/application`: the canonical application's write-ahead journal and backups (issue 11). */
  applicationDir: string;
  /** `<state>/application/journal.json`: present exactly while an application is open or interrupted. */
  applicationJournal: string;
  /** `<state>/application/epoch`: a token rewritten before every application touches a canonical file. */
  applicationEpoch: string;
  /** `<state>/locks/application.lock`: serializes canonical applications and their recovery. */
  applicationLock: string;
  /**
   * `<state>/index/review-baseline.json`: the review hash of each document link's target when a
   * build first saw the link (issue 32 item 2, `drift_unreviewed_change`); disposable, never canonical.
   */
  reviewBaselineFile: string;
}

/**
 * Resolves the state layout for an absolute state directory. Pure: creates nothing.
 * @param stateDir absolute `<root>/<state.dir>`
 * @param root absolute project root; defaults to the parent of `stateDir` (a one-segment state dir)
 */
export function stateLayout(stateDir: string, root: string = path.dirname(stateDir)): StateLayout {
  const indexDir = path.join(stateDir, 'index');
  const locksDir = path.join(stateDir, 'locks');
  return {
    root,
    stateDir,
    indexDir,
    currentFile: path.join(indexDir, 'current.json'),
    receiptFile: path.join(indexDir, 'generation-receipt.json'),
    changesetsDir: path.join(stateDir, 'changesets'),
    previewsDir: path.join(stateDir, 'previews'),
    locksDir,
    publicationLock: path.join(locksDir, 'index-publication.lock'),
    buildLock: path.join(locksDir, 'index-build.lock'),
    applicationDir: path.join(stateDir, 'application'),
    applicationJournal: path.join(stateDir, 'application', 'journal.json'),
    applicationEpoch: path.join(stateDir, 'application', 'epoch'),
    applicationLock: path.join(locksDir, 'application.lock'),
    reviewBaselineFile: path.join(indexDir, 'review-baseline.json'),
  };
}
