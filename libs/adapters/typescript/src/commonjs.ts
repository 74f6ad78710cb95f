/**
 * CommonJS and default exports of the TypeScript adapter: `module.exports = x`,
 * `exports.name = x`, `export default x` / `export = x`, object literals of exports, and
 * prototype/static method assignments on a module-level function or class.
 */
import './prime.js';
import ts from './compiler-api.js';
import type { Extraction, Scope } from './declarations.js';
import { dottedName, hasModifier, lineAt, literalText, propertyNameText, requireSpecifier, unwrap } from './syntax.js';

/** CommonJS export target of an assignment left side: `=` for `module.exports`, a name for `exports.x`. */
export function cjsExportName(left: ts.Expression): string | null {
  const target = unwrap(left);
  const text = dottedName(target);
  if (text === 'module.exports') return '=';
  let objectText: string | null = null;
  let name: string | null = null;
  if (ts.isPropertyAccessExpression(target) && ts.isIdentifier(target.name)) {
    objectText = dottedName(target.expression);
    name = target.name.text;
  } else if (ts.isElementAccessExpression(target)) {
    objectText = dottedName(target.expression);
    name = literalText(target.argumentExpression);
  }
  if (name !== null && (objectText === 'module.exports' || objectText === 'exports')) return name;
  return null;
}

/** Handles assignment statements with export or prototype meaning; returns false to visit normally. */
export function visitAssignment(ex: Extraction, expr: ts.BinaryExpression, scope: Scope, statement: ts.Node): boolean {
  const sf = ex.sf;
  const line = lineAt(sf, expr.getStart(sf));
  const exportName = cjsExportName(expr.left);
  if (exportName !== null) {
    exportValue(ex, exportName, expr.right, scope, statement, line);
    return true;
  }
  const left = unwrap(expr.left);
  const right = unwrap(expr.right);
  // A chain `exports = module.exports = x` (or `proto = module.exports = { ... }`) exports x as its
  // last link does: the names on the left only alias the exported value.
  if (isPlainAssignment(right) && visitAssignment(ex, right, scope, statement)) return true;
  if (scope.topLevel && ts.isPropertyAccessExpression(left) && ts.isIdentifier(left.name)
    && (ts.isFunctionExpression(right) || ts.isArrowFunction(right))) {
    const objectText = dottedName(left.expression);
    if (objectText !== null) {
      const owner = objectText.endsWith('.prototype') ? objectText.slice(0, -'.prototype'.length) : objectText;
      const ownerId = owner.includes('.') ? undefined : ex.topDecls.get(owner);
      const ownerDecl = ownerId === undefined ? undefined : ex.decls.get(ownerId);
      if (ownerDecl === undefined && ex.objectVars.has(owner)) {
        const name = `${owner}.${left.name.text}`;
        const id = ex.declareFunction(right, 'function', name, scope, statement, ex.functionSignature(right, name), statement);
        ex.objectMembers.set(owner, [...(ex.objectMembers.get(owner) ?? []), id]);
        return true;
      }
      if (ownerDecl !== undefined && (ownerDecl.record.kind === 'function' || ownerDecl.record.kind === 'class')) {
        const methodName = left.name.text;
        const methodScope: Scope = { ownerId: scope.ownerId, declId: ownerDecl.record.id, prefix: owner, topLevel: false, thisOf: ownerDecl.record.id };
        const isAsync = hasModifier(right, ts.SyntaxKind.AsyncKeyword) ? 'async ' : '';
        const isStatic = objectText.endsWith('.prototype') ? '' : 'static ';
        ex.declareFunction(right, 'method', methodName, methodScope, statement,
          ex.signature(right, `${isStatic}${isAsync}${owner}.${methodName}`), statement);
        return true;
      }
    }
  }
  return false;
}

/** True for `a = b` (plain `=`, not a compound assignment). */
export function isPlainAssignment(node: ts.Node): node is ts.BinaryExpression {
  return ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken;
}

/**
 * The links of an assignment chain `a = b = value`: the left sides in order (`a`, `b`) and the
 * value at its end, each unwrapped.
 */
