// Pins the review diff's file diffs (contract "Isolated proposal tools", `docforge_get_changeset_diff`): the unified diff of each rewritten file equals a full diff of the two texts (the common-line cut only saves work), a byte-keeping move is one rename entry, and an operation that is not projected lists no change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type * as Diff from 'diff';
import { changeEntries } from '../src/diff.js';
import type { FileChange, OperationOutcome } from '../src/projection.js';

const diffLib = createRequire(import.meta.url)('diff') as typeof Diff;

function outcome(files: FileChange[], extra: Partial<OperationOutcome> = {}): OperationOutcome {
  return { index: 0, op: 'node_update', node_id: 'X', new_node_id: 'X', before: null, after: null, paths: files.map((f) => f.path), relationships: [], projected: true, refusal: null, files, ...extra };
}

/** The full diff of two texts, as jsdiff writes it, from its `---` header. */
function fullDiff(beforePath: string, afterPath: string, before: string, after: string): string {
  const patch = diffLib.createTwoFilesPatch(beforePath, afterPath, before, after, undefined, undefined, { context: 3 });
  return patch.slice(patch.indexOf('--- '));
}

/** A deterministic pseudo-random generator (no timing, no Math.random). */
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

test('a file diff equals the full unified diff of the two texts (LF, CRLF, missing final newline, edits at both ends, long texts)', () => {
  const next = rng(7);
  for (let round = 0; round < 2000; round += 1) {
    const eol = round % 3 === 0 ? '\r\n' : '\n';
    // Every tenth text is long (beyond the 4096-character blocks compared at once).
    const long = round % 10 === 0;
    const count = Math.floor(next() * (long ? 120 : 30));
    const lines = Array.from({ length: count }, (_, i) => `line ${i % 7}${long ? ' '.padEnd(200, String(i % 3)) : ''}`);
    const edited = [...lines];
    for (let e = Math.floor(next() * 4); e > 0; e -= 1) {
      const at = Math.floor(next() * (edited.length + 1));
      const kind = next();
      if (kind < 0.33) edited.splice(at, 0, `new ${round}-${e}`);
      else if (kind < 0.66) edited.splice(at, 1);
      else if (at < edited.length) edited[at] = `changed ${round}-${e}`;
    }
    const before = lines.join(eol) + (next() < 0.8 && count > 0 ? eol : '');
    const after = edited.join(eol) + (next() < 0.8 && edited.length > 0 ? eol : '');
    const [entry] = changeEntries([outcome([{ path: 'docs/a.toml', before, after }])]);
    assert.equal(entry!.file_diffs[0]!.diff, fullDiff('docs/a.toml', 'docs/a.toml', before, after), JSON.stringify({ before, after }));
  }
});

test('created, removed and moved files: /dev/null sides, and a byte-keeping move is one rename entry', () => {
  const text = '# Page\n\nBody.\n';
  const [created] = changeEntries([outcome([{ path: 'docs/new.md', before: null, after: text }])]);
  assert.deepEqual(created!.file_diffs, [{ before_path: null, after_path: 'docs/new.md', diff: fullDiff('/dev/null', 'docs/new.md', '', text) }]);
  const [removed] = changeEntries([outcome([{ path: 'docs/old.md', before: text, after: null }])]);
  assert.deepEqual(removed!.file_diffs, [{ before_path: 'docs/old.md', after_path: null, diff: fullDiff('docs/old.md', '/dev/null', text, '') }]);
  const [moved] = changeEntries([outcome([{ path: 'docs/b.md', before: null, after: text }, { path: 'docs/a.md', before: text, after: null }], { op: 'node_move' })]);
  assert.deepEqual(moved!.file_diffs, [{ before_path: 'docs/a.md', after_path: 'docs/b.md', diff: '--- docs/a.md\n+++ docs/b.md\n' }]);
});

test('an operation that is not projected lists no change, only its refusal', () => {
  const refusal = { code: 'metadata_not_representable', message: 'cannot hold declared relations' };
  const [entry] = changeEntries([outcome([], { op: 'relationship_update', projected: false, refusal })]);
  assert.deepEqual([entry!.projected, entry!.refusal, entry!.file_diffs, entry!.relations_added, entry!.relations_removed, entry!.body_diff], [false, refusal, [], [], [], '']);
});
