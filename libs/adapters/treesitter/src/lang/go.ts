/**
 * Go for the tree-sitter family (grammar tree-sitter-go from @vscode/tree-sitter-wasm): functions,
 * methods (qualified by their receiver type, `T.M`), struct, interface and other type
 * declarations; exported = capitalised; tests by `_test.go` and `Test`/`Benchmark`/`Example`/`Fuzz`
 * functions; the entry point is `func main` of `package main`. Imports resolve through go.mod
 * (go-resolve.ts).
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import type { TreeImport, TreeRecv } from '../link-data.js';
import { lineAtOffset, maskSource } from '../lexical.js';
import type { DefinitionMatch, LanguageSpec, LogicSpec } from '../spec.js';
import { cleanComment, collapse, identifiersUnder, named, precedingComments } from '../tree.js';
import { goApi, goModuleIssues, goResolver } from '@docforge/module-resolution';
import { goImportSpecs } from '@docforge/core';

const KEYWORDS = new Set([
  'break', 'case', 'chan', 'const', 'continue', 'default', 'defer', 'else', 'fallthrough', 'for', 'func', 'go', 'goto', 'if', 'import',
  'interface', 'map', 'package', 'range', 'return', 'select', 'struct', 'switch', 'type', 'var', 'nil', 'true', 'false',
]);

const IDENT = new Set(['identifier']);
const TEST_FUNCTION = /^(Test|Benchmark|Example|Fuzz)([A-Z_0-9]|$)/;

const DEFINITIONS = new Set(['function_declaration', 'method_declaration', 'type_spec', 'type_alias']);

const isComment = (type: string): boolean => type === 'comment';

function exported(name: string): boolean {
  return /^\p{Lu}/u.test(name);
}

/** Names the `name` fields of a parameter list's declarations bind. */
function parameterNames(list: SyntaxNode | null): string[] {
  const out = new Set<string>();
  for (const param of list === null ? [] : named(list)) {
    for (let i = 0; i < param.childCount; i += 1) if (param.fieldNameForChild(i) === 'name') identifiersUnder(param.child(i), IDENT, out);
  }
  return [...out];
}

/**
 * The parameters' type proofs (`s *Server`, `s pkg.T`, `s T[K]`; not `...T`, a slice), and the type parameters the function
 * and its receiver bind (`[T any]`, `(s *Stack[T])`): bound as locals, a proof naming one proves nothing (extractor).
 */
function parameterTypes(node: SyntaxNode): { proofs: Map<string, TreeRecv>; typeParams: string[] } {
  const proofs = new Map<string, TreeRecv>();
  for (const param of named(node.childForFieldName('parameters') ?? node).filter((c) => c.type === 'parameter_declaration')) {
    const type = typePath(param.childForFieldName('type'));
    for (const name of param.childrenForFieldName('name')) if (type !== null && name?.type === 'identifier') proofs.set(name.text, { type });
  }
  const typeParams = new Set<string>();
  for (const param of named(node.childForFieldName('type_parameters') ?? node).filter((c) => c.type === 'type_parameter_declaration')) {
    for (const name of param.childrenForFieldName('name')) identifiersUnder(name, IDENT, typeParams);
  }
  let receiver = named(node.childForFieldName('receiver') ?? node).find((c) => c.type === 'parameter_declaration')?.childForFieldName('type') ?? null;
  while (receiver?.type === 'pointer_type' || receiver?.type === 'parenthesized_type') receiver = named(receiver)[0] ?? null;
  identifiersUnder(receiver?.type === 'generic_type' ? receiver.childForFieldName('type_arguments') : null, new Set(['type_identifier']), typeParams);
  return { proofs, typeParams: [...typeParams] };
}

