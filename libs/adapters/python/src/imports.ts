/**
 * Import statements of the Python AST strategy: `import` and `from ... import` nodes of the
 * tree-sitter tree become link-data import records and names bound in their scope.
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import type { PythonImport } from './link-data.js';
import { collapse } from './module-facts.js';
import { line, named } from './tree.js';

/** The scope an import statement binds names in: its qualified name and its imported names. */
export interface ImportScope {
  /** Qualified name of the scope (`''` for the module). */
  readonly qname: string;
  readonly imported: Set<string>;
}

/**
 * Records an `import a.b`, `import a as b` statement of a scope: one {@link PythonImport} per name
 * into `out`, and the bound names into `scope.imported`.
 */
export function recordImport(node: SyntaxNode, scope: ImportScope, out: PythonImport[]): void {
  for (let i = 0; i < node.childCount; i += 1) {
    if (node.fieldNameForChild(i) !== 'name') continue;
    const child = node.child(i);
    if (child === null) continue;
    if (child.type === 'dotted_name') {
      const module = collapse(child.text).replace(/\s/g, '');
      out.push({ line: line(node), scope: scope.qname, level: 0, module, alias: null, names: null, wildcard: false });
      scope.imported.add(module.split('.')[0] as string);
    } else if (child.type === 'aliased_import') {
      const module = (child.childForFieldName('name')?.text ?? '').replace(/\s/g, '');
      const alias = child.childForFieldName('alias')?.text ?? null;
      if (module === '') continue;
      out.push({ line: line(node), scope: scope.qname, level: 0, module, alias, names: null, wildcard: false });
      scope.imported.add(alias ?? (module.split('.')[0] as string));
    }
  }
}

/**
 * Records a `from m import a, b as c` / `from . import x` / `from m import *` statement of a
 * scope: one {@link PythonImport} into `out` (with relative level and names), and the bound names
 * into `scope.imported`.
 */
export function recordFromImport(node: SyntaxNode, scope: ImportScope, out: PythonImport[]): void {
  const moduleNode = node.childForFieldName('module_name');
  if (moduleNode === null) return;
  let level = 0;
  let module = '';
  if (moduleNode.type === 'relative_import') {
    for (const child of named(moduleNode)) {
      if (child.type === 'import_prefix') level = child.text.replace(/[^.]/g, '').length;
      else if (child.type === 'dotted_name') module = child.text.replace(/\s/g, '');
    }
  } else {
    module = moduleNode.text.replace(/\s/g, '');
  }
  const names: { name: string; alias: string | null }[] = [];
  let wildcard = false;
  for (let i = 0; i < node.childCount; i += 1) {
    const child = node.child(i);
    if (child === null) continue;
    if (child.type === 'wildcard_import') wildcard = true;
    if (node.fieldNameForChild(i) !== 'name') continue;
    if (child.type === 'dotted_name') names.push({ name: child.text.replace(/\s/g, ''), alias: null });
    else if (child.type === 'aliased_import') {
      const name = (child.childForFieldName('name')?.text ?? '').replace(/\s/g, '');
      if (name !== '') names.push({ name, alias: child.childForFieldName('alias')?.text ?? null });
    }
  }
  for (const entry of names) scope.imported.add(entry.alias ?? entry.name);
  out.push({ line: line(node), scope: scope.qname, level, module, alias: null, names, wildcard });
}
