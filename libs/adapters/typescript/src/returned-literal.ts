/**
 * The members of an object literal a function returns (issue 31 item 3), proven from the
 * function's own text: every `return` of the body returns the same local `const` bound once to an
 * object literal, and a member counts only when its value is a name or dotted name (`addHook`,
 * `decorator.add`) that nothing in the body replaces afterwards. The linker resolves each value
 * from the function's scope; `const app = fastify()` then proves `app.addHook` in a document.
 */
import './prime.js';
import ts from './compiler-api.js';
import { dottedName, literalText, propertyNameText } from './syntax.js';

/** Object helpers whose calls on the returned object may replace members. */
const REPLACING = new Set(['Object.assign', 'Object.defineProperty', 'Object.defineProperties']);

/**
 * Per member name, the dotted expression its value is written as, and the computed keys (dotted
 * expressions) the body assigns on the object; null when the body does not prove a returned
 * literal (no return, several returned names, a returned name not bound once to a literal, or the
 * object replaced as a whole or under a key that is no dotted name).
 */
export function returnedLiteralMembers(sf: ts.SourceFile, body: ts.Block): { members: Record<string, string>; keys: string[] } | null {
  const returned = new Set<string>();
  let other = false;
  const visitReturns = (node: ts.Node): void => {
    // Only names of the trimmed parser module (parser-api.cts): a nested function or class returns for itself.
    if (ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node)
      || ts.isGetAccessor(node) || ts.isSetAccessor(node) || ts.isConstructorDeclaration(node) || ts.isClassExpression(node)
      || node.kind === ts.SyntaxKind.ClassDeclaration) return;
    if (node.kind === ts.SyntaxKind.ReturnStatement) {
      const expression = (node as ts.ReturnStatement).expression;
      if (expression !== undefined && ts.isIdentifier(expression)) returned.add(expression.text);
      else other = true;
    }
    ts.forEachChild(node, visitReturns);
  };
  ts.forEachChild(body, visitReturns);
  if (other || returned.size !== 1) return null;
  const name = [...returned][0]!;
  let literal: ts.ObjectLiteralExpression | null = null;
  for (const statement of body.statements) {
    if (!ts.isVariableStatement(statement) || (statement.declarationList.flags & ts.NodeFlags.Const) === 0) continue;
    for (const decl of statement.declarationList.declarations) {
      if (!ts.isIdentifier(decl.name) || decl.name.text !== name) continue;
      if (literal !== null || decl.initializer === undefined || !ts.isObjectLiteralExpression(decl.initializer)) return null;
      literal = decl.initializer;
    }
  }
  if (literal === null) return null;
  const members = new Map<string, string>();
  for (const property of literal.properties) {
    if (ts.isSpreadAssignment(property)) {
      // A spread may replace any member written before it.
      members.clear();
      continue;
    }
    const key = property.name === undefined || ts.isComputedPropertyName(property.name) ? null : propertyNameText(sf, property.name);
    if (key === null) continue;
    members.delete(key);
    if (ts.isShorthandPropertyAssignment(property)) members.set(key, property.name.text);
    else if (ts.isPropertyAssignment(property)) {
      const value = dottedName(property.initializer);
      if (value !== null) members.set(key, value);
    }
  }
  const keys = new Set<string>();
  if (!dropReplaced(sf, body, name, members, keys)) return null;
  return members.size === 0 ? null : { members: Object.fromEntries([...members].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), keys: [...keys].sort() };
}

/** Drops the members the body may replace on the object named `name`; false when the object itself may be replaced. */
function dropReplaced(sf: ts.SourceFile, body: ts.Block, name: string, members: Map<string, string>, keys: Set<string>): boolean {
  let whole = false;
  const visit = (node: ts.Node): void => {
    if (whole) return;
    if (ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && node.operatorToken.kind <= ts.SyntaxKind.LastAssignment) {
      const left = node.left;
      if (ts.isIdentifier(left) && left.text === name) whole = true;
      else if ((ts.isPropertyAccessExpression(left) || ts.isElementAccessExpression(left)) && ts.isIdentifier(left.expression) && left.expression.text === name) {
        const key = ts.isPropertyAccessExpression(left) ? left.name.text : literalText(left.argumentExpression);
        const computed = key === null && ts.isElementAccessExpression(left) ? dottedName(left.argumentExpression) : null;
        // A computed key holds the members only if the linker proves it a symbol (`returned_keys`).
        if (key !== null) members.delete(key);
        else if (computed !== null) keys.add(computed);
        else whole = true;
      }
    }
    if (ts.isCallExpression(node) && REPLACING.has(dottedName(node.expression) ?? '')) {
      const [target, keys] = node.arguments;
      if (target !== undefined && ts.isIdentifier(target) && target.text === name) {
        const single = keys === undefined ? null : literalText(keys);
        if (single !== null) members.delete(single);
        else if (keys !== undefined && ts.isObjectLiteralExpression(keys)) {
          for (const property of keys.properties) {
            if (property.name === undefined || ts.isComputedPropertyName(property.name) || ts.isSpreadAssignment(property)) {
              whole = true;
              break;
            }
            members.delete(propertyNameText(sf, property.name));
          }
        } else whole = true;
      }
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(body, visit);
  return !whole;
}

/** Whether an expression is `Symbol(...)` or `Symbol.for(...)`. */
function isSymbolCall(expr: ts.Expression | undefined): boolean {
  if (expr === undefined || !ts.isCallExpression(expr)) return false;
  const callee = dottedName(expr.expression);
  return callee === 'Symbol' || callee === 'Symbol.for';
}

/**
 * The symbol names a module-level `const name = init` declares: `name` for `Symbol(...)`, and
 * `name.key` for each `key: Symbol(...)` of an object literal (`const keys = { kState: Symbol() }`).
 */
export function symbolNames(name: string, init: ts.Expression | undefined): string[] {
  if (isSymbolCall(init)) return [name];
  if (init === undefined || !ts.isObjectLiteralExpression(init)) return [];
  const out: string[] = [];
  for (const property of init.properties) {
    if (ts.isPropertyAssignment(property) && ts.isIdentifier(property.name) && isSymbolCall(property.initializer)) out.push(`${name}.${property.name.text}`);
  }
  return out;
}