/** The receiver's type name (`*T`, `T[K]` → `T`) and variable name of a method declaration. */
function receiverOf(node: SyntaxNode): { type: string; name: string | null } | null {
  const param = named(node.childForFieldName('receiver') ?? node).find((c) => c.type === 'parameter_declaration');
  let type = param?.childForFieldName('type') ?? null;
  while (type !== null && (type.type === 'pointer_type' || type.type === 'generic_type' || type.type === 'parenthesized_type')) {
    type = type.type === 'generic_type' ? type.childForFieldName('type') : (named(type)[0] ?? null);
  }
  if (param === undefined || type === null || type.type !== 'type_identifier') return null;
  return { type: type.text, name: param.childForFieldName('name')?.text ?? null };
}

/** The type path a type expression names (`T`, `pkg.T`, through `*T`, `T[K]` and parentheses); null for any other type. */
function typePath(node: SyntaxNode | null): string[] | null {
  let type = node;
  while (type !== null && (type.type === 'pointer_type' || type.type === 'generic_type' || type.type === 'parenthesized_type')) {
    type = type.type === 'generic_type' ? type.childForFieldName('type') : (named(type)[0] ?? null);
  }
  if (type?.type === 'type_identifier') return [type.text];
  const pkg = type?.type === 'qualified_type' ? type.childForFieldName('package') : null;
  const name = type?.type === 'qualified_type' ? type.childForFieldName('name') : null;
  return pkg != null && name != null ? [pkg.text, name.text] : null;
}

/** The declared result types of a function: one type path (or null) per result, a named group `(a, b T)` counting each name. */
function resultTypes(node: SyntaxNode): (string[] | null)[] {
  const result = node.childForFieldName('result');
  if (result === null) return [];
  if (result.type !== 'parameter_list') return [typePath(result)];
  const out: (string[] | null)[] = [];
  for (const param of named(result).filter((c) => c.type === 'parameter_declaration' || c.type === 'variadic_parameter_declaration')) {
    const type = param.type === 'parameter_declaration' ? typePath(param.childForFieldName('type')) : null;
    const names = Math.max(1, param.children.filter((_, i) => param.fieldNameForChild(i) === 'name').length);
    for (let i = 0; i < names; i += 1) out.push(type);
  }
  return out;
}

/** What proves the type of the value `node` (of `count` values assigned together, at `index`): `T{}`, `&T{}`, a call's declared result. */
function valueProof(node: SyntaxNode | undefined, index: number, count: number): TreeRecv | null {
  let value = node ?? null;
  if (value?.type === 'unary_expression' && value.childForFieldName('operator')?.text === '&') value = value.childForFieldName('operand');
  if (value?.type === 'composite_literal' && count === 1) {
    const type = typePath(value.childForFieldName('type'));
    return type === null ? null : { type };
  }
  const call = value === null ? undefined : callee(value);
  return call == null || call.length > 2 || value?.type !== 'call_expression' ? null : { call, index };
}

/** Go's proven locals: `x := T{}`, `x := &T{}`, `x, err := NewT()`, `var x T`, `var x = pkg.T{}` (LanguageSpec.typedBinds). */
function typedBinds(node: SyntaxNode): ReadonlyMap<string, TreeRecv> {
  const out = new Map<string, TreeRecv>();
  const short = node.type === 'short_var_declaration';
  if (!short && node.type !== 'var_spec') return out;
  const names = short ? named(node.childForFieldName('left') ?? node) : node.children.filter((_, i) => node.fieldNameForChild(i) === 'name');
  if (!names.every((n) => n?.type === 'identifier')) return out;
  const declared = short ? null : typePath(node.childForFieldName('type'));
  const valueList = node.childForFieldName(short ? 'right' : 'value');
  const values = valueList === null ? [] : named(valueList);
  names.forEach((name, i) => {
    const proof = declared !== null ? { type: declared } : values.length === names.length ? valueProof(values[i], 0, 1) : values.length === 1 ? valueProof(values[0], i, names.length) : null;
    if (name !== null && proof !== null) out.set(name.text, proof);
  });
  // `var x T = v` binds x as T whatever v is; without a declared type, a value that is not the declared type (a conversion aside) proves none.
  if (!short && declared === null && node.childForFieldName('type') !== null) out.clear();
  return out;
}

function signature(node: SyntaxNode): string {
  const body = node.childForFieldName('body');
  return collapse(body === null ? node.text : node.text.slice(0, body.startIndex - node.startIndex));
}

