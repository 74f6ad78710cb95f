// Regression (issue 30 item 1): whatever the OS reports as changed leads to re-reading the file. A
// same-size rewrite whose mtime is put back (`cp -p`, `touch -r`, an in-place rewrite with utimes)
// changes only the ctime; `docforge sync` and a running docforge-mcp must still serve the new text.
// A change of metadata only (`touch`, `chmod`) publishes no new generation (the five-field
// publication signature viewer workers bind to stays), and the next check needs no build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { noChangeSync } from '@docforge/sync';
import { exampleProjectCopy, fastifyProjectCopy, removeDir, tempDir } from './helpers/projects.js';
import { CLI_ENTRY, REPO_ROOT } from './helpers/paths.js';
import { useServer } from './helpers/server.js';

const PAGE = 'docs/page.md';
const ORIGINAL = '# Page\n\nThe word here is marmalade today.\n';
/** The same length as {@link ORIGINAL}, other words. */
const variant = (word: string): string => {
  const text = `# Page\n\nThe word here is ${word} today.\n`;
  assert.equal(text.length, ORIGINAL.length, word);
  return text;
};

function project(): string {
  const root = tempDir('docforge-ctime-');
  mkdirSync(path.join(root, 'docs'));
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "ctime"\nname = "Ctime"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\n');
  writeFileSync(path.join(root, PAGE), ORIGINAL);
  // A whole second, so putting the mtime back through a Date (milliseconds) restores it exactly.
  utimesSync(path.join(root, PAGE), 1_700_000_000, 1_700_000_000);
  return root;
}

