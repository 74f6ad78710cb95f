import './prime.js';
import ts from './compiler-api.js';

/** Maximum label length for Logic steps (model.ts). */
export const MAX_LABEL = 120;

/** 1-based line of a character position. */
export function lineAt(sf: ts.SourceFile, pos: number): number {
  return sf.getLineAndCharacterOfPosition(pos).line + 1;
}

/** 1-based first and last line of a node (leading trivia and JSDoc excluded). */
export function nodeLines(sf: ts.SourceFile, node: ts.Node): [number, number] {
  const start = lineAt(sf, node.getStart(sf));
  const end = lineAt(sf, Math.max(node.getStart(sf), node.end));
  return [start, end];
}

/** Collapses whitespace to single spaces and truncates to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number = MAX_LABEL): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Source text of a node, collapsed to one line. */
export function nodeText(sf: ts.SourceFile, node: ts.Node, max: number = MAX_LABEL): string {
  return oneLine(sf.text.slice(node.getStart(sf), node.end), max);
}

/** Source text from a node's start to a position (e.g. a loop header up to its body). */
export function headText(sf: ts.SourceFile, node: ts.Node, until: number, max: number = MAX_LABEL): string {
  return oneLine(sf.text.slice(node.getStart(sf), until), max);
}

/** Strips parentheses, type assertions, `satisfies` and non-null assertions around an expression. */
export function unwrap(expr: ts.Expression): ts.Expression {
  let current = expr;
  for (;;) {
    if (ts.isParenthesizedExpression(current) || ts.isAsExpression(current) || ts.isNonNullExpression(current)
      || ts.isSatisfiesExpression(current) || ts.isTypeAssertionExpression(current)) {
      current = current.expression;
    } else {
      return current;
    }
  }
}

/** Text of a property name (identifier, string or numeric literal, private or computed). */
export function propertyNameText(sf: ts.SourceFile, name: ts.PropertyName): string {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)
    || ts.isNoSubstitutionTemplateLiteral(name)) {
    return name.text;
  }
  if (ts.isComputedPropertyName(name)) {
    // The key's source text (issue 31 item 5); the id escapes it (`encodeMemberName`), titles keep it.
    return `[${oneLine(sf.text.slice(name.expression.getStart(sf), name.expression.end), 60)}]`;
  }
  return name.text;
}

/** Dotted identifier chain text (`a`, `a.b.c`), or null for any other expression. */
export function dottedName(expr: ts.Expression): string | null {
  const e = unwrap(expr);
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.name)) {
    const left = dottedName(e.expression);
    return left === null ? null : `${left}.${e.name.text}`;
  }
  return null;
}

/** The string of a string literal or no-substitution template, else null. */
export function literalText(expr: ts.Expression | undefined): string | null {
  if (expr === undefined) return null;
  const e = unwrap(expr);
  return ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e) ? e.text : null;
}

/** The specifier of `require('x')`, else null. */
export function requireSpecifier(expr: ts.Expression | undefined): string | null {
  if (expr === undefined) return null;
  const e = unwrap(expr);
  if (ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === 'require' && e.arguments.length >= 1) {
    return literalText(e.arguments[0]);
  }
  return null;
}

/** The specifier of `import('x')` or `await import('x')`, else null. */
export function dynamicImportSpecifier(expr: ts.Expression | undefined): string | null {
  if (expr === undefined) return null;
  let e = unwrap(expr);
  if (ts.isAwaitExpression(e)) e = unwrap(e.expression);
  if (ts.isCallExpression(e) && e.expression.kind === ts.SyntaxKind.ImportKeyword && e.arguments.length >= 1) {
    return literalText(e.arguments[0]);
  }
  return null;
}

/** Every identifier bound by a binding name (identifier or destructuring pattern). */
export function boundNames(name: ts.BindingName, out: string[] = []): string[] {
  if (ts.isIdentifier(name)) {
    out.push(name.text);
  } else {
    for (const element of name.elements) {
      if (ts.isBindingElement(element)) boundNames(element.name, out);
    }
  }
  return out;
}

/** Whether a node carries a given modifier keyword. */
export function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  const modifiers = ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined;
  return modifiers?.some((m) => m.kind === kind) ?? false;
}

/**
 * Text of the `/** ... *\/` JSDoc comment directly preceding a node, without the comment
 * markers and leading `*`, or '' when there is none. A block that declares a type (a `@typedef`
 * or `@callback` line) documents that type, not the node: '' (commander's `lib/help.js` puts its
 * `@typedef { import("./command.js").Command } Command` block above `class Help`).
 */
export function leadingJsDoc(sf: ts.SourceFile, node: ts.Node): string {
  const ranges = ts.getLeadingCommentRanges(sf.text, node.pos);
  if (!ranges) return '';
  for (let i = ranges.length - 1; i >= 0; i -= 1) {
    const range = ranges[i]!;
    const text = sf.text.slice(range.pos, range.end);
    if (range.kind === ts.SyntaxKind.MultiLineCommentTrivia && text.startsWith('/**') && !text.startsWith('/**/')) {
      const lines = text.slice(3, -2).split('\n').map((line) => line.replace(/^\s*\*? ?/, '').trimEnd());
      if (lines.some((line) => /^\s*@(typedef|callback)\b/.test(line))) return '';
      return lines.join('\n').trim();
    }
  }
  return '';
}

