/** @docforge/sync: IndexManager (identity -> decide -> build -> open), the source watcher and partial walks, the build worker pool and its entry, and the CLI's no-change answer. */
export type { BuildProgress, IndexManagerOptions, Staleness, SyncReport } from './manager.js';
export { IndexManager, resolveProjectRoot } from './manager.js';
export type { ErrorIssueSummary, NoChangeAnswer } from './no-change.js';
export { errorIssueSummary, noChangeSync, SYNC_ERRORS_SHOWN } from './no-change.js';
export type { BuildPool, PoolDeath, PoolErrorListener } from './build-pool.js';
export { BUILD_YOUNG_GENERATION_MB, poolDeath, runOnPool } from './build-pool.js';
export type { BuildPoolSettings } from './build-pools.js';
export { BuildPools, buildPoolSettings, buildWorkerFile, createBuildPool, PrestartedBuildPool, prestartBuildWorker, WORKER_BUNDLE_ENV } from './build-pools.js';
export { partialWalk } from './partial-walk.js';
export { MAX_PARTIAL_PATHS, SourceWatch } from './source-watch.js';
// Issue 32 item 3 (`docforge affected`): the changes since the last publication, without synchronizing.
export type { ChangeBase, ChangeKind, ChangedNode, ChangedSource, CurrentChanges, OpenedPublication } from './affected-changes.js';
export { changeFingerprint, changesFromDiff, changesNow, innermostNode, MAX_CHANGED_SOURCES, MAX_SOURCE_NODES, openLastPublication } from './affected-changes.js';
export type { DiffFile } from './unified-diff.js';
export { MAX_DIFF_BYTES, parseUnifiedDiff } from './unified-diff.js';
