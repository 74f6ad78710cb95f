/**
 * Ruby for the tree-sitter family (grammar tree-sitter-ruby from @vscode/tree-sitter-wasm):
 * modules (kind `namespace`) and classes, nested and compact names qualified with dots
 * (`module Thor; class Shell::Basic` gives `Thor.Shell.Basic`), a module or class reopened in the
 * same file joins the first; instance and singleton methods (`def x`, `def self.x`, `class << self`)
 * under their class (`Thor.Util.snake_case`; singleton methods have the capability `static`, and a
 * call reaches only methods of its own side); top-level `def` is a function. Exported: classes,
 * modules and methods not made `private`/`protected` (a bare `private` above them or `private def`).
 * Tests: files under `test/` or `spec/`, `*_test.rb`, `*_spec.rb`, `test_*.rb`, and `test_*`
 * methods in them. `include M`, `prepend M` and `extend M` in a class or module body declare M as a mixin (`implements`),
 * whose instance methods receiver calls reach in method resolution order (prepended before the class, extended on its
 * singleton side). Imports: `require_relative` and `require` (ruby-resolve.ts).
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import type { TreeImport } from '../link-data.js';
import { lineAtOffset, maskSource } from '../lexical.js';
import type { DefinitionMatch, LanguageSpec, LogicSpec } from '../spec.js';
import { rubyRequireLines } from '@docforge/core';
import { collapse, named, withoutDirective } from '../tree.js';
import { rubyResolver } from '@docforge/module-resolution';

const KEYWORDS = new Set([
  'BEGIN', 'END', 'alias', 'and', 'begin', 'break', 'case', 'class', 'def', 'defined', 'do', 'else', 'elsif', 'end', 'ensure', 'false',
  'for', 'if', 'in', 'module', 'next', 'nil', 'not', 'or', 'redo', 'rescue', 'retry', 'return', 'self', 'super', 'then', 'true', 'undef',
  'unless', 'until', 'when', 'while', 'yield', 'require', 'require_relative', 'attr_reader', 'attr_writer', 'attr_accessor', 'private',
  'protected', 'public',
]);

const VISIBILITY = /^(private|protected|public)$/;

const isComment = (type: string): boolean => type === 'comment';

/** `A::B::C` (a constant or scope resolution) as `['A', 'B', 'C']`; `::C` as `['C']`; null for anything else. */
export function constantPath(node: SyntaxNode): string[] | null {
  if (node.type === 'constant') return [node.text];
  if (node.type !== 'scope_resolution') return null;
  const name = node.childForFieldName('name');
  const scope = node.childForFieldName('scope');
  if (name === null || name.type !== 'constant') return null;
  if (scope === null) return [name.text];
  const head = constantPath(scope);
  return head === null ? null : [...head, name.text];
}

/** The visibility of a method: `private def x`, else the nearest bare `private`/`protected`/`public` above it in its body. */
function visibility(node: SyntaxNode): string {
  const wrapper = node.parent?.type === 'argument_list' ? node.parent.parent : null;
  const called = wrapper?.type === 'call' ? wrapper.childForFieldName('method')?.text : undefined;
  if (called !== undefined && VISIBILITY.test(called)) return called;
  for (let sibling = node.previousNamedSibling; sibling !== null; sibling = sibling.previousNamedSibling) {
    if (sibling.type === 'identifier' && VISIBILITY.test(sibling.text)) return sibling.text;
  }
  return 'public';
}

/** The node whose preceding comments document `node`: a body's first statement's comments precede the body itself. */
function docAnchor(node: SyntaxNode): SyntaxNode {
  const parent = node.parent;
  return node.previousSibling === null && parent !== null && parent.type === 'body_statement' ? parent : node;
}

/** Whether a `def` is written inside `class << self` (a singleton method of the enclosing class or module). */
function inSingletonClass(node: SyntaxNode): boolean {
  for (let up = node.parent; up !== null; up = up.parent) {
    if (up.type === 'singleton_class') return up.childForFieldName('value')?.type === 'self';
    if (up.type === 'class' || up.type === 'module' || up.type === 'method' || up.type === 'singleton_method') return false;
  }
  return false;
}

function signature(node: SyntaxNode): string {
  const body = node.childForFieldName('body');
  const text = body === null ? node.text : node.text.slice(0, body.startIndex - node.startIndex);
  return withoutDirective(collapse(text.split('\n')[0] ?? '').replace(/;$/, ''));
}

