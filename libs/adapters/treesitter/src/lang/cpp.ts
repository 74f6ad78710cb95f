/**
 * C and C++ for the tree-sitter family: `.c` files, and `.h` files under `[adapter.c] headers = "c"`,
 * through the C grammar of the `tree-sitter-c` package (its `.wasm`; @vscode/tree-sitter-wasm
 * bundles no C grammar); other files through the C++ grammar of @vscode/tree-sitter-wasm (one set of rules for both:
 * C's node types are C++'s, under the same field names). Namespaces (kind `namespace`, reopened in
 * place), classes, structs, unions and enums with a body (a `typedef struct { … } Name` is the
 * struct `Name`), functions and methods. A method defined outside its class is qualified by its
 * written scope (`void ns::Db::open()` is `ns.Db.open`); a prototype or a member declared in its
 * class is a node until the file defines it (the definition takes the node over). Exported: free
 * functions not `static`, members under `public:` (a struct's by default); class members declared
 * `static` have the capability `static`. Includes: `#include "…"` (cpp-resolve.ts).
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import type { TreeImport, TreeRecv } from '../link-data.js';
import { blankDeclarationMacros, cppFunctionDefinitions, cppIncludeLines, cppTypeDefinitions } from '@docforge/core';
import { lineAtOffset, maskSource } from '../lexical.js';
import type { DefinitionMatch, LanguageSpec, LogicSpec } from '../spec.js';
import { collapse, named } from '../tree.js';
import { isUnexpandedPreprocessor } from './cpp-preproc.js';
import { cppResolver } from '@docforge/module-resolution';

const KEYWORDS = new Set([
  'auto', 'break', 'case', 'char', 'const', 'continue', 'default', 'do', 'double', 'else', 'enum', 'extern', 'float', 'for', 'goto', 'if',
  'inline', 'int', 'long', 'register', 'restrict', 'return', 'short', 'signed', 'sizeof', 'static', 'struct', 'switch', 'typedef', 'union',
  'unsigned', 'void', 'volatile', 'while', 'bool', 'catch', 'class', 'const_cast', 'constexpr', 'delete', 'dynamic_cast', 'explicit', 'false',
  'friend', 'mutable', 'namespace', 'new', 'noexcept', 'nullptr', 'operator', 'private', 'protected', 'public', 'reinterpret_cast',
  'static_cast', 'template', 'this', 'throw', 'true', 'try', 'typename', 'using', 'virtual', 'NULL', 'size_t',
]);

const TYPES: Record<string, string> = { class_specifier: 'class', struct_specifier: 'struct', union_specifier: 'struct', enum_specifier: 'enum' };
const NAMES = new Set(['identifier', 'field_identifier', 'qualified_identifier', 'destructor_name', 'operator_name', 'type_identifier']);

const isComment = (type: string): boolean => type === 'comment';

/** The function declarator under a declarator (through pointer and reference declarators), or null. */
function functionDeclarator(node: SyntaxNode | null): SyntaxNode | null {
  let current = node;
  while (current !== null && (current.type === 'pointer_declarator' || current.type === 'reference_declarator')) current = current.childForFieldName('declarator') ?? named(current).pop() ?? null;
  return current?.type === 'function_declarator' ? current : null;
}

/** `a::b::f` as `['a', 'b', 'f']` (template arguments dropped, a leading `::` ignored); null for no plain name. */
export function scopedName(node: SyntaxNode): string[] | null {
  if (node.type === 'identifier' || node.type === 'field_identifier' || node.type === 'type_identifier' || node.type === 'namespace_identifier') return [node.text];
  if (node.type === 'destructor_name' || node.type === 'operator_name') return [node.text.replace(/\s+/g, '')];
  if (node.type === 'template_type' || node.type === 'template_function') {
    const name = node.childForFieldName('name');
    return name === null ? null : scopedName(name);
  }
  if (node.type !== 'qualified_identifier') return null;
  const scope = node.childForFieldName('scope');
  const name = node.childForFieldName('name');
  const rest = name === null ? null : scopedName(name);
  if (rest === null) return null;
  // Error recovery around an unknown macro (`forceinline T f(...)`) can make a "qualified" name with no `::`: its name alone.
  if (scope === null || !node.text.includes('::')) return rest;
  const head = scopedName(scope);
  return head === null ? null : [...head, ...rest];
}

