/**
 * ES module references of the TypeScript adapter: `import` declarations and their bindings,
 * `import x = require()`, and `export ... from` / `export { ... }` records for the linker.
 */
import './prime.js';
import ts from './compiler-api.js';
import type { ExtractState } from './declarations.js';
import { lineAt, literalText } from './syntax.js';

/** Records an `import` declaration: the module reference and each local binding. */
export function recordImport(ex: ExtractState, decl: ts.ImportDeclaration): void {
  const sf = ex.sf;
  const specifier = literalText(decl.moduleSpecifier);
  if (specifier === null) return;
  ex.imports.push({ specifier, line: lineAt(sf, decl.getStart(sf)), kind: 'import' });
  const clause = decl.importClause;
  if (clause) {
    if (clause.name) ex.bindings.push({ local: clause.name.text, specifier, imported: 'default' });
    const named = clause.namedBindings;
    if (named && ts.isNamespaceImport(named)) {
      ex.bindings.push({ local: named.name.text, specifier, imported: '*' });
    } else if (named) {
      for (const element of named.elements) {
        ex.bindings.push({ local: element.name.text, specifier, imported: (element.propertyName ?? element.name).text });
      }
    }
  }
}

/** Records `import x = require('m')` (TypeScript's CommonJS import form). */
export function recordImportEquals(ex: ExtractState, decl: ts.ImportEqualsDeclaration): void {
  const sf = ex.sf;
  if (ts.isExternalModuleReference(decl.moduleReference)) {
    const specifier = literalText(decl.moduleReference.expression);
    if (specifier !== null) {
      ex.imports.push({ specifier, line: lineAt(sf, decl.getStart(sf)), kind: 'require' });
      ex.bindings.push({ local: decl.name.text, specifier, imported: '=' });
    }
  }
}

/** Records an `export` declaration: re-exports from a module, or local names exported. */
export function recordExportDeclaration(ex: ExtractState, decl: ts.ExportDeclaration): void {
  const sf = ex.sf;
  const line = lineAt(sf, decl.getStart(sf));
  const specifier = decl.moduleSpecifier ? literalText(decl.moduleSpecifier) : null;
  if (specifier !== null) ex.imports.push({ specifier, line, kind: 'export' });
  const clause = decl.exportClause;
  if (clause === undefined) {
    if (specifier !== null) ex.exportsList.push({ name: '*', local: null, specifier, imported: '*', line });
  } else if (ts.isNamespaceExport(clause)) {
    if (specifier !== null) ex.exportsList.push({ name: clause.name.text, local: null, specifier, imported: '*', line });
  } else {
    for (const element of clause.elements) {
      const name = element.name.text;
      const source = (element.propertyName ?? element.name).text;
      if (specifier !== null) ex.exportsList.push({ name, local: null, specifier, imported: source, line });
      else ex.exportsList.push({ name, local: source, specifier: null, imported: null, line });
    }
  }
}
