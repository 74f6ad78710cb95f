/**
 * The public API of the Python packages a project holds (issue 31 item 3): the dotted names a user
 * imports (`json.dumps`, `json.JSONDecoder`, `email.message.EmailMessage`), each proven by
 * Python's own rules: a package's `__init__.py` definitions and re-exports (`from .x import y`,
 * filtered by a literal `__all__` when there is one, else names without a leading underscore),
 * and every module's top-level definitions under its import path. Documentation mentions of these
 * names become `documents` edges (LinkResult `api`).
 */
import { ApiTable } from '@docforge/core';

/** A definition a name resolves to (the linker's `DefTarget`). */
export interface ApiDef {
  kind: 'def';
  id: string;
  qname: string;
  nodeKind: string;
}

/** What the table needs from the Python linker. */
export interface PythonApiSource {
  /** The linked files by path, with their top-level bindings, definitions and `__all__`. */
  files(): Iterable<{ path: string; defs: ReadonlyMap<string, { id: string; kind: string }>; bound: Iterable<string>; all: readonly string[] | null; isTest: boolean }>;
  /** Whether a project path is a linked Python file. */
  present(path: string): boolean;
  /** A module-level name of a file, followed through imports and re-exports (null when not a definition). */
  lookup(file: string, name: string): ApiDef | null;
}

function dirname(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/**
 * The import path of a file inside a regular package (`json/decoder.py` → `json.decoder`,
 * `json/__init__.py` → `json`), or null when the file is in no package (a script or a top-level
 * module, whose import name depends on how it is run).
 */
function importPath(path: string, present: (path: string) => boolean): string | null {
  const parts: string[] = [];
  let dir = dirname(path);
  const file = path.slice(path.lastIndexOf('/') + 1);
  if (file !== '__init__.py') parts.unshift(file.replace(/\.py$/, ''));
  if (!present(`${dir === '' ? '' : `${dir}/`}__init__.py`) || dir === '') return null;
  while (dir !== '' && present(`${dir}/__init__.py`)) {
    parts.unshift(dir.slice(dir.lastIndexOf('/') + 1));
    dir = dirname(dir);
  }
  return parts.every((part) => /^[A-Za-z_]\w*$/.test(part)) ? parts.join('.') : null;
}

/**
 * Public names → declaration ids (sorted): per module in a package, `<import path>.<name>` for its
 * public top-level names that resolve to a definition (in an `__init__.py` also those it
 * re-exports), and `<import path>.<Class>.<method>` for the public methods of each such class.
 * Test files (a `test`/`tests` folder, `test_*.py`, `*_test.py`) are left out.
 */
export function pythonPublicApi(source: PythonApiSource): Record<string, string[]> {
  const table = new ApiTable();
  const add = (name: string, id: string): void => table.add(name, id);
  const files = [...source.files()];
  const byPath = new Map(files.map((file) => [file.path, file]));
  for (const file of files) {
    if (file.isTest) continue;
    const prefix = importPath(file.path, (p) => source.present(p));
    if (prefix === null) continue;
    const names = new Set<string>([...file.defs.keys()].filter((name) => !name.includes('.')));
    if (file.path.endsWith('__init__.py')) for (const name of file.bound) names.add(name);
    for (const name of [...names].sort()) {
      if (file.all !== null ? !file.all.includes(name) : name.startsWith('_')) continue;
      const def = source.lookup(file.path, name);
      if (def === null) continue;
      add(`${prefix}.${name}`, def.id);
      if (def.nodeKind !== 'class') continue;
      const other = byPath.get(def.id.slice('code:'.length, def.id.indexOf('#')));
      for (const [qname, member] of other?.defs ?? []) {
        const method = qname.slice(def.qname.length + 1);
        if (qname.startsWith(`${def.qname}.`) && !method.includes('.') && !method.startsWith('_')) add(`${prefix}.${name}.${method}`, member.id);
      }
    }
  }
  return table.toRecord();
}
