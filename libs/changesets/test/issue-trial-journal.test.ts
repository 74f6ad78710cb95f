// Pins recovery's distrust of the write-ahead journal (attacker trial): a planted or corrupted journal (absolute or escaping target, `..` changeset id, link out of the content roots, forged backup, unknown roll-forward changeset) is refused with application_journal_invalid and changes nothing; a genuine journal still rolls back, re-linking a deleted symlinked node file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, realpathSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DocforgeError, sha256 } from '@docforge/core';
import type { Descriptor } from '@docforge/project';
import { ChangesetStore, recoverApplication } from '../src/index.js';

function descriptor(root: string, contentRoots = ['docs']): Descriptor {
  return {
    schema_version: 1, root, path: path.join(root, 'docforge.toml'), project: { id: 't', name: 'T' },
    sources: { content_roots: contentRoots, code_roots: ['src'], exclude: ['**/node_modules/**', '**/.git/**', '.docforge/**'] },
    adapter: { code: [], strategy: 'ast', module: null, canonical_applier: null }, vocabulary: { kinds: null, authorities: null, statuses: null, relations: null },
    limits: { max_results: 200, max_output_chars: 60000 }, state: { dir: '.docforge' }, views: [], proposals: { writers: {}, appliers: {} },
  };
}

interface Entry { path: string; target: string; before_sha256: string | null; after_sha256: string | null; backup: string | null; link: string | null }

function project(): { root: string; victim: string; app: string } {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'df-journal-')));
  mkdirSync(path.join(root, 'docs'), { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), '[project]\nid = "t"\n');
  writeFileSync(path.join(root, 'docs/a.md'), 'after a\n');
  const victim = realpathSync(mkdtempSync(path.join(tmpdir(), 'df-victim-')));
  writeFileSync(path.join(victim, 'delete-me.txt'), 'precious\n');
  const app = path.join(root, '.docforge/application');
  mkdirSync(path.join(app, 'backup'), { recursive: true });
  return { root, victim, app };
}

function plant(app: string, files: Entry[], extra: Record<string, unknown> = {}): void {
  writeFileSync(path.join(app, 'journal.json'), JSON.stringify({ schema_version: 2, changeset_id: 'cs-x', changeset_sha256: '0'.repeat(64), applier: 'rev', step: 'writing', started_at: '2026-12-01T00:00:00.000Z', files, ...extra }));
}

async function refused(root: string, d: Descriptor, reason: RegExp): Promise<void> {
  const journal = readFileSync(path.join(root, '.docforge/application/journal.json'), 'utf8');
  await assert.rejects(recoverApplication(new ChangesetStore(path.join(root, '.docforge'), root), d), (error: unknown) => {
    assert.ok(error instanceof DocforgeError);
    assert.equal(error.code, 'application_journal_invalid');
    assert.match(error.message, reason);
    assert.match(error.message, /nothing was changed.*Repair by hand/s);
    return true;
  });
  assert.equal(readFileSync(path.join(root, '.docforge/application/journal.json'), 'utf8'), journal, 'the journal stays exactly as it was');
}

const payload = 'echo pwned\n';
const x = (c: string): string => c.repeat(64);

test('absolute targets (the trial repro, version 1 and 2) and escaping relative targets are refused; nothing outside is touched', async () => {
  const { root, victim, app } = project();
  writeFileSync(path.join(app, 'backup/file-0'), payload);
  const d = descriptor(root);
  const evil = [
    { path: 'docs/a.md', target: path.join(victim, 'delete-me.txt'), before_sha256: null, after_sha256: x('1'), backup: null, link: null },
    { path: 'docs/b.md', target: path.join(victim, 'written.sh'), before_sha256: sha256(payload), after_sha256: x('2'), backup: 'file-0', link: null },
  ];
  plant(app, evil, { schema_version: 1 });
  await refused(root, d, /schema/);
  plant(app, evil);
  await refused(root, d, /schema/);
  plant(app, [{ ...evil[0]!, target: '../' + path.basename(victim) + '/delete-me.txt' }]);
  await refused(root, d, /schema/);
  symlinkSync(victim, path.join(root, 'docs/out'));
  plant(app, [{ ...evil[0]!, target: 'docs/out/delete-me.txt' }]);
  await refused(root, d, /outside the real content roots/);
  plant(app, [{ ...evil[0]!, target: 'docforge.toml' }]);
  await refused(root, d, /outside the real content roots/);
  plant(app, [{ ...evil[0]!, target: 'docforge.toml' }]);
  await refused(root, descriptor(root, ['.']), /descriptor or a file of the state dir/);
  plant(app, [{ ...evil[0]!, path: 'src/x.ts', target: 'docs/a.md' }]);
  await refused(root, d, /outside the content roots/);
  assert.deepEqual([readFileSync(path.join(victim, 'delete-me.txt'), 'utf8'), existsSync(path.join(victim, 'written.sh'))], ['precious\n', false]);
  assert.equal(readFileSync(path.join(root, 'docforge.toml'), 'utf8'), '[project]\nid = "t"\n');
});

