// Pins what the first edit of a new process (a one-shot `docforge sync`) reuses (issue 14): the link outputs stored for the publication it starts from, a build worker prepared before its build, and the bundled worker; each publication still equals a build from scratch, and anything that does not match exactly is not reused.
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { BuildPools, buildWorkerFile, prestartBuildWorker, WORKER_BUNDLE_ENV, type PrestartedBuildPool } from '../src/index.js';
import { IndexManager } from '../src/index.js';
import { noChangeSync } from '../src/index.js';
import { appendCommentEdit, EDITED_CODE, fullBuildOf, indexRows } from './full-build.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const examples = path.resolve(here, '../../../../examples');
const CODE = EDITED_CODE;

const graphOf = (root: string, file: string): Record<'nodes' | 'capabilities' | 'edges' | 'unresolved', string[]> => indexRows(root, file, {
  nodes: 'SELECT id, kind, title, body, source_path, start_line, end_line, anchors, capabilities, content_hash FROM nodes ORDER BY id',
  capabilities: 'SELECT capability, node_id FROM node_capabilities ORDER BY 1, 2',
  edges: 'SELECT source_id, relation, target_id, source_path, line, mention FROM edges ORDER BY 1, 2, 3',
  unresolved: 'SELECT node_id, count FROM unresolved_calls ORDER BY 1',
});

/** One sync by a new one-shot manager (a new build worker, as a new CLI process has). */
async function oneShot(root: string, prestarted: PrestartedBuildPool | null = null): Promise<Awaited<ReturnType<IndexManager['sync']>>> {
  const manager = new IndexManager({ root, noAst: false, buildPools: new BuildPools(undefined, prestarted) });
  try {
    return await manager.sync();
  } finally {
    await manager.close();
  }
}

const codeFiles = (root: string): number => new Database(path.join(root, '.docforge', 'parse-cache.sqlite'), { readonly: true })
  .prepare("SELECT count(*) FROM parses WHERE path LIKE 'src/%'").pluck().get() as number;

