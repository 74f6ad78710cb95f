// Pins render output confinement (attacker trial): `docforge render` and previews never write through a symlink or onto a source (render_output_invalid, nothing written); a link, directory or file in the way fails only that view (render status unverified with a reason), never the descriptor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { treeHashes } from './helpers/hashes.js';
import { exampleProjectCopy } from './helpers/projects.js';
import { expectError, useServer, type Json } from './helpers/server.js';

function render(root: string, view?: string): { status: number | null; stderr: string } {
  const run = spawnSync(process.execPath, [CLI_ENTRY, 'render', ...(view === undefined ? [] : [view]), '-C', root], { encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr };
}

/** Changed files, the index and parse cache the CLI may refresh before rendering aside (outputs, sources, receipts, previews count). */
function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])].filter((k) => before.get(k) !== after.get(k) && !k.startsWith('.docforge/index/') && !k.startsWith('.docforge/locks/') && !k.startsWith('.docforge/parse-cache.sqlite')).sort();
}

function expectRefused(root: string, code: string, view = 'components'): void {
  const before = treeHashes(root, '');
  const run = render(root, view);
  assert.notEqual(run.status, 0);
  assert.match(run.stderr, /render_output_invalid/);
  assert.match(run.stderr, new RegExp(`"reason_code":"${code}"`));
  assert.match(run.stderr, /Nothing was written/);
  assert.deepEqual(changed(before, treeHashes(root, '')), [], 'a refused render writes nothing');
}

test('an output symlinked to the descriptor, a Markdown source or a code file is refused; the target keeps its bytes', () => {
  const root = exampleProjectCopy();
  mkdirSync(path.join(root, 'site'), { recursive: true });
  for (const target of ['../docforge.toml', '../docs/components/ledger.md', '../src/index.ts']) {
    const before = readFileSync(path.join(root, 'site', target), 'utf8');
    rmSync(path.join(root, 'site/components.html'), { force: true });
    symlinkSync(target, path.join(root, 'site/components.html'));
    expectRefused(root, 'output_symlink');
    assert.equal(readFileSync(path.join(root, 'site', target), 'utf8'), before, target);
  }
  // Every view at once: nothing is written either (all outputs are checked before any write).
  const before = treeHashes(root, '');
  assert.notEqual(render(root).status, 0);
  assert.deepEqual(changed(before, treeHashes(root, '')), []);
});

test('a symlinked output folder, a folder that is a file, an output that is a directory and an output in a content root are refused', () => {
  const root = exampleProjectCopy();
  rmSync(path.join(root, 'site'), { recursive: true, force: true });
  symlinkSync('docs/components', path.join(root, 'site'));
  expectRefused(root, 'output_symlink');
  rmSync(path.join(root, 'site'));
  mkdirSync(path.join(root, 'site/components.html'), { recursive: true });
  expectRefused(root, 'output_not_file');
  rmSync(path.join(root, 'site'), { recursive: true });
  const toml = path.join(root, 'docforge.toml');
  const descriptor = readFileSync(toml, 'utf8');
  writeFileSync(toml, descriptor.replace('output = "site/components.html"', 'output = "README.md/x.html"'));
  expectRefused(root, 'output_parent_not_directory');
  writeFileSync(toml, descriptor.replace('output = "site/components.html"', 'output = "docs/components.html"'));
  expectRefused(root, 'output_in_sources');
  writeFileSync(toml, descriptor);
  assert.equal(render(root, 'components').status, 0, 'a plain output renders');
  assert.ok(existsSync(path.join(root, 'site/components.html')));
});

test('a symlink at an output fails only that view: every tool still answers and render status says why', async () => {
  const root = exampleProjectCopy();
  mkdirSync(path.join(root, 'site'), { recursive: true });
  symlinkSync('/etc/hostname', path.join(root, 'site/components.html'));
  const server = await useServer(root, { proposalWriter: 'agent', canonicalApplier: 'reviewer' });
  assert.equal((await server.call('docforge_bootstrap')).ok, true);
  assert.equal((await server.call('docforge_search', { query: 'ledger' })).ok, true);
  for (const deep of [false, true]) {
    const status = await server.call('docforge_render_status', { deep });
    assert.equal(status.ok, true, JSON.stringify(status.error));
    const views = status.result!.views as Json[];
    const components = views.find((v) => v.view === 'components')!;
    assert.deepEqual([components.status, components.reason], ['unverified', 'output_symlink'], `deep=${deep}`);
    assert.ok(views.some((v) => v.view !== 'components' && v.reason !== 'output_symlink'));
  }
});

test('a preview file that is a symlink or a directory is refused with render_output_invalid and nothing is written', async () => {
  const root = exampleProjectCopy();
  const writer = await useServer(root, { proposalWriter: 'agent' });
  const registered = await writer.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-AUTH-GATEWAY', set: { title: 'Authorization gateway v2' } }] });
  assert.equal(registered.ok, true, JSON.stringify(registered.error));
  const id = registered.result!.changeset_id as string;
  const file = path.join(root, '.docforge/previews', id, 'gateway-graph.html');
  mkdirSync(path.dirname(file), { recursive: true });
  symlinkSync('../../../docforge.toml', file);
  const before = treeHashes(root, '');
  const error = await expectError(writer.call('docforge_preview_changeset', { changeset_id: id, view: 'gateway-graph' }), 'render_output_invalid');
  assert.equal(error.details.reason_code, 'output_symlink');
  rmSync(file);
  mkdirSync(file);
  assert.equal((await expectError(writer.call('docforge_preview_changeset', { changeset_id: id, view: 'gateway-graph' }), 'render_output_invalid')).details.reason_code, 'output_not_file');
  assert.deepEqual(changed(before, treeHashes(root, '')).filter((k) => !k.endsWith('gateway-graph.html')), []);
  rmSync(file, { recursive: true });
  assert.equal((await writer.call('docforge_preview_changeset', { changeset_id: id, view: 'gateway-graph' })).ok, true);
});
