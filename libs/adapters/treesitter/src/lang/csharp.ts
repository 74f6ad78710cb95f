/**
 * C# for the tree-sitter family (grammar tree-sitter-c-sharp from @vscode/tree-sitter-wasm):
 * classes, interfaces, structs, enums and records (nested ones qualified, `Outer.Inner`), methods
 * and constructors (`A.M`, constructor `A.A`; overloads get `~2`, and a call reaches the one whose
 * arity admits its argument count); exported = `public`; tests by `[Test]`/`[Fact]`/`[Theory]`/`[TestMethod]` and
 * `*Tests.cs` or a `test`/`tests` folder; entry point `static Main`. Namespaces resolve to the files
 * that declare them (csharp-resolve.ts).
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import type { TreeImport } from '../link-data.js';
import { lineAtOffset, maskSource } from '../lexical.js';
import type { DefinitionMatch, LanguageSpec, LogicSpec } from '../spec.js';
import { collapse, identifiersUnder, named } from '../tree.js';
import { csharpApi, csharpResolver } from '@docforge/module-resolution';
import { newProof } from './typed-new.js';
import { argTypes, csharpParamTypes, declaredType, typeParameters } from './arg-types.js';
import { modifierDeclarations, type DeclarationWords } from '@docforge/core';

const KEYWORDS = new Set([
  'abstract', 'as', 'base', 'bool', 'break', 'byte', 'case', 'catch', 'char', 'checked', 'class', 'const', 'continue', 'decimal', 'default',
  'delegate', 'do', 'double', 'else', 'enum', 'event', 'explicit', 'extern', 'false', 'finally', 'fixed', 'float', 'for', 'foreach', 'goto',
  'if', 'implicit', 'in', 'int', 'interface', 'internal', 'is', 'lock', 'long', 'namespace', 'new', 'null', 'object', 'operator', 'out',
  'override', 'params', 'private', 'protected', 'public', 'readonly', 'ref', 'return', 'sbyte', 'sealed', 'short', 'sizeof', 'static',
  'string', 'struct', 'switch', 'this', 'throw', 'true', 'try', 'typeof', 'uint', 'ulong', 'unchecked', 'unsafe', 'ushort', 'using',
  'var', 'virtual', 'void', 'volatile', 'while', 'async', 'await', 'record', 'get', 'set', 'value',
]);

const IDENT = new Set(['identifier']);
const TYPE_DECLS: Record<string, string> = {
  class_declaration: 'class', interface_declaration: 'interface', struct_declaration: 'struct', enum_declaration: 'enum',
  record_declaration: 'record', record_struct_declaration: 'record',
};
const TEST_ATTRIBUTE = /\[\s*(Test|TestCase|Fact|Theory|TestMethod)\b/;

const isComment = (type: string): boolean => type === 'comment';

function modifiers(node: SyntaxNode): string {
  return named(node).filter((c) => c.type === 'modifier').map((c) => c.text).join(' ');
}

function signature(node: SyntaxNode): string {
  const body = node.childForFieldName('body');
  const text = body === null ? node.text : node.text.slice(0, body.startIndex - node.startIndex);
  return collapse(text.replace(/^\s*(\[[^\]]*\]\s*)+/, ''));
}

/** Base types of a type declaration; relation fixed by the target's kind in the linker (a C# base list does not say). */
function bases(node: SyntaxNode): { path: string[]; relation: 'inherits' | 'implements'; line: number }[] {
  const list = named(node).find((c) => c.type === 'base_list');
  if (list === undefined) return [];
  const out: { path: string[]; relation: 'inherits' | 'implements'; line: number }[] = [];
  for (const base of named(list)) {
    const text = base.type === 'generic_name' ? (named(base)[0]?.text ?? '') : base.text;
    if (/^[\w.]+$/.test(text)) out.push({ path: text.split('.'), relation: 'inherits', line: base.startPosition.row + 1 });
  }
  return out;
}

/**
 * The arity of a `parameter_list`: each `parameter` counts, one with a default value (`int n = 1`) is optional; a `params`
 * array or `__arglist` makes it varargs (the grammar leaves a `params` parameter outside any `parameter` node).
 */
function arity(list: SyntaxNode | null): { min: number; max: number | null } {
  const params = list === null ? [] : named(list).filter((p) => p.type === 'parameter');
  const varargs = list !== null && list.children.some((c) => c?.type === 'params' || c?.type === '__arglist');
  const optional = params.filter((p) => named(p).some((c) => c.type !== 'identifier' && c.type !== 'attribute_list' && c.type !== 'modifier' && p.childForFieldName('type')?.startIndex !== c.startIndex)).length;
  return { min: params.length - optional, max: varargs ? null : params.length };
}