/** Dotted text of an entity name (`A`, `ns.A`). */
export function entityText(name: ts.EntityName): string {
  return ts.isIdentifier(name) ? name.text : `${entityText(name.left)}.${name.right.text}`;
}

/**
 * The class or interface a type annotation names, as a type reference text without type
 * arguments (`Ledger`, `ns.Store` for `ns.Store<T>`), seen through parentheses and unions with
 * `null`/`undefined`; null for any other type (`any`, `unknown`, functions, arrays, unions, ...).
 */
export function typeRefText(type: ts.TypeNode | undefined): string | null {
  if (type === undefined) return null;
  if (ts.isParenthesizedTypeNode(type)) return typeRefText(type.type);
  if (ts.isTypeReferenceNode(type)) return entityText(type.typeName);
  if (ts.isUnionTypeNode(type)) {
    const rest = type.types.filter((t) => t.kind !== ts.SyntaxKind.UndefinedKeyword && t.kind !== ts.SyntaxKind.NullKeyword
      && !(ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword));
    return rest.length === 1 ? typeRefText(rest[0]) : null;
  }
  return null;
}

/**
 * The type an expression is proven to have by its own syntax: `new X(...)` / `new ns.X<T>()`
 * gives `X` / `ns.X`, `e as T` / `<T>e` gives T's reference text; a call of a dotted callee
 * `call:f.g` (`await:f.g` awaited), whose declared return type the linker looks up; with `thisOf`
 * (the scope's `this`, as a `this` call site records it), a call `this.a.f()` gives
 * `call:this.a.f@<thisOf>`. Null otherwise.
 */
export function constructedType(expr: ts.Expression | undefined, thisOf: string | null = null): string | null {
  if (expr === undefined) return null;
  let e = expr;
  while (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e)) e = e.expression;
  if (ts.isAsExpression(e) || ts.isTypeAssertionExpression(e)) {
    const text = typeRefText(e.type);
    return text === 'const' ? null : text;
  }
  if (ts.isNewExpression(e)) return dottedName(e.expression);
  // The result of a call: typed by the callee's declared return type, looked up when linking.
  let awaited = false;
  if (ts.isAwaitExpression(e)) {
    awaited = true;
    e = e.expression;
    while (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e)) e = e.expression;
  }
  if (ts.isCallExpression(e)) {
    const callee = dottedName(e.expression);
    if (callee !== null) return `${awaited ? 'await' : 'call'}:${callee}`;
    const viaThis = thisOf === null ? null : thisDotted(e.expression);
    if (viaThis !== null) return `${awaited ? 'await' : 'call'}:${viaThis}@${thisOf}`;
  }
  return null;
}

/** `this.a.f` (identifiers after `this`) as written, else null. */
function thisDotted(expr: ts.Expression): string | null {
  const e = unwrap(expr);
  if (!ts.isPropertyAccessExpression(e) || !ts.isIdentifier(e.name)) return null;
  const inner = unwrap(e.expression);
  const left = inner.kind === ts.SyntaxKind.ThisKeyword ? 'this' : thisDotted(inner);
  return left === null ? null : `${left}.${e.name.text}`;
}

/**
 * The return type a function's annotation declares, as recorded in `TsDeclRecord.returns`:
 * a type reference text, `await:X` for `Promise<X>`, or null.
 */
export function returnTypeText(type: ts.TypeNode | undefined): string | null {
  if (type !== undefined && ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && type.typeName.text === 'Promise') {
    const inner = type.typeArguments?.length === 1 ? typeRefText(type.typeArguments[0]) : null;
    return inner === null ? null : `await:${inner}`;
  }
  return typeRefText(type);
}

/**
 * The member name of a property or element access: an identifier, a private name (`#m`), the
 * text of a string key, or a computed key made of a dotted identifier chain in brackets
 * (`[kRun]`, `[symbols.kRun]`); null otherwise.
 */
export function accessName(expr: ts.Expression): string | null {
  if (ts.isPropertyAccessExpression(expr)) return expr.name.text;
  if (ts.isElementAccessExpression(expr)) {
    const literal = literalText(expr.argumentExpression);
    if (literal !== null) return literal;
    const key = dottedName(expr.argumentExpression);
    return key === null ? null : `[${key}]`;
  }
  return null;
}

/** The first paragraph of a comment, whitespace collapsed, without JSDoc tag lines. */
export function firstParagraph(comment: string): string {
  const para = comment.split(/\n\s*\n/)[0] ?? '';
  return para.split('\n').filter((line) => !/^\s*@/.test(line)).join(' ').replace(/\s+/g, ' ').trim();
}
