/**
 * The package.json rules of module resolution (issue 31, break-it trial F6): reading a package.json
 * (a text that is no JSON object is malformed, and says why), the candidate targets of its
 * `exports` for a subpath (conditions in order, `*` patterns), and the targets Node refuses.
 */
import type { ResolutionMode } from './candidates.js';

/**
 * The conditions Node matches when it loads a package: `node`, `import` (an ESM importer),
 * `require` (a CommonJS one) and `default`. Node takes the first key of a conditions object that
 * it matches, in the package's own key order; `browser`, `types`, `deno` and the like never match.
 */
const NODE_CONDITIONS: ReadonlySet<string> = new Set(['node', 'import', 'require', 'default']);

/** What module resolution reads of a package.json. */
export interface PackageInfo {
  name: string | null;
  main: string | null;
  /** `types`, else `typings` (read by TypeScript importers before `main`). */
  types: string | null;
  exports: unknown;
  /** The `exports` map's shape, read once per package.json (a map of 20,000 subpaths is not scanned per lookup). */
  exportShape: ExportShape;
}

/** What {@link exportTargets} needs to know of an `exports` value beyond looking a subpath up. */
export interface ExportShape {
  /** Whether the value stands for `.` alone: a string, an array, or an object of conditions (no key starts with `.`). */
  rootOnly: boolean;
  /** The keys holding a `*`, in map order, split at it. */
  patterns: { key: string; prefix: string; suffix: string }[];
}

/**
 * Reads a package.json text: its fields as {@link PackageInfo}, or `malformed` saying why not (a
 * syntax error, or a JSON value that is not an object).
 */
export function parsePackageJson(text: string): { info: PackageInfo | null; malformed: string | null } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { info: null, malformed: error instanceof Error ? error.message : String(error) };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return { info: null, malformed: 'not a JSON object' };
  const fields = json as Record<string, unknown>;
  const exportsField = fields['exports'] ?? null;
  return {
    info: {
      name: typeof fields['name'] === 'string' ? fields['name'] : null,
      main: typeof fields['main'] === 'string' ? fields['main'] : null,
      types: typeof fields['types'] === 'string' ? fields['types'] : typeof fields['typings'] === 'string' ? fields['typings'] : null,
      exports: exportsField,
      exportShape: exportShape(exportsField),
    },
    malformed: null,
  };
}

/** The shape of an `exports` value ({@link ExportShape}). */
function exportShape(exportsField: unknown): ExportShape {
  if (exportsField === null || typeof exportsField !== 'object' || Array.isArray(exportsField)) return { rootOnly: true, patterns: [] };
  const keys = Object.keys(exportsField);
  const patterns: ExportShape['patterns'] = [];
  for (const key of keys) {
    const star = key.indexOf('*');
    if (star >= 0) patterns.push({ key, prefix: key.slice(0, star), suffix: key.slice(star + 1) });
  }
  return { rootOnly: keys.length > 0 && keys.every((k) => !k.startsWith('.')), patterns };
}

/**
 * Candidate targets of a package's `exports` value for a subpath (`.` or `./x`): first those Node
 * loads, in the package's key order ({@link NODE_CONDITIONS}; `types` before them for a TypeScript
 * importer), then the other conditions' (`browser`, ...) as fallbacks for a project that does not
 * index Node's target; a pattern match holding a segment Node refuses gives none.
 */
export function exportTargets(info: PackageInfo, subpath: string, mode: ResolutionMode): string[] {
  const exportsField = info.exports;
  if (exportsField === null || exportsField === undefined) return [];
  const leaves = (value: unknown): string[] => conditionLeaves(value, mode === 'typescript');
  if (typeof exportsField === 'string' || Array.isArray(exportsField)) return subpath === '.' ? leaves(exportsField) : [];
  if (typeof exportsField !== 'object') return [];
  const map = exportsField as Record<string, unknown>;
  if (info.exportShape.rootOnly) return subpath === '.' ? leaves(map) : [];
  if (Object.prototype.hasOwnProperty.call(map, subpath)) return leaves(map[subpath]);
  for (const { key, prefix, suffix } of info.exportShape.patterns) {
    if (subpath.startsWith(prefix) && subpath.endsWith(suffix) && subpath.length >= prefix.length + suffix.length) {
      const middle = subpath.slice(prefix.length, subpath.length - suffix.length);
      // Node refuses a pattern match holding a `.`, `..` or `node_modules` segment.
      if (INVALID_SEGMENT.test(middle)) return [];
      return leaves(map[key]).map((t) => t.split('*').join(middle));
    }
  }
  return [];
}

/**
 * A segment Node refuses in an `exports` target after its leading `./` (and in a pattern's match):
 * `.`, `..` or `node_modules`, also percent-encoded (Node's `invalidSegmentRegEx`, less the empty
 * segment Node only deprecates).
 */
const INVALID_SEGMENT = /(^|\\|\/)((\.|%2e)(\.|%2e)?|(n|%6e|%4e)(o|%6f|%4f)(d|%64|%44)(e|%65|%45)_(m|%6d|%4d)(o|%6f|%4f)(d|%64|%44)(u|%75|%55)(l|%6c|%4c)(e|%65|%45)(s|%73|%53))(\\|\/|$)/i;

/**
 * Whether Node accepts a package.json `exports` target: it starts with `./` and no later segment is
 * `.`, `..` or `node_modules` (so it cannot leave the package). Absolute paths, bare names and
 * `../` targets are refused, and the resolver links none of them.
 */
export function validExportTarget(target: string): boolean {
  return target.startsWith('./') && !INVALID_SEGMENT.test(target.slice(2));
}

/**
 * Targets of an `exports` value, nested condition objects followed: the targets of the keys Node
 * matches ({@link NODE_CONDITIONS}) in the object's key order (`types` first when `typesFirst`),
 * then those of the other keys but `types` (never what Node loads: fallbacks only).
 */
function conditionLeaves(value: unknown, typesFirst: boolean): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap((inner) => conditionLeaves(inner, typesFirst));
  if (value === null || typeof value !== 'object') return [];
  const map = value as Record<string, unknown>;
  const keys = Object.keys(map);
  const out: string[] = typesFirst && 'types' in map ? conditionLeaves(map['types'], typesFirst) : [];
  for (const key of keys) if (NODE_CONDITIONS.has(key)) out.push(...conditionLeaves(map[key], typesFirst));
  for (const key of keys) if (!NODE_CONDITIONS.has(key) && key !== 'types') out.push(...conditionLeaves(map[key], typesFirst));
  return out;
}