function definition(node: SyntaxNode, parent: { kind: string; qname: string; testFile: boolean }): DefinitionMatch | null {
  const name = node.childForFieldName('name')?.text;
  if (name === undefined) return null;
  const mods = modifiers(node);
  const exported = /\bpublic\b/.test(mods) || (parent.kind === 'interface' && !/\bprivate\b/.test(mods));
  const kind = TYPE_DECLS[node.type];
  if (kind !== undefined) return { kind, name, signature: signature(node), capabilities: [], exported, body: null, receiver: null, params: [], typeParams: typeParameters(node) };
  if ((node.type !== 'method_declaration' && node.type !== 'constructor_declaration') || parent.qname === '') return null;
  const capabilities: string[] = [];
  const attributes = named(node).filter((c) => c.type === 'attribute_list').map((c) => c.text).join(' ');
  if (TEST_ATTRIBUTE.test(attributes)) capabilities.push('test');
  if (/\basync\b/.test(mods)) capabilities.push('async');
  if (name === 'Main' && /\bstatic\b/.test(mods)) capabilities.push('entrypoint');
  const params = new Set<string>();
  for (const param of named(node.childForFieldName('parameters') ?? node)) identifiersUnder(param.childForFieldName('name'), IDENT, params);
  return {
    kind: 'method', name, signature: signature(node), capabilities, exported, body: node.childForFieldName('body'), receiver: null, params: [...params],
    arity: arity(node.childForFieldName('parameters')), paramTypes: csharpParamTypes(node.childForFieldName('parameters')), typeParams: typeParameters(node),
    // A class or struct member without an access modifier is private.
    ...(parent.kind !== 'interface' && !/\b(public|protected|internal)\b/.test(mods) ? { access: 'private' as const } : {}),
  };
}

function imports(node: SyntaxNode): TreeImport[] | null {
  if (node.type !== 'using_directive') return null;
  const alias = node.childForFieldName('name')?.text ?? null;
  const target = named(node).filter((c) => c.type === 'qualified_name' || c.type === 'identifier').pop();
  if (target === undefined || (alias !== null && target.text === alias)) return [];
  const isStatic = node.children.some((c) => c?.type === 'static');
  return [{ line: node.startPosition.row + 1, spec: target.text.replace(/\s+/g, ''), alias, ...(isStatic ? { static: true } : {}) }];
}

function callee(node: SyntaxNode): string[] | null | undefined {
  // `: base(...)` calls the base class's constructor, `: this(...)` another of the own class's (`<init>`: the constructor).
  if (node.type === 'constructor_initializer') return node.children.some((c) => c?.type === 'base') ? ['<super>', '<init>'] : node.children.some((c) => c?.type === 'this') ? ['<self>', '<init>'] : null;
  if (node.type !== 'invocation_expression') return undefined;
  const fn = node.childForFieldName('function');
  if (fn === null) return null;
  // An unqualified call names a method of the enclosing type, or of a type enclosing that (`<bare>`, link-enclosing.ts).
  if (fn.type === 'identifier') return ['<bare>', fn.text];
  if (fn.type !== 'member_access_expression') return null;
  const target = fn.childForFieldName('expression');
  const name = fn.childForFieldName('name');
  if (name?.type === 'identifier' && target?.type === 'base') return ['<super>', name.text];
  if (target === null || name === null || name.type !== 'identifier') return null;
  if (target.type === 'this') return ['<self>', name.text];
  return target.type === 'identifier' ? [target.text, name.text] : null;
}

function binds(node: SyntaxNode): string[] {
  const out = new Set<string>();
  if (/^(variable_declarator|catch_declaration|declaration_expression|parameter|local_function_statement)$/.test(node.type)) {
    identifiersUnder(node.childForFieldName('name'), IDENT, out);
  } else if (node.type === 'foreach_statement') identifiersUnder(node.childForFieldName('left'), IDENT, out);
  return [...out];
}

const set = (...types: string[]): ReadonlySet<string> => new Set(types);

