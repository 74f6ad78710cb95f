/**
 * `@docforge/ts-link-model`: the TypeScript adapter's link data and the pure resolution over it
 * (split out of `@docforge/adapter-typescript` under the 5,000-line lib cap). It holds the
 * `docforge-ts-link/2` format one extracted file hands the linker (link-data.ts), the linker's
 * indexed view of a file and the name-resolution interface the linker implements (link-model.ts),
 * and the receiver rules that prove `this.f()`, `local.f()` and object-literal calls from
 * declarations (receivers.ts, literal-receivers.ts; DESIGN.md section 7, "no guessed edges").
 * No compiler, no file system, no module resolution: those stay in the adapter.
 */
export type {
  TsLinkData, TsImportRecord, TsBinding, TsExportRecord, TsDeclRecord, TsCallShape, TsCallSite, TsHeritageRecord,
  TsLiteralMember, TsTypedNames, TsTypedef,
} from './link-data.js';
export { isTsLinkData, isWellFormedTsLinkData } from './link-data.js';
export { MAX_DEPTH, buildModuleInfo, type ModuleInfo, type NameResolution, type Target } from './link-model.js';
export { ReceiverResolver } from './receivers.js';