test('a changeset id with ../ , a forged or linked backup, a link text leaving the target and an unknown roll-forward changeset are refused', async () => {
  const { root, victim, app } = project();
  const d = descriptor(root);
  plant(app, [], { changeset_id: '../../../../tmp/victim', step: 'committed' });
  await refused(root, d, /schema/);
  plant(app, [], { step: 'committed' });
  await refused(root, d, /store holds no changeset/);
  writeFileSync(path.join(app, 'backup/file-0'), payload);
  const update = { path: 'docs/a.md', target: 'docs/a.md', before_sha256: sha256('before a\n'), after_sha256: sha256('after a\n'), backup: 'file-0', link: null };
  plant(app, [update]);
  await refused(root, d, /does not hash to its before state/);
  unlinkSync(path.join(app, 'backup/file-0'));
  writeFileSync(path.join(victim, 'b'), 'before a\n');
  symlinkSync(path.join(victim, 'b'), path.join(app, 'backup/file-0'));
  plant(app, [update]);
  await refused(root, d, /no plain backup file/);
  plant(app, [{ ...update, backup: '../../../etc/passwd' }]);
  await refused(root, d, /schema/);
  unlinkSync(path.join(app, 'backup/file-0'));
  writeFileSync(path.join(app, 'backup/file-0'), 'before a\n');
  plant(app, [{ ...update, after_sha256: null, link: path.join(victim, 'b') }]);
  await refused(root, d, /does not resolve to its target/);
  assert.equal(readFileSync(path.join(root, 'docs/a.md'), 'utf8'), 'after a\n');
});

test('a genuine journal still rolls back: updated file restored, created file removed, deleted symlinked node file re-linked', async () => {
  const { root, app } = project();
  mkdirSync(path.join(root, 'docs/real'));
  writeFileSync(path.join(root, 'docs/real/l.md'), 'linked\n');
  // The application deleted the link docs/l.md (-> real/l.md), created docs/new.md and was half-way through docs/a.md.
  writeFileSync(path.join(root, 'docs/new.md'), 'new\n');
  writeFileSync(path.join(app, 'backup/file-0'), 'before a\n');
  writeFileSync(path.join(app, 'backup/file-2'), 'linked\n');
  plant(app, [
    { path: 'docs/a.md', target: 'docs/a.md', before_sha256: sha256('before a\n'), after_sha256: sha256('after a\n'), backup: 'file-0', link: null },
    { path: 'docs/new.md', target: 'docs/new.md', before_sha256: null, after_sha256: sha256('new\n'), backup: null, link: null },
    { path: 'docs/l.md', target: 'docs/real/l.md', before_sha256: sha256('linked\n'), after_sha256: null, backup: 'file-2', link: 'real/l.md' },
  ]);
  const outcome = await recoverApplication(new ChangesetStore(path.join(root, '.docforge'), root), descriptor(root));
  assert.deepEqual(outcome, { changeset_id: 'cs-x', step: 'writing', action: 'rolled_back' });
  assert.equal(readFileSync(path.join(root, 'docs/a.md'), 'utf8'), 'before a\n');
  assert.equal(existsSync(path.join(root, 'docs/new.md')), false);
  assert.ok(lstatSync(path.join(root, 'docs/l.md')).isSymbolicLink());
  assert.equal(readlinkSync(path.join(root, 'docs/l.md')), 'real/l.md');
  assert.equal(existsSync(path.join(app, 'journal.json')), false);
});