describe('the first edit of a new process', () => {
  let root: string;
  // Each test starts from a fresh copy of examples/ and makes the same comment edits
  // (appendCommentEdit), so the trees it compares recur between tests and files and share their
  // reference builds (full-build.ts).
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'docforge-one-shot-'));
    cpSync(examples, root, { recursive: true, filter: (src) => !src.split(path.sep).includes('.docforge') });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test('re-links only what the change can affect, from the link outputs stored for its publication', async () => {
    rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
    const cold = await oneShot(root);
    assert.equal(cold.stats!.mode, 'full');
    const all = codeFiles(root);
    assert.ok(all >= 8, `the examples have ${all} code files`);
    assert.equal(cold.stats!.linked_files, all);

    // A comment: nothing an importer reads changed, so only the edited file is linked again.
    appendCommentEdit(root);
    const quiet = await oneShot(root);
    assert.equal(quiet.stats!.mode, 'delta');
    assert.equal(quiet.stats!.linked_files, 1);
    // Only the link data that linking the edited file reads is parsed (lazy-link-data.ts): its own previous one and the modules it reaches.
    assert.ok(quiet.stats!.link_data_parsed! >= 1 && quiet.stats!.link_data_parsed! < all, `parsed ${quiet.stats!.link_data_parsed} of ${all} link data texts`);
    assert.deepEqual(graphOf(root, quiet.publication.index_file), await fullBuildOf(root, graphOf));

    // A new export its importers may read: they are linked again too, and the result is still exact.
    appendFileSync(path.join(root, CODE), '\nexport function retryOnce(run: () => void): void {\n  run();\n}\n');
    const loud = await oneShot(root);
    assert.ok(loud.stats!.linked_files! > 1 && loud.stats!.linked_files! < all, `linked ${loud.stats!.linked_files} of ${all}`);
    assert.deepEqual(graphOf(root, loud.publication.index_file), await fullBuildOf(root, graphOf));
  });

  test('stored link outputs that do not describe the publication exactly are not used', async () => {
    rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
    await oneShot(root);
    const all = codeFiles(root);
    // A stored content hash that no longer matches its source (as after a crash between publishing and storing).
    const store = new Database(path.join(root, '.docforge', 'parse-cache.sqlite'));
    const row = store.prepare("SELECT adapter, data FROM link_caches WHERE adapter = 'typescript'").get() as { adapter: string; data: string };
    const data = JSON.parse(row.data) as { hashes: [string, string][] };
    data.hashes[0]![1] = '0'.repeat(64);
    store.prepare('UPDATE link_caches SET data = ? WHERE adapter = ?').run(JSON.stringify(data), row.adapter);
    store.close();
    appendCommentEdit(root);
    const edit = await oneShot(root);
    assert.equal(edit.stats!.linked_files, all);
    assert.deepEqual(graphOf(root, edit.publication.index_file), await fullBuildOf(root, graphOf));

    // A row of the right key whose outputs are not in shape (a null output): not used, and nothing fails.
    const damaged = new Database(path.join(root, '.docforge', 'parse-cache.sqlite'));
    const stored = damaged.prepare("SELECT data FROM link_caches WHERE adapter = 'typescript'").pluck().get() as string;
    const shape = JSON.parse(stored) as { outputs: [string, unknown][] };
    shape.outputs[0]![1] = null;
    damaged.prepare("UPDATE link_caches SET data = ? WHERE adapter = 'typescript'").run(JSON.stringify(shape));
    damaged.close();
    appendCommentEdit(root);
    const shaped = await oneShot(root);
    assert.equal(shaped.sync_error, null);
    assert.equal(shaped.stats!.linked_files, all);
    assert.deepEqual(graphOf(root, shaped.publication.index_file), await fullBuildOf(root, graphOf));

    // Bound to another publication: the next edit after a publication nobody stored outputs for links everything.
    const other = new Database(path.join(root, '.docforge', 'parse-cache.sqlite'));
    other.prepare("UPDATE link_caches SET key = key || 'x'").run();
    other.close();
    appendCommentEdit(root);
    const again = await oneShot(root);
    assert.equal(again.stats!.linked_files, all);
    assert.deepEqual(graphOf(root, again.publication.index_file), await fullBuildOf(root, graphOf));
  });

  test('a worker prepared before its build starts from the publication; one prepared from a publication replaced meanwhile stays exact', async () => {
    rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
    await oneShot(root);
    const stateDir = path.join(root, '.docforge');
    appendCommentEdit(root);
    const preparedEarly = prestartBuildWorker({ root, stateDir, logicAllowed: true });
    const prepared = await oneShot(root, preparedEarly);
    assert.equal(prepared.stats!.mode, 'delta');
    assert.equal(prepared.stats!.parsed, 1);
    assert.equal(prepared.stats!.linked_files, 1);
    assert.deepEqual(graphOf(root, prepared.publication.index_file), await fullBuildOf(root, graphOf));

    // Prepared from generation N, while another process publishes N+1 before the build task arrives.
    const afterOtherEarly = prestartBuildWorker({ root, stateDir, logicAllowed: true });
    const page = path.join(root, 'docs', 'components', 'auth-gateway.md');
    writeFileSync(page, `${readFileSync(page, 'utf8')}\nA paragraph another process published.\n`);
    const index = JSON.stringify(new URL('../src/index.js', import.meta.url).href);
    execFileSync(process.execPath, ['--input-type=module', '-e', `import { IndexManager } from ${index}; const m = new IndexManager({ root: ${JSON.stringify(root)}, noAst: false }); await m.sync(); await m.close();`]);
    appendCommentEdit(root);
    const afterOther = await oneShot(root, afterOtherEarly);
    assert.equal(afterOther.rebuilt, true);
    assert.deepEqual(graphOf(root, afterOther.publication.index_file), await fullBuildOf(root, graphOf));
  });

  test('an edit of documentation only never loads a code parser, prepared or not; an edit of code does; both equal a build from scratch', async () => {
    rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
    const cold = await oneShot(root);
    assert.deepEqual(cold.stats!.parsers_loaded, ['typescript']);
    const stateDir = path.join(root, '.docforge');
    const page = path.join(root, 'docs', 'components', 'auth-gateway.md');
    appendFileSync(page, '\nA paragraph of a documentation-only edit.\n');
    const check = noChangeSync(root, { noAst: false });
    assert.deepEqual(!check.current && check.prepare?.parseAdapters, [], JSON.stringify(check));
    const docsEarly = prestartBuildWorker(!check.current ? check.prepare! : null);
    const docs = await oneShot(root, docsEarly);
    assert.equal(docs.stats!.mode, 'delta');
    assert.equal(docs.stats!.parsed, 1);
    assert.deepEqual(docs.stats!.parsers_loaded, [], 'the prepared worker linked without the compiler');
    assert.deepEqual(graphOf(root, docs.publication.index_file), await fullBuildOf(root, graphOf));
    // Without a prepared worker too; and a touched code file whose content is the same is reused, not parsed.
    appendFileSync(page, '\nAnother paragraph.\n');
    const code = path.join(root, CODE);
    utimesSync(code, new Date(), new Date(Date.now() + 7_000));
    const touched = await oneShot(root);
    assert.equal(touched.stats!.parsed, 1);
    assert.deepEqual(touched.stats!.parsers_loaded, []);
    assert.deepEqual(graphOf(root, touched.publication.index_file), await fullBuildOf(root, graphOf));

    // A tsconfig.json the linker reads is no code to parse, even when only the compiler's reader
    // accepts it (a no-break space as white space): the compiler is loaded for the config text alone.
    writeFileSync(path.join(root, 'tsconfig.json'), '{\u00a0"compilerOptions": { "baseUrl": "src", },\n}\n');
    const configCheck = noChangeSync(root, { noAst: false });
    assert.deepEqual(!configCheck.current && configCheck.prepare?.parseAdapters, [], JSON.stringify(configCheck));
    const configEarly = prestartBuildWorker(!configCheck.current ? configCheck.prepare! : null);
    const config = await oneShot(root, configEarly);
    assert.equal(config.rebuilt, true);
    assert.deepEqual(config.stats!.parsers_loaded, []);
    assert.deepEqual(graphOf(root, config.publication.index_file), await fullBuildOf(root, graphOf));
    rmSync(path.join(root, 'tsconfig.json'));

    appendFileSync(code, '\nexport function addedByTheEdit(): number {\n  return 2;\n}\n');
    const codeCheck = noChangeSync(root, { noAst: false });
    assert.deepEqual(!codeCheck.current && codeCheck.prepare?.parseAdapters, ['typescript'], JSON.stringify(codeCheck));
    const editedEarly = prestartBuildWorker(!codeCheck.current ? codeCheck.prepare! : null);
    const edited = await oneShot(root, editedEarly);
    assert.equal(edited.stats!.parsed, 1);
    assert.deepEqual(edited.stats!.parsers_loaded, ['typescript']);
    assert.deepEqual(graphOf(root, edited.publication.index_file), await fullBuildOf(root, graphOf));
  });

  test('damaged link data in the parse cache makes that build start from the sources; a cache of the old format is read as empty', async () => {
    rmSync(path.join(root, '.docforge', 'parse-cache.sqlite'), { force: true });
    rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
    await oneShot(root);
    // Text that is not JSON where the edited file's link data is (read by every edit of that file).
    const cache = path.join(root, '.docforge', 'parse-cache.sqlite');
    const db = new Database(cache);
    assert.equal(db.prepare("UPDATE parses SET link_data = '{\"format\": broken' WHERE path = ?").run(CODE).changes, 1);
    db.close();
    appendCommentEdit(root);
    const healed = await oneShot(root);
    assert.equal(healed.sync_error, null);
    assert.equal(healed.rebuilt, true);
    assert.equal(healed.stats!.mode, 'full', 'built again from the sources');
    assert.deepEqual(graphOf(root, healed.publication.index_file), await fullBuildOf(root, graphOf));
    // The cache was rewritten whole: the next edit is a delta again.
    appendCommentEdit(root);
    const next = await oneShot(root);
    assert.equal(next.stats!.mode, 'delta');
    assert.equal(next.stats!.linked_files, 1);

    // Valid JSON that is not link data of the file's adapter: damaged too, never linked as a file that declares nothing.
    // Damage inside the records too (the linker would throw on a null export, or miss a call on a non-string name).
    const inside: ((data: Record<string, unknown[]>) => void)[] = [
      (data) => { data['exports'] = [null]; },
      (data) => { data['exports'] = [{ name: 5, local: null, specifier: null, imported: null, line: 1 }]; },
      (data) => { data['decls'] = [{}]; },
      (data) => { data['calls'] = [{ owner: 'x', shape: 'id', name: 'f', object: null, line: 'one' }]; },
    ];
    const current = (): Record<string, unknown[]> => {
      const db = new Database(cache, { readonly: true });
      try {
        return JSON.parse(db.prepare('SELECT link_data FROM parses WHERE path = ?').pluck().get(CODE) as string) as Record<string, unknown[]>;
      } finally {
        db.close();
      }
    };
    const shapes: (string | ((data: Record<string, unknown[]>) => void))[] = ['null', '42', '"text"', '[]', '{}', '{"format":"docforge-ts-link/2","module_id":"x"}', ...inside];
    for (const damage of shapes) {
      let shape: string;
      if (typeof damage === 'string') shape = damage;
      else {
        const data = current();
        damage(data);
        shape = JSON.stringify(data);
      }
      const wrong = new Database(cache);
      assert.equal(wrong.prepare('UPDATE parses SET link_data = ? WHERE path = ?').run(shape, CODE).changes, 1);
      wrong.close();
      appendCommentEdit(root);
      const rebuilt = await oneShot(root);
      assert.equal(rebuilt.sync_error, null, shape.slice(0, 200));
      assert.equal(rebuilt.stats!.mode, 'full', `${shape.slice(0, 200)}: built again from the sources`);
    }
    assert.deepEqual(graphOf(root, (await oneShot(root)).publication.index_file), await fullBuildOf(root, graphOf));

    // A cache of the earlier format (no link_data column, user_version 0): read as empty, replaced on the next write.
    const old = new Database(cache);
    old.exec('DROP TABLE parses; CREATE TABLE parses (path TEXT PRIMARY KEY, key TEXT NOT NULL, parse TEXT NOT NULL) WITHOUT ROWID; PRAGMA user_version = 0');
    old.close();
    appendCommentEdit(root);
    const reparsed = await oneShot(root);
    assert.equal(reparsed.sync_error, null);
    assert.ok(reparsed.stats!.parsed > 1, 'every source parsed again');
    assert.deepEqual(graphOf(root, reparsed.publication.index_file), await fullBuildOf(root, graphOf));
    const upgraded = new Database(cache, { readonly: true });
    assert.equal(upgraded.pragma('user_version', { simple: true }), 2);
    assert.ok((upgraded.prepare('SELECT count(*) FROM parses WHERE link_data IS NOT NULL').pluck().get() as number) >= codeFiles(root));
    upgraded.close();
  });

  test('the bundled build worker runs while fresh and writes what the compiled worker writes', async () => {
    const entry = buildWorkerFile();
    assert.match(entry, /dist[\\/]bundle[\\/]worker\.cjs$/);
    // An input of the bundle newer than it (a plain tsc -b after it) makes the compiled ESM worker run.
    const input = path.resolve(path.dirname(entry), '..', 'src', 'worker.js');
    const st = statSync(input);
    utimesSync(input, st.atime, new Date(statSync(entry).mtimeMs + 60_000));
    try {
      assert.match(buildWorkerFile(), /dist[\\/]src[\\/]worker\.js$/, input);
    } finally {
      utimesSync(input, st.atime, st.mtime);
    }
    assert.equal(buildWorkerFile(), entry);
    // A bundle built in another folder (a moved checkout: it embeds absolute file URLs) is not used either.
    const manifestFile = path.join(path.dirname(entry), 'worker.inputs.json');
    const manifestText = readFileSync(manifestFile, 'utf8');
    const manifestStat = statSync(manifestFile);
    writeFileSync(manifestFile, JSON.stringify({ ...JSON.parse(manifestText), built_in: '/elsewhere/libs/sync/dist/bundle' }));
    try {
      assert.match(buildWorkerFile(), /dist[\\/]src[\\/]worker\.js$/);
    } finally {
      writeFileSync(manifestFile, manifestText);
      utimesSync(manifestFile, manifestStat.atime, manifestStat.mtime);
    }
    assert.equal(buildWorkerFile(), entry);

    // The graphs are the same with the bundled worker and the compiled one.
    const builds: Record<string, ReturnType<typeof graphOf>> = {};
    for (const [label, mode] of [['bundled', 'on'], ['compiled', 'off']] as const) {
      process.env[WORKER_BUNDLE_ENV] = mode;
      try {
        rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
        const cold = await oneShot(root);
        builds[label] = graphOf(root, cold.publication.index_file);
      } finally {
        delete process.env[WORKER_BUNDLE_ENV];
      }
    }
    assert.deepEqual(builds.bundled, builds.compiled);
  });
});

