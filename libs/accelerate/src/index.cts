/**
 * @docforge/accelerate: the start-up accelerators behind one fence (issue 29 item 2): the
 * `DOCFORGE_ACCELERATE` switch, the {@link Accelerators} value every tactic's gate asks, the V8
 * code cache, the launchers' bundle freshness rule ({@link bundleState}, {@link writeBundleManifest})
 * and how they load a fresh bundle ({@link loadBundle}). CommonJS, so the CLI launcher and the TypeScript adapter's compiler loader (CommonJS
 * both) can `require` it on Node 20.10; ES modules import it by name as usual.
 */
export type { Accelerator } from './switch.cjs';
export { ACCELERATE_ENV, ACCELERATORS, AccelerateError, parseAccelerate } from './switch.cjs';
export type { AcceleratorSettings, CodeCachedLoadOptions } from './accelerators.cjs';
export { Accelerators } from './accelerators.cjs';
export type { BundleState, FileIdentity } from './bundle-state.cjs';
export { bundleManifestPath, bundleState, fileIdentity, writeBundleManifest } from './bundle-state.cjs';
export type { CodeCacheLoad, CodeCacheOptions, CodeCacheSettings, CodeCacheStatus } from './code-cache.cjs';
export { CACHE_FILES_PER_MODULE, codeCacheDir, loadWithCodeCache, readRegularFile, registerModule, STALE_CACHE_MS } from './code-cache.cjs';
export type { BundleLoad } from './load-bundle.cjs';
export { isThenable, loadBundle } from './load-bundle.cjs';
