// Pins the watcher-driven partial walk (issue 14): after edits, appends, creates, deletes and renames of files, ignored files and
// files with other extensions, the entries and identity it computes equal a fresh full walk; new directories, symbolic links, walk
// findings, the descriptor and unnamed events fall back to the full walk, and every sync says which walk ran.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cheapIdentity, loadDescriptor, sourcePathClassifier, walkSources, MAX_CODE_SOURCE_BYTES, type SourceWalk } from '@docforge/project';
import { IndexManager, type SyncReport } from '../src/index.js';
import { partialWalk } from '../src/index.js';
import { MAX_PARTIAL_PATHS, SourceWatch } from '../src/index.js';

const examples = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../examples');

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-partial-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  return root;
}

const DESCRIPTOR = [
  'schema_version = 1', '[project]', 'id = "partial"', '[sources]', 'content_roots = ["docs", "notes"]', 'code_roots = ["src", "docs/examples"]',
  'exclude = ["**/skip/**", "**/*.gen.ts", "docs/private.md"]', '[adapter]', 'code = "typescript"', '',
].join('\n');

test('the single-path classifier and partialWalk agree with a fresh full walk after every kind of file change', () => {
  const root = tree({
    'docforge.toml': DESCRIPTOR, 'package.json': '{}\n', 'README.md': '# Not a source\n',
    'docs/a.md': '# A\n', 'docs/b.md': '# B\n', 'docs/skip/c.md': '# C\n', 'docs/examples/e.ts': 'export const e = 1;\n', 'docs/examples/f.md': '# F\n',
    'notes/n.toml': 'x = 1\n', 'src/index.ts': 'export {};\n', 'src/lib/util.ts': 'export const u = 1;\n', 'src/tsconfig.json': '{}\n',
  });
  try {
    const desc = loadDescriptor(root);
    const classify = sourcePathClassifier(desc, ['.ts', '.tsx']);
    let base: SourceWalk = walkSources(desc, ['.ts', '.tsx']);
    /** Applies one change, then checks the partial walk over `paths` against a fresh walk (or that it falls back). */
    const step = (what: string, change: () => void, paths: string[], expect: 'partial' | 'full'): void => {
      change();
      const fresh = walkSources(desc, ['.ts', '.tsx']);
      const partial = partialWalk(base, paths, classify);
      if (expect === 'full') {
        assert.equal(partial, null, `${what}: must fall back to the full walk`);
      } else {
        assert.ok(partial !== null, `${what}: a partial walk`);
        assert.deepEqual(partial.entries, fresh.entries, `${what}: entries`);
        assert.equal(cheapIdentity(partial.entries, []), cheapIdentity(fresh.entries, []), `${what}: identity`);
        assert.deepEqual(partial.issues, fresh.issues, `${what}: findings`);
      }
      base = fresh;
    };
    const w = (rel: string, text: string) => () => writeFileSync(path.join(root, rel), text);
    step('append', () => appendFileSync(path.join(root, 'docs/a.md'), 'more\n'), ['docs/a.md'], 'partial');
    step('edit code', w('src/lib/util.ts', 'export const u = 2;\n'), ['src/lib/util.ts'], 'partial');
    step('touch', () => utimesSync(path.join(root, 'docs/b.md'), new Date(1_000_000), new Date(1_000_000)), ['docs/b.md'], 'partial');
    step('create', w('docs/new.md', '# New\n'), ['docs/new.md'], 'partial');
    step('code file under a content root', w('docs/examples/g.ts', 'export {};\n'), ['docs/examples/g.ts'], 'partial');
    step('other extension', w('docs/notes.txt', 'text\n'), ['docs/notes.txt'], 'partial');
    step('content file under a code root', w('src/readme.md', '# R\n'), ['src/readme.md'], 'partial');
    step('excluded glob', w('src/lib/x.gen.ts', 'export {};\n'), ['src/lib/x.gen.ts'], 'partial');
    step('excluded file', w('docs/private.md', '# P\n'), ['docs/private.md'], 'partial');
    step('manifest in a code root', w('src/package.json', '{"main":"index.ts"}\n'), ['src/package.json'], 'partial');
    step('root manifest', w('tsconfig.json', '{}\n'), ['tsconfig.json'], 'partial');
    step('file outside every root', w('README.md', '# Changed\n'), ['README.md'], 'partial');
    step('rename', () => renameSync(path.join(root, 'docs/new.md'), path.join(root, 'docs/renamed.md')), ['docs/new.md', 'docs/renamed.md'], 'partial');
    step('rename to another extension', () => renameSync(path.join(root, 'docs/renamed.md'), path.join(root, 'docs/renamed.txt')), ['docs/renamed.md', 'docs/renamed.txt'], 'partial');
    step('delete', () => rmSync(path.join(root, 'docs/b.md')), ['docs/b.md'], 'partial');
    step('several at once', () => {
      writeFileSync(path.join(root, 'docs/b.md'), '# B again\n');
      rmSync(path.join(root, 'src/index.ts'));
      appendFileSync(path.join(root, 'notes/n.toml'), 'y = 2\n');
    }, ['docs/b.md', 'src/index.ts', 'notes/n.toml', 'docs/b.md'], 'partial');
    step('nothing named', () => undefined, [], 'partial');
    step('new directory', () => mkdirSync(path.join(root, 'docs/fresh')), ['docs/fresh'], 'full');
    step('file in the new directory', w('docs/fresh/page.md', '# Page\n'), ['docs/fresh', 'docs/fresh/page.md'], 'full');
    step('removed directory', () => rmSync(path.join(root, 'docs/fresh'), { recursive: true }), ['docs/fresh'], 'full');
    step('descriptor', () => appendFileSync(path.join(root, 'docforge.toml'), '\n'), ['docforge.toml'], 'full');
    step('symbolic link', () => symlinkSync(path.join(root, 'docs/a.md'), path.join(root, 'docs/link.md')), ['docs/link.md'], 'full');
    step('after a link', () => rmSync(path.join(root, 'docs/link.md')), ['docs/link.md'], 'full'); // base.links > 0
    step('a path in a directory the walk did not read', w('docs/skip/d.md', '# D\n'), ['docs/skip/d.md'], 'full');
    step('too large (a walk finding)', w('src/big.ts', 'x'.repeat(MAX_CODE_SOURCE_BYTES + 1)), ['src/big.ts'], 'full');
    step('a path a finding names', () => rmSync(path.join(root, 'src/big.ts')), ['src/big.ts'], 'full');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

/** Syncs, then checks the walk kind and that the identity served equals a fresh full walk's. */
async function syncAs(manager: IndexManager, walk: SyncReport['walk'], what: string): Promise<SyncReport> {
  const report = await manager.sync();
  assert.equal(report.walk, walk, `${what}: walk`);
  assert.equal(report.staleness, 'current', what);
  assert.equal(report.publication.source_identity, manager.cheapIdentity(), `${what}: the identity equals a full walk's`);
  return report;
}

/** Syncs until the watcher stands for the walk (the first walk after new watches is never trusted). */
async function settle(manager: IndexManager): Promise<void> {
  for (let i = 0; i < 3; i += 1) if ((await manager.sync()).walk === 'watched') return;
  assert.fail('the watcher never stood in for the walk of an unchanged tree');
}

test('a watching manager walks only the changed paths and falls back to the full walk where it must', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'docforge-partial-examples-'));
  cpSync(examples, root, { recursive: true, filter: (src) => !src.includes(`${path.sep}.docforge`) });
  const manager = new IndexManager({ root, noAst: false, watchSources: true });
  const file = (rel: string): string => path.join(root, rel);
  try {
    await syncAs(manager, 'full', 'cold');
    await settle(manager);
    appendFileSync(file('docs/guides/getting-started.md'), '\nA closing line.\n');
    assert.equal((await syncAs(manager, 'partial', 'append')).rebuilt, true);
    await syncAs(manager, 'watched', 'unchanged after a partial walk');
    writeFileSync(file('src/fraud/scorer.ts'), `${'// edited\n'}export const edited = true;\n`);
    assert.equal((await syncAs(manager, 'partial', 'code edit')).rebuilt, true);
    writeFileSync(file('docs/guides/new-page.md'), '# New page\n\nBody.\n');
    assert.equal((await syncAs(manager, 'partial', 'create')).rebuilt, true);
    renameSync(file('docs/guides/new-page.md'), file('docs/guides/moved-page.md'));
    assert.equal((await syncAs(manager, 'partial', 'rename')).rebuilt, true);
    writeFileSync(file('docs/guides/notes.txt'), 'not a source\n');
    assert.equal((await syncAs(manager, 'partial', 'other extension')).rebuilt, false);
    mkdirSync(file('src/node_modules/pkg'), { recursive: true });
    rmSync(file('docs/guides/moved-page.md'));
    assert.equal((await syncAs(manager, 'full', 'a new directory and a delete')).rebuilt, true);
    await settle(manager);
    writeFileSync(file('src/node_modules/pkg/index.ts'), 'export {};\n');
    await syncAs(manager, 'watched', 'an ignored directory is not watched');
    mkdirSync(file('docs/fresh'));
    writeFileSync(file('docs/fresh/page.md'), '# Fresh\n');
    assert.equal((await syncAs(manager, 'full', 'a file in a new directory')).rebuilt, true);
    await syncAs(manager, 'full', 'the walk that added a watch is not trusted');
    await syncAs(manager, 'watched', 'then it is');
    appendFileSync(file('docs/fresh/page.md'), 'More.\n');
    assert.equal((await syncAs(manager, 'partial', 'an edit in the new directory')).rebuilt, true);
    for (let i = 0; i < 300; i += 1) writeFileSync(file(`docs/guides/many-${i}.txt`), 'x');
    await syncAs(manager, 'full', 'more changed paths than the bound');
    await settle(manager);
    appendFileSync(file('docforge.toml'), '\n');
    await syncAs(manager, 'full', 'the descriptor');
    await settle(manager);
    symlinkSync(file('docs/guides/getting-started.md'), file('docs/linked.md'));
    assert.equal((await syncAs(manager, 'full', 'a symbolic link')).rebuilt, true);
    appendFileSync(file('docs/guides/getting-started.md'), 'Again.\n');
    await syncAs(manager, 'full', 'no watcher while a link is walked');
  } finally {
    await manager.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('SourceWatch names the changed paths only for a trusted walk, and gives none past its bounds or for a watched directory itself', async () => {
  const root = tree({ 'a/x.md': 'x', 'a/b/y.md': 'y' });
  const watch = new SourceWatch(root);
  const drain = (): Promise<string | null> => watch.unchangedIdentity();
  try {
    watch.beginWalk();
    watch.endWalk({ identity: 'one', directories: ['', 'a', 'a/b'], outside: false });
    assert.equal(watch.beginPartialWalk('one'), null, 'new watches: not trusted yet');
    watch.beginWalk();
    watch.endWalk({ identity: 'two', directories: ['', 'a', 'a/b'], outside: false });
    assert.equal(watch.beginPartialWalk('one'), null, 'another base identity');
    writeFileSync(path.join(root, 'a', 'x.md'), 'changed');
    writeFileSync(path.join(root, 'a', 'b', 'z.md'), 'new');
    await drain();
    assert.deepEqual(watch.beginPartialWalk('two')?.sort(), ['a/b/z.md', 'a/x.md']);
    writeFileSync(path.join(root, 'a', 'x.md'), 'during the partial walk');
    await drain();
    watch.endWalk({ identity: 'three', directories: ['', 'a', 'a/b'], outside: false });
    assert.equal(await drain(), null, 'an event during the partial walk: not unchanged');
    assert.deepEqual(watch.beginPartialWalk('three'), ['a/x.md'], 'but named for the next one');
    watch.endWalk({ identity: 'four', directories: ['', 'a', 'a/b'], outside: false });
    assert.equal(await drain(), 'four');
    for (let i = 0; i <= MAX_PARTIAL_PATHS; i += 1) writeFileSync(path.join(root, 'a', `many-${i}.md`), 'x');
    await drain();
    assert.equal(watch.beginPartialWalk('four'), null, 'more distinct paths than the bound');
    watch.beginWalk();
    watch.endWalk({ identity: 'five', directories: ['', 'a', 'a/b'], outside: false });
    rmSync(path.join(root, 'a', 'b'), { recursive: true });
    await drain();
    assert.equal(watch.beginPartialWalk('five'), null, 'a watched directory removed');
  } finally {
    watch.close();
    rmSync(root, { recursive: true, force: true });
  }
});