/**
 * The function a declaration macro defines (`NODE_METHOD(Database::JS_close) { … }`, `static NAN_METHOD(New);`, where the
 * macro expands to `void name(args)`): an all-caps name with no return type whose one parameter is a bare type name is the
 * macro, and that parameter the function's (scoped) name. Null when the shape differs, or for a constructor of the
 * enclosing class (`AB(Bar)` inside class AB).
 */
function macroNamed(node: SyntaxNode, declarator: SyntaxNode | null, written: string[], enclosing: string): string[] | null {
  const macro = written.length === 1 ? written[0]! : '';
  if (!/^[A-Z][A-Z0-9_]*$/.test(macro) || node.childForFieldName('type') !== null || enclosing.split('.').pop() === macro) return null;
  const list = declarator?.childForFieldName('parameters') ?? null;
  const params = list === null ? [] : named(list).filter((p) => !isComment(p.type));
  const only = params.length === 1 && params[0]!.type === 'parameter_declaration' && params[0]!.childForFieldName('declarator') === null ? params[0]!.childForFieldName('type') : null;
  return only !== null && (only.type === 'type_identifier' || only.type === 'qualified_identifier') && !only.text.includes('<') ? scopedName(only) : null;
}

/** The access of a class member: the nearest `public:`/`private:`/`protected:` above it, else the class's default. */
function access(node: SyntaxNode, parentKind: string): string {
  for (let sibling = node.previousNamedSibling; sibling !== null; sibling = sibling.previousNamedSibling) {
    if (sibling.type === 'access_specifier') return sibling.text.replace(/:$/, '').trim();
  }
  return parentKind === 'class' ? 'private' : 'public';
}

/**
 * The arity of a function declarator's `parameter_list`: each parameter counts, one with a default value is optional, `(void)`
 * is none, and `...` (C++'s token, C's `variadic_parameter`) or a parameter pack makes it varargs.
 */
function arity(list: SyntaxNode | null): { min: number; max: number | null } {
  const params = list === null ? [] : named(list).filter((p) => /parameter_declaration$/.test(p.type));
  if (params.length === 1 && params[0]?.type === 'parameter_declaration' && params[0].childForFieldName('declarator') === null && params[0].childForFieldName('type')?.text === 'void') return { min: 0, max: 0 };
  // `...` is a bare token to the C++ grammar and a `variadic_parameter` node to the C grammar.
  const varargs = list !== null && (list.children.some((c) => c?.type === '...' || c?.type === 'variadic_parameter') || params.some((p) => p.type === 'variadic_parameter_declaration'));
  const fixed = params.filter((p) => p.type !== 'variadic_parameter_declaration');
  return { min: fixed.filter((p) => p.type === 'parameter_declaration').length, max: varargs ? null : fixed.length };
}

function signature(node: SyntaxNode): string {
  const body = node.childForFieldName('body');
  const text = body === null ? node.text : node.text.slice(0, body.startIndex - node.startIndex);
  return collapse(text).replace(/;$/, '');
}

function typeDefinition(node: SyntaxNode): DefinitionMatch | null {
  if (node.type === 'type_definition') {
    // `typedef struct { … } Name;`: the anonymous struct is the struct Name.
    const type = node.childForFieldName('type');
    const name = node.childForFieldName('declarator');
    if (type === null || name?.type !== 'type_identifier' || TYPES[type.type] === undefined || type.childForFieldName('name') !== null || type.childForFieldName('body') === null) return null;
    return { kind: TYPES[type.type] as string, name: name.text, signature: signature(type), capabilities: [], exported: true, body: null, receiver: null, params: [] };
  }
  const kind = TYPES[node.type];
  const nameNode = node.childForFieldName('name');
  const path = nameNode === null ? null : scopedName(nameNode);
  const name = path?.[path.length - 1];
  if (kind === undefined || path === null || name === undefined || node.childForFieldName('body') === null) return null;
  return { kind, name, signature: signature(node), capabilities: [], exported: true, body: null, receiver: null, params: [], reopen: false };
}

const SPECIFIERS = new Set(['storage_class_specifier', 'type_qualifier', 'primitive_type', 'sized_type_specifier', 'type_identifier', 'struct_specifier', 'union_specifier', 'enum_specifier', 'attribute_specifier']);

/**
 * The declarator of a C prototype the C grammar gives as an ERROR because attribute macros follow its parameters (glibc's
 * `extern int aio_read (struct aiocb *p) __THROW __nonnull ((1));`): declaration specifiers, then one function declarator as
 * the last named child. Null for anything else, and always for a tree of the C++ grammar (which reads these as declarations).
 */