function definition(node: SyntaxNode, parent: { kind: string; testFile: boolean; pkg: string | null }): DefinitionMatch | null {
  if (parent.kind !== 'module' || !DEFINITIONS.has(node.type)) return null;
  const name = node.childForFieldName('name')?.text;
  if (name === undefined) return null;
  if (node.type === 'function_declaration' || node.type === 'method_declaration') {
    const receiver = node.type === 'method_declaration' ? receiverOf(node) : null;
    if (node.type === 'method_declaration' && receiver === null) return null;
    const typed = parameterTypes(node);
    const capabilities: string[] = [];
    if (parent.testFile && receiver === null && TEST_FUNCTION.test(name)) capabilities.push('test');
    if (receiver === null && parent.pkg === 'main' && name === 'main') capabilities.push('entrypoint');
    return {
      kind: receiver === null ? 'function' : 'method', name, qualifier: receiver?.type, signature: signature(node), capabilities,
      exported: exported(name) && (receiver === null || exported(receiver.type)), body: node.childForFieldName('body'),
      receiver: receiver?.name ?? null, params: [...parameterNames(node.childForFieldName('parameters')), ...typed.typeParams], paramProofs: typed.proofs, results: resultTypes(node),
    };
  }
  // type_spec / type_alias inside a type_declaration: the declaration's comment documents a lone spec.
  const decl = node.parent;
  const anchor = decl !== null && decl.type === 'type_declaration' && named(decl).length === 1 ? decl : node;
  const typeNode = node.childForFieldName('type');
  const kind = node.type === 'type_alias' ? 'type' : typeNode?.type === 'struct_type' ? 'struct' : typeNode?.type === 'interface_type' ? 'interface' : 'type';
  const head = typeNode === null ? node.text : node.text.slice(0, typeNode.startIndex - node.startIndex) + (kind === 'type' ? typeNode.text : kind);
  return { kind, name, signature: collapse(`type ${head}`), capabilities: [], exported: exported(name), body: null, receiver: null, params: [], docAnchor: anchor };
}

