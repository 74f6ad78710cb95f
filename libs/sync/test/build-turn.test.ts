// Pins the build turn (build-turn.ts): a free lock is taken at once; a live holder is waited for
// and the turn says so; a wait that runs out gives no lock and never throws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { acquireLock, stateLayout } from '@docforge/fs-safe';
import { takeBuildTurn } from '../src/build-turn.js';

test('a free build lock is taken at once; a held one is waited for, up to the wait given', async () => {
  const state = mkdtempSync(path.join(os.tmpdir(), 'docforge-build-turn-'));
  try {
    const layout = stateLayout(path.join(state, '.docforge'), state);
    const free = await takeBuildTurn(layout, 1_000);
    assert.equal(free.waited, false);
    assert.ok(free.lock !== null);
    const timedOut = await takeBuildTurn(layout, 50);
    assert.deepEqual(timedOut, { lock: null, waited: true }, 'a wait that runs out builds without the lock');
    // Released after 100 ms; the wait given is a hang guard (it was 10 s, which a loaded machine could outlast: issue 29 item 7).
    const waiting = takeBuildTurn(layout, 120_000);
    setTimeout(() => free.lock!.release(), 100);
    const next = await waiting;
    assert.equal(next.waited, true, 'the turn says another build was waited for, so the sync decides again');
    assert.ok(next.lock !== null);
    next.lock.release();
    const other = await acquireLock(layout.buildLock, { timeoutMs: 0 });
    other.release();
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
});
