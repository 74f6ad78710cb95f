/**
 * PHP for the tree-sitter family (grammar tree-sitter-php from @vscode/tree-sitter-wasm; its
 * `php` language, HTML around `<?php` tags kept as text): classes, interfaces, traits and enums
 * (named without their namespace, as C# types are: `Logger`, `Logger.addRecord`), methods (`static`
 * ones with the capability `static`), and namespace functions. Exported: types, functions and
 * methods without `private`/`protected`. Tests: files under `test(s)/` or `*Test.php`, and `test*`
 * methods in them. Imports: `use` through PSR-4 in composer.json (php-resolve.ts).
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';
import type { TreeImport } from '../link-data.js';
import { lineAtOffset, maskSource } from '../lexical.js';
import type { DefinitionMatch, LanguageSpec, LogicSpec } from '../spec.js';
import { collapse, named } from '../tree.js';
import { phpApi, phpResolver } from '@docforge/module-resolution';
import { modifierDeclarations, phpUseLines, type DeclarationWords } from '@docforge/core';

const KEYWORDS = new Set([
  'abstract', 'and', 'array', 'as', 'break', 'callable', 'case', 'catch', 'class', 'clone', 'const', 'continue', 'declare', 'default', 'do',
  'echo', 'else', 'elseif', 'empty', 'enum', 'extends', 'false', 'final', 'finally', 'fn', 'for', 'foreach', 'function', 'global', 'if',
  'implements', 'include', 'instanceof', 'insteadof', 'interface', 'isset', 'list', 'match', 'namespace', 'new', 'null', 'or', 'print',
  'private', 'protected', 'public', 'readonly', 'require', 'return', 'static', 'switch', 'this', 'throw', 'trait', 'true', 'try', 'unset',
  'use', 'var', 'while', 'xor', 'yield', 'self', 'parent', 'int', 'string', 'bool', 'float', 'void', 'mixed',
]);

const TYPE_DECLS: Record<string, string> = {
  class_declaration: 'class', interface_declaration: 'interface', trait_declaration: 'trait', enum_declaration: 'enum',
};

const isComment = (type: string): boolean => type === 'comment';

function signature(node: SyntaxNode): string {
  const body = node.childForFieldName('body');
  const text = body === null ? node.text : node.text.slice(0, body.startIndex - node.startIndex);
  return collapse(text.replace(/^\s*(#\[[^\]]*\]\s*)+/, '')).replace(/;$/, '');
}

/** A type name as a callee or base path: `Name` → `['Name']`; a fully qualified `\A\B\C` → `['\A\B\C', 'C']` (resolved by PSR-4); others null. */
function typePath(node: SyntaxNode): string[] | null {
  if (node.type === 'name') return [node.text];
  if (node.type !== 'qualified_name') return null;
  const text = node.text.replace(/\s+/g, '');
  if (!text.startsWith('\\')) return null;
  // Fully qualified, even with one segment: `\DateTimeImmutable` is the global class, never a class
  // of the file's own namespace that happens to share the name (Monolog\DateTimeImmutable extends it).
  const last = text.slice(text.lastIndexOf('\\') + 1);
  return [text, last];
}

type Base = { path: string[]; relation: 'inherits' | 'implements'; line: number; mixin?: 'include' };

/**
 * `extends` (inherits), `implements` (implements) and the trait `use` declarations of the body (implements, mixin
 * `include`). A `use` with an `insteadof`/`as` block renames or picks methods, which the linker does not follow: it adds
 * the base `<conflict>`, which resolves to nothing and so stops receiver calls at the class's traits.
 */
function bases(node: SyntaxNode): Base[] {
  if (TYPE_DECLS[node.type] === undefined) return [];
  const out: Base[] = [];
  for (const clause of named(node)) {
    const relation = clause.type === 'base_clause' ? 'inherits' : clause.type === 'class_interface_clause' ? 'implements' : null;
    if (relation === null) continue;
    for (const type of named(clause)) {
      const path = typePath(type);
      if (path !== null) out.push({ path, relation, line: type.startPosition.row + 1 });
    }
  }
  for (const use of named(node.childForFieldName('body') ?? node)) {
    if (use.type !== 'use_declaration') continue;
    for (const type of named(use)) {
      const path = type.type === 'use_list' ? ['<conflict>'] : typePath(type);
      if (path !== null) out.push({ path, relation: 'implements', line: type.startPosition.row + 1, mixin: 'include' });
    }
  }
  return out;
}

