/**
 * Java for the tree-sitter family (grammar tree-sitter-java from @vscode/tree-sitter-wasm):
 * classes, interfaces, enums, records and annotation types (nested ones qualified, `Outer.Inner`),
 * methods and constructors (`A.m`, constructor `A.A`; overloads get `~2`, `~3`, and a call to an
 * overloaded name reaches the one whose arity admits its argument count); exported = `public`; tests under `src/test/` or `*Test.java`
 * and `@Test` methods; entry point `public static void main`. Imports resolve by package folders
 * under the source roots (java-resolve.ts).
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import type { TreeImport } from '../link-data.js';
import { lineAtOffset, maskSource } from '../lexical.js';
import { javaImportLines, modifierDeclarations, withoutAngles, type DeclarationWords } from '@docforge/core';
import type { DefinitionMatch, LanguageSpec, LogicSpec } from '../spec.js';
import { collapse, identifiersUnder, named } from '../tree.js';
import { javaApi, javaLangMembers, javaLangType, javaResolver } from '@docforge/module-resolution';
import { newProof } from './typed-new.js';
import { argTypes, declaredType, javaParamTypes, typeParameters } from './arg-types.js';

const KEYWORDS = new Set([
  'abstract', 'assert', 'boolean', 'break', 'byte', 'case', 'catch', 'char', 'class', 'const', 'continue', 'default', 'do', 'double', 'else',
  'enum', 'extends', 'final', 'finally', 'float', 'for', 'goto', 'if', 'implements', 'import', 'instanceof', 'int', 'interface', 'long',
  'native', 'new', 'package', 'private', 'protected', 'public', 'return', 'short', 'static', 'strictfp', 'super', 'switch', 'synchronized',
  'this', 'throw', 'throws', 'transient', 'try', 'void', 'volatile', 'while', 'true', 'false', 'null', 'var', 'record', 'yield',
]);

const IDENT = new Set(['identifier']);
const TYPE_DECLS: Record<string, string> = {
  class_declaration: 'class', interface_declaration: 'interface', enum_declaration: 'enum', record_declaration: 'record', annotation_type_declaration: 'interface',
};

const isComment = (type: string): boolean => type === 'line_comment' || type === 'block_comment';

function modifiers(node: SyntaxNode): string {
  return named(node).find((c) => c.type === 'modifiers')?.text ?? '';
}

function signature(node: SyntaxNode): string {
  const body = node.childForFieldName('body');
  const text = body === null ? node.text : node.text.slice(0, body.startIndex - node.startIndex);
  return collapse(text.replace(/^\s*(@\w+(\([^)]*\))?\s*)+/, ''));
}

/** The simple type path of a type node (`a.b.C<T>` → `['a', 'b', 'C']`), or null. */
function typePath(node: SyntaxNode): string[] | null {
  if (node.type === 'type_identifier') return [node.text];
  if (node.type === 'generic_type') return typePath(named(node)[0] ?? node);
  if (node.type === 'scoped_type_identifier') return withoutAngles(node.text).split('.').map((s) => s.trim());
  return null;
}

function bases(node: SyntaxNode): { path: string[]; relation: 'inherits' | 'implements'; line: number }[] {
  const out: { path: string[]; relation: 'inherits' | 'implements'; line: number }[] = [];
  const add = (holder: SyntaxNode | null, relation: 'inherits' | 'implements'): void => {
    if (holder === null) return;
    const list = named(holder).flatMap((c) => (c.type === 'type_list' ? named(c) : [c]));
    for (const type of list) {
      const path = typePath(type);
      if (path !== null) out.push({ path, relation, line: type.startPosition.row + 1 });
    }
  };
  add(node.childForFieldName('superclass'), 'inherits');
  add(node.childForFieldName('interfaces'), 'implements');
  // An interface's `extends` list.
  add(named(node).find((c) => c.type === 'extends_interfaces') ?? null, node.type === 'interface_declaration' ? 'inherits' : 'implements');
  return out;
}

/** The arity of a method's `formal_parameters`: each `formal_parameter` counts, a `spread_parameter` (`String... xs`) makes it varargs. */
function arity(list: SyntaxNode | null): { min: number; max: number | null } {
  const params = list === null ? [] : named(list);
  const min = params.filter((p) => p.type === 'formal_parameter').length;
  return { min, max: params.some((p) => p.type === 'spread_parameter') ? null : min };
}