function definition(node: SyntaxNode, parent: { kind: string; qname: string; testFile: boolean }): DefinitionMatch | null {
  if (node.type === 'class' || node.type === 'module') {
    const nameNode = node.childForFieldName('name');
    const path = nameNode === null ? null : constantPath(nameNode);
    const name = path?.[path.length - 1];
    if (path === null || name === undefined) return null;
    // `class A::B` inside `module M` is `M.A.B`; `class ::B` is `B` at the top.
    const top = nameNode?.type === 'scope_resolution' && nameNode.childForFieldName('scope') === null;
    const qualifier = [...(top || parent.qname === '' ? [] : [parent.qname]), ...path.slice(0, -1)].join('.');
    const kind = node.type === 'class' ? 'class' : 'namespace';
    return { kind, name, qualifier, signature: signature(node), capabilities: [], exported: true, body: null, receiver: null, params: [], reopen: true, docAnchor: docAnchor(node) };
  }
  if (node.type !== 'method' && node.type !== 'singleton_method') return null;
  const name = node.childForFieldName('name')?.text;
  if (name === undefined) return null;
  if (node.type === 'singleton_method' && node.childForFieldName('object')?.type !== 'self') return null;
  const inScope = parent.qname !== '';
  const capabilities = parent.testFile && /^test_/.test(name) ? ['test'] : [];
  const singleton = node.type === 'singleton_method' || inSingletonClass(node);
  if (singleton && inScope) capabilities.push('static');
  const exported = inScope && (node.type === 'singleton_method' || visibility(node) === 'public');
  return {
    kind: inScope ? 'method' : 'function', name, signature: signature(node), capabilities, exported,
    body: node.childForFieldName('body'), receiver: 'self', params: [], docAnchor: docAnchor(node),
  };
}

/** `require_relative "x"` (spec `./x` unless it starts with `.` or `/`) and `require "x"`; a computed argument gives spec `''` (counted unresolved). */
function imports(node: SyntaxNode): TreeImport[] | null {
  if (node.type !== 'call' || node.childForFieldName('receiver') !== null) return null;
  const method = node.childForFieldName('method')?.text;
  if (method !== 'require' && method !== 'require_relative') return null;
  const args = named(node.childForFieldName('arguments') ?? node).filter((c) => !isComment(c.type));
  const only = args.length === 1 ? args[0] : undefined;
  const parts = only?.type === 'string' ? named(only) : [];
  const literal = parts.length === 1 && parts[0]?.type === 'string_content' ? (parts[0]?.text ?? '') : '';
  const spec = method === 'require_relative' && literal !== '' && !/^[./]/.test(literal) ? `./${literal}` : literal;
  return [{ line: node.startPosition.row + 1, spec, alias: null }];
}

/** A call's path: unqualified `m` and `self.m` name the receiver (`<self>` / `self`), `C.m` and `A::B.m` a constant path; others none. */
function callee(node: SyntaxNode): string[] | null | undefined {
  // Bare `super` (a node of its own) and `super(...)` (a call whose method is `super`) call the same-named method of the
  // nearest ancestor (`<super>`, its name the caller's); the `super` inside such a call is no second call.
  if (node.type === 'super') return node.parent?.type === 'call' && node.parent.childForFieldName('method')?.startIndex === node.startIndex ? undefined : ['<super>'];
  if (node.type !== 'call') return undefined;
  const method = node.childForFieldName('method');
  if (method?.type === 'super') return ['<super>'];
  if (method === null || (method.type !== 'identifier' && method.type !== 'constant')) return null;
  // `self.x = v` calls the setter `x=`; `self.x ||= v` both the reader and the setter (not one proven target).
  const parent = node.parent;
  const left = parent?.childForFieldName('left');
  const assigned = parent?.type === 'left_assignment_list' || (parent?.type === 'assignment' && left?.startIndex === node.startIndex && left.endIndex === node.endIndex);
  if (parent?.type === 'operator_assignment' && left?.startIndex === node.startIndex) return null;
  const name = assigned ? `${method.text}=` : method.text;
  const receiver = node.childForFieldName('receiver');
  if (receiver === null) return ['<self>', name];
  if (receiver.type === 'self') return ['self', name];
  const path = constantPath(receiver);
  return path === null ? null : [...path, name];
}

/** Ruby path heads are constants, `self` or `<self>`, which no local variable can rebind: no locals are tracked. */
function binds(): string[] {
  return [];
}

type Base = { path: string[]; relation: 'inherits' | 'implements'; line: number; mixin?: 'include' | 'prepend' | 'extend' };

/** A body statement's mixin call (`include M`, `prepend M`, `extend M`, or one guarded by its own constant: `prepend M if M`), or null. */
function mixinCall(statement: SyntaxNode): { call: SyntaxNode; mixin: 'include' | 'prepend' | 'extend' } | null {
  let call = statement;
  if (statement.type === 'if_modifier') {
    // `prepend M if M`: a resolved module is always truthy, so the guard changes nothing the linker could prove.
    const body = statement.childForFieldName('body');
    const argument = body === null ? undefined : named(body.childForFieldName('arguments') ?? body)[0];
    if (body === null || argument === undefined || statement.childForFieldName('condition')?.text !== argument.text) return null;
    call = body;
  }
  const method = call.childForFieldName('method')?.text;
  if (call.type !== 'call' || call.childForFieldName('receiver') !== null || (method !== 'include' && method !== 'prepend' && method !== 'extend')) return null;
  return { call, mixin: method };
}

