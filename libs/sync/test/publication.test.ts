// Pins publication: the one current.json check, one read of current.json per build, takeover of a publication lock whose holder was SIGKILLed, and a sync serving the newest publication when its own was collected first.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs, { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cheapIdentity, loadDescriptor, walkSources } from '@docforge/project';
import { stateLayout } from '@docforge/fs-safe';
import { BuildCaches, runBuild } from '@docforge/builder';
import { stateError } from '@docforge/store';
import type { BuildOutcome, BuildTask } from '@docforge/builder';
import { checkPublication, parsePublication, readPublicationOnce } from '@docforge/store';
import { IndexManager } from '../src/index.js';

/** The caches a build worker would keep between the builds this file runs in-process. */
const caches = new BuildCaches();
const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function project(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'docforge-publication-')));
  roots.push(root);
  const files: Record<string, string> = {
    'docforge.toml': 'schema_version = 1\n[project]\nid = "pub"\nname = "Pub"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\n',
    'docs/a.md': '# A\n\nFirst.\n',
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

function taskFor(root: string, extra: Partial<BuildTask> = {}): BuildTask {
  const descriptor = loadDescriptor(root);
  const walk = walkSources(descriptor, []);
  return {
    root, stateDir: join(root, descriptor.state.dir), entries: walk.entries, walkIssues: walk.issues,
    sourceIdentity: cheapIdentity(walk.entries, []), logicAllowed: false, minGeneration: 1, ...extra,
  };
}

const HEX = (c: string): string => c.repeat(64);
const VALID = {
  schema_version: 1, generation: 3, source_identity: HEX('a'), source_hash: HEX('b'), index_file: 'gen-00000003-abc123.sqlite',
  index_ino: '1234', index_size: 8192, index_schema_version: 5, adapter_version: 'docs@1+strategy=ast', logic_present: false,
  logic_allowed: true, project_id: 'pub', counts: { sources: 1, nodes: 1, edges: 0, issues: 0, logic_steps: 0 }, published_at: '2026-01-01T00:00:00.000Z',
};

test('checkPublication accepts a complete record and names the first defect of a damaged one', () => {
  assert.equal(checkPublication(VALID).ok, true);
  assert.equal(checkPublication({ ...VALID, receipt_file: 'generation-receipt.json', receipt_ino: '9', receipt_size: 10, receipt_hash: HEX('c') }).ok, true);
  const problem = (value: unknown): string => {
    const checked = checkPublication(value);
    assert.equal(checked.ok, false, JSON.stringify(value));
    return (checked as { problem: string }).problem;
  };
  assert.match(problem([]), /must be object/);
  assert.match(problem({ ...VALID, schema_version: 2 }), /schema_version/);
  assert.match(problem({ ...VALID, generation: 0 }), /generation/);
  assert.match(problem({ ...VALID, generation: 2 ** 40 + 1 }), /generation/);
  assert.match(problem({ ...VALID, index_file: '../x.sqlite' }), /index_file/);
  assert.match(problem({ ...VALID, source_hash: 5 }), /source_hash/);
  assert.match(problem({ ...VALID, index_size: 0 }), /index_size/);
  assert.match(problem({ ...VALID, counts: 'x' }), /counts/);
  assert.match(problem({ ...VALID, receipt_file: 'generation-receipt.json' }), /receipt_file/, 'receipt fields come together');
  assert.match((parsePublication('{ corrupt') as { problem: string }).problem, /not valid JSON/);
});

test('a build reads current.json once, and not at all when the caller passes its read', async () => {
  const root = project();
  const layout = stateLayout(join(root, '.docforge'));
  caches.reset();
  const first = await runBuild(taskFor(root), caches);
  assert.equal(first.ok, true, JSON.stringify(first));
  // A state file is read by opening it without following links (fs-safe state-read.ts), so a read is an open of current.json.
  const realOpen = fs.openSync;
  let reads = 0;
  const counting = ((file: fs.PathLike, ...rest: unknown[]) => {
    if (String(file).endsWith('current.json')) reads += 1;
    return (realOpen as (...args: unknown[]) => number)(file, ...rest);
  }) as typeof fs.openSync;
  const countReads = async (task: BuildTask): Promise<number> => {
    reads = 0;
    fs.openSync = counting;
    syncBuiltinESMExports();
    try {
      const outcome = await runBuild(task, caches);
      assert.equal(outcome.ok, true, JSON.stringify(outcome));
    } finally {
      fs.openSync = realOpen;
      syncBuiltinESMExports();
    }
    return reads;
  };
  // A fresh worker (warm start from the publication), a changed source, a full publication step.
  writeFileSync(join(root, 'docs/a.md'), '# A\n\nSecond.\n');
  caches.reset();
  assert.equal(await countReads(taskFor(root)), 1);
  writeFileSync(join(root, 'docs/a.md'), '# A\n\nThird.\n');
  const prior = readPublicationOnce(layout);
  assert.equal(prior.publication?.generation, 2);
  assert.equal(await countReads(taskFor(root, { prior })), 0);
  assert.equal(readPublicationOnce(layout).publication?.generation, 3);
});

test('a publication lock left by a holder killed with SIGKILL is taken over at once', async () => {
  const root = project();
  const layout = stateLayout(join(root, '.docforge'));
  // The publication lock lives in libs/store; the holder imports that lib's entry.
  const lib = import.meta.resolve('@docforge/store');
  const script = join(root, 'hold.mjs');
  writeFileSync(script, `import { withPublicationLock, stateLayout } from ${JSON.stringify(lib)};
await withPublicationLock(stateLayout(process.argv[2]), () => new Promise(() => { process.stdout.write('locked\\n'); setInterval(() => undefined, 60_000); }));
`);
  const child = spawn(process.execPath, [script, layout.stateDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout!.setEncoding('utf8');
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('locked')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`holder exited early (${code})`)));
  });
  child.kill('SIGKILL');
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
  const manager = new IndexManager({ root, noAst: false });
  try {
    // With the lock not taken over this would wait out the lock timeout and fail with lock_timeout (no publication to serve).
    const report = await manager.sync();
    assert.equal(report.rebuilt, true);
    assert.equal(report.sync_error, null);
    assert.equal(report.publication.generation, 1);
  } finally {
    await manager.close();
  }
});

