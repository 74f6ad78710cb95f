// Shared fixtures for the @docforge/project tests: temp project trees and a default descriptor.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Descriptor } from '../src/index.js';

/** Creates a temp directory holding `files` (project-relative path -> text); returns its real path. */
export function tempTree(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'docforge-project-')));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** Removes a temp tree. */
export function removeTree(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

/** A descriptor with defaults for pure parsing tests (root is never touched). */
export function testDescriptor(overrides: Partial<Descriptor> = {}): Descriptor {
  return {
    schema_version: 1,
    root: '/nonexistent',
    path: '/nonexistent/docforge.toml',
    project: { id: 'test', name: 'Test' },
    sources: { content_roots: ['docs'], code_roots: ['src'], exclude: ['**/node_modules/**', '**/.git/**', '.docforge/**'] },
    adapter: { code: ['typescript'], strategy: 'ast', module: null, canonical_applier: null },
    vocabulary: { kinds: null, authorities: null, statuses: null, relations: null },
    limits: { max_results: 200, max_output_chars: 60000 },
    state: { dir: '.docforge' },
    views: [],
    proposals: { writers: {}, appliers: {} },
    ...overrides,
  };
}
