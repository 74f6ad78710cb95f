/**
 * `@docforge/adapter-typescript`: the built-in TypeScript/JavaScript code adapter
 * (DESIGN.md section 3, code nodes and Logic). Uses the TypeScript compiler's parser only
 * (`ts.createSourceFile`, no Program or type checker).
 */
import type { CodeAdapter } from '@docforge/core';
import { extractTypeScript } from './extract.js';
import { typescriptLinker } from './linker.js';
import { typescriptManifest } from './manifest.js';

export { typescriptManifest } from './manifest.js';
export { typescriptLinker } from './linker.js';

export { extractTypeScript } from './extract.js';
export { isTestPath, isDeclarationPath, isEntrypointPath, languageOf } from './paths.js';
export { extractLexical, scanModuleReferences } from './lexical.js';
export { lexTokens } from './lexer.js';
export type { LexicalScan } from './lexical.js';
export type { LexToken } from './lexer.js';
export type { TsExtractResult } from './module-node.js';
export { linkTypeScript, linkTypeScriptFiles } from './link.js';
export type { TsLinkInput } from './link.js';
export { buildFunctionLogic } from './logic.js';
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

/**
 * The built-in `typescript` code adapter: extracts TypeScript and JavaScript files (ESM and
 * CommonJS) into module/class/interface/function/method nodes with Logic, and links imports,
 * calls, heritage and test relations across files.
 */
export const typescriptAdapter: CodeAdapter = Object.freeze({ ...typescriptLinker, extract: extractTypeScript });
