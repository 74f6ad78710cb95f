// One indexed temporary project per suite, for the retrieval tests that read a real index.
import { after, before } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IndexManager } from '@docforge/sync';
import type { IndexReader } from '@docforge/store';

/**
 * Registers, in the calling `describe` body, a `before` hook that makes a temp dir named from
 * `prefix`, lets `write(root)` fill it (docforge.toml and sources), synchronizes it once and hands
 * the reader to `ready`, and an `after` hook that closes the index and removes the dir.
 */
export function indexedProject(prefix: string, write: (root: string) => void, ready: (reader: IndexReader) => void): void {
  let root = '';
  let manager: IndexManager | null = null;
  before(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), prefix));
    write(root);
    manager = new IndexManager({ root, noAst: false });
    await manager.sync();
    ready(manager.reader());
  });
  after(async () => {
    await manager?.close();
    rmSync(root, { recursive: true, force: true });
  });
}
