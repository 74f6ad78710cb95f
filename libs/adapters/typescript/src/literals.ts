/**
 * Object literals as receivers (issue 31 item 6): the members of a module-level `const X = { ... }`,
 * the `this` of the methods written in it, the `const` locals made by `Object.create(X)` or
 * `Object.create(this)`, and the keys code assigns at run time (which the linker never proves).
 * Extraction side; the linker side is literal-receivers.ts.
 */
import './prime.js';
import ts from './compiler-api.js';
import type { Extraction, Scope } from './declarations.js';
import type { TsLiteralMember } from '@docforge/ts-link-model';
import { dottedName, lineAt, literalText, unwrap } from './syntax.js';

/** The `this_of` of code inside a method or accessor written in the literal `const name = { ... }`. */
export function literalThisOf(name: string): string {
  return `literal:${name}`;
}

/**
 * A literal member's key as the linker compares it: a plain or literal name as written, a computed
 * key's dotted expression in brackets (`[setLevelSym]`), a computed string literal as its text;
 * null for any other computed key (it may evaluate to any key).
 */
function memberKey(name: ts.PropertyName): string | null {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)
    || ts.isNoSubstitutionTemplateLiteral(name)) {
    return name.text;
  }
  if (ts.isComputedPropertyName(name)) {
    const literal = literalText(name.expression);
    if (literal !== null) return literal;
    const dotted = dottedName(name.expression);
    return dotted === null ? null : `[${dotted}]`;
  }
  return null;
}

/**
 * Records the members of the module-level `const name = { ... }` and visits them: methods and
 * accessors (and `function` values) see `this` as the literal; values are visited in `scope`.
 * A second literal of the same name (in another top-level block) makes every lookup unproven.
 */
export function visitConstLiteral(ex: Extraction, name: string, literal: ts.ObjectLiteralExpression, scope: Scope): void {
  const members: TsLiteralMember[] = [];
  const inner: Scope = { ...scope, topLevel: false, thisOf: literalThisOf(name) };
  for (const property of literal.properties) {
    if (ts.isSpreadAssignment(property)) {
      members.push({ key: null, value: null });
      noteValueUse(ex, property, scope);
      ex.visit(property.expression, scope);
      continue;
    }
    const key = memberKey(property.name);
    if (ts.isComputedPropertyName(property.name)) ex.visit(property.name.expression, scope);
    if (ts.isShorthandPropertyAssignment(property)) {
      members.push({ key, value: property.name.text });
      ex.visit(property.name, scope);
      if (property.objectAssignmentInitializer !== undefined) ex.visit(property.objectAssignmentInitializer, scope);
    } else if (ts.isPropertyAssignment(property)) {
      const value = unwrap(property.initializer);
      members.push({ key, value: ts.isIdentifier(value) ? value.text : null });
      if (ts.isFunctionExpression(value)) ex.visitFunction(value, inner);
      else ex.visit(property.initializer, scope);
    } else {
      members.push({ key, value: null });
      ex.visitFunction(property, inner);
    }
  }
  ex.literals.set(name, ex.literals.has(name) ? [{ key: null, value: null }] : members);
}

/**
 * The receiver type of a `const` initialized with `Object.create(X)` (`proto:X`, X an identifier)
 * or `Object.create(this)` where `this` is known (`proto:this:<this_of>`); null otherwise (also
 * with a second argument, whose descriptors add own members).
 */
export function protoType(init: ts.Expression | undefined, scope: Scope): string | null {
  if (init === undefined) return null;
  const call = unwrap(init);
  if (!ts.isCallExpression(call) || dottedName(call.expression) !== 'Object.create' || call.arguments.length !== 1) return null;
  const arg = unwrap(call.arguments[0]!);
  if (ts.isIdentifier(arg)) return `proto:${arg.text}`;
  if (arg.kind === ts.SyntaxKind.ThisKeyword && scope.thisOf !== null) return `proto:this:${scope.thisOf}`;
  return null;
}

/** The root a member assignment writes to: an identifier's name, `this@<this_of>`, or null (a deeper object). */
function mutationRoot(object: ts.Expression, scope: Scope): string | null {
  const root = unwrap(object);
  if (ts.isIdentifier(root)) return root.text;
  if (root.kind === ts.SyntaxKind.ThisKeyword) return scope.thisOf === null ? null : `this@${scope.thisOf}`;
  return null;
}

function addMutation(ex: Extraction, root: string, key: string): void {
  let keys = ex.mutated.get(root);
  if (keys === undefined) {
    keys = new Set();
    ex.mutated.set(root, keys);
  }
  keys.add(key);
}

/**
 * Records the key an assignment target or `delete` operand writes (`x.k`, `x[k]`, `x['k']`,
 * `this.k`); a computed key that is no dotted name is recorded as `*`.
 */
export function recordMemberWrite(ex: Extraction, target: ts.Expression, scope: Scope): void {
  const access = unwrap(target);
  if (!ts.isPropertyAccessExpression(access) && !ts.isElementAccessExpression(access)) return;
  const root = mutationRoot(access.expression, scope);
  if (root === null) return;
  if (ts.isPropertyAccessExpression(access)) {
    addMutation(ex, root, access.name.text);
    return;
  }
  const literal = literalText(access.argumentExpression);
  const dotted = literal === null ? dottedName(access.argumentExpression) : null;
  addMutation(ex, root, literal ?? (dotted === null ? '*' : `[${dotted}]`));
}

