/**
 * The files a package's package.json names as what it runs (new-user trial on mitt 3.0.1 and yaml
 * 2.9.1): `main`, `module`, `bin` and every `exports` target count as used, and the file Node itself
 * resolves (`exports` conditions `node`, `import`, `require`, `default` in key order, else `main`)
 * ranks first when init keeps one of several builds of one code base.
 */
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

/** Most bytes of package.json read (a bound on init's cost). */
const MAX_MANIFEST_BYTES = 1024 * 1024;
/** The conditions Node matches, for `import` and for `require` (its resolution takes the first key of an object in this set). */
const NODE_CONDITIONS: readonly (readonly string[])[] = [['node', 'import', 'default', 'module-sync'], ['node', 'require', 'default', 'module-sync']];

/** What package.json names: project-relative POSIX paths. */
export interface PackageEntries {
  /** Files Node resolves (the `exports` targets for `import`, then `require`, else `main`), best first. */
  node: string[];
  /** Every file `main`, `module`, `bin` or any `exports` condition names (`browser` ones too). */
  named: Set<string>;
}

/** A target string as a project-relative path, or null when it leaves the package or is a pattern. */
function relative(target: string): string | null {
  if (target.includes('*')) return null;
  const path = posix.normalize(target.replace(/^\.\//, ''));
  return path.startsWith('../') || path.startsWith('/') || path === '.' ? null : path;
}

/** Every string target below an `exports` value (all conditions, all subpaths). */
function allTargets(value: unknown, out: string[], depth = 0): void {
  if (depth > 20) return;
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) allTargets(item, out, depth + 1);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) allTargets(item, out, depth + 1);
}

/** The target Node resolves from an `exports` value under `conditions` (first matching key of each object, first usable array item), or null. */
function nodeTarget(value: unknown, conditions: readonly string[], depth = 0): string | null {
  if (depth > 20) return null;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = nodeTarget(item, conditions, depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  const entries = Object.entries(value);
  // Subpath map (`"."`, `"./util"`): the package root first, then the others in order.
  if (entries.some(([key]) => key.startsWith('.'))) {
    const root = entries.find(([key]) => key === '.');
    return root === undefined ? null : nodeTarget(root[1], conditions, depth + 1);
  }
  for (const [key, item] of entries) {
    if (conditions.includes(key)) return nodeTarget(item, conditions, depth + 1);
  }
  return null;
}

/**
 * The entries of the package.json at the project root (nothing when there is none, it is larger
 * than 1 MiB or not a JSON object). Paths that leave the package or hold `*` patterns are dropped.
 * Never throws.
 * @param root absolute project root
 */
export function packageEntries(root: string): PackageEntries {
  const none: PackageEntries = { node: [], named: new Set() };
  let manifest: Record<string, unknown>;
  try {
    const bytes = readFileSync(join(root, 'package.json'));
    if (bytes.length > MAX_MANIFEST_BYTES) return none;
    const parsed: unknown = JSON.parse(bytes.toString('utf8'));
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return none;
    manifest = parsed as Record<string, unknown>;
  } catch {
    return none;
  }
  const keep = (targets: readonly unknown[]): string[] => targets.flatMap((target) => (typeof target === 'string' ? [relative(target)] : [])).filter((path): path is string => path !== null);
  const exportsNode = NODE_CONDITIONS.map((conditions) => nodeTarget(manifest.exports, conditions));
  const node = [...new Set(keep(manifest.exports === undefined ? [manifest.main] : exportsNode))];
  const bin = typeof manifest.bin === 'string' ? [manifest.bin] : manifest.bin !== null && typeof manifest.bin === 'object' ? Object.values(manifest.bin) : [];
  const exported: string[] = [];
  allTargets(manifest.exports, exported);
  return { node, named: new Set(keep([manifest.main, manifest.module, ...bin, ...exported])) };
}
