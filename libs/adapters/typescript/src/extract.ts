/**
 * The AST strategy of the TypeScript adapter: one pass over `ts.createSourceFile`'s tree that
 * declares nodes ({@link ExtractState}), records module references (esm.ts, commonjs.ts) and call
 * sites (calls.ts), and builds Logic per function. The lexical strategy lives in lexical.ts.
 */
import './prime.js';
import ts from './compiler-api.js';
import { appendAll, codeId, withContentHash } from '@docforge/core';
import type { CodeExtractInput } from '@docforge/core';
import { visitCall, visitNew } from './calls.js';
import { exportValue, isPlainAssignment, noteObjectVariable, visitAssignment, visitExportChain } from './commonjs.js';
import { ExtractState, MAX_SUMMARY, type FunctionLikeWithBody, type Scope, type Walker } from './declarations.js';
import { recordExportDeclaration, recordImport, recordImportEquals } from './esm.js';
import { jsDocParamTypes, jsDocVariableType } from './jsdoc-types.js';
import { extractLexical } from './lexical.js';
import { buildFunctionLogic } from './logic.js';
import { createdLiteral, noteValueUse, protoType, visitConstLiteral } from './literals.js';
import { moduleNode, type TsExtractResult } from './module-node.js';
import { typeScriptCodeText } from './code-text.js';
import { returnedLiteralMembers, symbolNames } from './returned-literal.js';
import {
  accessName, boundNames, constructedType, dottedName, dynamicImportSpecifier, hasModifier, lineAt, oneLine, propertyNameText, requireSpecifier, returnTypeText, typeRefText, unwrap,
} from './syntax.js';

const MAX_SYNTAX_ISSUES = 20;

/**
 * Extracts one TypeScript/JavaScript file: module, class, interface, type alias, function and method nodes;
 * `contains` and `defines` edges; Logic when `input.logic` (never for declaration files); and
 * the adapter-private link data; the code text of bodies and the module's top level (code-text.ts,
 * issue 31 item 1). Pure and deterministic; never throws (a syntax problem becomes
 * a `syntax_error` warning and the parsed part is still extracted; an internal failure becomes an
 * `extraction_failed` warning with only the module node). With `input.strategy === 'lexical'` it
 * delegates to {@link extractLexical}: module node and module references only, no AST, no Logic.
 */
export function extractTypeScript(input: CodeExtractInput): TsExtractResult {
  const extracted = extractFile(input);
  return { ...extracted, code_text: typeScriptCodeText(input, extracted.nodes) };
}

/** {@link extractTypeScript} without the code text. */
function extractFile(input: CodeExtractInput): TsExtractResult {
  // Strategy `lexical`: no compiler AST at all (see lexical.ts).
  if (input.strategy === 'lexical') return extractLexical(input);
  try {
    return new Extractor(input).run();
  } catch (error) {
    const moduleId = codeId(input.path);
    const lines = input.content.split('\n').length;
    const node = withContentHash(moduleNode(input.path, lines, false, false));
    return {
      nodes: [node],
      edges: [],
      issues: [{
        severity: 'warning',
        code: 'extraction_failed',
        message: `TypeScript extraction failed: ${error instanceof Error ? error.message : String(error)}`,
        path: input.path,
        line: null,
        node_id: moduleId,
      }],
      logic_steps: [],
      logic_flows: [],
      link_data: null,
    };
  }
}

