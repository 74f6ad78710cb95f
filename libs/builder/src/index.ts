/** @docforge/builder: the build pipeline the build worker runs (parse, link, resolve, write, publish) and its caches, one object passed in. */
export { loadBuiltinAdapter, loadBuiltinLinker } from './adapter-loader.js';
export { runBuild } from './build.js';
export { BuildCaches } from './build-caches.js';
export { prepareBuild, prepareDeltaBase, primeBuildCaches } from './build-idle.js';
export type { BuildOutcome, BuildProgress, BuildStats, BuildTask, PrepareTask, PrimeTask } from './build-types.js';
export { BUILD_WORKER_LOADED } from './build-types.js';
export type { ProjectAdapterReport } from './project-adapter.js';
export { identityWithInputs } from './project-adapter.js';
export { STANDBY_FILE_PATTERN, removeStandbyFiles } from './standby-copy.js';
// Issue 32 item 3 (`docforge affected`): the parse of a build, run on a few changed sources in the caller's thread.
export type { ParseBatchTask, ParsedBatchItem } from './parse.js';
export { parseBatch } from './parse.js';
