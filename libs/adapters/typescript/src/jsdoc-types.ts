/**
 * Declared types from JSDoc in JavaScript files (new-user trial 48 F5, commander: 17 calls of
 * `option.attributeName()` through `@param {Option} option`). A JSDoc `@param {T} name` on a
 * function, method or its statement, and a `@type {T}` on a `const`/`let` statement of one
 * declaration, count as the type annotation TypeScript would read there, with the same
 * resolution afterwards (the linker resolves T through the file's imports, requires and
 * declarations; a name it cannot resolve types nothing).
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
