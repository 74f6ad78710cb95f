/** Temporary trees for the init tests. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A new temporary folder holding `files` (project-relative path -> text); its real path. */
export function tempTree(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'docforge-init-')));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** Removes a tree made by {@link tempTree}. */
export function removeTree(root: string): void {
  rmSync(root, { recursive: true, force: true });
}