function cPrototypeDeclarator(node: SyntaxNode): SyntaxNode | null {
  if (node.tree.language.name !== 'c') return null;
  const kids = named(node);
  const last = kids[kids.length - 1];
  if (kids.length < 2 || last === undefined || functionDeclarator(last) === null) return null;
  return kids.slice(0, -1).every((kid) => SPECIFIERS.has(kid.type)) ? last : null;
}

/** Whether `node` lies in an anonymous namespace (`namespace { … }`), whose names have internal linkage (C++ [basic.link]). */
function inAnonymousNamespace(node: SyntaxNode): boolean {
  for (let up = node.parent; up !== null && up.type !== 'translation_unit'; up = up.parent) {
    if (up.type === 'namespace_definition' && up.childForFieldName('name') === null) return true;
  }
  return false;
}

/**
 * A definition of `node` (definitionOf); one inside an anonymous namespace is internal: not exported, whatever its own
 * `static` or access says (a free function there is no more visible to other translation units than a `static` one).
 */
function definition(node: SyntaxNode, parent: { kind: string; qname: string; testFile: boolean }): DefinitionMatch | null {
  const match = definitionOf(node, parent);
  return match !== null && match.exported && inAnonymousNamespace(node) ? { ...match, exported: false } : match;
}

function definitionOf(node: SyntaxNode, parent: { kind: string; qname: string; testFile: boolean }): DefinitionMatch | null {
  if (node.type === 'namespace_definition') {
    const nameNode = node.childForFieldName('name');
    const path = nameNode === null ? null : nameNode.text.split('::').map((part) => part.trim()).filter((part) => part !== '');
    const name = path?.[path.length - 1];
    if (path === null || name === undefined) return null;
    const qualifier = [...(parent.qname === '' ? [] : [parent.qname]), ...path.slice(0, -1)].join('.');
    return { kind: 'namespace', name, qualifier, signature: `namespace ${path.join('::')}`, capabilities: [], exported: true, body: null, receiver: null, params: [], reopen: true };
  }
  if (node.type !== 'function_definition' && node.type !== 'declaration' && node.type !== 'field_declaration' && node.type !== 'ERROR') return typeDefinition(node);
  if (parent.kind === 'function' || parent.kind === 'method') return null;
  const declarator = functionDeclarator(node.type === 'ERROR' ? cPrototypeDeclarator(node) : node.childForFieldName('declarator'));
  const nameNode = declarator?.childForFieldName('declarator');
  const written = nameNode === null || nameNode === undefined || !NAMES.has(nameNode.type) ? null : scopedName(nameNode);
  const byMacro = written === null ? null : macroNamed(node, declarator, written, parent.qname);
  const path = byMacro ?? written;
  const name = path?.[path.length - 1];
  if (path === null || name === undefined) return null;
  const storage = named(node).filter((c) => c.type === 'storage_class_specifier').map((c) => c.text).join(' ');
  const inType = parent.kind === 'class' || parent.kind === 'struct';
  const member = inType || path.length > 1;
  const scope = path.slice(0, -1);
  const qualifier = scope.length === 0 ? undefined : [...(parent.qname === '' ? [] : [parent.qname]), ...scope].join('.');
  const capabilities: string[] = [];
  if (member && /\bstatic\b/.test(storage)) capabilities.push('static');
  if (!member && name === 'main') capabilities.push('entrypoint');
  if (parent.testFile && /^test_?/i.test(name)) capabilities.push('test');
  const exported = inType ? access(node, parent.kind) === 'public' : !/\bstatic\b/.test(storage) || member;
  const body = node.type === 'function_definition' ? node.childForFieldName('body') : null;
  const pointee = pointerResult(node);
  return {
    kind: member ? 'method' : 'function', name, qualifier, signature: signature(node), capabilities, exported, body,
    // A macro's own parameter list is not the function's: it admits any count, as varargs do.
    receiver: null, params: [], declaration: body === null, arity: byMacro === null ? arity(declarator?.childForFieldName('parameters') ?? null) : { min: 0, max: null },
    ...(pointee === null ? {} : { results: [pointee] }),
  };
}

/**
 * The class a function returns a pointer to (`Foo* make()`, `ns::Foo* make()`: `['Foo']`, `['ns', 'Foo']`): one pointer level,
 * a named type with no template arguments and no template parameter of its own; null otherwise (C: its structs have no methods).
 */
