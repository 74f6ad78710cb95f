// Pins issue 30, items 16 and 17: a content folder swapped for a symbolic link pointing outside the project, again and again while changesets are applied, never makes canonical application create or change a file outside the root (every write goes through a verified folder handle in the confined-directory child); each apply answers applied, refused before writing, or application_failed with the rollback state (restored true, or false naming the open journal: never internal_error "nothing was changed"); and no missing content folder is ever re-created.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DocforgeError } from '@docforge/core';
import { ConfinedDirs } from '@docforge/fs-safe';
import { loadDescriptor } from '@docforge/project';
import { abandonChangeset, applyChangeset, ChangesetStore, recoverApplication, registerChangeset, Workspace, GENERIC_APPLIER, type ProjectView } from '../src/index.js';
import { projectViewOf } from './helpers.js';

const FILES = 12;
const page = (i: number, body: string): string => `+++\nid = "C-${i}"\nkind = "component"\ntitle = "Component ${i}"\n+++\n${body}\n`;

function project(): { root: string; outside: string; view: ProjectView; store: ChangesetStore } {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'df-swap-')));
  const root = path.join(base, 'project');
  const outside = path.join(base, 'outside');
  mkdirSync(path.join(root, 'docs/components'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "swap"\nname = "Swap"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = []\n[adapter]\ncode = "none"\ncanonical_applier = "generic"\n');
  for (let i = 0; i < FILES; i += 1) {
    writeFileSync(path.join(root, `docs/components/c-${i}.md`), page(i, `Body ${i}.`));
    // The attacker's folder holds files of the same names: the most tempting targets.
    writeFileSync(path.join(outside, `c-${i}.md`), `precious ${i}\n`);
  }
  return { root, outside, ...projectViewOf(root) };
}

/** Every file below `dir` (names included, so a created temp file shows) with its SHA-256. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const abs = path.join(dir, name);
    try {
      out[name] = createHash('sha256').update(readFileSync(abs)).digest('hex');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EISDIR') throw error;
      out[name] = 'dir';
    }
  }
  return out;
}

/** The swapping process: renames docs/components away, puts a link to `outside` in its place, and back, until told to pause. */
const SWAPPER = `
const fs = require('node:fs');
const [folder, aside, outside] = process.argv.slice(1);
let paused = true, running = false, spins = 0;
// Keeps the folder as it is for n ms while sleeping (issue 29 item 7: a busy wait here, and a loop
// that spun while paused, burned a core the processes under test needed).
const hold = (n) => { if (n > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, n); };
process.on('message', (m) => {
  if (m === 'pause') { paused = true; process.send('paused'); }
  else if (m === 'resume') { paused = false; if (!running) { running = true; setImmediate(cycle); } }
  else process.exit(0);
});
function cycle() {
  if (paused) { running = false; return; }
  fs.renameSync(folder, aside); fs.symlinkSync(outside, folder);
  hold(spins % 3);
  fs.unlinkSync(folder); fs.renameSync(aside, folder);
  hold((spins += 1) % 4);
  setImmediate(cycle);
}
`;

function swapper(root: string, outside: string): { pause: () => Promise<void>; resume: () => void; stop: () => void } {
  const folder = path.join(root, 'docs/components');
  const child = spawn(process.execPath, ['-e', SWAPPER, folder, path.join(root, 'docs/.components-aside'), outside], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return {
    pause: () => new Promise((resolve) => {
      child.once('message', () => resolve());
      child.send('pause');
    }),
    resume: () => child.send('resume'),
    stop: () => child.send('stop'),
  };
}

test('200 applies against a process swapping the content folder for a link outside the project: no file outside is created or changed', async () => {
  const { root, outside, view, store } = project();
  const outsideBefore = snapshot(outside);
  const parentBefore = readdirSync(path.dirname(root)).sort();
  const swap = swapper(root, outside);
  const dirs = await ConfinedDirs.start(root);
  const counts = { applies: 0, applied: 0, refused: 0, rolled_back: 0, rollback_incomplete: 0, in_progress: 0, journal_refused: 0 };
  const codes: string[] = [];
  try {
    for (let i = 0; i < 200; i += 1) {
      await swap.pause();
      const n = i % FILES;
      const registered = await registerChangeset(store, view, 'agent', [{ op: 'node_update', node_id: `C-${n}`, body: `Body ${n}, round ${i}.\n` }], 'registered').catch((error: unknown) => {
        throw new Error(`${String(error)} ${JSON.stringify(readdirSync(path.join(root, 'docs'), { withFileTypes: true }).map((d) => [d.name, d.isSymbolicLink()]))} ${readdirSync(path.join(root, 'docs/components')).join(',')} ${JSON.stringify(counts)} ${codes.slice(-5).join(',')}`);
      });
      assert.equal(registered.doc.status, 'ready', JSON.stringify(registered.doc.findings));
      swap.resume();
      counts.applies += 1;
      try {
        await applyChangeset(store, view, registered.doc.id, registered.doc.changeset_sha256, { applierId: 'reviewer', applier: GENERIC_APPLIER, dirs });
        counts.applied += 1;
        continue;
      } catch (error) {
        assert.ok(error instanceof DocforgeError, String(error));
        assert.notEqual(error.code, 'internal_error', error.message);
        codes.push(error.code);
        if (error.code === 'application_failed') {
          if (error.details['restored'] === false) {
            counts.rollback_incomplete += 1;
            assert.match(error.message, /rollback could not complete.*journal .* stays open/s);
            assert.ok(typeof error.details['journal'] === 'string');
          } else counts.rolled_back += 1;
        } else if (error.code === 'application_in_progress') counts.in_progress += 1;
        else if (error.code === 'application_journal_invalid') counts.journal_refused += 1;
        else {
          assert.ok(['application_refused', 'path_outside_root'].includes(error.code), `${error.code}: ${error.message}`);
          counts.refused += 1;
        }
      }
      await swap.pause();
      const doc = store.get(registered.doc.id);
      // While a journal a rollback left open names it, the changeset is not abandoned (ap2 F3): recover it first (the swap is paused).
      if (doc.status === 'ready') {
        await abandonChangeset(store, 'agent', doc.id, 'the apply failed under the swap').catch(async (error: unknown) => {
          if (!(error instanceof DocforgeError && error.code === 'application_in_progress')) throw error;
          await recoverApplication(store, view.descriptor);
          if (store.get(doc.id).status === 'ready') await abandonChangeset(store, 'agent', doc.id, 'the apply failed under the swap');
        });
      }
    }
  } finally {
    await swap.pause();
    swap.stop();
    await dirs.close();
  }
  // The folder is back as a real folder; recovery closes any journal a rollback left open.
  assert.ok(!existsSync(path.join(root, 'docs/.components-aside')));
  await recoverApplication(store, view.descriptor).catch((error: unknown) => {
    // Name the rollback's own cause: the error alone says only that the journal stays open.
    const details = error instanceof DocforgeError ? JSON.stringify(error.details) : '';
    throw new Error(`recovery after the race failed: ${String(error)} ${details}`, { cause: error });
  });
  assert.ok(!existsSync(path.join(root, '.docforge/application/journal.json')), 'every journal is closed');
  assert.deepEqual(snapshot(outside), outsideBefore, 'no file outside the root was created or changed');
  assert.deepEqual(readdirSync(path.dirname(root)).sort(), parentBefore, 'nothing was created beside the project');
  assert.deepEqual(readdirSync(path.join(root, 'docs/components')).filter((n) => n.endsWith('.tmp')), [], 'no temp file stays in the content folder');
  assert.equal(counts.applies, 200);
  // The figures of the closing note (printed for the report).
  process.stderr.write(`folder-swap race: ${JSON.stringify(counts)}\n`);
});

test('a content folder that vanishes during apply is never re-created: the apply is refused and the folder stays absent', async () => {
  const { root, store } = project();
  writeFileSync(path.join(root, 'docforge.toml'), readFileSync(path.join(root, 'docforge.toml'), 'utf8').replace('content_roots = ["docs"]', 'content_roots = ["docs/components"]'));
  const descriptor = loadDescriptor(root);
  const view: ProjectView = { root, descriptor, sourceHash: 'f'.repeat(64), codeExtensions: [], adapterOperations: null, node: (id) => new Workspace(view).locate(id)?.node ?? null, inbound: () => [] };
  const registered = await registerChangeset(store, view, 'agent', [{ op: 'node_create', node: { id: 'C-NEW', kind: 'component', title: 'New' }, path: 'docs/components/new.md', body: 'New.\n' }], 'registered');
  assert.equal(registered.doc.status, 'ready', JSON.stringify(registered.doc.findings));
  // The content folder is moved away after revalidation read it, just before the write is staged.
  const applier = { source: 'project_adapter' as const, module: 'adapter.mjs', stage: ({ after }: { after: string | null }) => {
    if (existsSync(path.join(root, 'docs/components'))) renameSync(path.join(root, 'docs/components'), path.join(root, 'docs/elsewhere'));
    return after;
  } };
  await assert.rejects(applyChangeset(store, view, registered.doc.id, registered.doc.changeset_sha256, { applierId: 'reviewer', applier }), (error: unknown) => {
    assert.ok(error instanceof DocforgeError);
    assert.equal(error.code, 'application_refused', error.message);
    assert.match(error.message, /never re-creates a content folder/);
    return true;
  });
  assert.equal(existsSync(path.join(root, 'docs/components')), false, 'the missing content root is not re-created');
  assert.equal(existsSync(path.join(root, 'docs/elsewhere/new.md')), false);
});

test('a rollback that cannot complete answers application_failed with restored: false naming the open journal; recovery finishes it once the folder is back', async () => {
  const { root, outside, view, store } = project();
  const outsideBefore = snapshot(outside);
  const before = snapshot(path.join(root, 'docs'));
  const registered = await registerChangeset(store, view, 'agent', [
    { op: 'node_update', node_id: 'C-0', body: 'Zero, changed.\n' },
    { op: 'node_update', node_id: 'C-1', body: 'One, changed.\n' },
  ], 'registered');
  assert.equal(registered.doc.status, 'ready', JSON.stringify(registered.doc.findings));
  const real = await ConfinedDirs.start(root);
  const folder = path.join(root, 'docs/components');
  let swapped = false;
  // The attacker's swap, made deterministic: right after the first canonical file is written, the folder becomes a link outside.
  const dirs = new Proxy(real, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop === 'write') {
        return async (...args: Parameters<ConfinedDirs['write']>) => {
          await target.write(...args);
          if (args[1] === 'c-0.md' && !swapped) {
            swapped = true;
            renameSync(folder, path.join(root, 'docs/.aside'));
            symlinkSync(outside, folder);
          }
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  try {
    await assert.rejects(applyChangeset(store, view, registered.doc.id, registered.doc.changeset_sha256, { applierId: 'reviewer', applier: GENERIC_APPLIER, dirs }), (error: unknown) => {
      assert.ok(error instanceof DocforgeError, String(error));
      assert.equal(error.code, 'application_failed', error.message);
      assert.equal(error.details['restored'], false);
      assert.equal(error.details['journal'], path.join(root, '.docforge/application/journal.json'));
      assert.match(error.message, /rollback could not complete/);
      assert.doesNotMatch(error.message, /nothing was changed|every canonical file was restored/);
      return true;
    });
  } finally {
    await real.close();
  }
  assert.ok(existsSync(path.join(root, '.docforge/application/journal.json')), 'the journal stays open');
  assert.deepEqual(snapshot(outside), outsideBefore, 'nothing outside was written');
  unlinkSync(folder);
  renameSync(path.join(root, 'docs/.aside'), folder);
  const recovered = await recoverApplication(store, view.descriptor);
  assert.equal(recovered?.action, 'rolled_back');
  assert.deepEqual(snapshot(path.join(root, 'docs')), before, 'recovery restored every file and left no temp file');
  assert.equal(store.get(registered.doc.id).status, 'ready');
});