export function assignmentChain(expr: ts.BinaryExpression): { targets: ts.Expression[]; value: ts.Expression } {
  const targets: ts.Expression[] = [];
  let value: ts.Expression = expr;
  while (isPlainAssignment(value)) {
    targets.push(unwrap(value.left));
    value = unwrap(value.right);
  }
  return { targets, value };
}

/**
 * `var traverse = module.exports = function () {}` declares the function (or class) under the
 * variable's name and exports it through each export link of the chain;
 * `const proto = module.exports = { ... }` declares what the export alone would (the variable only
 * aliases the exported value). False when the caller still has the variable to bind and its value
 * to visit: the chain exports nothing, or exports another value through the variable.
 */
export function visitExportChain(ex: Extraction, name: string, init: ts.BinaryExpression, scope: Scope, docNode: ts.Node, line: number): boolean {
  const { targets, value } = assignmentChain(init);
  const exportNames = targets.map(cjsExportName).filter((exportName): exportName is string => exportName !== null);
  if (exportNames.length === 0) return false;
  if (ts.isFunctionExpression(value) || ts.isArrowFunction(value) || ts.isClassExpression(value)) {
    const id = ts.isClassExpression(value)
      ? ex.visitClass(value, name, scope, docNode)
      : ex.declareFunction(value, 'function', name, scope, docNode, ex.functionSignature(value, name));
    if (id !== null) ex.addCap(id, 'exported');
    for (const exportName of exportNames) ex.exportsList.push({ name: exportName, local: name, specifier: null, imported: null, line });
    return true;
  }
  if (ts.isObjectLiteralExpression(value)) {
    ex.shadow(scope.ownerId, [name]);
    ex.objectVars.set(name, targets.some((target) => cjsExportName(target) === '='));
    return visitAssignment(ex, init, scope, docNode);
  }
  // Any other value (`const re = exports.re = []`): the variable holds what is exported.
  for (const exportName of exportNames) ex.exportsList.push({ name: exportName, local: name, specifier: null, imported: null, line });
  return false;
}

/**
 * Notes a module-level `var`/`let`/`const name = value` whose value is an object (`{ ... }`, or
 * `Object.create(...)`), so that `name.m = function () {}` declares `name.m`.
 */
export function noteObjectVariable(ex: Extraction, name: string, init: ts.Expression | undefined, scope: Scope): void {
  if (!scope.topLevel || init === undefined) return;
  const value = unwrap(init);
  const isObject = ts.isObjectLiteralExpression(value)
    || (ts.isCallExpression(value) && dottedName(value.expression) === 'Object.create');
  if (isObject) ex.objectVars.set(name, ex.objectVars.get(name) ?? false);
}

/** Records `export default x`, `module.exports = x`, `exports.name = x` and declares function values. */
export function exportValue(ex: Extraction, exportName: string, value: ts.Expression, scope: Scope, docNode: ts.Node, line: number): void {
  const v = unwrap(value);
  const record = (local: string | null, specifier: string | null = null, imported: string | null = null): void => {
    ex.exportsList.push({ name: exportName, local, specifier, imported, line });
  };
  if (ts.isIdentifier(v)) {
    record(v.text);
    return;
  }
  if (ts.isFunctionExpression(v) || ts.isArrowFunction(v)) {
    const name = exportName === '=' || exportName === 'default' ? ((ts.isFunctionExpression(v) && v.name?.text) || 'default') : exportName;
    if (scope.topLevel) {
      const id = ex.declareFunction(v, 'function', name, scope, docNode, ex.functionSignature(v, name));
      ex.addCap(id, 'exported');
      record(name);
    } else {
      ex.visit(v, scope);
    }
    return;
  }
  if (ts.isClassExpression(v)) {
    const name = v.name?.text ?? (exportName === '=' ? 'default' : exportName);
    const id = scope.topLevel ? ex.visitClass(v, name, scope, docNode) : ex.visitClass(v, null, scope, docNode);
    if (id !== null) {
      ex.addCap(id, 'exported');
      record(name);
    }
    return;
  }
  const specifier = requireSpecifier(v);
  if (specifier !== null) {
    record(null, specifier, '=');
    if (exportName === '=') ex.exportsList.push({ name: '*', local: null, specifier, imported: '*', line });
    ex.visit(v, scope);
    return;
  }
  if (ts.isPropertyAccessExpression(v) && requireSpecifier(v.expression) !== null) {
    record(null, requireSpecifier(v.expression), v.name.text);
    ex.visit(v, scope);
    return;
  }
  // `exports.parse = publicApi.parse` after `var publicApi = require('./public-api.js')` (a bundler's
  // CommonJS build, yaml's dist/index.js): the export of the module the binding holds.
  const held = ts.isPropertyAccessExpression(v) && ts.isIdentifier(v.expression) ? wholeModuleBinding(ex, v.expression.text) : null;
  if (held !== null) {
    record(null, held, (v as ts.PropertyAccessExpression).name.text);
    ex.visit(v, scope);
    return;
  }
  if (exportName === '=' && ts.isObjectLiteralExpression(v)) {
    for (const property of v.properties) exportProperty(ex, property, scope, line);
    return;
  }
  ex.visit(v, scope);
}