test('a sync whose fresh publication was collected by another process before it was opened serves the newest one', async () => {
  const root = project();
  const layout = stateLayout(join(root, '.docforge'));
  const manager = new IndexManager({ root, noAst: false });
  try {
    await manager.sync();
    writeFileSync(join(root, 'docs/a.md'), '# A\n\nSecond.\n');
    const patched = manager as unknown as { runBuild: (task: BuildTask) => Promise<BuildOutcome> };
    const real = patched.runBuild.bind(manager);
    patched.runBuild = async (task) => {
      const outcome = await real(task);
      // Two publications by "another process": the file just published is neither current nor previous, so it is deleted.
      for (const text of ['Third', 'Fourth']) {
        writeFileSync(join(root, 'docs/a.md'), `# A\n\n${text}.\n`);
        caches.reset();
        assert.equal((await runBuild(taskFor(root), caches)).ok, true);
      }
      assert.equal(outcome.ok && fs.existsSync(join(layout.indexDir, outcome.publication.index_file)), false, 'the fresh file is gone');
      return outcome;
    };
    const report = await manager.sync();
    const newest = readPublicationOnce(layout).publication!;
    assert.equal(report.publication.generation, newest.generation);
    assert.equal(report.publication.index_file, newest.index_file);
    assert.match(manager.reader().getNode('a')?.body ?? '', /Fourth/);
  } finally {
    await manager.close();
  }
});

test('storage failures while writing the index are index_unavailable naming their code once: errno errors and SQLite full, I/O and read-only results', () => {
  const layout = stateLayout('/tmp/docforge-state-error/.docforge', '/tmp/docforge-state-error');
  const enospc = Object.assign(new Error('ENOSPC: no space left on device, copyfile'), { code: 'ENOSPC' });
  const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
  const ioerr = Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' });
  for (const [error, code, text] of [[enospc, 'ENOSPC', 'no space left on device, copyfile'], [full, 'SQLITE_FULL', 'database or disk is full'], [ioerr, 'SQLITE_IOERR_WRITE', 'disk I/O error']] as const) {
    const mapped = stateError(error, layout);
    assert.equal(mapped.code, 'index_unavailable', code);
    assert.equal(mapped.details['errno'], code);
    assert.ok(mapped.message.includes(`(${code}: ${text}); the last publication is unchanged.`), mapped.message);
    assert.equal(mapped.message.split(code).length, 2, `the code appears once: ${mapped.message}`);
  }
  assert.equal(stateError(Object.assign(new Error('constraint failed'), { code: 'SQLITE_CONSTRAINT' }), layout).code, 'internal_error');
});