function pointerResult(node: SyntaxNode): string[] | null {
  const declarator = node.type === 'ERROR' ? null : node.childForFieldName('declarator');
  const type = node.childForFieldName('type');
  if (declarator?.type !== 'pointer_declarator' || declarator.childForFieldName('declarator')?.type !== 'function_declarator' || node.tree.language.name === 'c') return null;
  if ((type?.type !== 'type_identifier' && type?.type !== 'qualified_identifier') || type.text.includes('<')) return null;
  const path = scopedName(type);
  return path === null || templateParameter(node, path[0] as string) ? null : path;
}

/** `#include "a/b.h"` (spec `a/b.h`) and `#include <a/b.h>` (spec `<a/b.h>`, found only in include directories). */
function imports(node: SyntaxNode): TreeImport[] | null {
  if (node.type !== 'preproc_include') return null;
  const path = node.childForFieldName('path');
  if (path === null) return [];
  const spec = path.type === 'string_literal' ? (named(path).find((c) => c.type === 'string_content')?.text ?? '') : path.type === 'system_lib_string' ? path.text : '';
  return [{ line: node.startPosition.row + 1, spec, alias: null }];
}

/** `f()` and `this->f()` name the enclosing class's member first (`<self>`), then a function; `a::b()` a qualified name; others none. */
function callee(node: SyntaxNode): string[] | null | undefined {
  if (node.type !== 'call_expression') return undefined;
  const fn = node.childForFieldName('function');
  if (fn === null) return null;
  if (fn.type === 'identifier') return ['<self>', fn.text];
  if (fn.type === 'qualified_identifier') return scopedName(fn);
  if (fn.type !== 'field_expression') return null;
  const argument = fn.childForFieldName('argument');
  const field = fn.childForFieldName('field');
  if (field?.type !== 'field_identifier') return null;
  if (argument?.type === 'this') return ['<self>', field.text];
  // `x.m()`: the extractor keeps it only when x's declarations prove its type (typedBinds).
  const operator = fn.childForFieldName('operator')?.text;
  return argument?.type === 'identifier' && (operator === '.' || operator === '->') ? [operator === '.' ? '<recv>' : '<recv->', argument.text, field.text] : null;
}

/** Whether a template declaration around `node` (its function's or an enclosing class's) has a parameter `name`. */
function templateParameter(node: SyntaxNode, name: string): boolean {
  for (let up = node.parent; up !== null; up = up.parent) {
    if (up.type === 'template_declaration' && new RegExp(`\\b${name}\\b`).test(up.childForFieldName('parameters')?.text ?? '')) return true;
  }
  return false;
}

/**
 * C++'s proven locals (LanguageSpec.typedBinds): an object declared by value of a named class type (`Foo x;`, `Foo x(a);`,
 * `Foo x{a};`, `ns::Foo x = v;`) is exactly a Foo, so `x.m()` does not dispatch. Not: pointers and references (their
 * calls may dispatch to an override), `auto`, template types and a template's parameters, C (whose structs have no methods).
 */
function typedBinds(node: SyntaxNode): ReadonlyMap<string, TreeRecv> {
  const out = new Map<string, TreeRecv>();
  const typeNode = node.type === 'declaration' ? node.childForFieldName('type') : null;
  if ((typeNode?.type !== 'type_identifier' && typeNode?.type !== 'qualified_identifier') || typeNode.text.includes('<') || node.tree.language.name === 'c') return out;
  const type = scopedName(typeNode);
  if (type === null || templateParameter(node, type[0] as string)) return out;
  for (const child of node.childrenForFieldName('declarator')) {
    const declared = child?.type === 'init_declarator' ? child.childForFieldName('declarator') : child;
    if (declared?.type === 'identifier') out.set(declared.text, { type });
    // `Foo* p = new Foo(a)`: p points to exactly a Foo while nothing can reseat it (a constructor call proof, for `p->m()`).
    const pointee = declared?.type === 'pointer_declarator' ? declared.childForFieldName('declarator') : null;
    const value = child?.type === 'init_declarator' ? child.childForFieldName('value') : null;
    if (pointee?.type === 'identifier' && value?.type === 'new_expression' && value.childForFieldName('type')?.text === typeNode.text && onlyDereferenced(node, pointee.text)) {
      out.set(pointee.text, { call: type, index: 0 });
    }
    // `Foo* p = makeFoo(a)`: p holds what a factory declared as returning `Foo*` gives (the linker checks the declared result
    // is the same Foo, and that no project class derives from Foo, so no override can take the call).
    const factory = value?.type === 'call_expression' ? value.childForFieldName('function') : null;
    const maker = factory?.type === 'identifier' || factory?.type === 'qualified_identifier' ? scopedName(factory) : null;
    if (pointee?.type === 'identifier' && maker !== null && onlyDereferenced(node, pointee.text)) out.set(pointee.text, { call: maker, index: 0, as: type });
  }
  return out;
}