/**
 * The specifier of a module-level binding of a whole module (`var m = require('./m')`,
 * `import * as m from './m'`) named `name`, or null (none, or a binding of one export). A module
 * that declares `name` itself holds no such binding.
 */
function wholeModuleBinding(ex: Extraction, name: string): string | null {
  if (ex.topDecls.has(name)) return null;
  const binding = ex.bindings.find((candidate) => candidate.local === name);
  return binding !== undefined && (binding.imported === '=' || binding.imported === '*') ? binding.specifier : null;
}

/** Records one property of `module.exports = { ... }` and declares function values. */
function exportProperty(ex: Extraction, property: ts.ObjectLiteralElementLike, scope: Scope, line: number): void {
  const sf = ex.sf;
  const push = (name: string, local: string | null, specifier: string | null = null, imported: string | null = null): void => {
    ex.exportsList.push({ name, local, specifier, imported, line: lineAt(sf, property.getStart(sf)) });
  };
  if (ts.isShorthandPropertyAssignment(property)) {
    push(property.name.text, property.name.text);
    return;
  }
  if (ts.isSpreadAssignment(property)) {
    const specifier = requireSpecifier(property.expression);
    if (specifier !== null) {
      ex.exportsList.push({ name: '*', local: null, specifier, imported: '*', line });
    }
    ex.visit(property.expression, scope);
    return;
  }
  // A method or an accessor of the exported object is part of the module's API (`get ips()` of koa's
  // request): a function node, an accessor's setter after a getter of the same name suffixed `~2`.
  if (ts.isMethodDeclaration(property) || ts.isGetAccessorDeclaration(property) || ts.isSetAccessorDeclaration(property)) {
    const name = propertyNameText(sf, property.name);
    if (scope.topLevel) {
      const summary = ts.isMethodDeclaration(property)
        ? ex.functionSignature(property, name)
        : ex.signature(property, `${ts.isGetAccessorDeclaration(property) ? 'get' : 'set'} ${name}`);
      const id = ex.declareFunction(property, 'function', name, scope, property, summary);
      ex.addCap(id, 'exported');
      push(name, name);
    } else {
      ex.visit(property, scope);
    }
    return;
  }
  if (ts.isPropertyAssignment(property)) {
    const name = propertyNameText(sf, property.name);
    const init = unwrap(property.initializer);
    if (ts.isIdentifier(init)) {
      push(name, init.text);
      return;
    }
    if ((ts.isFunctionExpression(init) || ts.isArrowFunction(init)) && scope.topLevel) {
      const id = ex.declareFunction(init, 'function', name, scope, property, ex.functionSignature(init, name), property);
      ex.addCap(id, 'exported');
      push(name, name);
      return;
    }
    const specifier = requireSpecifier(init);
    if (specifier !== null) push(name, null, specifier, '=');
    else if (ts.isPropertyAccessExpression(init) && requireSpecifier(init.expression) !== null) {
      push(name, null, requireSpecifier(init.expression), init.name.text);
    }
    ex.visit(property.initializer, scope);
    return;
  }
  ex.visit(property, scope);
}
