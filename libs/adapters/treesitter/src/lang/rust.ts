/**
 * Rust for the tree-sitter family (grammar tree-sitter-rust from @vscode/tree-sitter-wasm):
 * functions, methods of `impl` blocks and traits (qualified by the impl type, `Bytes.new`), structs,
 * enums, traits, type aliases and inline modules (kind `namespace`); exported = `pub`; tests by
 * `#[test]`, `#[cfg(test)]` modules and the `tests/`/`benches/` folders; entry point `fn main` of
 * `main.rs` or `src/bin/`. `use`/`mod` resolve within the crate and Cargo workspaces (rust-resolve.ts).
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import type { TreeImport } from '../link-data.js';
import { rustDeclarations, rustUseLines } from '@docforge/core';
import { lineAtOffset, maskSource } from '../lexical.js';
import type { DefinitionMatch, LanguageSpec, LogicSpec, ScopeMatch } from '../spec.js';
import { cleanComment, collapse, identifiersUnder, named } from '../tree.js';
import { rustApi, rustResolver } from '@docforge/module-resolution';

const KEYWORDS = new Set([
  'as', 'async', 'await', 'break', 'const', 'continue', 'crate', 'dyn', 'else', 'enum', 'extern', 'false', 'fn', 'for', 'if', 'impl', 'in',
  'let', 'loop', 'match', 'mod', 'move', 'mut', 'pub', 'ref', 'return', 'self', 'Self', 'static', 'struct', 'super', 'trait', 'true',
  'type', 'unsafe', 'use', 'where', 'while',
]);

const IDENT = new Set(['identifier']);
const DEFINITIONS = new Set(['function_item', 'struct_item', 'enum_item', 'union_item', 'trait_item', 'type_item', 'mod_item']);
const THROW_MACROS = new Set(['panic', 'unreachable', 'todo', 'unimplemented']);

const isComment = (type: string): boolean => type === 'line_comment' || type === 'block_comment';

/** The `#[...]` attribute texts directly above a node. */
function attributes(node: SyntaxNode): string[] {
  const out: string[] = [];
  for (let sibling = node.previousSibling; sibling !== null; sibling = sibling.previousSibling) {
    if (sibling.type === 'attribute_item') out.push(collapse(sibling.text));
    else if (!isComment(sibling.type)) break;
  }
  return out;
}

function isPub(node: SyntaxNode): boolean {
  return named(node).some((child) => child.type === 'visibility_modifier' && child.text === 'pub');
}

/** The name of a type node (`Foo`, `Foo<T>`, `a::Foo`, `&Foo`), or null. */
function typeName(node: SyntaxNode | null): string | null {
  if (node === null) return null;
  if (node.type === 'type_identifier') return node.text;
  if (node.type === 'generic_type') return typeName(node.childForFieldName('type'));
  if (node.type === 'scoped_type_identifier') return node.childForFieldName('name')?.text ?? null;
  return null;
}

/** The path of a type node as segments (`a::Foo<T>` → `['a', 'Foo']`), or null. */
function typePath(node: SyntaxNode | null): string[] | null {
  if (node === null) return null;
  if (node.type === 'type_identifier') return [node.text];
  if (node.type === 'generic_type') return typePath(node.childForFieldName('type'));
  if (node.type === 'scoped_type_identifier') {
    const head = node.childForFieldName('path');
    const name = node.childForFieldName('name')?.text;
    const rest = head === null ? [] : pathOf(head);
    return name === undefined || rest === null ? null : [...rest, name];
  }
  return null;
}

/** Segments of a plain path expression (`a::b::c`, `crate::x`, `Self::f`), or null. */
function pathOf(node: SyntaxNode): string[] | null {
  if (/^(identifier|crate|self|super|type_identifier)$/.test(node.type)) return [node.text];
  if (node.type === 'scoped_identifier') {
    const head = node.childForFieldName('path');
    const name = node.childForFieldName('name');
    if (name === null) return null;
    const rest = head === null ? [] : pathOf(head);
    return rest === null ? null : [...rest, name.text];
  }
  return null;
}

function signature(node: SyntaxNode): string {
  const body = node.childForFieldName('body');
  return collapse(body === null ? node.text : node.text.slice(0, body.startIndex - node.startIndex));
}