class Extractor extends ExtractState implements Walker {
  run(): TsExtractResult {
    const sf = this.sf;
    const diagnostics = (sf as unknown as { parseDiagnostics?: readonly ts.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
    for (const diagnostic of diagnostics.slice(0, MAX_SYNTAX_ISSUES)) {
      this.issues.push({
        severity: 'warning',
        code: 'syntax_error',
        message: oneLine(ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '), 300),
        path: this.path,
        line: diagnostic.start === undefined ? null : lineAt(sf, diagnostic.start),
        node_id: this.moduleId,
      });
    }
    const scope: Scope = { ownerId: this.moduleId, declId: null, prefix: '', topLevel: true, thisOf: null };
    for (const statement of sf.statements) this.visit(statement, scope);
    return this.finish();
  }

  /**
   * Declares a function or method node for a function-like, then visits its body with it as
   * owner and builds its Logic.
   */
  declareFunction(
    fn: FunctionLikeWithBody, kind: 'function' | 'method', name: string, scope: Scope, docNode: ts.Node,
    summary: string, span: ts.Node = fn,
  ): string {
    const overloadable = ts.isFunctionDeclaration(fn) || ts.isMethodDeclaration(fn) || ts.isConstructorDeclaration(fn);
    const { id, merged } = this.addDecl(kind, name, scope, span, summary, docNode, overloadable, fn.body !== undefined);
    if (hasModifier(fn, ts.SyntaxKind.AsyncKeyword)) this.addCap(id, 'async');
    if ((fn as ts.FunctionLikeDeclarationBase).asteriskToken) this.addCap(id, 'generator');
    if (ts.isArrowFunction(fn)) this.decls.get(id)!.record.arrow = true;
    const returns = returnTypeText(fn.type);
    if (returns !== null) this.decls.get(id)!.record.returns = returns;
    const creates = createdLiteral(fn);
    if (creates !== null) this.decls.get(id)!.record.creates = creates;
    if (returns === null && fn.body !== undefined && ts.isBlock(fn.body)) {
      const returned = returnedLiteralMembers(this.sf, fn.body);
      if (returned !== null) {
        this.decls.get(id)!.record.returned = returned.members;
        if (returned.keys.length > 0) this.decls.get(id)!.record.returned_keys = returned.keys;
      }
    }
    this.documentedReturn(id, docNode);
    this.recordTypeParams(id, fn.typeParameters);
    if (merged && fn.body === undefined) return id;
    // A method sees its class (or constructor function); an arrow its enclosing `this`; a function its own.
    const thisOf = kind === 'method' ? scope.declId : ts.isArrowFunction(fn) ? scope.thisOf : id;
    const inner: Scope = { ownerId: id, declId: id, prefix: this.qualified(scope, name), topLevel: false, thisOf };
    this.visitFunctionParts(fn, inner, this.language === 'javascript' ? jsDocParamTypes(this.sf, docNode) : undefined);
    if (this.logic && fn.body !== undefined) {
      const logic = buildFunctionLogic(this.sf, id, fn, summary);
      if (logic) {
        appendAll(this.steps, logic.steps);
        appendAll(this.flows, logic.flows);
      }
    }
    return id;
  }

  visitFunction(fn: ts.SignatureDeclaration & { body?: ts.Node | undefined }, scope: Scope): void {
    this.visitFunctionParts(fn, scope);
  }

  private visitFunctionParts(fn: ts.SignatureDeclaration & { body?: ts.Node | undefined }, scope: Scope, jsDoc?: Map<string, string | null>): void {
    const ts_ = this.language === 'typescript'; // `jsDoc`: a JavaScript function's `@param {T} name` types (jsdoc-types.ts)
    for (const p of fn.parameters) {
      if (ts.isIdentifier(p.name)) {
        if (p.name.text === 'this') continue;
        // TypeScript enforces an annotation, or the type inferred from a default `new X()`.
        const type = p.dotDotDotToken ? null : (typeRefText(p.type) ?? (ts_ ? constructedType(p.initializer) : jsDoc?.get(p.name.text) ?? null));
        this.bindTyped(scope.ownerId, p.name.text, type);
        if (ts.isConstructorDeclaration(fn) && scope.thisOf !== null && ts.isParameterPropertyDeclaration(p, fn)) {
          this.fieldType(scope.thisOf, p.name.text, type, true);
        }
      } else {
        this.shadow(scope.ownerId, boundNames(p.name));
      }
      if (p.initializer) this.visit(p.initializer, scope);
    }
    if (fn.body !== undefined) this.visit(fn.body, scope);
  }

  /**
   * Interface members: method signatures become method nodes (a call through an interface-typed
   * receiver resolves to them); property signatures give field types.
   */
  private visitInterfaceMembers(decl: ts.InterfaceDeclaration, id: string, scope: Scope): void {
    const sf = this.sf;
    for (const member of decl.members) {
      if (ts.isMethodSignature(member)) {
        const memberName = propertyNameText(sf, member.name);
        const { id: methodId } = this.addDecl('method', memberName, scope, member, this.methodSignature(member, decl.name.text, memberName), member, true);
        const returns = returnTypeText(member.type);
        if (returns !== null) this.decls.get(methodId)!.record.returns = returns;
        if (ts.isComputedPropertyName(member.name)) {
          const key = dottedName(member.name.expression);
          if (key !== null) this.decls.get(methodId)!.record.key = key;
        }
      } else if (ts.isPropertySignature(member)) {
        this.fieldType(id, propertyNameText(sf, member.name), typeRefText(member.type), true);
      }
    }
  }

  private recordTypeParams(id: string, params: ts.NodeArray<ts.TypeParameterDeclaration> | undefined): void {
    if (params === undefined || params.length === 0) return;
    const names = this.typeParams.get(id) ?? [];
    for (const param of params) if (!names.includes(param.name.text)) names.push(param.name.text);
    this.typeParams.set(id, names);
  }

  /** Records `this.x = value` (the field's assigned type) when `this` is a known class or function. */
  private recordThisAssignment(expr: ts.BinaryExpression, scope: Scope): void {
    if (scope.thisOf === null || expr.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return;
    const left = unwrap(expr.left);
    if (!(ts.isPropertyAccessExpression(left) || ts.isElementAccessExpression(left)) || unwrap(left.expression).kind !== ts.SyntaxKind.ThisKeyword) return;
    const name = accessName(left);
    if (name === null) return;
    const right = unwrap(expr.right);
    // `this.m = this.m.bind(this)` keeps the method: not a run-time replacement.
    if (ts.isCallExpression(right) && ts.isPropertyAccessExpression(right.expression) && right.expression.name.text === 'bind') {
      const bound = unwrap(right.expression.expression);
      if ((ts.isPropertyAccessExpression(bound) || ts.isElementAccessExpression(bound))
        && unwrap(bound.expression).kind === ts.SyntaxKind.ThisKeyword && accessName(bound) === name) return;
    }
    const type = ts.isIdentifier(right) ? this.localType(scope.ownerId, right.text) : constructedType(expr.right);
    this.fieldType(scope.thisOf, name, type, false);
  }

  /** Declares a class node (when named) with its heritage, then its members. Returns its id or null. */
  visitClass(node: ts.ClassLikeDeclaration, name: string | null, scope: Scope, docNode: ts.Node): string | null {
    const sf = this.sf;
    let classId: string | null = null;
    let classScope: Scope = { ...scope, topLevel: false, thisOf: null };
    if (name !== null) {
      const heritageText: string[] = [];
      for (const clause of node.heritageClauses ?? []) {
        heritageText.push(`${clause.token === ts.SyntaxKind.ExtendsKeyword ? 'extends' : 'implements'} ${clause.types.map((t) => sf.text.slice(t.getStart(sf), t.end)).join(', ')}`);
      }
      const abstract = hasModifier(node, ts.SyntaxKind.AbstractKeyword) ? 'abstract ' : '';
      const summary = oneLine(`${abstract}class ${name}${heritageText.length ? ` ${heritageText.join(' ')}` : ''}`, MAX_SUMMARY);
      classId = this.addDecl('class', name, scope, node, summary, docNode, false).id;
      for (const clause of node.heritageClauses ?? []) {
        const relation = clause.token === ts.SyntaxKind.ExtendsKeyword ? 'inherits' : 'implements';
        for (const type of clause.types) {
          const target = dottedName(type.expression);
          if (target !== null) this.heritage.push({ id: classId, relation, name: target, line: lineAt(sf, type.getStart(sf)) });
          else this.visit(type.expression, scope);
        }
      }
      classScope = { ownerId: scope.ownerId, declId: classId, prefix: this.qualified(scope, name), topLevel: false, thisOf: classId };
      this.recordTypeParams(classId, node.typeParameters);
    }
    for (const member of node.members) {
      if (ts.isMethodDeclaration(member) || ts.isConstructorDeclaration(member) || ts.isGetAccessorDeclaration(member)
        || ts.isSetAccessorDeclaration(member)) {
        const memberName = ts.isConstructorDeclaration(member) ? 'constructor' : propertyNameText(sf, member.name);
        if (classId !== null && name !== null) {
          const id = this.declareFunction(member, 'method', memberName, classScope, member, this.methodSignature(member, name, memberName));
          if (member.name !== undefined && ts.isComputedPropertyName(member.name)) {
            const key = dottedName(member.name.expression);
            if (key !== null) this.decls.get(id)!.record.key = key;
          }
        } else {
          this.visitFunctionParts(member, { ...scope, topLevel: false, thisOf: null });
        }
      } else if (ts.isPropertyDeclaration(member) && member.initializer === undefined) {
        if (classId !== null) this.fieldType(classId, propertyNameText(sf, member.name), typeRefText(member.type), true);
      } else if (ts.isPropertyDeclaration(member) && member.initializer !== undefined) {
        if (classId !== null) {
          this.fieldType(classId, propertyNameText(sf, member.name), typeRefText(member.type) ?? constructedType(member.initializer), true);
        }
        const init = unwrap(member.initializer);
        if (classId !== null && name !== null && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) {
          const memberName = propertyNameText(sf, member.name);
          const isStatic = hasModifier(member, ts.SyntaxKind.StaticKeyword) ? 'static ' : '';
          const isAsync = hasModifier(init, ts.SyntaxKind.AsyncKeyword) ? 'async ' : '';
          this.declareFunction(init, 'method', memberName, classScope, member,
            this.signature(init, `${isStatic}${isAsync}${name}.${memberName}`), member);
        } else {
          this.visit(member.initializer, classScope);
        }
      } else if (ts.isClassStaticBlockDeclaration(member)) {
        this.visit(member.body, classScope);
      }
    }
    return classId;
  }

  // ---------------------------------------------------------------- traversal
  /** Visits one syntax node in a scope: declarations, module references, calls, nested code. */
  visit(node: ts.Node, scope: Scope): void {
    switch (node.kind) {
      case ts.SyntaxKind.FunctionDeclaration:
        this.visitFunctionDeclaration(node as ts.FunctionDeclaration, scope);
        return;
      case ts.SyntaxKind.ClassDeclaration:
        this.visitClassDeclaration(node as ts.ClassDeclaration, scope);
        return;
      case ts.SyntaxKind.ClassExpression: {
        const cls = node as ts.ClassExpression;
        this.visitClass(cls, cls.name?.text ?? null, scope, cls);
        return;
      }
      case ts.SyntaxKind.InterfaceDeclaration:
        this.visitInterface(node as ts.InterfaceDeclaration, scope);
        return;
      case ts.SyntaxKind.TypeAliasDeclaration:
        return this.visitTypeAlias(node as ts.TypeAliasDeclaration, scope);
      case ts.SyntaxKind.ModuleDeclaration:
        this.visitModuleDeclaration(node as ts.ModuleDeclaration, scope);
        return;
      case ts.SyntaxKind.VariableStatement: {
        const stmt = node as ts.VariableStatement;
        this.visitVariables(stmt.declarationList, scope, stmt);
        return;
      }
      case ts.SyntaxKind.VariableDeclarationList:
        this.visitVariables(node as ts.VariableDeclarationList, scope, null);
        return;
      case ts.SyntaxKind.ExpressionStatement:
        this.visitExpressionStatement(node as ts.ExpressionStatement, scope);
        return;
      case ts.SyntaxKind.ImportDeclaration:
        recordImport(this, node as ts.ImportDeclaration);
        return;
      case ts.SyntaxKind.ImportEqualsDeclaration:
        recordImportEquals(this, node as ts.ImportEqualsDeclaration);
        return;
      case ts.SyntaxKind.ExportDeclaration:
        recordExportDeclaration(this, node as ts.ExportDeclaration);
        return;
      case ts.SyntaxKind.ExportAssignment:
        this.visitExportAssignment(node as ts.ExportAssignment, scope);
        return;
      case ts.SyntaxKind.CallExpression:
        visitCall(this, node as ts.CallExpression, scope);
        return;
      case ts.SyntaxKind.NewExpression:
        visitNew(this, node as ts.NewExpression, scope);
        return;
      case ts.SyntaxKind.PropertyAccessExpression:
        this.visitPropertyAccess(node as ts.PropertyAccessExpression, scope);
        return;
      case ts.SyntaxKind.ArrowFunction:
        this.visitFunctionParts(node as ts.ArrowFunction, { ...scope, topLevel: false });
        return;
      case ts.SyntaxKind.FunctionExpression:
      case ts.SyntaxKind.MethodDeclaration:
      case ts.SyntaxKind.GetAccessor:
      case ts.SyntaxKind.SetAccessor:
      case ts.SyntaxKind.Constructor:
        // A nested non-arrow function rebinds `this`.
        this.visitFunctionParts(node as ts.FunctionLikeDeclaration, { ...scope, topLevel: false, thisOf: null });
        return;
      case ts.SyntaxKind.CatchClause: {
        const clause = node as ts.CatchClause;
        if (clause.variableDeclaration) this.shadow(scope.ownerId, boundNames(clause.variableDeclaration.name));
        this.visit(clause.block, scope);
        return;
      }
      case ts.SyntaxKind.StringLiteral:
      case ts.SyntaxKind.NumericLiteral:
      case ts.SyntaxKind.TypeReference:
        return;
      default:
        if (node.kind >= ts.SyntaxKind.FirstTypeNode && node.kind <= ts.SyntaxKind.LastTypeNode) return;
        noteValueUse(this, node, scope);
        ts.forEachChild(node, (child) => this.visit(child, scope));
    }
  }

  /** A function declaration: a declared function (exported at top level when marked), or only its parts when anonymous. */
  private visitFunctionDeclaration(fn: ts.FunctionDeclaration, scope: Scope): void {
    const sf = this.sf;
    const isDefault = hasModifier(fn, ts.SyntaxKind.DefaultKeyword);
    const name = fn.name?.text ?? (isDefault ? 'default' : null);
    if (name === null) {
      this.visitFunctionParts(fn, { ...scope, topLevel: false, thisOf: null });
      return;
    }
    const id = this.declareFunction(fn, 'function', name, scope, fn, this.functionSignature(fn, name));
    if (scope.topLevel && hasModifier(fn, ts.SyntaxKind.ExportKeyword)) {
      this.addCap(id, 'exported');
      this.exportsList.push({ name: isDefault ? 'default' : name, local: name, specifier: null, imported: null, line: lineAt(sf, fn.getStart(sf)) });
    }
  }

  /** A class declaration, exported at top level when marked. */
  private visitClassDeclaration(cls: ts.ClassDeclaration, scope: Scope): void {
    const sf = this.sf;
    const isDefault = hasModifier(cls, ts.SyntaxKind.DefaultKeyword);
    const name = cls.name?.text ?? (isDefault ? 'default' : null);
    const id = this.visitClass(cls, name, scope, cls);
    if (id !== null && name !== null && scope.topLevel && hasModifier(cls, ts.SyntaxKind.ExportKeyword)) {
      this.addCap(id, 'exported');
      this.exportsList.push({ name: isDefault ? 'default' : name, local: name, specifier: null, imported: null, line: lineAt(sf, cls.getStart(sf)) });
    }
  }

  /** An interface: its node (signature summary), members, `extends` heritage and export. */
  private visitInterface(decl: ts.InterfaceDeclaration, scope: Scope): void {
    const sf = this.sf;
    const name = decl.name.text;
    const typeParams = decl.typeParameters ? `<${decl.typeParameters.map((t) => sf.text.slice(t.getStart(sf), t.end)).join(', ')}>` : '';
    const ext = decl.heritageClauses?.flatMap((c) => c.types.map((t) => sf.text.slice(t.getStart(sf), t.end))) ?? [];
    const summary = `interface ${name}${typeParams}${ext.length ? ` extends ${ext.join(', ')}` : ''}`;
    const { id } = this.addDecl('interface', name, scope, decl, summary, decl, true);
    this.recordTypeParams(id, decl.typeParameters);
    this.visitInterfaceMembers(decl, id, { ...scope, declId: id, prefix: this.qualified(scope, name), topLevel: false, thisOf: null });
    for (const clause of decl.heritageClauses ?? []) {
      for (const type of clause.types) {
        const target = dottedName(type.expression);
        if (target !== null) this.heritage.push({ id, relation: 'inherits', name: target, line: lineAt(sf, type.getStart(sf)) });
      }
    }
    if (scope.topLevel && hasModifier(decl, ts.SyntaxKind.ExportKeyword)) {
      this.addCap(id, 'exported');
      const isDefault = hasModifier(decl, ts.SyntaxKind.DefaultKeyword);
      this.exportsList.push({ name: isDefault ? 'default' : name, local: name, specifier: null, imported: null, line: lineAt(sf, decl.getStart(sf)) });
    }
  }

  /** A namespace (its members qualified by its name) or an ambient module `declare module 'x'` (not qualified). */
  private visitModuleDeclaration(decl: ts.ModuleDeclaration, scope: Scope): void {
    if (ts.isStringLiteral(decl.name)) {
      if (decl.body) this.visit(decl.body, { ...scope, topLevel: false });
      return;
    }
    const inner: Scope = { ...scope, prefix: this.qualified(scope, decl.name.text), topLevel: false };
    if (decl.body) this.visit(decl.body, inner);
  }

  /** The declarations of a variable list; `statement` (a `var`/`let`/`const` statement) carries the export and the doc comment, else each declaration does. */
  private visitVariables(list: ts.VariableDeclarationList, scope: Scope, statement: ts.VariableStatement | null): void {
    const exported = statement !== null && scope.topLevel && hasModifier(statement, ts.SyntaxKind.ExportKeyword);
    const isConst = (list.flags & ts.NodeFlags.Const) !== 0;
    for (const decl of list.declarations) this.visitVariable(decl, scope, exported, statement ?? decl, isConst);
  }

  /** `export default x` or `export = x`. */
  private visitExportAssignment(decl: ts.ExportAssignment, scope: Scope): void {
    const sf = this.sf;
    const exportName = decl.isExportEquals ? '=' : 'default';
    const line = lineAt(sf, decl.getStart(sf));
    exportValue(this, exportName, decl.expression, scope, decl, line);
  }

  /** A member access: `require.main` / `import.meta.main` mark an entrypoint; the object is visited. */
  private visitPropertyAccess(access: ts.PropertyAccessExpression, scope: Scope): void {
    if (ts.isIdentifier(access.expression) && access.expression.text === 'require' && access.name.text === 'main') this.entrypoint = true;
    if (ts.isMetaProperty(access.expression) && access.name.text === 'main') this.entrypoint = true;
    this.visit(access.expression, scope);
  }

  /** An expression statement: an assignment that declares something (CommonJS exports, prototype members) or plain code. */
  private visitExpressionStatement(node: ts.ExpressionStatement, scope: Scope): void {
    const expr = node.expression;
    if (ts.isBinaryExpression(expr) && expr.operatorToken.kind === ts.SyntaxKind.EqualsToken
      && visitAssignment(this, expr, scope, node)) {
      return;
    }
    if (ts.isBinaryExpression(expr)) this.recordThisAssignment(expr, scope);
    this.visit(expr, scope);
  }

  private visitVariable(decl: ts.VariableDeclaration, scope: Scope, exported: boolean, docNode: ts.Node, isConst: boolean): void {
    const sf = this.sf;
    const init = decl.initializer ? unwrap(decl.initializer) : undefined;
    const line = lineAt(sf, decl.getStart(sf));
    if (ts.isIdentifier(decl.name)) {
      const name = decl.name.text;
      if (init !== undefined && scope.topLevel && isPlainAssignment(init) && visitExportChain(this, name, init, scope, docNode, line)) {
        if (exported) this.exportsList.push({ name, local: name, specifier: null, imported: null, line });
        return;
      }
      noteObjectVariable(this, name, init, scope);
      const literalInit = isConst && scope.topLevel && init !== undefined && ts.isObjectLiteralExpression(init) ? init : null;
      if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) {
        const span = ts.isVariableStatement(docNode) && docNode.declarationList.declarations.length === 1 ? docNode : decl;
        const id = this.declareFunction(init, 'function', name, scope, docNode, this.functionSignature(init, name), span);
        if (exported) this.addCap(id, 'exported');
      } else if (init && ts.isClassExpression(init)) {
        const id = this.visitClass(init, name, scope, docNode);
        if (exported && id !== null) this.addCap(id, 'exported');
      } else {
        const specifier = requireSpecifier(init);
        const dynamic = specifier === null ? dynamicImportSpecifier(init) : null;
        if (specifier !== null) {
          this.bindings.push({ local: name, specifier, imported: '=' });
          if (isConst && scope.topLevel) this.constRequires.set(name, this.constRequires.has(name) ? null : specifier);
        } else if (dynamic !== null) {
          this.bindings.push({ local: name, specifier: dynamic, imported: '*' });
        } else if (init && ts.isPropertyAccessExpression(init) && requireSpecifier(init.expression) !== null) {
          this.bindings.push({ local: name, specifier: requireSpecifier(init.expression)!, imported: init.name.text });
        } else {
          // A const (or a TypeScript let/var, whose type TypeScript enforces) with an annotation or `new X()`; a module-level const object literal, or a const made by `Object.create` (literals.ts).
          const type = typeRefText(decl.type) ?? (this.language === 'javascript' ? jsDocVariableType(sf, docNode) : null) ?? (literalInit !== null ? `literal:${name}` : null) ?? (isConst ? protoType(init, scope) : null)
            ?? (isConst || this.language === 'typescript' ? constructedType(decl.initializer, scope.thisOf) : null);
          this.bindTyped(scope.ownerId, name, type);
          if (isConst && scope.topLevel) this.moduleConsts.add(name);
          if (literalInit !== null) visitConstLiteral(this, name, literalInit, scope);
          else if (isConst && init !== undefined && ts.isObjectLiteralExpression(init)) this.objectConst(scope.ownerId, name, init);
          if (isConst && scope.topLevel) {
            this.moduleConsts.add(name);
            for (const symbol of symbolNames(name, init)) this.moduleSymbols.add(symbol);
          }
        }
        if (init && init !== literalInit) this.visit(init, scope);
      }
      if (exported) this.exportsList.push({ name, local: name, specifier: null, imported: null, line });
      return;
    }
    // `const { a } = mod` of a module-level `const mod = require('./m')` binds `a` as `const { a } = require('./m')` does.
    const moduleConst = init !== undefined && ts.isIdentifier(init) && isConst && scope.topLevel ? this.constRequires.get(init.text) ?? null : null;
    const specifier = requireSpecifier(init) ?? dynamicImportSpecifier(init) ?? moduleConst;
    if (specifier !== null && ts.isObjectBindingPattern(decl.name)) {
      for (const element of decl.name.elements) {
        if (!ts.isIdentifier(element.name) || element.dotDotDotToken) continue;
        const imported = element.propertyName ? propertyNameText(sf, element.propertyName) : element.name.text;
        this.bindings.push({ local: element.name.text, specifier, imported });
      }
    } else {
      const names = boundNames(decl.name);
      this.shadow(scope.ownerId, names);
      if (exported) for (const name of names) this.exportsList.push({ name, local: name, specifier: null, imported: null, line });
    }
    if (init) this.visit(init, scope);
  }
}