const LOGIC: LogicSpec = {
  blocks: set('block'),
  ifs: set('if_statement'),
  elses: set(),
  loops: set('for_statement', 'foreach_statement', 'while_statement', 'do_statement'),
  switches: set('switch_statement'),
  cases: set('switch_section'),
  returns: set('return_statement'),
  throws: set('throw_statement'),
  breaks: set('break_statement'),
  continues: set('continue_statement'),
  wrappers: set('expression_statement'),
  tries: set('try_statement'),
  catches: set('catch_clause'),
  finallys: set('finally_clause'),
  isThrowCall: () => false,
  caseBody: (node) => named(node).filter((c) => !/_pattern$|switch_label|when_clause|^comment$/.test(c.type)),
  isDefault: (node) => /^default\s*:/.test(node.text.trim()),
  fallthrough: false,
};

/** Lexical C#: `using` directives, the first `namespace`, top-level type names (at any indentation, as C# nests them in namespaces). */
function lexical(text: string): { imports: TreeImport[]; defs: { name: string; kind: string }[]; pkg: string | null } {
  const masked = maskSource(text, { line: ['//'], block: true, quotes: ['"', "'"] });
  const pkg = /^[ \t]*namespace\s+([\w.]+)/m.exec(masked)?.[1] ?? null;
  const out: TreeImport[] = [];
  for (const match of masked.matchAll(/^[ \t]*(?:global[ \t]+)?using[ \t]+(static[ \t]+)?(?:(\w+)[ \t]*=[ \t]*)?([\w.]+)[ \t]*;/gm)) {
    out.push({ line: lineAtOffset(text, (match.index ?? 0) + match[0].indexOf('using')), spec: match[3] as string, alias: match[2] ?? null, ...(match[1] === undefined ? {} : { static: true }) });
  }
  const defs: { name: string; kind: string }[] = [];
  for (const match of modifierDeclarations(masked, CSHARP_DECLARATIONS)) defs.push({ name: match.name, kind: match.keyword });
  return { imports: out, defs, pkg };
}

/** Type declarations a lexical read finds: up to 4 blanks, modifiers, then `class X` and the like (modifiers and keywords are disjoint). */
const CSHARP_DECLARATIONS: DeclarationWords = { lead: 4, modifiers: ['public', 'internal', 'static', 'sealed', 'abstract', 'partial', 'readonly'], keywords: ['class', 'interface', 'struct', 'enum', 'record'] };

/** Nodes binding names `binds` does not track: implicitly typed lambda parameters, patterns, query range variables. */
const OPAQUE = set('lambda_expression', 'anonymous_method_expression', 'declaration_pattern', 'recursive_pattern', 'var_pattern', 'query_expression', 'is_pattern_expression', 'switch_expression');

/** The C# language of the family (adapter id `csharp`, extension `.cs`). */
export const CSHARP_SPEC: LanguageSpec = {
  id: 'csharp',
  display: 'C#',
  grammar: 'tree-sitter-c-sharp.wasm',
  extensions: ['.cs'],
  keywords: KEYWORDS,
  interesting: set(...Object.keys(TYPE_DECLS), 'method_declaration', 'constructor_declaration', 'using_directive', 'invocation_expression', 'constructor_initializer',
    'variable_declarator', 'catch_declaration', 'declaration_expression', 'parameter', 'local_function_statement', 'foreach_statement', ...OPAQUE),
  isTestPath: (path) => /(^|\/)tests?\//i.test(path) || /Tests?\.cs$/.test(path),
  isComment,
  moduleFacts(root) {
    const ns = named(root).find((c) => c.type === 'namespace_declaration' || c.type === 'file_scoped_namespace_declaration');
    return { pkg: ns?.childForFieldName('name')?.text.replace(/\s+/g, '') ?? null, doc: '' };
  },
  moduleEntrypoint: () => false,
  definition,
  imports,
  callee,
  binds,
  typedBinds: (node) => newProof(node, false),
  argTypes: (node, args) => (node.type === 'invocation_expression' ? argTypes(args, false) : null),
  declaredType: (node) => declaredType(node, false),
  opaqueBinders: OPAQUE,
  receiverKinds: set('class', 'struct', 'record'),
  bases,
  logic: LOGIC,
  lexical,
  implicitSelf: true,
  inherits: true,
  overloads: true,
  inheritedOverloads: 'derived',
  lexicalNesting: 'types',
  enclosingCalls: { rootMembers: new Set(['Equals', 'GetHashCode', 'ToString', 'GetType', 'MemberwiseClone', 'ReferenceEquals', 'Finalize']) },
  resolver: csharpResolver,
  api: csharpApi,
};