describe('package.json entrypoints across one-shot edits', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'docforge-one-shot-entry-'));
    writeFileSync(path.join(root, 'docforge.toml'), [
      'schema_version = 1', '[project]', 'id = "entry"', 'name = "Entry"', '[sources]', 'content_roots = ["docs"]', 'code_roots = ["."]',
      'exclude = ["**/node_modules/**"]', '[adapter]', 'code = "typescript"', 'strategy = "ast"', '',
    ].join('\n'));
    for (const [file, text] of Object.entries({
      'package.json': '{"name":"entry","main":"lib/a.js"}\n',
      'docs/index.md': '# Entry\n\nThe package.\n',
      'lib/a.js': 'function fa() {}\nmodule.exports = { fa }\n',
      'lib/b.js': 'function fb() {}\nmodule.exports = { fb }\n',
      'lib/dir/index.js': 'function fd() {}\nmodule.exports = { fd }\n',
    })) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  /** The module nodes carrying `entrypoint` in the publication. */
  const entrypoints = (file: string): string[] => indexRows(root, file, { ids: "SELECT node_id FROM node_capabilities WHERE capability = 'entrypoint' ORDER BY 1" }).ids;

  test('a package.json that is added, edited or made to name another main keeps every publication equal to a build from scratch', async () => {
    const cold = await oneShot(root);
    assert.deepEqual(entrypoints(cold.publication.index_file), ['["code:lib/a.js"]']);
    // Each step is a new process over the last one's parse cache: what linking added to a node (its
    // capability) must never be taken for what the parse produced.
    const steps: [string, string, string[]][] = [
      ['lib/dir/package.json', '{"main":"index.js"}\n', ['["code:lib/a.js"]', '["code:lib/dir/index.js"]']],
      ['package.json', '{"name":"entry","main":"lib/a.js","x":1}\n', ['["code:lib/a.js"]', '["code:lib/dir/index.js"]']],
      ['package.json', '{"name":"entry","main":"lib/b.js"}\n', ['["code:lib/b.js"]', '["code:lib/dir/index.js"]']],
      ['lib/dir/package.json', '{}\n', ['["code:lib/b.js"]']],
    ];
    for (const [file, text, expected] of steps) {
      writeFileSync(path.join(root, file), text);
      const edit = await oneShot(root);
      assert.equal(edit.sync_error, null);
      assert.deepEqual(entrypoints(edit.publication.index_file), expected, `after writing ${file}: ${text.trim()}`);
      assert.deepEqual(graphOf(root, edit.publication.index_file), await fullBuildOf(root, graphOf), `after writing ${file}`);
    }
    // An edit of a main file itself afterwards: still exact.
    appendFileSync(path.join(root, 'lib/b.js'), '\nfunction fb2() {}\n');
    const last = await oneShot(root);
    assert.deepEqual(graphOf(root, last.publication.index_file), await fullBuildOf(root, graphOf));
  });
});