function definition(node: SyntaxNode, parent: { kind: string; qname: string; testFile: boolean }): DefinitionMatch | null {
  const name = node.childForFieldName('name')?.text;
  if (name === undefined) return null;
  const kind = TYPE_DECLS[node.type];
  if (kind !== undefined) return { kind, name, signature: signature(node), capabilities: [], exported: true, body: null, receiver: null, params: [] };
  const isMethod = node.type === 'method_declaration' && parent.qname !== '';
  if (!isMethod && (node.type !== 'function_definition' || parent.qname !== '')) return null;
  const modifiers = named(node).filter((c) => /_modifier$/.test(c.type)).map((c) => c.text).join(' ');
  const capabilities: string[] = [];
  if (/\bstatic\b/.test(modifiers)) capabilities.push('static');
  if (parent.testFile && /^test/.test(name)) capabilities.push('test');
  return {
    kind: isMethod ? 'method' : 'function', name, signature: signature(node), capabilities, exported: !/\b(private|protected)\b/.test(modifiers),
    body: node.childForFieldName('body'), receiver: null, params: [],
  };
}

/** `use A\B\C;`, `use A\B\C as D;`, `use A\{B, C as D};` and `use function A\f;` (static); `use const` binds no file. */
function imports(node: SyntaxNode): TreeImport[] | null {
  if (node.type !== 'namespace_use_declaration') return null;
  const kind = node.children.find((c) => c?.type === 'function' || c?.type === 'const')?.type;
  if (kind === 'const') return [];
  const line = node.startPosition.row + 1;
  const group = node.childForFieldName('body');
  const prefix = group === null ? '' : `${named(node).find((c) => c.type === 'namespace_name')?.text.replace(/\s+/g, '') ?? ''}\\`;
  const out: TreeImport[] = [];
  for (const clause of named(group ?? node).filter((c) => c.type === 'namespace_use_clause')) {
    const target = named(clause).find((c) => c.type === 'qualified_name' || c.type === 'name');
    if (target === undefined) continue;
    const spec = `${prefix}${target.text.replace(/\s+/g, '')}`.replace(/^\\/, '');
    out.push({ line, spec, alias: clause.childForFieldName('alias')?.text ?? null, ...(kind === 'function' ? { static: true } : {}) });
  }
  return out;
}

/**
 * Whether `node` lies in a named function declared inside a method (or another function) before any
 * method or class encloses it: such a function is global in PHP, so `$this`, `self::` and `parent::`
 * name nothing there (a closure, by contrast, keeps its class scope).
 */
function inNestedFunction(node: SyntaxNode): boolean {
  for (let at = node.parent; at !== null; at = at.parent) {
    if (at.type === 'function_definition') return true;
    if (at.type === 'method_declaration' || at.type === 'class_declaration' || at.type === 'trait_declaration') return false;
  }
  return false;
}

/** `$this->m()`, `self::m()`, `static::m()` name the enclosing type, `parent::m()` its superclass (`<parent>`); `Name::m()` and `\A\B::m()` a type; `f()` a function; others none. */
function callee(node: SyntaxNode): string[] | null | undefined {
  if (node.type === 'function_call_expression') {
    const fn = node.childForFieldName('function');
    return fn?.type === 'name' ? [fn.text] : null;
  }
  const name = node.childForFieldName('name');
  if (node.type === 'member_call_expression') {
    const object = node.childForFieldName('object');
    return object?.type === 'variable_name' && object.text === '$this' && name?.type === 'name' && !inNestedFunction(node) ? ['<self>', name.text] : null;
  }
  if (node.type !== 'scoped_call_expression') return undefined;
  const scope = node.childForFieldName('scope');
  if (scope === null || name === null || name.type !== 'name') return null;
  if (scope.type === 'relative_scope') return inNestedFunction(node) ? null : [scope.text === 'parent' ? '<parent>' : '<self>', name.text];
  const path = typePath(scope);
  return path === null ? null : [...path, name.text];
}

/** PHP path heads are names, never `$variables`: no locals are tracked. */
function binds(): string[] {
  return [];
}

/** The branch after an `if` or `elseif`: its first `elseif`/`else` clause, or the clause after an `elseif` in its `if`. */
function ifParts(node: SyntaxNode): { condition: SyntaxNode | null; consequence: SyntaxNode | null; alternative: SyntaxNode | null } {
  const isClause = (c: SyntaxNode | null): boolean => c !== null && (c.type === 'else_if_clause' || c.type === 'else_clause');
  let alternative: SyntaxNode | null = null;
  if (node.type === 'if_statement') alternative = named(node).find(isClause) ?? null;
  else for (let next = node.nextNamedSibling; next !== null && alternative === null; next = next.nextNamedSibling) if (isClause(next)) alternative = next;
  return { condition: node.childForFieldName('condition'), consequence: node.childForFieldName('body'), alternative };
}

