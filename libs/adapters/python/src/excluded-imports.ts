/**
 * Python imports whose target a `[sources].exclude` glob leaves out (issue 30): the Python adapter
 * said nothing where the TypeScript adapter names the glob. The wording and the glob test are
 * core's (`excludedTarget`, `excludedImportIssue`), shared by every code adapter.
 */
import { excludedImportIssue, excludedTarget, type ModuleResolver, type SourceIssue } from '@docforge/core';
import type { PythonImport } from './link-data.js';

/** What the linker knows that the search needs: sys.path roots of an importer, and the folders holding files of the build. */
export interface ModuleSearch {
  rootsFor(importer: string): string[];
  dirs: ReadonlySet<string>;
}

function parent(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/**
 * The `unresolved_import` warning for the module `imp` names (followed by `name`, one name of a
 * `from` import, when given) in the file `importer` when its `.py` or `__init__.py` file, where the
 * import would find it, is matched by an exclude glob; null otherwise. Relative imports are looked
 * up from the importer's package; absolute ones only under a sys.path root where the first part
 * names a folder of the build (the project's own package), so `import os` never warns.
 */
export function excludedPythonImport(search: ModuleSearch, resolver: ModuleResolver, importer: string, moduleId: string, imp: PythonImport, name: string | null): SourceIssue | null {
  const parts = [...(imp.module === '' ? [] : imp.module.split('.')), ...(name === null ? [] : [name])];
  if (parts.length === 0 || parts.some((part) => part === '')) return null;
  let bases: string[];
  if (imp.level > 0) {
    let base = parent(importer);
    for (let i = 1; i < imp.level; i += 1) {
      if (base === '') return null;
      base = parent(base);
    }
    bases = [base];
  } else {
    bases = search.rootsFor(importer).filter((root) => search.dirs.has(root === '' ? parts[0]! : `${root}/${parts[0]!}`));
  }
  const candidates = bases.flatMap((base) => {
    const stem = [...(base === '' ? [] : [base]), ...parts].join('/');
    return [`${stem}.py`, `${stem}/__init__.py`];
  });
  const excluded = excludedTarget(resolver, candidates);
  const specifier = `${'.'.repeat(imp.level)}${[...(imp.module === '' ? [] : [imp.module]), ...(name === null ? [] : [name])].join('.')}`;
  return excluded === null ? null : excludedImportIssue(importer, imp.line, moduleId, specifier, excluded);
}
