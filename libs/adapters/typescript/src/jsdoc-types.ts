/**
 * Declared types from JSDoc in JavaScript files (new-user trial 48 F5, commander: 17 calls of
 * `option.attributeName()` through `@param {Option} option`). A JSDoc `@param {T} name` on a
 * function, method or its statement, a `@return {T}` / `@returns {T}` on a function or method,
 * and a `@type {T}` on a `const`/`let` statement of one declaration, count as the type annotation
 * TypeScript would read there, with the same resolution afterwards (the linker resolves T through
 * the file's imports, requires and declarations; a name it cannot resolve types nothing). The
 * file's `@typedef {T} Alias` and `@typedef {import('./m').T} Alias` name T under the alias
 * ({@link jsDocTypedefs}; the linker follows them).
 *
 * Only a bare name or dotted name is a declared type here (`Option`, `ns.Option`). Everything
 * else is refused, so it types nothing: unions (`A|B`, `?A`, `!A`), generics (`Array<A>`, `A[]`),
 * `*`, `?`, optional markers (`A=`), rest (`...A`), `import('./m').A`, record and function types,
 * and the untyped globals `Object` and `Function` (`object`, `function` and the other primitives
 * name no class). The JSDoc block is the nearest `/**` comment before the node, as the doc
 * summary reads it (no JSDoc parse: the parser runs with `JSDocParsingMode.ParseNone`).
 */
import './prime.js';
import ts from './compiler-api.js';
import type { TsTypedef } from '@docforge/ts-link-model';

const NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;
/** Global names that type no project class even when written as a bare name. */
const UNTYPED = new Set(['Object', 'Function', 'object', 'function', 'any', 'unknown']);

/** The lines of the nearest JSDoc block before a node, `*` prefixes removed; [] when none. */
function jsDocLines(sf: ts.SourceFile, node: ts.Node): string[] {
  const ranges = ts.getLeadingCommentRanges(sf.text, node.pos);
  if (!ranges) return [];
  const range = ranges[ranges.length - 1]!;
  const text = sf.text.slice(range.pos, range.end);
  if (range.kind !== ts.SyntaxKind.MultiLineCommentTrivia || !text.startsWith('/**') || text.startsWith('/**/')) return [];
  return text.slice(3, -2).split('\n').map((line) => line.replace(/^\s*\*?\s?/, '').trim());
}

/** The declared type a JSDoc type expression (the text between the braces) names, or null. */
export function jsDocTypeName(expr: string): string | null {
  const t = expr.trim();
  if (!NAME.test(t) || UNTYPED.has(t)) return null;
  return t;
}

/**
 * Parameter name → declared type from the `@param {T} name` tags (`[name]`, `[name=x]` too) of
 * the JSDoc block before `docNode`. A name tagged twice with different types maps to null.
 */
export function jsDocParamTypes(sf: ts.SourceFile, docNode: ts.Node): Map<string, string | null> {
  const types = new Map<string, string | null>();
  for (const line of jsDocLines(sf, docNode)) {
    const m = /^@(?:param|arg|argument)\s+\{([^{}]*)\}\s*(?:\[\s*)?([A-Za-z_$][\w$]*)(\s*[\]=]|\s|$)/.exec(line);
    if (m === null) continue;
    const type = jsDocTypeName(m[1]!);
    const name = m[2]!;
    types.set(name, types.has(name) && types.get(name) !== type ? null : type);
  }
  return types;
}

/**
 * The declared type of the one `@type {T}` tag of the JSDoc block before `docNode`, when it is a
 * `const` or `let` statement of one declaration; null otherwise.
 */
export function jsDocVariableType(sf: ts.SourceFile, docNode: ts.Node): string | null {
  if (!ts.isVariableStatement(docNode) || docNode.declarationList.declarations.length !== 1) return null;
  if ((docNode.declarationList.flags & (ts.NodeFlags.Const | ts.NodeFlags.Let)) === 0) return null;
  const tags = jsDocLines(sf, docNode).filter((line) => line.startsWith('@type'));
  if (tags.length !== 1) return null;
  const m = /^@type\s+\{([^{}]*)\}\s*$/.exec(tags[0]!);
  return m === null ? null : jsDocTypeName(m[1]!);
}

/**
 * The declared return type of the one `@return {T}` / `@returns {T}` tag of the JSDoc block before
 * `docNode`, or null (no tag, two tags, or a refused type). T is read as {@link jsDocTypeName}
 * reads it, except that `T|undefined` and `T|null` (any order, both at most once) name T, as
 * TypeScript's annotation rule does (syntax.ts `typeRefText`): a member call on the result either
 * throws or reaches T (commander's `_findCommand`, `@return {Command | undefined}`). `?T` stays
 * refused, as in `@param`.
 */
export function jsDocReturnType(sf: ts.SourceFile, docNode: ts.Node): string | null {
  const tags = jsDocLines(sf, docNode).filter((line) => /^@returns?(?:\s|\{|$)/.test(line));
  if (tags.length !== 1) return null;
  const m = /^@returns?\s*\{([^{}]*)\}/.exec(tags[0]!);
  if (m === null) return null;
  const parts = m[1]!.split('|').map((part) => part.trim());
  const named = parts.filter((part) => part !== 'undefined' && part !== 'null');
  if (named.length !== 1 || new Set(parts).size !== parts.length) return null;
  return jsDocTypeName(named[0]!);
}

/**
 * The `@typedef {X} Alias` tags of the JSDoc blocks in a JavaScript file's top-level comments
 * (before each top-level statement and at its end), by alias: `{ type: T }` when X is a name
 * {@link jsDocTypeName} accepts, `{ type: T, specifier: s }` when X is `import('s').T` (one
 * exported name), null for any other X (`Object` with `@property` tags, a whole module
 * `import('s')`, which TypeScript reads as the module's type, not an instance; unions, records) or
 * an alias defined twice differently. The linker resolves the alias to what T resolves to.
 */
export function jsDocTypedefs(sf: ts.SourceFile): { typedefs?: Record<string, TsTypedef | null> } {
  if (!sf.text.includes('@typedef')) return {};
  const typedefs: Record<string, TsTypedef | null> = {};
  const seen = new Set<string>();
  for (const node of [...sf.statements, sf.endOfFileToken]) {
    for (const range of ts.getLeadingCommentRanges(sf.text, node.pos) ?? []) {
      const text = sf.text.slice(range.pos, range.end);
      if (range.kind !== ts.SyntaxKind.MultiLineCommentTrivia || !text.startsWith('/**') || !text.includes('@typedef')) continue;
      for (const raw of text.slice(3, -2).split('\n')) {
        const m = /^@typedef\s+\{([^{}]*)\}\s+([A-Za-z_$][\w$]*)\s*$/.exec(raw.replace(/^\s*\*?\s?/, '').trim());
        if (m === null) continue;
        const imported = /^import\(['"]([^'"]+)['"]\)\.([A-Za-z_$][\w$]*)$/.exec(m[1]!.replace(/\s+/g, ''));
        const name = imported === null ? jsDocTypeName(m[1]!) : null;
        const def: TsTypedef | null = imported !== null ? { type: imported[2]!, specifier: imported[1]! } : name === null ? null : { type: name };
        const alias = m[2]!;
        if (alias === '__proto__') continue;
        const same = seen.has(alias) && JSON.stringify(typedefs[alias]) === JSON.stringify(def);
        typedefs[alias] = seen.has(alias) && !same ? null : def;
        seen.add(alias);
      }
    }
  }
  return seen.size > 0 ? { typedefs } : {};
}
