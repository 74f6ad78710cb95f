// Pins the launchers' bundle freshness rule (bundle-state.cts; issue 29): fresh only while the bundle
// and its manifest exist, the manifest names this folder and lists inputs, and neither the bundle nor
// any input changed by anything the OS reports (size, mtime, ctime, inode; issue 30 item 1's rule).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleManifestPath, bundleState, fileIdentity, writeBundleManifest } from '../src/index.cjs';

interface Fixture {
  file: string;
  input: string;
}

/** A bundle `main.cjs` in a temp folder with one input `input.js`, its manifest written by writeBundleManifest. */
function fixture(): Fixture {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'docforge-bundle-state-')));
  mkdirSync(path.join(dir, 'bundle'));
  const file = path.join(dir, 'bundle', 'main.cjs');
  const input = path.join(dir, 'input.js');
  writeFileSync(file, 'exports.runMain = () => Promise.resolve();\n');
  writeFileSync(input, 'export const a = 1;\n');
  // Times in the past, so a put-back mtime is one a real edit would not give by chance.
  utimesSync(input, 1_000_000, 1_000_000);
  writeBundleManifest(file, [input]);
  return { file, input };
}

/**
 * Returns once the file system's clock has moved past `file`'s ctime: Linux stamps ctime from a
 * coarse clock (one timer tick, a few ms), so a second change within that tick of the first cannot
 * be told by ctime, and a build never follows an edit that fast. Polls a probe file; asserts nothing about time.
 */
function afterCtimeTick(file: string): void {
  const probe = `${file}.probe`;
  const since = statSync(file).ctimeMs;
  for (;;) {
    writeFileSync(probe, '');
    if (statSync(probe).ctimeMs > since) break;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
  }
  rmSync(probe);
}

/** Rewrites the manifest of `file` with `change` applied to its parsed content. */
function editManifest(file: string, change: (manifest: Record<string, unknown>) => unknown): void {
  const manifest = JSON.parse(readFileSync(bundleManifestPath(file), 'utf8')) as Record<string, unknown>;
  const next = change(manifest);
  writeFileSync(bundleManifestPath(file), typeof next === 'string' ? next : JSON.stringify(next ?? manifest));
}

test('the manifest sits beside the bundle, named for it', () => {
  assert.equal(bundleManifestPath('/a/fast-sync.cjs'), '/a/fast-sync.inputs.json');
  assert.equal(bundleManifestPath('/a/main.mjs'), '/a/main.inputs.json');
  assert.equal(bundleManifestPath('/a/worker.js'), '/a/worker.inputs.json');
});

test('writeBundleManifest records the folder, the bundle and every input with its identity', () => {
  const { file, input } = fixture();
  const manifest = JSON.parse(readFileSync(bundleManifestPath(file), 'utf8')) as Record<string, unknown>;
  assert.deepEqual(manifest, {
    bundle: 'main.cjs', built_in: path.dirname(file), bundle_stat: fileIdentity(file), inputs: ['../input.js'], stats: [fileIdentity(input)],
  });
  const stat = statSync(input);
  assert.deepEqual(fileIdentity(input), [stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino]);
  assert.equal(fileIdentity(path.join(path.dirname(file), 'gone.js')), null);
  assert.throws(() => writeBundleManifest(file, [path.join(path.dirname(file), 'gone.js')]), /gone\.js does not exist/);
});

test('an input whose content changed but whose mtime was put back makes the bundle stale (touch -r, cp -p, rsync -t)', () => {
  const touched = fixture();
  assert.equal(bundleState(touched.file), 'fresh');
  const before = statSync(touched.input);
  afterCtimeTick(touched.input);
  // Same size, same mtime: only ctime tells (touch -r).
  writeFileSync(touched.input, 'export const a = 2;\n');
  utimesSync(touched.input, before.atime, before.mtime);
  assert.equal(statSync(touched.input).mtimeMs, before.mtimeMs);
  assert.equal(bundleState(touched.file), 'stale');

  // A file renamed over the input with its old times (rsync -t): a new inode.
  const renamed = fixture();
  const old = statSync(renamed.input);
  writeFileSync(`${renamed.input}.new`, 'export const a = 3;\n');
  utimesSync(`${renamed.input}.new`, old.atime, old.mtime);
  renameSync(`${renamed.input}.new`, renamed.input);
  assert.equal(bundleState(renamed.file), 'stale');

  // Copied over with its times (cp -p): a larger file, older mtime.
  const copied = fixture();
  const source = path.join(path.dirname(copied.input), 'other.js');
  writeFileSync(source, 'export const a = 1; // longer\n');
  utimesSync(source, 500_000, 500_000);
  copyFileSync(source, copied.input);
  utimesSync(copied.input, 500_000, 500_000);
  assert.equal(bundleState(copied.file), 'stale');
});

test('a bundle file replaced after its manifest was written (an empty file with a fresh mtime) is stale', () => {
  const { file } = fixture();
  writeFileSync(file, '');
  assert.equal(bundleState(file), 'stale');
});

test('stale (built elsewhere, input gone) and missing (no bundle, no, malformed, old-format or empty manifest)', () => {
  const elsewhere = fixture();
  editManifest(elsewhere.file, (manifest) => ({ ...manifest, built_in: '/elsewhere' }));
  assert.equal(bundleState(elsewhere.file), 'stale');
  const gone = fixture();
  rmSync(gone.input);
  assert.equal(bundleState(gone.file), 'stale');
  // Identities of another shape never match.
  const strings = fixture();
  editManifest(strings.file, (manifest) => ({ ...manifest, stats: (manifest['stats'] as unknown[]).map(String) }));
  assert.equal(bundleState(strings.file), 'stale');
  const cases: Array<(manifest: Record<string, unknown>) => unknown> = [
    (manifest) => ({ ...manifest, inputs: [], stats: [] }),
    (manifest) => ({ ...manifest, inputs: [1] }),
    (manifest) => ({ ...manifest, stats: [] }),
    (manifest) => ({ ...manifest, bundle_stat: undefined }),
    // The manifest before issue 29's break-it trial: paths only.
    (manifest) => ({ bundle: manifest['bundle'], built_in: manifest['built_in'], inputs: manifest['inputs'] }),
    () => '{ not json',
    () => 'null',
    () => '',
  ];
  for (const change of cases) {
    const { file } = fixture();
    editManifest(file, change);
    assert.equal(bundleState(file), 'missing', String(change));
  }
  const { file } = fixture();
  rmSync(file);
  assert.equal(bundleState(file), 'missing');
  const unlisted = fixture();
  rmSync(bundleManifestPath(unlisted.file));
  assert.equal(bundleState(unlisted.file), 'missing');
});
