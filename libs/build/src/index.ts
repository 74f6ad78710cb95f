/** @docforge/build: the build pipeline the build worker runs (parse, link, resolve, write, publish) and its caches. */
export { loadBuiltinAdapter, loadBuiltinLinker } from './adapter-loader.js';
export { prepareBuild, prepareDeltaBase, primeBuildCaches, resetBuildCaches, runBuild } from './build.js';
export type { BuildOutcome, BuildProgress, BuildStats, BuildTask, PrepareTask, PrimeTask } from './build-types.js';
export { BUILD_WORKER_LOADED } from './build-types.js';
export type { ProjectAdapterReport } from './project-adapter.js';
export { identityWithInputs } from './project-adapter.js';
export { STANDBY_FILE_PATTERN, removeStandbyFiles, standbyReady } from './standby-copy.js';
