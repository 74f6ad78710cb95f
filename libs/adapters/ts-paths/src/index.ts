/**
 * @docforge/ts-paths: the path rules of JavaScript/TypeScript module resolution, without the
 * compiler: the file candidates a specifier names per resolution mode (`fileCandidates`,
 * `resolutionModeOf`), project-relative path helpers, and the `paths`/`baseUrl` aliases of the
 * nearest tsconfig.json or jsconfig.json with their `extends` chains (`AliasConfigs`). Split out of
 * the TypeScript adapter by concern (issue 31), which keeps the specifier resolver that uses them.
 */
export { fileCandidates, resolutionModeOf } from './candidates.js';
export type { ResolutionMode } from './candidates.js';
export { joinRelative, normalizeRelative, packageDirectories } from './rel-path.js';
export { AliasConfigs, MAX_EXTENDS_DEPTH, parseConfigText, pathCandidates } from './tsconfig.js';
export type { AliasConfig, LenientConfigReader } from './tsconfig.js';
