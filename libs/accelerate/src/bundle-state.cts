/**
 * Whether a launcher may run a bundle (issue 14 for the CLI's no-change sync, issue 29 for
 * docforge-mcp): the one freshness rule both committed launchers (apps/cli/bin/docforge.js,
 * apps/mcp-server/bin/docforge-mcp.js) apply before loading what a bundle script built. A bundle
 * `<name>.cjs` (or `.mjs`, `.js`) has its manifest `<name>.inputs.json` beside it, written after it
 * by {@link writeBundleManifest}: `{ bundle, built_in, bundle_stat, inputs, stats }`, `built_in` the
 * real path of the bundle's folder, `inputs` every bundled file (relative to that folder) and
 * `stats[i]` the identity (`[size, mtimeMs, ctimeMs, ino]`) of `inputs[i]` when the bundle was built ({@link fileIdentity}).
 * Issue 30 item 1's rule: whatever the OS reports as changed (size, mtime, ctime, inode) is a change,
 * so an input edited and then given its old mtime back (`touch -r`, `cp -p`, `rsync -t`) still makes
 * the bundle stale (issue 29 break-it trial), and so does a bundle file replaced after its manifest
 * was written. Imports only node:fs and node:path, so the launchers pay little for it (a few ms
 * for docforge-mcp's some 670 inputs, about what the mtime-only check cost).
 */
import { existsSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * `fresh`: the bundle and its manifest exist, it was built in this folder, and neither it nor any
 * input changed since (same identity); `stale`: built in another folder (the bundle embeds its
 * modules' absolute file URLs, so a moved checkout must not run it), or the bundle or an input
 * changed or is gone; `missing`: no bundle, no readable manifest, or a manifest without inputs or
 * of another shape (an older format included).
 */
export type BundleState = 'fresh' | 'stale' | 'missing';

/** The manifest file of the bundle `file`: its name with `.inputs.json` for `.cjs`, `.mjs` or `.js`. */
export function bundleManifestPath(file: string): string {
  return file.replace(/\.[cm]?js$/, '') + '.inputs.json';
}

/**
 * What the OS reports about a file that a change would move: `[size, mtimeMs, ctimeMs, ino]` of what
 * `file` names (links followed, so an edited link target counts), or null when it does not exist.
 * ctime cannot be set back by a user, so any write, rename over or `touch -r` changes the identity.
 * Numbers, compared as numbers: JSON keeps a double exactly, and no number is formatted per start.
 * @throws a file-system error other than a missing file (ENOENT)
 */
export function fileIdentity(file: string): FileIdentity | null {
  const stat = statSync(file, { throwIfNoEntry: false });
  return stat === undefined ? null : [stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino];
}

/** `[size, mtimeMs, ctimeMs, ino]` of a file ({@link fileIdentity}). */
export type FileIdentity = [size: number, mtimeMs: number, ctimeMs: number, ino: number];

/** True when `file` exists and has the identity `recorded` (anything not a {@link FileIdentity} never matches). */
function sameIdentity(file: string, recorded: unknown): boolean {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (stat === undefined || !Array.isArray(recorded) || recorded.length !== 4) return false;
  return stat.size === recorded[0] && stat.mtimeMs === recorded[1] && stat.ctimeMs === recorded[2] && stat.ino === recorded[3];
}

/**
 * Writes the manifest of the bundle `file` (an absolute path, already written) through a temp file
 * and a rename: its folder's real path, its own identity, and `inputs` (absolute paths, in any order)
 * with theirs. Call it after the bundle is in place; a launcher then finds it {@link bundleState} `fresh`.
 * @throws a file-system error, or an Error naming an input or the bundle that does not exist
 */
export function writeBundleManifest(file: string, inputs: readonly string[]): void {
  const dir = path.dirname(file);
  const identity = (input: string): FileIdentity => {
    const found = fileIdentity(input);
    if (found === null) throw new Error(`writeBundleManifest: ${input} does not exist`);
    return found;
  };
  const sorted = [...new Set(inputs)].sort();
  const manifest = {
    bundle: path.basename(file),
    built_in: realpathSync(dir),
    bundle_stat: identity(file),
    inputs: sorted.map((input) => path.relative(dir, input)),
    stats: sorted.map(identity),
  };
  const target = bundleManifestPath(file);
  writeFileSync(`${target}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(`${target}.tmp`, target);
}

/** The manifest's fields when it has the shape {@link writeBundleManifest} writes, else null. */
function manifestFields(value: unknown): { builtIn: unknown; bundleStat: unknown; inputs: string[]; stats: unknown[] } | null {
  if (typeof value !== 'object' || value === null) return null;
  const { built_in: builtIn, bundle_stat: bundleStat, inputs, stats } = value as Record<string, unknown>;
  if (!Array.isArray(inputs) || inputs.length === 0 || !inputs.every((item) => typeof item === 'string')) return null;
  if (!Array.isArray(bundleStat) || !Array.isArray(stats) || stats.length !== inputs.length) return null;
  return { builtIn, bundleStat, inputs: inputs as string[], stats: stats as unknown[] };
}

/**
 * The {@link BundleState} of the bundle at `file` (an absolute path), from its manifest and the
 * identities ({@link fileIdentity}) of the bundle and of every input. A file-system or JSON error is
 * `missing` (the bundle or its manifest) or `stale` (an input), never an exception.
 * @throws only an error of another kind (a bug), which no launcher should hide
 */
export function bundleState(file: string): BundleState {
  let fields: ReturnType<typeof manifestFields>;
  const dir = path.dirname(file);
  try {
    if (!existsSync(file)) return 'missing';
    fields = manifestFields(JSON.parse(readFileSync(bundleManifestPath(file), 'utf8')));
    if (fields === null) return 'missing';
    if (fields.builtIn !== realpathSync(dir) || !sameIdentity(file, fields.bundleStat)) return 'stale';
  } catch (error) {
    return unreadable(error, 'missing');
  }
  try {
    const { inputs, stats } = fields;
    // `dir/input` rather than path.resolve: the OS resolves `..`, and this loop runs on every start.
    for (let index = 0; index < inputs.length; index += 1) if (!sameIdentity(`${dir}${path.sep}${inputs[index]!}`, stats[index])) return 'stale';
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
