// Pins issue 30 (break-it trial): `docforge render` never writes a view output into version-control metadata (`descriptor_invalid` naming the key) and never replaces a file DocForge did not write, or changed since (`render_output_foreign`, nothing written); a committed DocForge output in a fresh clone (no state dir) still renders, and render status keeps its meaning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { treeHashes } from './helpers/hashes.js';
import { exampleProjectCopy } from './helpers/projects.js';

function cli(root: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [CLI_ENTRY, ...args, '-C', root], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Changed files, with the index, locks and parse cache the CLI may refresh before rendering aside. */
function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])].filter((k) => before.get(k) !== after.get(k) && !k.startsWith('.docforge/index/') && !k.startsWith('.docforge/locks/') && !k.startsWith('.docforge/parse-cache.sqlite')).sort();
}

function setOutput(root: string, output: string): void {
  const toml = path.join(root, 'docforge.toml');
  writeFileSync(toml, readFileSync(toml, 'utf8').replace('output = "site/components.html"', `output = "${output}"`));
}

function expectForeign(root: string, view: string | undefined, why: RegExp): void {
  const before = treeHashes(root, '');
  const run = cli(root, 'render', ...(view === undefined ? [] : [view]));
  assert.notEqual(run.status, 0, run.stdout);
  assert.match(run.stderr, /render_output_foreign/);
  assert.match(run.stderr, why);
  assert.match(run.stderr, /move the file or choose another output/);
  assert.deepEqual(changed(before, treeHashes(root, '')), [], 'a refused render writes no output and no receipt');
}

test('a view output in .git, .hg, .svn (any case, any depth) is descriptor_invalid naming the key; nothing is written', () => {
  const root = exampleProjectCopy();
  const toml = readFileSync(path.join(root, 'docforge.toml'), 'utf8');
  for (const output of ['.git/x.html', '.hg/x.html', '.svn/hooks/x.html', 'site/.GIT/x.html', '.jj/x.html', 'CVS/x.html']) {
    writeFileSync(path.join(root, 'docforge.toml'), toml);
    setOutput(root, output);
    const before = treeHashes(root, '');
    const run = cli(root, 'render');
    assert.notEqual(run.status, 0, output);
    assert.match(run.stderr, /descriptor_invalid/, output);
    assert.match(run.stderr, /\[\[views\]\]\[0\]\.output/, output);
    assert.match(run.stderr, /version-control metadata/, output);
    assert.ok(!existsSync(path.join(root, output)), `${output} was not written`);
    assert.deepEqual(changed(before, treeHashes(root, '')), [], output);
  }
  // A name that merely contains such a segment's letters is fine.
  writeFileSync(path.join(root, 'docforge.toml'), toml);
  setOutput(root, 'site/git.html');
  assert.equal(cli(root, 'render', 'components').status, 0);
});

test('a hand-written file at a declared output is refused with render_output_foreign and keeps its bytes; render --status keeps its meaning', () => {
  const root = exampleProjectCopy();
  setOutput(root, 'README.html');
  const mine = '<!DOCTYPE html><html><body><h1>My own page</h1></body></html>\n';
  writeFileSync(path.join(root, 'README.html'), mine);
  expectForeign(root, 'components', /not written by DocForge/);
  expectForeign(root, undefined, /not written by DocForge/);
  assert.equal(readFileSync(path.join(root, 'README.html'), 'utf8'), mine);
  assert.ok(!existsSync(path.join(root, 'site/requirements.html')), 'no other view was written either');
  const status = cli(root, 'render', '--status', 'components', '--json');
  const views = (JSON.parse(status.stdout) as { views: { status: string; reason: string }[] }).views;
  assert.deepEqual([views[0]!.status, views[0]!.reason], ['unverified', 'receipt_missing']);
  // The remedy: move the file away, then render.
  rmSync(path.join(root, 'README.html'));
  assert.equal(cli(root, 'render', 'components').status, 0);
  assert.match(readFileSync(path.join(root, 'README.html'), 'utf8'), /<meta name="generator" content="DocForge render; sha256=[0-9a-f]{64}">/);
});

test('DocForge replaces its own output, refuses it once edited by hand, and a fresh clone without the state dir still renders', () => {
  const root = exampleProjectCopy();
  assert.equal(cli(root, 'render').status, 0);
  assert.equal(cli(root, 'render').status, 0, 'a second render replaces its own outputs');
  const out = path.join(root, 'site/components.html');
  const rendered = readFileSync(out, 'utf8');
  writeFileSync(out, rendered.replace('</body>', '<p>hand edit</p>\n</body>'));
  expectForeign(root, 'components', /changed since DocForge wrote it/);
  const status = cli(root, 'render', '--status', 'components', '--json');
  assert.equal((JSON.parse(status.stdout) as { views: { reason: string }[] }).views[0]!.reason, 'output_changed');
  writeFileSync(out, rendered);
  assert.equal(cli(root, 'render', 'components').status, 0, 'restored bytes are DocForge\'s again');
  // Fresh clone: committed outputs, no state dir (no receipts): the generator marker proves them.
  rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
  assert.equal(cli(root, 'render').status, 0, 'a fresh clone re-renders its committed outputs');
  assert.equal(readFileSync(out, 'utf8'), rendered);
  // Without receipts an edit still breaks the marker.
  rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
  writeFileSync(out, rendered.replace('</body>', '<p>hand edit</p>\n</body>'));
  expectForeign(root, 'components', /changed since DocForge wrote it/);
});