/** Whether every mention of `name` in the function around `declaration`, the declaration aside, is `name->` or `delete name`. */
function onlyDereferenced(declaration: SyntaxNode, name: string): boolean {
  let fn = declaration.parent;
  while (fn !== null && fn.type !== 'function_definition' && fn.type !== 'lambda_expression') fn = fn.parent;
  const body = fn?.childForFieldName('body');
  if (body == null) return false;
  const text = `${body.text.slice(0, declaration.startIndex - body.startIndex)} ${body.text.slice(declaration.endIndex - body.startIndex)}`;
  for (const mention of text.matchAll(new RegExp(`(?<![\\w.]|->|::)${name}\\b`, 'g'))) {
    const at = mention.index ?? 0;
    if (!/^\s*->/.test(text.slice(at + name.length, at + name.length + 16)) && !/\bdelete\s*$/.test(text.slice(Math.max(0, at - 16), at))) return false;
  }
  return true;
}

/** The identifier a declarator declares (through pointer, reference, array and init declarators), or null. */
function declaredName(node: SyntaxNode | null): string | null {
  let current = node;
  for (let depth = 0; current !== null && depth < 8; depth += 1) {
    if (current.type === 'identifier') return current.text;
    current = current.childForFieldName('declarator') ?? (current.type === 'parenthesized_declarator' || current.type === 'reference_declarator' ? (named(current)[0] ?? null) : null);
  }
  return null;
}

const LOCAL_TYPES = new Set([...Object.keys(TYPES), 'type_definition', 'alias_declaration']);

/** The name a type definition in a function body declares (`struct L {…}`, `typedef … L;`, `using L = …;`): none or one. */
function localTypeName(node: SyntaxNode): string[] {
  const up = node.parent;
  if (up?.type !== 'compound_statement' && (up?.type !== 'declaration' || up.parent?.type !== 'compound_statement')) return [];
  if (node.type === 'type_definition') return node.childrenForFieldName('declarator').filter((d) => d?.type === 'type_identifier').map((d) => (d as SyntaxNode).text);
  const name = node.childForFieldName('name');
  // `struct stat st;` names a type declared elsewhere: only a definition (with a body) or an alias declares one here.
  return name === null || (node.type !== 'alias_declaration' && node.childForFieldName('body') === null) ? [] : [name.text];
}

/** Locals: declared variables, parameters (function pointers among them), range-for variables, lambda captures aside. */
function binds(node: SyntaxNode): string[] {
  if (node.type === 'parameter_declaration' || node.type === 'optional_parameter_declaration' || node.type === 'for_range_loop') {
    const name = declaredName(node.childForFieldName('declarator'));
    return name === null ? [] : [name];
  }
  // A type declared in a function body shadows the namespace's: a proof naming it is void (extractor).
  if (node.type !== 'declaration') return LOCAL_TYPES.has(node.type) ? localTypeName(node) : [];
  const out: string[] = [];
  // One WASM call for the declarators, not two per child (fieldNameForChild, child).
  for (const child of node.childrenForFieldName('declarator')) {
    if (child !== null && functionDeclarator(child) === null) {
      const name = declaredName(child);
      if (name !== null) out.push(name);
    }
  }
  return out;
}

function bases(node: SyntaxNode): { path: string[]; relation: 'inherits' | 'implements'; line: number }[] {
  const clause = named(node).find((c) => c.type === 'base_class_clause');
  if (clause === undefined) return [];
  const out: { path: string[]; relation: 'inherits' | 'implements'; line: number }[] = [];
  for (const base of named(clause)) {
    const path = base.type === 'access_specifier' ? null : scopedName(base);
    if (path !== null) out.push({ path, relation: 'inherits', line: base.startPosition.row + 1 });
  }
  return out;
}

const set = (...types: string[]): ReadonlySet<string> => new Set(types);

