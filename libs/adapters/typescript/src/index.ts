/**
 * `@docforge/adapter-typescript`: the built-in TypeScript/JavaScript code adapter
 * (DESIGN.md section 3, code nodes and Logic). Uses the TypeScript compiler's parser only
 * (`ts.createSourceFile`, no Program or type checker). This one entry never loads the compiler:
 * the manifest and the linking half are here, the parsing half (adapter.ts) comes through
 * {@link loadTypeScriptAdapter} (issue 14: the main thread learns which files to walk, and a build
 * that parses no code links without the compiler; issue 29: one entry per lib).
 */
import { typescriptManifest } from './manifest.js';

export { typescriptManifest } from './manifest.js';
export { typescriptLinker, compilerResolvable } from './linker.js';
export { lexTokens } from './lexer.js';
export type { LexicalScan } from './lexical.js';
export type { LexToken } from './lexer.js';
export type { TsExtractResult } from './module-node.js';
export { linkTypeScript, linkTypeScriptFiles } from './link.js';
export type { TsLinkInput } from './link.js';
export type { FunctionLogic, LogicOwnerNode } from './logic.js';
export { isTsLinkData, isWellFormedTsLinkData } from './link-data.js';
export type {
  TsLinkData, TsImportRecord, TsBinding, TsExportRecord, TsDeclRecord, TsCallShape, TsCallSite, TsHeritageRecord,
} from './link-data.js';
export { SpecifierResolver } from './resolve.js';
export type { Resolution } from './resolve.js';
export { fileCandidates, resolutionModeOf } from './candidates.js';
export type { ResolutionMode } from './candidates.js';

/** Adapter version; part of `adapter_version` in every MCP response. Bump when output changes. */
export const TYPESCRIPT_ADAPTER_VERSION = typescriptManifest.version;

/** The parsing half of the adapter (adapter.ts): `typescriptAdapter`, `extractTypeScript`, `buildFunctionLogic`, path classification. */
export type TypeScriptParsing = typeof import('./adapter.js');

/**
 * Loads the parsing half of the adapter, and with it the TypeScript compiler (primed with this
 * thread's start-up accelerators, prime.ts). Rejects only when the compiler cannot load.
 */
export function loadTypeScriptAdapter(): Promise<TypeScriptParsing> {
  return import('./adapter.js');
}