function definition(node: SyntaxNode, parent: { kind: string; inType: boolean; testFile: boolean; path: string }): DefinitionMatch | null {
  if (!DEFINITIONS.has(node.type)) return null;
  const name = node.childForFieldName('name')?.text;
  if (name === undefined) return null;
  const attrs = attributes(node);
  const exported = isPub(node);
  if (node.type === 'function_item') {
    const capabilities: string[] = [];
    if (attrs.some((a) => /^#\[(tokio::|async_std::)?test\b/.test(a)) || attrs.some((a) => a === '#[bench]')) capabilities.push('test');
    const modifiers = named(node).find((c) => c.type === 'function_modifiers')?.text ?? '';
    if (/\basync\b/.test(modifiers)) capabilities.push('async');
    if (name === 'main' && parent.kind === 'module' && !parent.inType && /(^|\/)(main\.rs|src\/bin\/[^/]+\.rs)$/.test(parent.path)) capabilities.push('entrypoint');
    const params = new Set<string>();
    for (const param of named(node.childForFieldName('parameters') ?? node).filter((c) => c.type === 'parameter')) identifiersUnder(param.childForFieldName('pattern'), IDENT, params);
    const hasSelf = named(node.childForFieldName('parameters') ?? node).some((c) => c.type === 'self_parameter');
    return {
      kind: parent.inType ? 'method' : 'function', name, signature: signature(node), capabilities, exported,
      body: node.childForFieldName('body'), receiver: hasSelf ? 'self' : null, params: [...params],
    };
  }
  const kinds: Record<string, string> = { struct_item: 'struct', union_item: 'struct', enum_item: 'enum', trait_item: 'trait', type_item: 'type', mod_item: 'namespace' };
  if (node.type === 'mod_item' && node.childForFieldName('body') === null) return null;
  const capabilities = node.type === 'mod_item' && attrs.includes('#[cfg(test)]') ? ['test'] : [];
  return { kind: kinds[node.type] ?? 'type', name, signature: signature(node), capabilities, exported, body: null, receiver: null, params: [] };
}

function scope(node: SyntaxNode): ScopeMatch | null {
  if (node.type !== 'impl_item') return null;
  const type = typeName(node.childForFieldName('type'));
  if (type === null) return null;
  return { qualifier: type, implements: typePath(node.childForFieldName('trait')) };
}

/**
 * Flattens the text of a use tree (`crate::a::{b, c::{self, D as E}, *}`) into one record per
 * imported path: spec `crate::a::b`, `crate::a::c`, `crate::a::c::D` (alias `E`), `crate::a::*`.
 */
export function flattenUse(text: string, line: number): TreeImport[] {
  const out: TreeImport[] = [];
  // `as` becomes `@` before whitespace goes, so `D as E` stays two names.
  const clean = text.replace(/(?<!\s)\s+as\s+/g, '@').replace(/\s+/g, '');
  const walk = (prefix: string, tree: string): void => {
    const brace = tree.indexOf('{');
    if (brace < 0) {
      const [path, alias] = tree.split('@');
      const full = path === 'self' ? prefix.replace(/::$/, '') : `${prefix}${path ?? ''}`;
      if (full !== '' && full !== '::') out.push({ line, spec: full, alias: alias ?? null });
      return;
    }
    const head = prefix + tree.slice(0, brace);
    const inner = tree.slice(brace + 1, tree.lastIndexOf('}'));
    let depth = 0;
    let start = 0;
    for (let i = 0; i <= inner.length; i += 1) {
      const ch = inner[i];
      if (ch === '{') depth += 1;
      else if (ch === '}') depth -= 1;
      else if ((ch === ',' && depth === 0) || i === inner.length) {
        const part = inner.slice(start, i);
        if (part !== '') walk(head, part);
        start = i + 1;
      }
    }
  };
  walk('', clean.replace(/^::/, ''));
  return out;
}

function imports(node: SyntaxNode): TreeImport[] | null {
  const line = node.startPosition.row + 1;
  if (node.type === 'mod_item') {
    const name = node.childForFieldName('name')?.text;
    return node.childForFieldName('body') === null && name !== undefined ? [{ line, spec: `mod ${name}`, alias: null }] : null;
  }
  if (node.type !== 'use_declaration') return null;
  const argument = node.childForFieldName('argument');
  return argument === null ? [] : flattenUse(argument.text, line);
}

function callee(node: SyntaxNode): string[] | null | undefined {
  if (node.type !== 'call_expression') return undefined;
  const fn = node.childForFieldName('function');
  if (fn === null) return null;
  if (fn.type === 'field_expression') {
    const value = fn.childForFieldName('value');
    const field = fn.childForFieldName('field');
    return value?.type === 'self' && field !== null ? ['<self>', field.text] : null;
  }
  const path = pathOf(fn);
  if (path === null) return null;
  if (path[0] === 'Self') return path.length === 2 ? ['<self>', path[1] as string] : null;
  return path;
}

function binds(node: SyntaxNode): string[] {
  const out = new Set<string>();
  if (node.type === 'let_declaration' || node.type === 'for_expression' || node.type === 'let_condition' || node.type === 'match_arm') {
    identifiersUnder(node.childForFieldName('pattern'), IDENT, out);
  } else if (node.type === 'closure_expression') {
    identifiersUnder(node.childForFieldName('parameters'), IDENT, out);
  }
  return [...out];
}

const set = (...types: string[]): ReadonlySet<string> => new Set(types);

const LOGIC: LogicSpec = {
  blocks: set('block'),
  ifs: set('if_expression'),
  elses: set('else_clause'),
  loops: set('for_expression', 'while_expression', 'loop_expression'),
  switches: set('match_expression'),
  cases: set('match_arm'),
  returns: set('return_expression'),
  throws: set(),
  breaks: set('break_expression'),
  continues: set('continue_expression'),
  wrappers: set('expression_statement'),
  tries: set(),
  catches: set(),
  finallys: set(),
  isThrowCall: (node) => node.type === 'macro_invocation' && THROW_MACROS.has(node.childForFieldName('macro')?.text ?? ''),
  caseBody: (node) => {
    const value = node.childForFieldName('value');
    return value === null ? [] : [value];
  },
  isDefault: (node) => node.childForFieldName('pattern')?.text === '_',
  fallthrough: false,
};


/** Lexical Rust: `use` trees and `mod x;` declarations at column 0 (indented ones may sit in an inline module, whose scope a scanner cannot prove), top-level item names. */
function lexical(text: string): { imports: TreeImport[]; defs: { name: string; kind: string }[]; pkg: string | null } {
  const masked = maskSource(text, { line: ['//'], block: true, nestedBlock: true, quotes: ['"'] });
  const out: TreeImport[] = [];
  for (const found of rustUseLines(masked)) {
    const line = lineAtOffset(text, found.index);
    if ('mod' in found) out.push({ line, spec: `mod ${found.mod}`, alias: null });
    else out.push(...flattenUse(found.use, line));
  }
  const defs: { name: string; kind: string }[] = [];
  const kinds: Record<string, string> = { fn: 'function', struct: 'struct', enum: 'enum', trait: 'trait', type: 'type', union: 'struct' };
  for (const decl of rustDeclarations(masked)) defs.push({ name: decl.name, kind: kinds[decl.keyword] ?? 'type' });
  return { imports: out, defs, pkg: null };
}

/** Rust module docs: the leading inner doc comments (`//!`, block `/*!`). */
function moduleDoc(root: SyntaxNode): string {
  const texts: string[] = [];
  for (const child of named(root)) {
    if (!isComment(child.type)) break;
    if (/^\/\/!|^\/\*!/.test(child.text)) texts.push(child.text.replace(/^\/\/!/, '//'));
  }
  return cleanComment(texts);
}

/** The Rust language of the family (adapter id `rust`, extension `.rs`). */
export const RUST_SPEC: LanguageSpec = {
  id: 'rust',
  display: 'Rust',
  grammar: 'tree-sitter-rust.wasm',
  extensions: ['.rs'],
  keywords: KEYWORDS,
  interesting: set(...DEFINITIONS, 'impl_item', 'use_declaration', 'call_expression', 'let_declaration', 'for_expression', 'let_condition', 'match_arm', 'closure_expression'),
  isTestPath: (path) => /(^|\/)(tests|benches)\//.test(path),
  isComment,
  skipBeforeDoc: (type) => type === 'attribute_item',
  moduleFacts: (root) => ({ pkg: null, doc: moduleDoc(root) }),
  moduleEntrypoint: (path, _pkg, names) => names.has('main') && /(^|\/)(main\.rs|src\/bin\/[^/]+\.rs)$/.test(path),
  definition,
  scope,
  imports,
  callee,
  binds,
  logic: LOGIC,
  lexical,
  resolver: rustResolver,
  api: rustApi,
};
