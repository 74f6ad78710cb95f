// Temp copies of a committed launcher (apps/*/bin) with a bundle of the test's choosing beside it, for
// the bundle tests (test/mcp-bundle, test/cli-bundle, test/cli-full-bundle): the real dist is never
// touched, so tests running in parallel see it as built.
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleManifestPath, writeBundleManifest } from '@docforge/accelerate';
import { REPO_ROOT } from './paths.js';
import { tempDir } from './projects.js';

/**
 * What `dist/bundle/<name>` of a temp launcher holds: a link to the real bundle (its manifest lists
 * the real inputs plus one temp input, then changed as `change` says: `newer` rewrites it, `put-back`
 * rewrites it at the same size and puts its old times back, as `touch -r`, `cp -p` or `rsync -t` do),
 * a file of the given text (manifest written after it, so it is fresh), or nothing.
 */
export type TempBundle = { real: true; change?: 'newer' | 'put-back' } | { text: string } | null;

/** Where the launcher and the real bundle live, and the bundle's file name in dist/bundle. */
export interface LauncherApp {
  /** The app folder (apps/mcp-server, apps/cli). */
  app: string;
  /** The launcher's path relative to `app` (bin/docforge-mcp.js). */
  launcher: string;
  /** The bundle's file name (main.cjs, cli.cjs, fast-sync.cjs). */
  bundle: string;
}

/** Absolute paths of the inputs the real bundle's manifest lists. */
export function realInputs(app: LauncherApp): string[] {
  const manifest = bundleManifestPath(path.join(app.app, 'dist/bundle', app.bundle));
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { inputs: string[] }).inputs.map((input) => path.resolve(path.dirname(manifest), input));
}

/**
 * Returns once the file system's clock has moved past `file`'s ctime: Linux stamps ctime from a
 * coarse clock (one timer tick), so a change within that tick of the one before cannot be told by
 * ctime (a build never follows an edit that fast). Polls a probe file; asserts nothing about time.
 */
export function afterCtimeTick(file: string): void {
  const probe = `${file}.probe`;
  const since = statSync(file).ctimeMs;
  for (;;) {
    writeFileSync(probe, '');
    if (statSync(probe).ctimeMs > since) break;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
  }
  rmSync(probe);
}

/**
 * A copy of `app`'s launcher (and bin/package.json) in a temp app folder whose dist/src links to the
 * real compiled program and node_modules to the repository's, with `bundle` in dist/bundle; `builtIn`
 * replaces the folder the manifest names (a moved checkout). Returns the copied launcher's path.
 */
export function tempLauncher(app: LauncherApp, bundle: TempBundle, builtIn?: string): string {
  const dir = tempDir('docforge-launcher-');
  const launcher = path.join(dir, app.launcher);
  mkdirSync(path.dirname(launcher), { recursive: true });
  mkdirSync(path.join(dir, 'dist'));
  copyFileSync(path.join(app.app, app.launcher), launcher);
  copyFileSync(path.join(app.app, path.dirname(app.launcher), 'package.json'), path.join(path.dirname(launcher), 'package.json'));
  symlinkSync(path.join(app.app, 'dist/src'), path.join(dir, 'dist/src'));
  // The launcher's freshness check comes from @docforge/accelerate, resolved from its folder.
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  if (bundle === null) return launcher;
  const out = path.join(dir, 'dist/bundle');
  mkdirSync(out);
  const file = path.join(out, app.bundle);
  if ('real' in bundle) symlinkSync(path.join(app.app, 'dist/bundle', app.bundle), file);
  else writeFileSync(file, bundle.text);
  const input = path.join(dir, 'input.js');
  writeFileSync(input, '// an input\n');
  utimesSync(input, 1_000_000, 1_000_000);
  writeBundleManifest(file, 'real' in bundle ? [...realInputs(app), input] : [input]);
  if (builtIn !== undefined) {
    const manifest = JSON.parse(readFileSync(bundleManifestPath(file), 'utf8')) as Record<string, unknown>;
    writeFileSync(bundleManifestPath(file), JSON.stringify({ ...manifest, built_in: builtIn }));
  }
  if ('real' in bundle && bundle.change === 'newer') writeFileSync(input, '// an edited input\n');
  if ('real' in bundle && bundle.change === 'put-back') {
    afterCtimeTick(input);
    // Same size, same times: only ctime (and a copy's inode) tells.
    writeFileSync(input, '// an INPUT\n');
    utimesSync(input, 1_000_000, 1_000_000);
  }
  return launcher;
}