const LOGIC: LogicSpec = {
  blocks: set('compound_statement'),
  ifs: set('if_statement'),
  elses: set('else_clause'),
  loops: set('for_statement', 'for_range_loop', 'while_statement', 'do_statement'),
  switches: set('switch_statement'),
  cases: set('case_statement'),
  returns: set('return_statement'),
  throws: set('throw_statement'),
  breaks: set('break_statement'),
  continues: set('continue_statement'),
  wrappers: set('expression_statement'),
  tries: set('try_statement'),
  catches: set('catch_clause'),
  finallys: set(),
  isThrowCall: () => false,
  caseBody: (node) => {
    const value = node.childForFieldName('value');
    return named(node).filter((c) => !isComment(c.type) && (value === null || c.startIndex !== value.startIndex));
  },
  isDefault: (node) => node.childForFieldName('value') === null,
  fallthrough: true,
};

/** Lexical C/C++: `#include` lines, top-level `namespace`, `class`/`struct` and function definition names (a name and `(` at column 0 or after a type). */
function lexical(text: string): { imports: TreeImport[]; defs: { name: string; kind: string }[]; pkg: string | null } {
  const masked = maskSource(text, { line: ['//'], block: true, quotes: ['"', "'"] });
  const out: TreeImport[] = [];
  // Strings are blanked in `masked` (same length): a quoted spec is read from `text` at the same offsets.
  for (const include of cppIncludeLines(masked)) {
    const spec = 'angle' in include ? include.angle : text.slice(include.quoteStart, include.quoteStart + include.quoteLength);
    out.push({ line: lineAtOffset(text, include.at), spec, alias: null });
  }
  const defs: { name: string; kind: string }[] = [];
  for (const type of cppTypeDefinitions(masked)) defs.push({ name: type.name, kind: type.keyword });
  for (const name of cppFunctionDefinitions(masked)) {
    if (!/^(if|for|while|switch|return|sizeof)$/.test(name)) defs.push({ name, kind: 'function' });
  }
  return { imports: out, defs, pkg: null };
}

/** C and C++ in the family (adapter id `cpp`; `.c`, `.h`, `.cc`, `.cpp`, `.cxx`, `.hpp`, `.hh`, `.hxx`). */
export const CPP_SPEC: LanguageSpec = {
  id: 'cpp',
  display: 'C/C++',
  grammar: 'tree-sitter-cpp.wasm',
  // `.c` always; `.h` when the descriptor says the project is C (`[adapter.c] headers = "c"`).
  dialect: { grammar: 'tree-sitter-c/tree-sitter-c.wasm', language: 'c', applies: (path, options) => path.endsWith('.c') || (path.endsWith('.h') && options?.['c']?.['headers'] === 'c') },
  extensions: ['.c', '.h', '.cc', '.cpp', '.cxx', '.hpp', '.hh', '.hxx'],
  syntaxArtefact: isUnexpandedPreprocessor,
  parseText: blankDeclarationMacros,
  keywords: KEYWORDS,
  // ERROR: C prototypes followed by attribute macros (cPrototypeDeclarator).
  interesting: set(...Object.keys(TYPES), 'ERROR', 'type_definition', 'namespace_definition', 'function_definition', 'declaration', 'field_declaration', 'preproc_include',
    'call_expression', 'parameter_declaration', 'optional_parameter_declaration', 'for_range_loop', 'alias_declaration'),
  isTestPath: (path) => /(^|\/)tests?\//i.test(path) || /(^|\/)test_[^/]*$|_test\.[^/.]+$|_unittest\.[^/.]+$/.test(path),
  conventionTested: (path) => {
    const stem = path.replace(/_(unit)?test(\.[^/.]+)$/, '$2').replace(/(^|\/)test_([^/]*)$/, '$1$2');
    return stem === path ? [] : [stem];
  },
  isComment,
  moduleFacts: () => ({ pkg: null, doc: '' }),
  moduleEntrypoint: (_path, _pkg, names) => names.has('main'),
  definition,
  imports,
  callee,
  binds,
  typedBinds,
  receiverKinds: set('class', 'struct'),
  bases,
  logic: LOGIC,
  lexical,
  plainSelfAtTop: true,
  selfThenName: true,
  callableLocals: true,
  dottedPaths: true,
  inherits: true,
  overloads: true,
  pathKinds: set('namespace'),
  resolver: cppResolver,
};
