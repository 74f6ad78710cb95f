/**
 * Call sites of the TypeScript adapter: each call or `new` classified by callee shape (see
 * {@link TsCallShape}) and attributed to its owner, `require()`/`import()` module references,
 * and the functions handed to test callees (`test`, `it`, `describe`, ...).
 */
import './prime.js';
import ts from './compiler-api.js';
import type { Extraction, Scope } from './declarations.js';
import type { TsCallShape, TsCallSite } from '@docforge/ts-link-model';
import { recordWritingCall } from './literals.js';
import { accessName, dottedName, lineAt, literalText, unwrap } from './syntax.js';

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
  recordWritingCall(ex, call, scope);
  const site = classifyCallee(callee);
  const record: TsCallSite = { owner: scope.ownerId, shape: site.shape, name: site.name, object: site.object, line };
  if (site.path !== null) record.path = site.path;
  if (site.shape === 'this') record.this_of = scope.thisOf;
  ex.calls.push(record);
  const shape = site.shape;
  if (shape === 'other') ex.visit(call.expression, scope);
  else visitCalleeInner(callee, (n) => ex.visit(n, scope));
  const descriptors = prototypeDescriptors(ex, call);
  for (const arg of call.arguments) {
    if (descriptors !== null && arg === descriptors.arg) visitDescriptors(ex, descriptors.objects, scope, descriptors.classId);
    else ex.visit(arg, scope);
  }
}

/**
 * `Object.defineProperties(X.prototype, { p: { get () {}, set (v) {}, value: function () {} } })`
 * and `Object.defineProperty(X.prototype, 'p', { ... })` with X a module-level class or function:
 * the descriptors' functions run with `this` an X instance, as X's prototype methods do.
 */
function prototypeDescriptors(ex: Extraction, call: ts.CallExpression): { arg: ts.Expression; objects: ts.ObjectLiteralExpression[]; classId: string } | null {
  const callee = dottedName(call.expression);
  if (callee !== 'Object.defineProperties' && callee !== 'Object.defineProperty') return null;
  const target = call.arguments[0] === undefined ? null : dottedName(call.arguments[0]);
  if (target === null || !target.endsWith('.prototype')) return null;
  const classId = ex.topDecls.get(target.slice(0, -'.prototype'.length));
  const kind = classId === undefined ? undefined : ex.decls.get(classId)?.record.kind;
  if (classId === undefined || (kind !== 'class' && kind !== 'function')) return null;
  const arg = call.arguments[callee === 'Object.defineProperties' ? 1 : 2];
  if (arg === undefined) return null;
  const value = unwrap(arg);
  if (!ts.isObjectLiteralExpression(value)) return null;
  if (callee === 'Object.defineProperty') return { arg, objects: [value], classId };
  const objects: ts.ObjectLiteralExpression[] = [];
  for (const property of value.properties) {
    if (ts.isPropertyAssignment(property) && ts.isObjectLiteralExpression(unwrap(property.initializer))) {
      objects.push(unwrap(property.initializer) as ts.ObjectLiteralExpression);
    } else {
      return null;
    }
  }
  return { arg, objects, classId };
}

/** Visits property descriptors: their get/set/value functions see `this` as an instance of `classId`. */
function visitDescriptors(ex: Extraction, objects: readonly ts.ObjectLiteralExpression[], scope: Scope, classId: string): void {
  const inner: Scope = { ...scope, topLevel: false, thisOf: classId };
  for (const object of objects) {
    for (const member of object.properties) {
      if (ts.isMethodDeclaration(member) || ts.isGetAccessorDeclaration(member) || ts.isSetAccessorDeclaration(member)) {
        ex.visitFunction(member, inner);
      } else if (ts.isPropertyAssignment(member)) {
        const init = unwrap(member.initializer);
        if (ts.isFunctionExpression(init)) ex.visitFunction(init, inner);
        else ex.visit(member.initializer, scope);
      } else {
        ex.visit(member, scope);
      }
    }
  }
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

interface CalleeSite {
  shape: TsCallShape;
  name: string;
  object: string | null;
  path: string[] | null;
}

const PLAIN_SEGMENT = /^[\p{L}\p{Nl}$_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$]*$/u;

/** Classifies a callee expression into a call-site shape (see {@link TsCallShape}). */
function classifyCallee(callee: ts.Expression): CalleeSite {
  let expr = unwrap(callee);
  if (expr.kind === ts.SyntaxKind.SuperKeyword) return { shape: 'super', name: 'constructor', object: null, path: null };
  let name = accessName(expr);
  if (name === 'call' || name === 'apply') {
    expr = unwrap((expr as ts.PropertyAccessExpression | ts.ElementAccessExpression).expression);
    name = accessName(expr);
  }
  if (ts.isIdentifier(expr)) return { shape: 'id', name: expr.text, object: null, path: null };
  if (name === null) return { shape: 'other', name: '', object: null, path: null };
  const segments: string[] = [];
  let current = unwrap((expr as ts.PropertyAccessExpression | ts.ElementAccessExpression).expression);
  for (;;) {
    if (current.kind === ts.SyntaxKind.ThisKeyword) {
      segments.reverse();
      return { shape: 'this', name, object: null, path: segments };
    }
    if (current.kind === ts.SyntaxKind.SuperKeyword) {
      return segments.length === 0 ? { shape: 'super', name, object: null, path: null } : { shape: 'other', name, object: null, path: null };
    }
    if (ts.isIdentifier(current)) {
      segments.push(current.text);
      segments.reverse();
      const object = segments.every((segment) => PLAIN_SEGMENT.test(segment)) ? segments.join('.') : null;
      return { shape: 'member', name, object, path: segments };
    }
    const segment = accessName(current);
    if (segment === null) return { shape: 'other', name, object: null, path: null };
    segments.push(segment);
    current = unwrap((current as ts.PropertyAccessExpression | ts.ElementAccessExpression).expression);
  }
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
