// Shared set-up of the changeset tests that work on a small project on disk.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadDescriptor } from '@docforge/project';
import { ChangesetStore, Workspace, type ProjectView } from '../src/index.js';

/** Writes `files` (project-relative path -> text or bytes) under `root`, making their folders. */
export function writeTree(root: string, files: Readonly<Record<string, string | Buffer>>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
}

/**
 * The ProjectView of the project at `root` (its docforge.toml loaded now; nodes located in the
 * canonical files, no inbound relations) and a ChangesetStore in `root/.docforge`.
 */
export function projectViewOf(root: string): { view: ProjectView; store: ChangesetStore } {
  const descriptor = loadDescriptor(root);
  const view: ProjectView = {
    root, descriptor, sourceHash: 'f'.repeat(64), codeExtensions: [], adapterOperations: null,
    node: (id) => new Workspace(view).locate(id)?.node ?? null,
    inbound: () => [],
  };
  return { view, store: new ChangesetStore(path.join(root, '.docforge'), root) };
}
