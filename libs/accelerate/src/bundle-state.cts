/**
 * Whether a launcher may run a bundle (issue 14 for the CLI's no-change sync, issue 29 for
 * docforge-mcp): the one freshness rule both committed launchers (apps/cli/bin/docforge.js,
 * apps/mcp-server/bin/docforge-mcp.js) apply before loading what a bundle script built. A bundle
 * `<name>.cjs` (or `.mjs`, `.js`) has its manifest `<name>.inputs.json` beside it, written after it:
 * `{ bundle, built_in, inputs }`, `built_in` the real path of the bundle's folder and `inputs` every
 * bundled file, relative to that folder. Imports only node:fs and node:path, so the launchers pay
 * little for it.
 */
import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * `fresh`: the bundle and its manifest exist, it was built in this folder and no input is newer
 * than it; `stale`: built in another folder (the bundle embeds its modules' absolute file URLs, so a
 * moved checkout must not run it), or an input is newer or gone; `missing`: no bundle, no readable
 * manifest, or a manifest without inputs.
 */
export type BundleState = 'fresh' | 'stale' | 'missing';

/** The manifest file of the bundle `file`: its name with `.inputs.json` for `.cjs`, `.mjs` or `.js`. */
export function bundleManifestPath(file: string): string {
  return file.replace(/\.[cm]?js$/, '') + '.inputs.json';
}

/**
 * The {@link BundleState} of the bundle at `file` (an absolute path), from its manifest and the
 * modification times of the bundle and of every input. A file-system or JSON error is `missing`
 * (the bundle or its manifest) or `stale` (an input), never an exception.
 * @throws only an error of another kind (a bug), which no launcher should hide
 */
export function bundleState(file: string): BundleState {
  let built: number;
  let inputs: unknown;
  const dir = path.dirname(file);
  try {
    built = statSync(file).mtimeMs;
    const manifest = JSON.parse(readFileSync(bundleManifestPath(file), 'utf8')) as { inputs?: unknown; built_in?: unknown };
    inputs = manifest.inputs;
    if (!Array.isArray(inputs) || inputs.length === 0 || !inputs.every((input) => typeof input === 'string')) return 'missing';
    if (manifest.built_in !== realpathSync(dir)) return 'stale';
  } catch (error) {
    return unreadable(error, 'missing');
  }
  try {
    for (const input of inputs as string[]) if (lstatSync(path.resolve(dir, input)).mtimeMs > built) return 'stale';
  } catch (error) {
    return unreadable(error, 'stale');
  }
  return 'fresh';
}

/** `state` for a file-system or JSON error (the bundle is then not used); rethrows anything else. */
function unreadable(error: unknown, state: BundleState): BundleState {
  if (error instanceof SyntaxError || (error instanceof Error && 'code' in error)) return state;
  throw error;
}