function imports(node: SyntaxNode): TreeImport[] | null {
  if (node.type !== 'import_declaration') return null;
  const out: TreeImport[] = [];
  const specs: SyntaxNode[] = [];
  for (const child of named(node)) {
    if (child.type === 'import_spec') specs.push(child);
    else if (child.type === 'import_spec_list') specs.push(...named(child).filter((c) => c.type === 'import_spec'));
  }
  for (const spec of specs) {
    const path = spec.childForFieldName('path')?.text.replace(/^["`]|["`]$/g, '');
    if (path === undefined || path === '') continue;
    out.push({ line: spec.startPosition.row + 1, spec: path, alias: spec.childForFieldName('name')?.text ?? null });
  }
  return out;
}

function callee(node: SyntaxNode): string[] | null | undefined {
  if (node.type !== 'call_expression') return undefined;
  const fn = node.childForFieldName('function');
  if (fn === null) return null;
  if (fn.type === 'identifier') return [fn.text];
  if (fn.type === 'selector_expression') {
    const operand = fn.childForFieldName('operand');
    const field = fn.childForFieldName('field');
    if (operand?.type === 'identifier' && field !== null) return [operand.text, field.text];
  }
  return null;
}

function binds(node: SyntaxNode): string[] {
  const out = new Set<string>();
  switch (node.type) {
    case 'short_var_declaration':
    case 'range_clause':
    case 'receive_statement':
      identifiersUnder(node.childForFieldName('left'), IDENT, out);
      break;
    case 'var_spec':
    case 'const_spec':
      for (let i = 0; i < node.childCount; i += 1) if (node.fieldNameForChild(i) === 'name') identifiersUnder(node.child(i), IDENT, out);
      break;
    case 'func_literal':
      for (const name of parameterNames(node.childForFieldName('parameters'))) out.add(name);
      break;
    case 'type_switch_statement':
      identifiersUnder(node.childForFieldName('alias'), IDENT, out);
      break;
    case 'type_spec':
    case 'type_alias':
      // A type declared inside a function shadows the package's: a proof naming it is void (extractor).
      if (node.parent?.parent?.type !== 'source_file') identifiersUnder(node.childForFieldName('name'), new Set(['type_identifier']), out);
      break;
    default:
      break;
  }
  return [...out];
}

const set = (...types: string[]): ReadonlySet<string> => new Set(types);

const LOGIC: LogicSpec = {
  blocks: set('block', 'statement_list'),
  ifs: set('if_statement'),
  elses: set(),
  loops: set('for_statement'),
  switches: set('expression_switch_statement', 'type_switch_statement', 'select_statement'),
  cases: set('expression_case', 'default_case', 'type_case', 'communication_case'),
  returns: set('return_statement'),
  throws: set(),
  breaks: set('break_statement'),
  continues: set('continue_statement'),
  wrappers: set('expression_statement'),
  tries: set(),
  catches: set(),
  finallys: set(),
  isThrowCall: (node) => node.type === 'call_expression' && node.childForFieldName('function')?.text === 'panic',
  caseBody: (node) => named(node).filter((child) => child.type === 'statement_list'),
  isDefault: (node) => node.type === 'default_case',
  fallthrough: false,
};

const MASK = { line: ['//'], block: true, quotes: ['"', "'"], raw: ['`'] };

/** Lexical Go: `package`, `import` blocks and specs, top-level `func`/`type` names. */
function lexical(text: string): { imports: TreeImport[]; defs: { name: string; kind: string }[]; pkg: string | null } {
  const masked = maskSource(text, MASK);
  const pkg = /^[^\S\n\r\u2028\u2029]*package\s+([\p{L}_][\p{L}\p{N}_]*)/mu.exec(masked)?.[1] ?? null;
  const out: TreeImport[] = [];
  // Strings are blanked in `masked` (same length): the spec is read from `text` at the same offsets.
  for (const spec of goImportSpecs(masked)) {
    const path = text.slice(spec.textStart, spec.textStart + spec.textLength).trim();
    if (path === '') continue;
    out.push({ line: lineAtOffset(text, spec.textStart), spec: path, alias: spec.alias });
  }
  const defs: { name: string; kind: string }[] = [];
  for (const match of masked.matchAll(/^func\s+([\p{L}_][\p{L}\p{N}_]*)/gmu)) defs.push({ name: match[1] as string, kind: 'function' });
  for (const match of masked.matchAll(/^type\s+([\p{L}_][\p{L}\p{N}_]*)/gmu)) defs.push({ name: match[1] as string, kind: 'type' });
  return { imports: out, defs, pkg };
}

/** The Go language of the family (adapter id `go`, extension `.go`). */
export const GO_SPEC: LanguageSpec = {
  id: 'go',
  display: 'Go',
  grammar: 'tree-sitter-go.wasm',
  extensions: ['.go'],
  keywords: KEYWORDS,
  interesting: set('function_declaration', 'method_declaration', 'type_spec', 'type_alias', 'import_declaration', 'call_expression',
    'short_var_declaration', 'range_clause', 'receive_statement', 'var_spec', 'const_spec', 'func_literal', 'type_switch_statement'),
  isTestPath: (path) => path.endsWith('_test.go'),
  conventionTested: (path) => [path.replace(/_test\.go$/, '.go')],
  isComment,
  moduleFacts(root) {
    const clause = named(root).find((c) => c.type === 'package_clause');
    if (clause === undefined) return { pkg: null, doc: '' };
    const pkg = named(clause).find((c) => c.type === 'package_identifier')?.text ?? null;
    return { pkg, doc: cleanComment(precedingComments(clause, isComment)) };
  },
  moduleEntrypoint: (_path, pkg, names) => pkg === 'main' && names.has('main'),
  definition,
  imports,
  callee,
  binds,
  typedBinds,
  receiverKinds: set('struct', 'type'),
  logic: LOGIC,
  lexical,
  resolver: goResolver,
  api: goApi,
  issues: goModuleIssues,
};
