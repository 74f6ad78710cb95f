/**
 * The adapter-private `link_data` the Python extractor stores per file (ParsedSource.link_data)
 * and the linker reads back. It is plain JSON so the index can persist it and reuse it for
 * incremental builds; {@link readPythonLinkData} re-validates it because stored JSON may come
 * from an older adapter version.
 */

/** Version of the {@link PythonLinkData} shape; bump on any incompatible change. */
export const PYTHON_LINK_DATA_VERSION = 1;

/**
 * One imported binding. `import a.b` and `import a.b as m` have `names: null`; `from X import ...`
 * lists its names (empty with `wildcard: true` for `from X import *`).
 */
export interface PythonImport {
  /** 1-based line of the import statement. */
  line: number;
  /** Qualified name of the scope the import binds in (`''` for the module, `Class.method` inside a method). */
  scope: string;
  /** Number of leading dots of a relative import; 0 for absolute imports. */
  level: number;
  /** Dotted module name as written after the dots (`''` for `from . import x`). */
  module: string;
  /** For `import a.b as m`: the alias (`m`); null when absent or for `from` imports. */
  alias: string | null;
  /** For `from` imports: imported names with their optional alias; null for plain `import`. */
  names: { name: string; alias: string | null }[] | null;
  /** Whether this is `from X import *`. */
  wildcard: boolean;
}

/** One call site. */
export interface PythonCall {
  /** Qualified name of the calling function, method or class body (`''` for module level). */
  owner: string;
  /** 1-based line of the call. */
  line: number;
  /**
   * Callee as a dotted path: `['f']`, `['mod', 'f']`; `['<self>', 'm']` when the head is the
   * receiver parameter of the enclosing method, `['<super>', 'm']` for `super().m()`.
   * null when the callee is not a plain dotted name (e.g. `x[0]()`, `f()()`).
   */
  path: string[] | null;
  /** Qualified name of the class whose method receiver or `super()` the path refers to, else null. */
  cls: string | null;
}

/** One positional base-class expression of a class statement. */
export interface PythonBase {
  /** Qualified name of the class declaring the base. */
  cls: string;
  line: number;
  /** Dotted path of the base expression, or null when it is not a plain dotted name. */
  path: string[] | null;
}

/** Everything the linker needs from one Python file. */
export interface PythonLinkData {
  version: number;
  imports: PythonImport[];
  calls: PythonCall[];
  bases: PythonBase[];
  /** Names listed in a literal module-level `__all__`, or null when there is none. */
  all: string[] | null;
  /**
   * Module-level `def`/`class` names, written only by the lexical strategy (which emits no
   * definition nodes; the AST extractor omits the field because its nodes carry them). The linker
   * treats each as the definition `code:<path>#<name>` when the file has no node of that id.
   */
  defs?: PythonDef[];
  /** Module-level names bound once to a dotted name or a call of one (aliases.ts); absent when none. */
  assigns?: Record<string, PythonAssign>;
}

/** A module-level name bound once to a dotted name (`call` false: `decode = _obj.decode`) or to a call of one (`_obj = PyJWS()`). */
export interface PythonAssign {
  path: string[];
  call: boolean;
}

/** A module-level definition named by lexical link data. */
export interface PythonDef {
  name: string;
  kind: 'class' | 'function';
}

function isDef(value: unknown): value is PythonDef {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['name'] === 'string' && (v['kind'] === 'class' || v['kind'] === 'function');
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isImport(value: unknown): value is PythonImport {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  if (typeof v['line'] !== 'number' || typeof v['scope'] !== 'string' || typeof v['level'] !== 'number') return false;
  if (typeof v['module'] !== 'string' || typeof v['wildcard'] !== 'boolean') return false;
  if (v['alias'] !== null && typeof v['alias'] !== 'string') return false;
  const names = v['names'];
  if (names === null) return true;
  return Array.isArray(names) && names.every((n: unknown) => {
    if (typeof n !== 'object' || n === null) return false;
    const entry = n as Record<string, unknown>;
    return typeof entry['name'] === 'string' && (entry['alias'] === null || typeof entry['alias'] === 'string');
  });
}

function isCall(value: unknown): value is PythonCall {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['owner'] === 'string' && typeof v['line'] === 'number'
    && (v['path'] === null || isStringArray(v['path']))
    && (v['cls'] === null || typeof v['cls'] === 'string');
}

function isBase(value: unknown): value is PythonBase {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['cls'] === 'string' && typeof v['line'] === 'number' && (v['path'] === null || isStringArray(v['path']));
}

/**
 * Validates stored `link_data` of one file.
 * @returns the typed data, or null when it is absent, from another version, or malformed
 *   (the linker then contributes no cross-file edges for that file).
 */
export function readPythonLinkData(value: unknown): PythonLinkData | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (v['version'] !== PYTHON_LINK_DATA_VERSION) return null;
  const { imports, calls, bases, all } = v;
  if (!Array.isArray(imports) || !imports.every(isImport)) return null;
  if (!Array.isArray(calls) || !calls.every(isCall)) return null;
  if (!Array.isArray(bases) || !bases.every(isBase)) return null;
  if (all !== null && !isStringArray(all)) return null;
  const defs = v['defs'];
  if (defs !== undefined && (!Array.isArray(defs) || !defs.every(isDef))) return null;
  const assigns = v['assigns'];
  if (assigns !== undefined && (typeof assigns !== 'object' || assigns === null
    || !Object.values(assigns).every((a: unknown) => typeof a === 'object' && a !== null && isStringArray((a as Record<string, unknown>)['path']) && typeof (a as Record<string, unknown>)['call'] === 'boolean'))) return null;
  return value as PythonLinkData;
}