function definition(node: SyntaxNode, parent: { kind: string; qname: string; testFile: boolean }): DefinitionMatch | null {
  const name = node.childForFieldName('name')?.text;
  if (name === undefined) return null;
  const mods = modifiers(node);
  const exported = /\bpublic\b/.test(mods) || (parent.kind === 'interface' && !/\bprivate\b/.test(mods));
  const kind = TYPE_DECLS[node.type];
  if (kind !== undefined) return { kind, name, signature: signature(node), capabilities: [], exported, body: null, receiver: null, params: [], typeParams: typeParameters(node) };
  if (node.type !== 'method_declaration' && node.type !== 'constructor_declaration') return null;
  if (parent.qname === '') return null;
  const capabilities: string[] = [];
  if (/@(org\.junit\.(jupiter\.api\.)?)?(Test|ParameterizedTest|RepeatedTest)\b/.test(mods) || (parent.testFile && /^test[A-Z_]/.test(name))) capabilities.push('test');
  const isStatic = /\bstatic\b/.test(mods);
  if (isStatic) capabilities.push('static');
  if (name === 'main' && isStatic && /\bpublic\b/.test(mods) && /^\(\s*(final\s+)?String\s*(\[\s*\]|\.\.\.)/.test(node.childForFieldName('parameters')?.text ?? '')) capabilities.push('entrypoint');
  const params = new Set<string>();
  for (const param of named(node.childForFieldName('parameters') ?? node)) identifiersUnder(param.childForFieldName('name'), IDENT, params);
  return {
    kind: 'method', name, signature: signature(node), capabilities, exported, body: node.childForFieldName('body'),
    receiver: null, params: [...params], arity: arity(node.childForFieldName('parameters')),
    paramTypes: javaParamTypes(node.childForFieldName('parameters')), typeParams: typeParameters(node),
    ...(/\bprivate\b/.test(mods) ? { access: 'private' as const } : parent.kind !== 'interface' && !/\b(public|protected)\b/.test(mods) ? { access: 'package' as const } : {}),
  };
}

function imports(node: SyntaxNode): TreeImport[] | null {
  if (node.type === 'package_declaration') return [];
  if (node.type !== 'import_declaration') return null;
  const path = named(node).find((c) => c.type === 'scoped_identifier' || c.type === 'identifier')?.text.replace(/\s+/g, '');
  if (path === undefined) return [];
  const wildcard = named(node).some((c) => c.type === 'asterisk');
  const isStatic = node.children.some((c) => c?.type === 'static');
  return [{ line: node.startPosition.row + 1, spec: wildcard ? `${path}.*` : path, alias: null, ...(isStatic ? { static: true } : {}) }];
}

/**
 * The head of an unqualified call: `<bare>` (it may reach an enclosing class's method, link-enclosing.ts) in a declared type's
 * body, `<self>` in an anonymous class's or an enum constant's body, whose own supertype may declare the name.
 */
function unqualifiedHead(node: SyntaxNode): string {
  for (let up = node.parent; up !== null; up = up.parent) {
    if (up.type === 'class_body') return up.parent?.type === 'object_creation_expression' || up.parent?.type === 'enum_constant' ? '<self>' : '<bare>';
    if (up.type === 'interface_body' || up.type === 'enum_body') return '<bare>';
  }
  return '<self>';
}

function callee(node: SyntaxNode): string[] | null | undefined {
  // `super(...)` calls the superclass's constructor, `this(...)` another of the own class's (`<init>`: the constructor).
  if (node.type === 'explicit_constructor_invocation') {
    const which = node.childForFieldName('constructor')?.type;
    return which === 'super' ? ['<super>', '<init>'] : which === 'this' ? ['<self>', '<init>'] : null;
  }
  if (node.type !== 'method_invocation') return undefined;
  const name = node.childForFieldName('name')?.text;
  const object = node.childForFieldName('object');
  if (name === undefined) return null;
  // An unqualified call names a method of the enclosing class (or a static import, tried after it).
  if (object === null) return [unqualifiedHead(node), name];
  if (object.type === 'this') return ['<self>', name];
  if (object.type === 'super') return ['<super>', name];
  // `I.super.m()`: the default method m as the superinterface I has it; `Outer.super.m()` (an inner class): Outer's superclass's m.
  if (object.type === 'identifier') return node.children.some((c) => c?.type === 'super') ? ['<qsuper>', object.text, name] : [object.text, name];
  return null;
}

function binds(node: SyntaxNode): string[] {
  const out = new Set<string>();
  switch (node.type) {
    case 'variable_declarator':
    case 'catch_formal_parameter':
    case 'enhanced_for_statement':
    case 'resource':
      identifiersUnder(node.childForFieldName('name'), IDENT, out);
      break;
    case 'lambda_expression':
      identifiersUnder(node.childForFieldName('parameters'), IDENT, out);
      break;
    default:
      break;
  }
  return [...out];
}

const set = (...types: string[]): ReadonlySet<string> => new Set(types);

const LOGIC: LogicSpec = {
  blocks: set('block', 'switch_block'),
  ifs: set('if_statement'),
  elses: set(),
  loops: set('for_statement', 'enhanced_for_statement', 'while_statement', 'do_statement'),
  switches: set('switch_expression', 'switch_statement'),
  cases: set('switch_block_statement_group', 'switch_rule'),
  returns: set('return_statement'),
  throws: set('throw_statement'),
  breaks: set('break_statement'),
  continues: set('continue_statement'),
  wrappers: set('expression_statement', 'parenthesized_expression'),
  tries: set('try_statement', 'try_with_resources_statement'),
  catches: set('catch_clause'),
  finallys: set('finally_clause'),
  isThrowCall: () => false,
  caseBody: (node) => named(node).filter((c) => c.type !== 'switch_label' && !isComment(c.type)),
  isDefault: (node) => named(node).some((c) => c.type === 'switch_label' && /^default\b/.test(c.text)),
  fallthrough: true,
};

/** Lexical Java: `package`, `import` declarations, top-level type names. */
function lexical(text: string): { imports: TreeImport[]; defs: { name: string; kind: string }[]; pkg: string | null } {
  const masked = maskSource(text, { line: ['//'], block: true, quotes: ['"', "'"] });
  // Dots joined with their surrounding whitespace (was /\s*\.\s*/g, quadratic on long blank runs: issue 30).
  const joined = masked.replace(/(?<!\s)\s+(?=\.)/g, '').replace(/\.\s+/g, '.');
  const pkg = /^[ \t]*package[ \t]+([\w.]+)[ \t]*;/m.exec(joined)?.[1] ?? null;
  const out: TreeImport[] = [];
  for (const imp of javaImportLines(masked)) {
    out.push({ line: lineAtOffset(text, imp.at), spec: imp.star ? `${imp.path}.*` : imp.path, alias: null, ...(imp.isStatic ? { static: true } : {}) });
  }
  const defs: { name: string; kind: string }[] = [];
  for (const match of modifierDeclarations(masked, JAVA_DECLARATIONS)) defs.push({ name: match.name, kind: match.keyword === '@interface' ? 'interface' : match.keyword });
  return { imports: out, defs, pkg };
}

/** Top-level type declarations a lexical read finds: `public final class X`, `@interface A` (modifiers and keywords are disjoint). */
const JAVA_DECLARATIONS: DeclarationWords = { lead: 0, modifiers: ['public', 'abstract', 'final', 'sealed', 'non-sealed', 'strictfp'], keywords: ['class', 'interface', 'enum', 'record', '@interface'] };

/** The Java language of the family (adapter id `java`, extension `.java`). */
export const JAVA_SPEC: LanguageSpec = {
  id: 'java',
  display: 'Java',
  grammar: 'tree-sitter-java.wasm',
  extensions: ['.java'],
  keywords: KEYWORDS,
  interesting: set(...Object.keys(TYPE_DECLS), 'method_declaration', 'constructor_declaration', 'import_declaration', 'package_declaration', 'method_invocation', 'explicit_constructor_invocation',
    'variable_declarator', 'catch_formal_parameter', 'enhanced_for_statement', 'resource', 'lambda_expression', 'instanceof_expression', 'type_pattern', 'record_pattern'),
  isTestPath: (path) => /(^|\/)src\/test\//.test(path) || /(^|\/)[^/]*Tests?\.java$/.test(path),
  conventionTested: (path) => {
    const stem = path.replace(/Tests?\.java$/, '.java');
    return stem === path ? [] : [stem, stem.replace(/(^|\/)src\/test\//, '$1src/main/')];
  },
  isComment,
  skipBeforeDoc: (type) => type === 'modifiers',
  moduleFacts(root) {
    const pkg = named(root).find((c) => c.type === 'package_declaration');
    const name = pkg === undefined ? null : (named(pkg).find((c) => c.type === 'scoped_identifier' || c.type === 'identifier')?.text.replace(/\s+/g, '') ?? null);
    return { pkg: name, doc: '' };
  },
  moduleEntrypoint: () => false,
  definition,
  imports,
  callee,
  binds,
  typedBinds: (node) => newProof(node, true),
  argTypes: (node, args) => (node.type === 'method_invocation' ? argTypes(args, true) : null),
  declaredType: (node) => declaredType(node, true),
  opaqueBinders: set('instanceof_expression', 'type_pattern', 'record_pattern'),
  receiverKinds: set('class', 'record'),
  bases,
  logic: LOGIC,
  lexical,
  implicitSelf: true,
  inherits: true,
  overloads: true,
  inheritedOverloads: 'merge',
  lexicalNesting: 'types',
  knownExternal: (imports, path) => {
    const name = javaLangType(imports, path);
    return name === null ? undefined : javaLangMembers(name);
  },
  enclosingCalls: { rootMembers: new Set(['equals', 'hashCode', 'toString', 'getClass', 'notify', 'notifyAll', 'wait', 'clone', 'finalize']) },
  resolver: javaResolver,
  api: javaApi,
};
