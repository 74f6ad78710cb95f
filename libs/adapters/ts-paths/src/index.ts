/**
 * @docforge/ts-paths: the path rules of JavaScript/TypeScript module resolution, without the
 * compiler: the file candidates a specifier names per resolution mode (`fileCandidates`,
 * `resolutionModeOf`), project-relative path helpers, the package.json rules
 * (`parsePackageJson`, `exportTargets`, the `exports` targets Node refuses), what `export *` re-exports (`starExport`, `exportTable`: one walk of the
 * star graph, bounded by a `WalkBudget`), and the `paths`/`baseUrl` aliases of the
 * nearest tsconfig.json or jsconfig.json with their `extends` chains (`AliasConfigs`), and the
 * proven `outDir` → `rootDir` mapping of build output back to its sources (`OutDirMap`). Split out of
 * the TypeScript adapter by concern (issue 31), which keeps the specifier resolver that uses them.
 */
export { fileCandidates, resolutionModeOf } from './candidates.js';
export type { ResolutionMode } from './candidates.js';
export { joinRelative, normalizeRelative, packageDirectories } from './rel-path.js';
export { exportTargets, parsePackageJson, validExportTarget } from './package-json.js';
export type { ExportShape, PackageInfo } from './package-json.js';
export { exportTable, memoView, starExport, WalkBudget } from './star-exports.js';
export type { StarMemo, StarModule, StarWalk } from './star-exports.js';
export { AliasConfigs, MAX_EXTENDS_DEPTH, parseConfigText, pathCandidates } from './tsconfig.js';
export type { AliasConfig, LenientConfigReader, RawOptions } from './tsconfig.js';
export { OutDirMap } from './out-dir.js';
