/**
 * Call sites of the TypeScript adapter: each call or `new` classified by callee shape (see
 * {@link TsCallShape}) and attributed to its owner, `require()`/`import()` module references,
 * and the functions handed to test callees (`test`, `it`, `describe`, ...).
 */
import ts from 'typescript';
import type { Extraction, Scope } from './declarations.js';
import type { TsCallShape } from './link-data.js';
import { dottedName, lineAt, literalText, unwrap } from './syntax.js';

const TEST_CALLEES = new Set(['test', 'it', 'describe', 'suite', 'beforeEach', 'afterEach', 'before', 'after']);

/**
 * Records a call site (or a `require`/dynamic `import()` module reference, or the functions
 * handed to a test callee) and visits the callee's inner expressions and the arguments.
 */
export function visitCall(ex: Extraction, call: ts.CallExpression, scope: Scope): void {
  const sf = ex.sf;
  const callee = unwrap(call.expression);
  const line = lineAt(sf, call.getStart(sf));
  if (callee.kind === ts.SyntaxKind.ImportKeyword) {
    const specifier = literalText(call.arguments[0]);
    if (specifier !== null) ex.imports.push({ specifier, line, kind: 'dynamic' });
    for (const arg of call.arguments) ex.visit(arg, scope);
    return;
  }
  if (ts.isIdentifier(callee) && callee.text === 'require') {
    const specifier = literalText(call.arguments[0]);
    if (specifier !== null) {
      ex.imports.push({ specifier, line, kind: 'require' });
      return;
    }
  }
  const root = leftmostIdentifier(callee);
  if (root !== null && TEST_CALLEES.has(root)) {
    for (const arg of call.arguments) {
      const a = unwrap(arg);
      if (ts.isIdentifier(a)) ex.testCalled.add(a.text);
    }
  }
  const { shape, name, object } = classifyCallee(callee);
  ex.calls.push({ owner: scope.ownerId, shape, name, object, line });
  if (shape === 'other') ex.visit(call.expression, scope);
  else visitCalleeInner(callee, (n) => ex.visit(n, scope));
  for (const arg of call.arguments) ex.visit(arg, scope);
}

/** Records a `new` call site (shape `new`) and visits its arguments. */
export function visitNew(ex: Extraction, expr: ts.NewExpression, scope: Scope): void {
  const sf = ex.sf;
  const callee = unwrap(expr.expression);
  const dotted = dottedName(callee);
  const line = lineAt(sf, expr.getStart(sf));
  if (dotted !== null) {
    const dot = dotted.lastIndexOf('.');
    ex.calls.push({
      owner: scope.ownerId, shape: 'new', name: dot < 0 ? dotted : dotted.slice(dot + 1),
      object: dot < 0 ? null : dotted.slice(0, dot), line,
    });
  } else {
    ex.calls.push({ owner: scope.ownerId, shape: 'other', name: '', object: null, line });
    ex.visit(expr.expression, scope);
  }
  for (const arg of expr.arguments ?? []) ex.visit(arg, scope);
}

function leftmostIdentifier(expr: ts.Expression): string | null {
  let current = unwrap(expr);
  for (;;) {
    if (ts.isIdentifier(current)) return current.text;
    if (ts.isPropertyAccessExpression(current) || ts.isElementAccessExpression(current)) current = unwrap(current.expression);
    else if (ts.isCallExpression(current)) current = unwrap(current.expression);
    else return null;
  }
}

/** Classifies a callee expression into a call-site shape (see {@link TsCallShape}). */
function classifyCallee(callee: ts.Expression): { shape: TsCallShape; name: string; object: string | null } {
  let expr = unwrap(callee);
  if (expr.kind === ts.SyntaxKind.SuperKeyword) return { shape: 'super', name: 'constructor', object: null };
  let memberName = memberNameOf(expr);
  if (memberName === 'call' || memberName === 'apply') {
    expr = unwrap((expr as ts.PropertyAccessExpression | ts.ElementAccessExpression).expression);
    memberName = memberNameOf(expr);
  }
  if (ts.isIdentifier(expr)) return { shape: 'id', name: expr.text, object: null };
  if (memberName !== null) {
    const object = unwrap((expr as ts.PropertyAccessExpression | ts.ElementAccessExpression).expression);
    if (object.kind === ts.SyntaxKind.ThisKeyword) return { shape: 'this', name: memberName, object: null };
    if (object.kind === ts.SyntaxKind.SuperKeyword) return { shape: 'super', name: memberName, object: null };
    const dotted = dottedName(object);
    if (dotted !== null) return { shape: 'member', name: memberName, object: dotted };
    return { shape: 'other', name: memberName, object: null };
  }
  return { shape: 'other', name: '', object: null };
}

function memberNameOf(expr: ts.Expression): string | null {
  if (ts.isPropertyAccessExpression(expr) && ts.isIdentifier(expr.name)) return expr.name.text;
  if (ts.isElementAccessExpression(expr)) return literalText(expr.argumentExpression);
  return null;
}

/** Visits sub-expressions of a classified callee that may contain calls (element access keys). */
function visitCalleeInner(callee: ts.Expression, visit: (node: ts.Node) => void): void {
  let current = unwrap(callee);
  while (ts.isPropertyAccessExpression(current) || ts.isElementAccessExpression(current)) {
    if (ts.isElementAccessExpression(current)) visit(current.argumentExpression);
    current = unwrap(current.expression);
  }
  if (!ts.isIdentifier(current)) visit(current);
}