function cli(root: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [CLI_ENTRY, ...args, '-C', root], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function syncJson(root: string): { rebuilt: boolean; staleness: string; publication: { generation: number } } {
  const run = cli(root, 'sync', '--json');
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as { rebuilt: boolean; staleness: string; publication: { generation: number } };
}

/** The five-field publication signature viewer workers bind to (DESIGN.md section 4). */
function signature(root: string): string {
  const p = JSON.parse(readFileSync(path.join(root, '.docforge/index/current.json'), 'utf8')) as Record<string, unknown>;
  return JSON.stringify([p.generation, p.source_identity, p.index_file, p.index_ino, p.index_size]);
}

/** Same size, new content, the old mtime put back (the inode stays: an in-place rewrite). */
const rewrites: [string, (file: string, text: string, root: string) => void][] = [
  ['an in-place rewrite with the mtime put back (utimes)', (file, text) => {
    const before = statSync(file);
    writeFileSync(file, text);
    utimesSync(file, before.atime, before.mtime);
  }],
  ['cp -p from a file with the old mtime', (file, text, root) => {
    const before = statSync(file);
    const source = path.join(root, 'incoming.txt');
    writeFileSync(source, text);
    utimesSync(source, before.atime, before.mtime);
    const run = spawnSync('cp', ['-p', source, file], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
  }],
  ['touch -r with a reference of the old mtime', (file, text, root) => {
    const before = statSync(file);
    const reference = path.join(root, 'reference.txt');
    writeFileSync(reference, '');
    utimesSync(reference, before.atime, before.mtime);
    writeFileSync(file, text);
    const run = spawnSync('touch', ['-r', reference, file], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
  }],
];

test('docforge sync (the real bin) re-reads a same-size rewrite whose mtime was put back', (t) => {
  const root = project();
  t.after(() => removeDir(root));
  const file = path.join(root, PAGE);
  syncJson(root);
  for (const [index, [label, rewrite]] of rewrites.entries()) {
    const word = ['aardvarks', 'pineapple', 'quicksand'][index]!;
    const before = statSync(file, { bigint: true });
    rewrite(file, variant(word), root);
    const after = statSync(file, { bigint: true });
    assert.equal(after.size, before.size, label);
    assert.equal(after.mtimeNs, before.mtimeNs, `${label}: the mtime is as before`);
    assert.equal(after.ino, before.ino, `${label}: the inode is as before`);
    const synced = syncJson(root);
    assert.equal(synced.rebuilt, true, `${label}: rebuilt`);
    const found = cli(root, 'search', word, '--json');
    assert.equal(found.status, 0, found.stderr);
    assert.match(found.stdout, /page/, `${label}: the new text is found`);
  }
});

test('docforge sync: touch and chmod alone publish no new generation, and the next check needs no build', (t) => {
  const root = project();
  t.after(() => removeDir(root));
  const file = path.join(root, PAGE);
  const first = syncJson(root);
  const bound = signature(root);
  for (const [label, change] of [
    ['touch', () => utimesSync(file, new Date(), new Date(Date.now() + 5_000))],
    ['chmod', () => chmodSync(file, 0o600)],
    ['an identical rewrite', () => writeFileSync(file, readFileSync(file))],
  ] as const) {
    change();
    assert.equal(noChangeSync(root, { noAst: false }).current, false, `${label}: the OS reported a change, so the file is read again`);
    const synced = syncJson(root);
    assert.equal(synced.rebuilt, false, label);
    assert.equal(synced.staleness, 'current', label);
    assert.equal(synced.publication.generation, first.publication.generation, `${label}: no new generation`);
    assert.equal(signature(root), bound, `${label}: the publication signature viewer workers bind to is unchanged`);
    assert.equal(noChangeSync(root, { noAst: false }).current, true, `${label}: the next no-change check answers without a build`);
  }
  // A real edit after the metadata-only changes still publishes.
  writeFileSync(file, variant('buttercup'));
  const edited = syncJson(root);
  assert.equal(edited.rebuilt, true);
  assert.ok(edited.publication.generation > first.publication.generation);
});

test('a running docforge-mcp serves the new text of a same-size rewrite with the mtime put back; touch and chmod keep the revision', async (t) => {
  const root = project();
  t.after(() => removeDir(root));
  const file = path.join(root, PAGE);
  const s = await useServer(root);
  const first = await s.call('docforge_search', { query: 'marmalade' });
  assert.equal(first.ok, true, JSON.stringify(first.error));
  assert.equal(first.result!.items.length, 1);
  for (const [index, [label, rewrite]] of rewrites.entries()) {
    const word = ['aardvarks', 'pineapple', 'quicksand'][index]!;
    rewrite(file, variant(word), root);
    const found = await s.call('docforge_search', { query: word });
    assert.equal(found.ok, true, JSON.stringify(found.error));
    assert.equal(found.result!.items.length, 1, `${label}: the running server found the new text`);
    assert.equal(found.project!.staleness, 'current');
  }
  const revision = (await s.call('docforge_sync')).project!.revision;
  const bound = signature(root);
  utimesSync(file, new Date(), new Date(Date.now() + 7_000));
  const touched = await s.call('docforge_sync');
  assert.equal(touched.result!.rebuilt, false, 'touch');
  chmodSync(file, 0o600);
  const chmodded = await s.call('docforge_sync');
  assert.equal(chmodded.result!.rebuilt, false, 'chmod');
  assert.equal(chmodded.project!.revision, revision, 'no new generation');
  assert.equal(chmodded.project!.staleness, 'current');
  assert.equal(signature(root), bound, 'the publication signature viewer workers bind to is unchanged');
  const again = await s.call('docforge_sync');
  assert.equal(again.result!.rebuilt, false);
  assert.equal(again.result!.build, null, 'the next sync needs no build');
  await s.close();
});

/** Every regular file below `dir` outside `.docforge` (paths). */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !path.join(entry.parentPath, entry.name).includes(`${path.sep}.docforge${path.sep}`))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

// The kind of fault the new-user trial found on pino: every edge a doc mention derived and every
// code finding (whose stored message carries its location) made the stored graph look different
// from the one just resolved, so a metadata-only change published a new generation on real projects.
test('real packages (pino with the descriptor init writes, fastify docs and code, examples/): touching and chmod-ing every file publishes nothing', async (t) => {
  const pino = tempDir('docforge-touch-pino-');
  cpSync(path.join(REPO_ROOT, 'node_modules', 'pino'), pino, { recursive: true });
  assert.equal(cli(pino, 'init').status, 0);
  const projects = [
    pino,
    fastifyProjectCopy(['docs', 'lib', 'test', 'fastify.js', 'package.json'], 'schema_version = 1\n[project]\nid = "fastify"\nname = "Fastify"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["lib", "test", "fastify.js"]\n[adapter]\ncode = "typescript"\n'),
    exampleProjectCopy(),
  ];
  t.after(() => projects.forEach(removeDir));
  for (const root of projects) {
    const first = syncJson(root);
    const before = signature(root);
    const later = new Date(Date.now() + 5_000);
    for (const file of filesBelow(root)) {
      utimesSync(file, later, later);
      chmodSync(file, 0o640);
    }
    const touched = syncJson(root);
    assert.equal(touched.rebuilt, false, `${root}: a metadata-only change rebuilt generation ${touched.publication.generation}`);
    assert.equal(touched.publication.generation, first.publication.generation);
    assert.equal(signature(root), before, 'the five-field signature stays, so viewer workers stay current');
    // A real edit still publishes.
    const edited = filesBelow(path.join(root, 'docs')).find((file) => file.endsWith('.md'))!;
    writeFileSync(edited, `${readFileSync(edited, 'utf8')}\nA new closing line.\n`);
    assert.equal(syncJson(root).publication.generation, first.publication.generation + 1);
  }
});