/**
 * `class C < S` (inherits S) and the `include`, `prepend` and `extend` calls of the body (implements M, in order, each with
 * its `mixin` way: C's instances, or for `extend` C itself, answer M's methods).
 */
function bases(node: SyntaxNode): Base[] {
  if (node.type !== 'class' && node.type !== 'module') return [];
  const out: Base[] = [];
  const superclass = node.type === 'class' ? named(node.childForFieldName('superclass') ?? node).find((c) => c.type === 'constant' || c.type === 'scope_resolution') : undefined;
  const path = superclass === undefined ? null : constantPath(superclass);
  if (path !== null && superclass !== undefined) out.push({ path, relation: 'inherits', line: superclass.startPosition.row + 1 });
  for (const statement of named(node.childForFieldName('body') ?? node)) {
    const found = mixinCall(statement);
    if (found === null) continue;
    for (const argument of named(found.call.childForFieldName('arguments') ?? found.call)) {
      const included = constantPath(argument);
      if (included !== null) out.push({ path: included, relation: 'implements', line: argument.startPosition.row + 1, mixin: found.mixin });
    }
  }
  return out;
}

const set = (...types: string[]): ReadonlySet<string> => new Set(types);

const LOGIC: LogicSpec = {
  blocks: set('body_statement', 'then', 'else', 'do', 'parenthesized_statements'),
  ifs: set('if', 'unless', 'elsif'),
  elses: set(),
  loops: set('while', 'until', 'for'),
  switches: set('case', 'case_match'),
  cases: set('when', 'in_clause', 'else'),
  returns: set('return'),
  throws: set(),
  breaks: set('break'),
  continues: set('next'),
  wrappers: set(),
  tries: set('begin'),
  catches: set('rescue'),
  finallys: set('ensure'),
  isThrowCall: (node) => node.type === 'call' && node.childForFieldName('receiver') === null && /^(raise|fail)$/.test(node.childForFieldName('method')?.text ?? ''),
  caseBody: (node) => (node.type === 'else' ? named(node) : named(node.childForFieldName('body') ?? node).filter((c) => c.type !== 'pattern')).filter((c) => !isComment(c.type)),
  isDefault: (node) => node.type === 'else',
  fallthrough: false,
};

/** Lexical Ruby: `require`/`require_relative` of a string literal, top-level `class`/`module` and `def` names. */
function lexical(text: string): { imports: TreeImport[]; defs: { name: string; kind: string }[]; pkg: string | null } {
  const masked = maskSource(text, { line: ['#'], block: false, quotes: ['"', "'"] });
  const out: TreeImport[] = [];
  // Strings are blanked in `masked` (same length): the spec is read from `text` at the same offsets.
  for (const require of rubyRequireLines(masked)) {
    const literal = text.slice(require.bodyStart, require.bodyStart + require.bodyLength);
    const spec = require.keyword === 'require_relative' && !/^[./]/.test(literal) ? `./${literal}` : literal;
    out.push({ line: lineAtOffset(text, require.index), spec, alias: null });
  }
  const defs: { name: string; kind: string }[] = [];
  for (const match of masked.matchAll(/^(class|module)[ \t]+(?:::)?([A-Z]\w*(?:::[A-Z]\w*)*)/gm)) {
    defs.push({ name: (match[2] as string).split('::').join('.'), kind: match[1] === 'class' ? 'class' : 'namespace' });
  }
  for (const match of masked.matchAll(/^def[ \t]+([a-z_]\w*[?!=]?)/gm)) defs.push({ name: match[1] as string, kind: 'function' });
  return { imports: out, defs, pkg: null };
}

/** The Ruby language of the family (adapter id `ruby`, extension `.rb`). */
export const RUBY_SPEC: LanguageSpec = {
  id: 'ruby',
  display: 'Ruby',
  grammar: 'tree-sitter-ruby.wasm',
  extensions: ['.rb'],
  keywords: KEYWORDS,
  interesting: set('class', 'module', 'method', 'singleton_method', 'call', 'super'),
  isTestPath: (path) => /(^|\/)(test|spec)s?\//.test(path) || /_(test|spec)\.rb$/.test(path) || /(^|\/)test_[^/]*\.rb$/.test(path),
  conventionTested: (path) => {
    const stem = path.replace(/_(test|spec)\.rb$/, '.rb').replace(/(^|\/)test_([^/]*\.rb)$/, '$1$2');
    return stem === path ? [] : [stem, stem.replace(/^(test|spec)\//, 'lib/')];
  },
  isComment,
  moduleFacts: () => ({ pkg: null, doc: '' }),
  moduleEntrypoint: (path) => /(^|\/)(bin|exe)\/[^/]+$/.test(path),
  definition,
  imports,
  callee,
  binds,
  bases,
  logic: LOGIC,
  lexical,
  plainSelfAtTop: true,
  staticCalls: 'side',
  mixins: true,
  reopenAcrossFiles: true,
  pathKinds: set('namespace'),
  lexicalNesting: true,
  resolver: rubyResolver,
};