const set = (...types: string[]): ReadonlySet<string> => new Set(types);

const LOGIC: LogicSpec = {
  blocks: set('compound_statement', 'colon_block'),
  ifs: set('if_statement', 'else_if_clause'),
  elses: set('else_clause'),
  loops: set('for_statement', 'foreach_statement', 'while_statement', 'do_statement'),
  switches: set('switch_statement'),
  cases: set('case_statement', 'default_statement'),
  returns: set('return_statement'),
  throws: set('throw_expression'),
  breaks: set('break_statement'),
  continues: set('continue_statement'),
  wrappers: set('expression_statement'),
  tries: set('try_statement'),
  catches: set('catch_clause'),
  finallys: set('finally_clause'),
  isThrowCall: () => false,
  caseBody: (node) => {
    const value = node.childForFieldName('value');
    return named(node).filter((c) => !isComment(c.type) && (value === null || c.startIndex !== value.startIndex));
  },
  isDefault: (node) => node.type === 'default_statement',
  fallthrough: true,
  ifParts,
};

/** Lexical PHP: the `namespace`, top-level `use` declarations (one per line start), top-level type and function names. */
function lexical(text: string): { imports: TreeImport[]; defs: { name: string; kind: string }[]; pkg: string | null } {
  const masked = maskSource(text, { line: ['//', '#'], block: true, quotes: ['"', "'"] });
  const pkg = /^[^\S\n\r\u2028\u2029]*namespace\s+([\w\\]+)\s*[;{]/m.exec(masked)?.[1] ?? null;
  const out: TreeImport[] = [];
  for (const use of phpUseLines(masked)) {
    if (use.kind?.trim() === 'const') continue;
    const line = lineAtOffset(text, use.index);
    const extra = use.kind === undefined ? {} : { static: true };
    const items = use.group === undefined ? [{ spec: use.name, alias: use.alias ?? null }] : use.group.split(',').map((item) => {
      const [spec, alias] = item.trim().split(/(?<!\s)\s+as\s+/);
      return { spec: `${use.name}\\${(spec ?? '').trim()}`, alias: alias?.trim() ?? null };
    });
    for (const item of items) if (!item.spec.endsWith('\\')) out.push({ line, spec: item.spec, alias: item.alias, ...extra });
  }
  const defs: { name: string; kind: string }[] = [];
  for (const match of modifierDeclarations(masked, PHP_DECLARATIONS)) defs.push({ name: match.name, kind: match.keyword });
  for (const match of masked.matchAll(/^function\s+(?:&\s*)?(\w+)/gm)) defs.push({ name: match[1] as string, kind: 'function' });
  return { imports: out, defs, pkg };
}

/** Type declarations a lexical read finds at a line start: `final class X` and the like (modifiers and keywords are disjoint). */
const PHP_DECLARATIONS: DeclarationWords = { lead: 0, modifiers: ['abstract', 'final', 'readonly'], keywords: ['class', 'interface', 'trait', 'enum'] };

/** The PHP language of the family (adapter id `php`, extension `.php`). */
export const PHP_SPEC: LanguageSpec = {
  id: 'php',
  display: 'PHP',
  grammar: 'tree-sitter-php.wasm',
  extensions: ['.php'],
  keywords: KEYWORDS,
  interesting: set(...Object.keys(TYPE_DECLS), 'method_declaration', 'function_definition', 'namespace_use_declaration', 'function_call_expression',
    'member_call_expression', 'scoped_call_expression'),
  isTestPath: (path) => /(^|\/)tests?\//i.test(path) || /Test\.php$/.test(path),
  isComment,
  skipBeforeDoc: (type) => type === 'attribute_list',
  moduleFacts(root) {
    const ns = named(root).find((c) => c.type === 'namespace_definition');
    return { pkg: ns?.childForFieldName('name')?.text.replace(/\s+/g, '') ?? null, doc: '' };
  },
  moduleEntrypoint: () => false,
  definition,
  imports,
  callee,
  binds,
  bases,
  logic: LOGIC,
  lexical,
  staticCalls: 'named',
  mixins: true,
  resolver: phpResolver,
  api: phpApi,
};
