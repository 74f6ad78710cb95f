// Pins the launchers' bundle freshness rule (bundle-state.cts; issue 29): fresh only while the bundle
// and its manifest exist, the manifest names this folder and lists inputs, and none is newer or gone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleManifestPath, bundleState } from '../src/index.cjs';

/** A bundle `main.cjs` in a temp folder with one input whose mtime is `inputAgeS` seconds after the bundle's. */
function bundleWith(inputAgeS: number, manifest?: (dir: string) => unknown): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'docforge-bundle-state-')));
  mkdirSync(path.join(dir, 'bundle'));
  const file = path.join(dir, 'bundle', 'main.cjs');
  writeFileSync(file, '');
  writeFileSync(path.join(dir, 'input.js'), '');
  utimesSync(file, 1_000_000, 1_000_000);
  utimesSync(path.join(dir, 'input.js'), 1_000_000 + inputAgeS, 1_000_000 + inputAgeS);
  const content = manifest ? manifest(dir) : { bundle: 'main.cjs', built_in: path.join(dir, 'bundle'), inputs: ['../input.js'] };
  writeFileSync(path.join(dir, 'bundle', 'main.inputs.json'), typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

test('the manifest sits beside the bundle, named for it', () => {
  assert.equal(bundleManifestPath('/a/fast-sync.cjs'), '/a/fast-sync.inputs.json');
  assert.equal(bundleManifestPath('/a/main.mjs'), '/a/main.inputs.json');
  assert.equal(bundleManifestPath('/a/worker.js'), '/a/worker.inputs.json');
});

test('fresh, stale (newer or missing input, built elsewhere) and missing (no bundle, no or empty manifest)', () => {
  assert.equal(bundleState(bundleWith(-60)), 'fresh');
  assert.equal(bundleState(bundleWith(0)), 'fresh');
  assert.equal(bundleState(bundleWith(60)), 'stale');
  assert.equal(bundleState(bundleWith(-60, () => ({ built_in: '/elsewhere', inputs: ['../input.js'] }))), 'stale');
  assert.equal(bundleState(bundleWith(-60, (dir) => ({ built_in: path.join(dir, 'bundle'), inputs: ['../gone.js'] }))), 'stale');
  assert.equal(bundleState(bundleWith(-60, (dir) => ({ built_in: path.join(dir, 'bundle'), inputs: [] }))), 'missing');
  assert.equal(bundleState(bundleWith(-60, (dir) => ({ built_in: path.join(dir, 'bundle'), inputs: [1] }))), 'missing');
  assert.equal(bundleState(bundleWith(-60, () => '{ not json')), 'missing');
  const file = bundleWith(-60);
  rmSync(file);
  assert.equal(bundleState(file), 'missing');
  const unlisted = bundleWith(-60);
  rmSync(bundleManifestPath(unlisted));
  assert.equal(bundleState(unlisted), 'missing');
});
