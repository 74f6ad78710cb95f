/**
 * The TypeScript adapter without its extractor (issue 14), loaded through the package's one entry
 * (`loadTypeScriptLinker()`).
 * Nothing imported from here loads the TypeScript compiler (linking reads tsconfig files with
 * jsonc-parser), so a build thread whose changed files a parse thread extracts links them without
 * the 9 MB compiler load on its critical path (libs/builder parse-thread.ts).
 */
import { createRequire } from 'node:module';
import type { CodeLinker } from '@docforge/core';
import { isWellFormedTsLinkData } from '@docforge/ts-link-model';
import { linkTypeScript, linkTypeScriptFiles } from './link.js';
import { typescriptManifest } from './manifest.js';

/** The `typescript` adapter's linking half: same id, version and extensions as `typescriptAdapter`. */
export const typescriptLinker: CodeLinker = Object.freeze({
  id: typescriptManifest.id,
  version: typescriptManifest.version,
  extensions: typescriptManifest.extensions,
  link: linkTypeScript,
  linkFiles: linkTypeScriptFiles,
  isLinkData: isWellFormedTsLinkData,
});

/**
 * Whether the `typescript` package resolves from this adapter (without loading it): a linking half
 * is only taken for an adapter whose parser could load, so a build that parses no code in an
 * environment without the compiler reports the adapter unavailable, as one that parses code does.
 */
export function compilerResolvable(): boolean {
  try {
    createRequire(import.meta.url).resolve('typescript');
    return true;
  } catch {
    return false;
  }
}
