// Pins issue 30, item 16 through the real server: docforge_apply_changeset, while another process keeps swapping docs/components for a symbolic link outside the project and back, answers applied, a refusal, application_failed (with restored) or application_in_progress, never internal_error, and creates or changes no file outside the root. (The 200-apply race runs in-process: libs/changesets/test/issue-apply-folder-swap.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { exampleProjectCopy, tempDir } from './helpers/projects.js';
import { useServer } from './helpers/server.js';

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

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) out[name] = createHash('sha256').update(readFileSync(path.join(dir, name))).digest('hex');
  return out;
}

test('applies through the real server during a folder swap: never internal_error, nothing outside the root written', async () => {
  const root = exampleProjectCopy();
  const outside = tempDir('docforge-outside-');
  mkdirSync(outside, { recursive: true });
  for (const name of readdirSync(path.join(root, 'docs/components'))) writeFileSync(path.join(outside, name), `precious ${name}\n`);
  const before = snapshot(outside);
  const child = spawn(process.execPath, ['-e', SWAPPER, path.join(root, 'docs/components'), path.join(root, 'docs/.components-aside'), outside], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pause = (): Promise<void> => new Promise((resolve) => {
    child.once('message', () => resolve());
    child.send('pause');
  });
  const server = await useServer(root, { proposalWriter: 'agent', canonicalApplier: 'reviewer' });
  const codes: string[] = [];
  try {
    for (let i = 0; i < 6; i += 1) {
      await pause();
      const reg = await server.call('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', body: `# Double-entry ledger\n\nRound ${i}.\n` }] });
      if (!reg.ok) {
        // An open journal (a rollback the swap kept from completing) can hold registration back; never an internal error.
        assert.notEqual(reg.error!.code, 'internal_error', reg.error!.message);
        codes.push(`register:${reg.error!.code}`);
        continue;
      }
      child.send('resume');
      const applied = await server.call('docforge_apply_changeset', { changeset_id: reg.result!.changeset_id, changeset_sha256: reg.result!.changeset_sha256 });
      codes.push(applied.ok ? 'applied' : applied.error!.code);
      if (!applied.ok) {
        assert.ok(['application_refused', 'application_failed', 'application_in_progress', 'application_journal_invalid', 'path_outside_root'].includes(applied.error!.code), `${applied.error!.code}: ${applied.error!.message}`);
        await pause();
        await server.call('docforge_abandon_changeset', { changeset_id: reg.result!.changeset_id, reason: 'failed under the swap' });
      }
    }
  } finally {
    await pause();
    child.send('stop');
  }
  assert.deepEqual(snapshot(outside), before, `no file outside the root was created or changed (answers: ${codes.join(', ')})`);
});
