/**
 * The whole TypeScript adapter, with what loads the TypeScript compiler (extraction, Logic, path
 * classification). Reached from outside through the package's one entry, `loadTypeScriptAdapter()`
 * (index.ts), so importing the entry for the manifest never loads the 9 MB compiler (issue 14;
 * issue 29: one entry per lib); the linking half alone comes through `loadTypeScriptLinker()`.
 */
import type { CodeAdapter } from '@docforge/core';
import { extractTypeScript } from './extract.js';
import { typescriptLinker } from './linker.js';

export { extractTypeScript } from './extract.js';
export { isTestPath, isDeclarationPath, isEntrypointPath, languageOf } from './paths.js';
export { extractLexical, scanModuleReferences } from './lexical.js';
export { buildFunctionLogic } from './logic.js';
export { typescriptLinker, compilerResolvable } from './linker.js';
export { lexTokens } from '@docforge/ts-lexer';
export { linkTypeScript, linkTypeScriptFiles } from './link.js';
export { isTsLinkData, isWellFormedTsLinkData } from '@docforge/ts-link-model';
export { SpecifierResolver } from './resolve.js';
export { fileCandidates, resolutionModeOf } from '@docforge/ts-paths';

/**
 * The built-in `typescript` code adapter: extracts TypeScript and JavaScript files (ESM and
 * CommonJS) into module/class/interface/function/method nodes with Logic, and links imports,
 * calls, heritage and test relations across files.
 */
export const typescriptAdapter: CodeAdapter = Object.freeze({ ...typescriptLinker, extract: extractTypeScript });
