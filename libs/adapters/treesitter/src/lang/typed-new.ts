/**
 * Java and C# locals whose declaration proves their type (LanguageSpec.typedBinds): `T x = new T(...)` and `var x = new
 * T(...)`, the created type also the declared one. Not: a declared type other than the created one (`List<X> x = new
 * ArrayList<>()`: calls bind to the declared type, which may be an interface), a Java anonymous class (`new T() { ... }`
 * overrides), a C# generic type (`Foo` and `Foo<T>` are distinct classes), fields.
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import type { TreeRecv } from '../link-data.js';
import { named } from '../tree.js';

/** The path a type node names: Java `T`, `a.b.T`, `T<X>` (erased); C# `T`, `N.T`; null for any other type. */
function typePath(node: SyntaxNode | null, java: boolean): string[] | null {
  if (node === null) return null;
  if (node.type === 'type_identifier' || node.type === 'identifier') return [node.text];
  if (java && node.type === 'scoped_type_identifier') {
    const parts = named(node).map((c) => typePath(c, java));
    return parts.every((p) => p !== null) ? parts.flat() as string[] : null;
  }
  if (java && node.type === 'generic_type') return typePath(named(node)[0] ?? null, java);
  if (!java && node.type === 'qualified_name') {
    const head = typePath(node.childForFieldName('qualifier'), java);
    const name = node.childForFieldName('name');
    return head === null || name?.type !== 'identifier' ? null : [...head, name.text];
  }
  return null;
}

/** A local declarator's proof: the type it creates with `new`, when the declaration says the same type or `var`. */
export function newProof(declarator: SyntaxNode, java: boolean): ReadonlyMap<string, TreeRecv> {
  const out = new Map<string, TreeRecv>();
  const declaration = declarator.parent;
  const local = java ? declaration?.type === 'local_variable_declaration' : declaration?.type === 'variable_declaration' && declaration.parent?.type === 'local_declaration_statement';
  const name = declarator.childForFieldName('name');
  if (declarator.type !== 'variable_declarator' || !local || declaration == null || name?.type !== 'identifier') return out;
  const value = java ? declarator.childForFieldName('value') : (named(declarator).find((c) => c.type === 'object_creation_expression') ?? null);
  if (value?.type !== 'object_creation_expression' || (java && named(value).some((c) => c.type === 'class_body'))) return out;
  const created = typePath(value.childForFieldName('type'), java);
  const type = declaration.childForFieldName('type');
  const isVar = java ? type?.text === 'var' : type?.type === 'implicit_type';
  const declared = isVar ? created : typePath(type, java);
  if (created !== null && declared !== null && created.join('.') === declared.join('.')) out.set(name.text, { type: created });
  return out;
}