/**
 * What the traversal notes of any expression before visiting its children: an identifier read
 * (counted for `value_refs`), and the member an assignment's left side or a `delete` operand writes.
 */
export function noteValueUse(ex: Extraction, node: ts.Node, scope: Scope): void {
  if (ts.isIdentifier(node)) {
    ex.identRefs.set(node.text, (ex.identRefs.get(node.text) ?? 0) + 1);
  } else if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    if (op >= ts.SyntaxKind.FirstAssignment && op <= ts.SyntaxKind.LastAssignment) recordMemberWrite(ex, node.left, scope);
  } else if (node.kind === ts.SyntaxKind.DeleteExpression) {
    recordMemberWrite(ex, (node as ts.DeleteExpression).expression, scope);
  } else if (ts.isSpreadAssignment(node) || node.kind === ts.SyntaxKind.SpreadElement) {
    const spread = unwrap((node as ts.SpreadAssignment | ts.SpreadElement).expression);
    if (ts.isIdentifier(spread)) ex.copied.add(spread.text);
  }
}

const WRITING_CALLEES = new Set(['Object.assign', 'Object.defineProperty', 'Object.defineProperties']);

/** Records the keys of an object literal as written to `root` (`*` for a spread or a key that is no dotted name). */
function addLiteralKeys(ex: Extraction, root: string, literal: ts.ObjectLiteralExpression): void {
  for (const property of literal.properties) {
    addMutation(ex, root, ts.isSpreadAssignment(property) ? '*' : memberKey(property.name) ?? '*');
  }
}

/**
 * `Object.assign(x, ...)`, `Object.defineProperty(x, ...)`, `Object.defineProperties(x, ...)`:
 * the keys of `Object.assign`'s object-literal sources are written to `x`, and any key of `x` may
 * change for every other form. `Object.setPrototypeOf(x, p)` of a function-local `const x = { ... }`
 * records `p` ({@link recordPrototype}).
 */
export function recordWritingCall(ex: Extraction, call: ts.CallExpression, scope: Scope): void {
  const callee = dottedName(call.expression);
  if (callee === 'Object.setPrototypeOf') {
    recordPrototype(ex, call, scope);
    return;
  }
  if (callee === null || !WRITING_CALLEES.has(callee) || call.arguments[0] === undefined) return;
  const sources = call.arguments.slice(1).map((arg) => unwrap(arg));
  // A literal assigned into another object is copied: its functions may see that object as `this`.
  for (const source of sources) if (ts.isIdentifier(source)) ex.copied.add(source.text);
  const root = mutationRoot(call.arguments[0], scope);
  if (root === null) return;
  if (callee === 'Object.assign' && sources.every((source) => ts.isObjectLiteralExpression(source))) {
    for (const source of sources) addLiteralKeys(ex, root, source as ts.ObjectLiteralExpression);
  } else {
    addMutation(ex, root, '*');
  }
}

/**
 * `Object.setPrototypeOf(x, p)` where `x` is a `const` of the same function initialized with an
 * object literal: records the call's line and what `p` is (`12:call:f` for `f()` at line 12,
 * `12:proto:Y` for `Object.create(Y)` or `Y`) under the function and `x`, and the initializer's keys as written to `x` (they are own keys that
 * hide the prototype's). A second `setPrototypeOf` of `x`, or any other `p`, records `?` (unproven).
 */
function recordPrototype(ex: Extraction, call: ts.CallExpression, scope: Scope): void {
  const [target, proto] = call.arguments;
  if (target === undefined || proto === undefined) return;
  const object = unwrap(target);
  if (!ts.isIdentifier(object)) return;
  const consts = ex.objectConsts.get(scope.ownerId);
  if (consts === undefined || !consts.has(object.text)) return;
  const literal = consts.get(object.text)!;
  const value = unwrap(proto);
  let kind = '?';
  if (ts.isCallExpression(value) && value.arguments.length === 0 && dottedName(value.expression) !== null) kind = `call:${dottedName(value.expression)!}`;
  else if (ts.isIdentifier(value)) kind = `proto:${value.text}`;
  else kind = protoType(value, scope) ?? '?';
  let protos = ex.protos.get(scope.ownerId);
  if (protos === undefined) {
    protos = new Map();
    ex.protos.set(scope.ownerId, protos);
  }
  // The line goes first: a call before the prototype is set does not reach the prototype's members.
  protos.set(object.text, protos.has(object.text) || literal === null || kind === '?' ? '?' : `${lineAt(ex.sf, call.getStart(ex.sf))}:${kind}`);
  if (literal !== null) addLiteralKeys(ex, object.text, literal);
}

/**
 * The literal a function returns a fresh object made from: a body that is only
 * `return Object.create(X)` (or an arrow whose body is `Object.create(X)`), X an identifier.
 */
export function createdLiteral(fn: ts.FunctionLikeDeclaration): string | null {
  const body = fn.body;
  if (body === undefined) return null;
  let expr: ts.Expression | undefined;
  if (ts.isBlock(body)) {
    const only = body.statements.length === 1 ? body.statements[0]! : null;
    expr = only !== null && only.kind === ts.SyntaxKind.ReturnStatement ? (only as ts.ReturnStatement).expression : undefined;
  } else {
    expr = body as ts.Expression;
  }
  const type = expr === undefined ? null : protoType(expr, { ownerId: '', declId: null, prefix: '', topLevel: false, thisOf: null });
  return type !== null && !type.startsWith('proto:this:') ? type.slice('proto:'.length) : null;
}
