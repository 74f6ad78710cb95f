/**
 * A top-level folder that is mainly code is no content root (issue 30, new-user trial 48: `docforge
 * init` proposed axios' `lib`, which holds 4 READMEs beside 60 JavaScript files, as a content root,
 * so every `*.md` and `*.toml` under it would be read as documentation records).
 */
import { listFiles } from './list-files.js';
import type { InitLeftOut } from './left-out.js';

/**
 * Whether the folder `name` (top-level, holding `markdown` Markdown files) holds more code files
 * than Markdown files; if so, the entry that says so is added to `leftOut` (it is no content root).
 * Code files are those `isCode` accepts by name; hidden folders and `node_modules` are not read; a
 * folder past the scan bound (list-files.ts) counts as code.
 * @param root absolute project root
 */
export function leftAsCodeFolder(root: string, name: string, markdown: number, isCode: (file: string) => boolean, leftOut: InitLeftOut[]): boolean {
  const code = listFiles(root, [name], (_rel, dir) => dir.startsWith('.') || dir === 'node_modules', isCode)?.length ?? Number.POSITIVE_INFINITY;
  if (code <= markdown) return false;
  const files = (n: number, what: string): string => `${n} ${what} ${n === 1 ? 'file' : 'files'}`;
  const counted = Number.isFinite(code) ? files(code, 'code') : 'more code files than a scan reads';
  leftOut.push({ path: name, reason: `a code folder: ${counted} beside ${files(markdown, 'Markdown')} (READMEs of the code), so not a content root; add "${name}" to content_roots to index its Markdown` });
  return true;
}
