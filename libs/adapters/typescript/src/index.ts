/**
 * `@docforge/adapter-typescript`: the built-in TypeScript/JavaScript code adapter
 * (DESIGN.md section 3, code nodes and Logic). Uses the TypeScript compiler's parser only
 * (`ts.createSourceFile`, no Program or type checker). This one entry serves the manifest (the main
 * thread learns which files to walk from it) and loads the rest on demand: the whole adapter,
 * with the compiler, through {@link loadTypeScriptAdapter}; its linking half alone, without the
 * compiler, through {@link loadTypeScriptLinker} (issue 14; issue 29: one entry per lib).
 */
import { typescriptManifest } from './manifest.js';

export { typescriptManifest } from './manifest.js';
export type { LexicalScan } from './lexical.js';
export type { LexToken } from '@docforge/ts-lexer';
export type { TsExtractResult } from './module-node.js';
export type { TsLinkInput } from './link.js';
export type { FunctionLogic, LogicOwnerNode } from './logic.js';
export type {
  TsLinkData, TsImportRecord, TsBinding, TsExportRecord, TsDeclRecord, TsCallShape, TsCallSite, TsHeritageRecord,
} from '@docforge/ts-link-model';
export type { Resolution } from './resolve.js';
export type { ResolutionMode } from '@docforge/ts-paths';

/** Adapter version; part of `adapter_version` in every MCP response. Bump when output changes. */
export const TYPESCRIPT_ADAPTER_VERSION = typescriptManifest.version;

/** The whole adapter (adapter.ts): `typescriptAdapter`, `extractTypeScript`, `linkTypeScript`, `SpecifierResolver`, ... */
export type TypeScriptAdapterModule = typeof import('./adapter.js');

/** The linking half (linker.ts): `typescriptLinker`, `compilerResolvable`. */
export type TypeScriptLinkerModule = typeof import('./linker.js');

/**
 * Loads the whole adapter, and with it the TypeScript compiler (primed with this thread's
 * start-up accelerators, prime.ts). Rejects only when the compiler cannot load.
 */
export function loadTypeScriptAdapter(): Promise<TypeScriptAdapterModule> {
  return import('./adapter.js');
}

/** Loads the adapter's linking half, which never loads the compiler (linker.ts). */
export function loadTypeScriptLinker(): Promise<TypeScriptLinkerModule> {
  return import('./linker.js');
}
