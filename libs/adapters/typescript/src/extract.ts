import ts from 'typescript';
import { withContentHash } from '@docforge/core';
import type { CodeExtractInput, GraphEdge, GraphNode, LogicFlow, LogicStep, ParsedSource, SourceIssue } from '@docforge/core';
import { buildFunctionLogic } from './logic.js';
import { extractLexical } from './lexical.js';
import type {
  TsBinding, TsCallShape, TsCallSite, TsDeclRecord, TsExportRecord, TsHeritageRecord, TsImportRecord, TsLinkData,
} from './link-data.js';
import {
  boundNames, dottedName, dynamicImportSpecifier, hasModifier, leadingJsDoc, lineAt, literalText, nodeLines, oneLine,
  propertyNameText, requireSpecifier, unwrap,
} from './syntax.js';

/** What {@link extractTypeScript} returns: the ParsedSource fields other than file identity. */
export type TsExtractResult = Pick<ParsedSource, 'nodes' | 'edges' | 'issues' | 'logic_steps' | 'logic_flows' | 'link_data'>;

const TS_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts'];
const MAX_SYNTAX_ISSUES = 20;
const MAX_SUMMARY = 200;
const TEST_CALLEES = new Set(['test', 'it', 'describe', 'suite', 'beforeEach', 'afterEach', 'before', 'after']);

/** `typescript` for .ts/.tsx/.mts/.cts, `javascript` otherwise. */
export function languageOf(path: string): 'typescript' | 'javascript' {
  return TS_EXTENSIONS.some((ext) => path.endsWith(ext)) ? 'typescript' : 'javascript';
}

/** Whether a path is a declaration file (`.d.ts`, `.d.mts`, `.d.cts`). */
export function isDeclarationPath(path: string): boolean {
  return /\.d\.[mc]?ts$/.test(path);
}

/**
 * Test-file rule: any directory segment `test`, `tests` or `__tests__`, or a file name
 * `*.test.*` / `*.spec.*`.
 */
export function isTestPath(path: string): boolean {
  const parts = path.split('/');
  const base = parts[parts.length - 1] ?? '';
  if (/\.(test|spec)\.[^.]+$/.test(base)) return true;
  return parts.slice(0, -1).some((p) => p === 'test' || p === 'tests' || p === '__tests__');
}

/**
 * Entrypoint rule at extraction time (package.json is not visible here): a shebang, a
 * `require.main === module` / `import.meta.main` check, a file under a `bin/` directory, a file
 * named `main.*` or `cli.*`, or an `index.*` at the project root or directly under `src/`.
 */
export function isEntrypointPath(path: string): boolean {
  const parts = path.split('/');
  const base = parts[parts.length - 1] ?? '';
  const stem = base.replace(/\.[^.]+$/, '');
  if (stem === 'main' || stem === 'cli') return true;
  if (parts.slice(0, -1).includes('bin')) return true;
  return stem === 'index' && (parts.length === 1 || (parts.length === 2 && parts[0] === 'src'));
}

function scriptKindOf(path: string): ts.ScriptKind {
  if (path.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (path.endsWith('.jsx')) return ts.ScriptKind.JSX;
  if (TS_EXTENSIONS.some((ext) => path.endsWith(ext))) return ts.ScriptKind.TS;
  return ts.ScriptKind.JS;
}

/**
 * Extracts one TypeScript/JavaScript file: module, class, interface, function and method nodes;
 * `contains` and `defines` edges; Logic when `input.logic` (never for declaration files); and
 * the adapter-private link data. Pure and deterministic; never throws (a syntax problem becomes
 * a `syntax_error` warning and the parsed part is still extracted; an internal failure becomes an
 * `extraction_failed` warning with only the module node). With `input.strategy === 'lexical'` it
 * delegates to {@link extractLexical}: module node and module references only, no AST, no Logic.
 */
export function extractTypeScript(input: CodeExtractInput): TsExtractResult {
  // Strategy `lexical`: no compiler AST at all (see lexical.ts).
  if (input.strategy === 'lexical') return extractLexical(input);
  try {
    return new Extractor(input).run();
  } catch (error) {
    const moduleId = `code:${input.path}`;
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

function moduleNode(path: string, lines: number, isTest: boolean, entry: boolean): Omit<GraphNode, 'content_hash'> {
  const capabilities: string[] = [];
  if (entry) capabilities.push('entrypoint');
  if (isTest) capabilities.push('test');
  return {
    id: `code:${path}`,
    kind: 'module',
    title: path,
    family: null,
    authority: null,
    status: null,
    tags: [],
    summary: `module ${path}`,
    body: '',
    source_path: path,
    start_line: 1,
    end_line: Math.max(1, lines),
    anchors: [],
    language: languageOf(path),
    capabilities,
    origin: 'code',
  };
}

interface Scope {
  /** Call attribution: nearest function/method node id, or the module id. */
  ownerId: string;
  /** Nearest declaration node id (parent for `contains`), or null for the module. */
  declId: string | null;
  /** Qualified-name prefix for declarations in this scope ('' at module level). */
  prefix: string;
  /** Directly at module level (not inside any function, class or callback). */
  topLevel: boolean;
}

interface DeclState {
  record: TsDeclRecord;
  node: Omit<GraphNode, 'content_hash'>;
  /** Open for overload merging: created from a bodiless signature (or an interface). */
  open: boolean;
  caps: Set<string>;
}

type FunctionLikeWithBody = ts.FunctionLikeDeclaration;

class Extractor {
  private readonly path: string;
  private readonly moduleId: string;
  private readonly sf: ts.SourceFile;
  private readonly language: 'typescript' | 'javascript';
  private readonly isDts: boolean;
  private readonly isTest: boolean;
  private readonly logic: boolean;
  private entrypoint = false;

  private readonly decls = new Map<string, DeclState>();
  private readonly order: string[] = [];
  private readonly edges: GraphEdge[] = [];
  private readonly issues: SourceIssue[] = [];
  private readonly steps: LogicStep[] = [];
  private readonly flows: LogicFlow[] = [];
  private readonly imports: TsImportRecord[] = [];
  private readonly bindings: TsBinding[] = [];
  private readonly exportsList: TsExportRecord[] = [];
  private readonly calls: TsCallSite[] = [];
  private readonly heritage: TsHeritageRecord[] = [];
  private readonly shadows = new Map<string, Set<string>>();
  /** Module-level declaration names → node id (for prototype methods and export marking). */
  private readonly topDecls = new Map<string, string>();
  private readonly testCalled = new Set<string>();

  constructor(input: CodeExtractInput) {
    this.path = input.path;
    this.moduleId = `code:${input.path}`;
    this.language = languageOf(input.path);
    this.isDts = isDeclarationPath(input.path);
    this.isTest = isTestPath(input.path);
    this.logic = input.logic && input.strategy === 'ast' && !this.isDts;
    this.sf = ts.createSourceFile(input.path, input.content, {
      languageVersion: ts.ScriptTarget.Latest,
      jsDocParsingMode: ts.JSDocParsingMode.ParseNone,
    }, false, scriptKindOf(input.path));
    this.entrypoint = input.content.startsWith('#!') || isEntrypointPath(input.path);
  }

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
    const scope: Scope = { ownerId: this.moduleId, declId: null, prefix: '', topLevel: true };
    for (const statement of sf.statements) this.visit(statement, scope);
    return this.finish();
  }

  // ---------------------------------------------------------------- declarations

  private qualified(scope: Scope, name: string): string {
    return scope.prefix === '' ? name : `${scope.prefix}.${name}`;
  }

  /**
   * Creates (or, for overloads, extends) a declaration node and its `contains` edge.
   * @returns the node id and whether an existing overload node was extended
   */
  private addDecl(
    kind: TsDeclRecord['kind'], name: string, scope: Scope, span: ts.Node, summary: string, docNode: ts.Node,
    overloadable: boolean, hasBody = false,
  ): { id: string; merged: boolean } {
    const qname = this.qualified(scope, name);
    let id = `${this.moduleId}#${qname}`;
    const [start, end] = nodeLines(this.sf, span);
    const existing = this.decls.get(id);
    if (existing !== undefined) {
      if (overloadable && existing.open && existing.record.kind === kind) {
        existing.open = kind === 'interface' || !hasBody;
        existing.node.end_line = Math.max(existing.node.end_line, end);
        existing.node.summary = oneLine(summary, MAX_SUMMARY);
        if (existing.node.body === '') existing.node.body = leadingJsDoc(this.sf, docNode);
        return { id, merged: true };
      }
      let n = 2;
      while (this.decls.has(`${this.moduleId}#${qname}~${n}`)) n += 1;
      id = `${this.moduleId}#${qname}~${n}`;
    }
    const record: TsDeclRecord = { id, name, kind, parent: scope.declId };
    const node: Omit<GraphNode, 'content_hash'> = {
      id,
      kind,
      title: name,
      family: null,
      authority: null,
      status: null,
      tags: [],
      summary: oneLine(summary, MAX_SUMMARY),
      body: leadingJsDoc(this.sf, docNode),
      source_path: this.path,
      start_line: start,
      end_line: end,
      anchors: [],
      language: this.language,
      capabilities: [],
      origin: 'code',
    };
    this.decls.set(id, { record, node, open: overloadable && (kind === 'interface' || !hasBody), caps: new Set() });
    this.order.push(id);
    this.edges.push({ source_id: scope.declId ?? this.moduleId, relation: 'contains', target_id: id, source_path: this.path, line: start });
    if (scope.declId === null && !this.topDecls.has(name)) this.topDecls.set(name, id);
    return { id, merged: false };
  }

  private addCap(id: string, cap: string): void {
    this.decls.get(id)?.caps.add(cap);
  }

  private shadow(ownerId: string, names: readonly string[]): void {
    if (names.length === 0) return;
    let set = this.shadows.get(ownerId);
    if (set === undefined) {
      set = new Set();
      this.shadows.set(ownerId, set);
    }
    for (const name of names) set.add(name);
  }

  private signature(fn: ts.SignatureDeclaration, head: string): string {
    const params = fn.parameters.map((p) => this.sf.text.slice(p.getStart(this.sf), p.end)).join(', ');
    const returnType = fn.type ? `: ${this.sf.text.slice(fn.type.getStart(this.sf), fn.type.end)}` : '';
    return oneLine(`${head}(${params})${returnType}`, MAX_SUMMARY);
  }

  private functionSignature(fn: ts.SignatureDeclaration, name: string): string {
    const isAsync = hasModifier(fn, ts.SyntaxKind.AsyncKeyword) ? 'async ' : '';
    const star = (fn as ts.FunctionLikeDeclarationBase).asteriskToken ? '*' : '';
    return this.signature(fn, `${isAsync}function${star} ${name}`);
  }

  private methodSignature(fn: ts.SignatureDeclaration, owner: string, name: string): string {
    const mods: string[] = [];
    if (hasModifier(fn, ts.SyntaxKind.StaticKeyword)) mods.push('static');
    if (hasModifier(fn, ts.SyntaxKind.AsyncKeyword)) mods.push('async');
    if (ts.isGetAccessor(fn)) mods.push('get');
    if (ts.isSetAccessor(fn)) mods.push('set');
    const star = (fn as ts.FunctionLikeDeclarationBase).asteriskToken ? '*' : '';
    const prefix = mods.length > 0 ? `${mods.join(' ')} ` : '';
    return this.signature(fn, `${prefix}${star}${owner}.${name}`);
  }

  /**
   * Declares a function or method node for a function-like, then visits its body with it as
   * owner and builds its Logic.
   */
  private declareFunction(
    fn: FunctionLikeWithBody, kind: 'function' | 'method', name: string, scope: Scope, docNode: ts.Node,
    summary: string, span: ts.Node = fn,
  ): string {
    const overloadable = ts.isFunctionDeclaration(fn) || ts.isMethodDeclaration(fn) || ts.isConstructorDeclaration(fn);
    const { id, merged } = this.addDecl(kind, name, scope, span, summary, docNode, overloadable, fn.body !== undefined);
    if (hasModifier(fn, ts.SyntaxKind.AsyncKeyword)) this.addCap(id, 'async');
    if ((fn as ts.FunctionLikeDeclarationBase).asteriskToken) this.addCap(id, 'generator');
    if (merged && fn.body === undefined) return id;
    const inner: Scope = { ownerId: id, declId: id, prefix: this.qualified(scope, name), topLevel: false };
    this.visitFunctionParts(fn, inner);
    if (this.logic && fn.body !== undefined) {
      const logic = buildFunctionLogic(this.sf, id, fn, summary);
      if (logic) {
        this.steps.push(...logic.steps);
        this.flows.push(...logic.flows);
      }
    }
    return id;
  }

  private visitFunctionParts(fn: ts.SignatureDeclaration & { body?: ts.Node | undefined }, scope: Scope): void {
    const params: string[] = [];
    for (const p of fn.parameters) {
      boundNames(p.name, params);
      if (p.initializer) this.visit(p.initializer, scope);
    }
    this.shadow(scope.ownerId, params);
    if (fn.body !== undefined) this.visit(fn.body, scope);
  }

  private visitClass(node: ts.ClassLikeDeclaration, name: string | null, scope: Scope, docNode: ts.Node): string | null {
    const sf = this.sf;
    let classId: string | null = null;
    let classScope: Scope = { ...scope, topLevel: false };
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
      classScope = { ownerId: scope.ownerId, declId: classId, prefix: this.qualified(scope, name), topLevel: false };
    }
    for (const member of node.members) {
      if (ts.isMethodDeclaration(member) || ts.isConstructorDeclaration(member) || ts.isGetAccessorDeclaration(member)
        || ts.isSetAccessorDeclaration(member)) {
        const memberName = ts.isConstructorDeclaration(member) ? 'constructor' : propertyNameText(sf, member.name);
        if (classId !== null && name !== null) {
          this.declareFunction(member, 'method', memberName, classScope, member, this.methodSignature(member, name, memberName));
        } else {
          this.visitFunctionParts(member, { ...scope, topLevel: false });
        }
      } else if (ts.isPropertyDeclaration(member) && member.initializer !== undefined) {
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

  private visit(node: ts.Node, scope: Scope): void {
    const sf = this.sf;
    switch (node.kind) {
      case ts.SyntaxKind.FunctionDeclaration: {
        const fn = node as ts.FunctionDeclaration;
        const isDefault = hasModifier(fn, ts.SyntaxKind.DefaultKeyword);
        const name = fn.name?.text ?? (isDefault ? 'default' : null);
        if (name === null) {
          this.visitFunctionParts(fn, { ...scope, topLevel: false });
          return;
        }
        const id = this.declareFunction(fn, 'function', name, scope, fn, this.functionSignature(fn, name));
        if (scope.topLevel && hasModifier(fn, ts.SyntaxKind.ExportKeyword)) {
          this.addCap(id, 'exported');
          this.exportsList.push({ name: isDefault ? 'default' : name, local: name, specifier: null, imported: null, line: lineAt(sf, fn.getStart(sf)) });
        }
        return;
      }
      case ts.SyntaxKind.ClassDeclaration: {
        const cls = node as ts.ClassDeclaration;
        const isDefault = hasModifier(cls, ts.SyntaxKind.DefaultKeyword);
        const name = cls.name?.text ?? (isDefault ? 'default' : null);
        const id = this.visitClass(cls, name, scope, cls);
        if (id !== null && name !== null && scope.topLevel && hasModifier(cls, ts.SyntaxKind.ExportKeyword)) {
          this.addCap(id, 'exported');
          this.exportsList.push({ name: isDefault ? 'default' : name, local: name, specifier: null, imported: null, line: lineAt(sf, cls.getStart(sf)) });
        }
        return;
      }
      case ts.SyntaxKind.ClassExpression: {
        const cls = node as ts.ClassExpression;
        this.visitClass(cls, cls.name?.text ?? null, scope, cls);
        return;
      }
      case ts.SyntaxKind.InterfaceDeclaration: {
        const decl = node as ts.InterfaceDeclaration;
        const name = decl.name.text;
        const typeParams = decl.typeParameters ? `<${decl.typeParameters.map((t) => sf.text.slice(t.getStart(sf), t.end)).join(', ')}>` : '';
        const ext = decl.heritageClauses?.flatMap((c) => c.types.map((t) => sf.text.slice(t.getStart(sf), t.end))) ?? [];
        const summary = `interface ${name}${typeParams}${ext.length ? ` extends ${ext.join(', ')}` : ''}`;
        const { id } = this.addDecl('interface', name, scope, decl, summary, decl, true);
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
        return;
      }
      case ts.SyntaxKind.TypeAliasDeclaration:
        return;
      case ts.SyntaxKind.ModuleDeclaration: {
        const decl = node as ts.ModuleDeclaration;
        if (ts.isStringLiteral(decl.name)) {
          if (decl.body) this.visit(decl.body, { ...scope, topLevel: false });
          return;
        }
        const inner: Scope = { ...scope, prefix: this.qualified(scope, decl.name.text), topLevel: false };
        if (decl.body) this.visit(decl.body, inner);
        return;
      }
      case ts.SyntaxKind.VariableStatement: {
        const stmt = node as ts.VariableStatement;
        const exported = scope.topLevel && hasModifier(stmt, ts.SyntaxKind.ExportKeyword);
        for (const decl of stmt.declarationList.declarations) this.visitVariable(decl, scope, exported, stmt);
        return;
      }
      case ts.SyntaxKind.VariableDeclarationList: {
        for (const decl of (node as ts.VariableDeclarationList).declarations) this.visitVariable(decl, scope, false, decl);
        return;
      }
      case ts.SyntaxKind.ExpressionStatement: {
        const expr = (node as ts.ExpressionStatement).expression;
        if (ts.isBinaryExpression(expr) && expr.operatorToken.kind === ts.SyntaxKind.EqualsToken
          && this.visitAssignment(expr, scope, node)) {
          return;
        }
        this.visit(expr, scope);
        return;
      }
      case ts.SyntaxKind.ImportDeclaration: {
        const decl = node as ts.ImportDeclaration;
        const specifier = literalText(decl.moduleSpecifier);
        if (specifier === null) return;
        this.imports.push({ specifier, line: lineAt(sf, decl.getStart(sf)), kind: 'import' });
        const clause = decl.importClause;
        if (clause) {
          if (clause.name) this.bindings.push({ local: clause.name.text, specifier, imported: 'default' });
          const named = clause.namedBindings;
          if (named && ts.isNamespaceImport(named)) {
            this.bindings.push({ local: named.name.text, specifier, imported: '*' });
          } else if (named) {
            for (const element of named.elements) {
              this.bindings.push({ local: element.name.text, specifier, imported: (element.propertyName ?? element.name).text });
            }
          }
        }
        return;
      }
      case ts.SyntaxKind.ImportEqualsDeclaration: {
        const decl = node as ts.ImportEqualsDeclaration;
        if (ts.isExternalModuleReference(decl.moduleReference)) {
          const specifier = literalText(decl.moduleReference.expression);
          if (specifier !== null) {
            this.imports.push({ specifier, line: lineAt(sf, decl.getStart(sf)), kind: 'require' });
            this.bindings.push({ local: decl.name.text, specifier, imported: '=' });
          }
        }
        return;
      }
      case ts.SyntaxKind.ExportDeclaration: {
        const decl = node as ts.ExportDeclaration;
        const line = lineAt(sf, decl.getStart(sf));
        const specifier = decl.moduleSpecifier ? literalText(decl.moduleSpecifier) : null;
        if (specifier !== null) this.imports.push({ specifier, line, kind: 'export' });
        const clause = decl.exportClause;
        if (clause === undefined) {
          if (specifier !== null) this.exportsList.push({ name: '*', local: null, specifier, imported: '*', line });
        } else if (ts.isNamespaceExport(clause)) {
          if (specifier !== null) this.exportsList.push({ name: clause.name.text, local: null, specifier, imported: '*', line });
        } else {
          for (const element of clause.elements) {
            const name = element.name.text;
            const source = (element.propertyName ?? element.name).text;
            if (specifier !== null) this.exportsList.push({ name, local: null, specifier, imported: source, line });
            else this.exportsList.push({ name, local: source, specifier: null, imported: null, line });
          }
        }
        return;
      }
      case ts.SyntaxKind.ExportAssignment: {
        const decl = node as ts.ExportAssignment;
        const exportName = decl.isExportEquals ? '=' : 'default';
        const line = lineAt(sf, decl.getStart(sf));
        this.exportValue(exportName, decl.expression, scope, decl, line);
        return;
      }
      case ts.SyntaxKind.CallExpression:
        this.visitCall(node as ts.CallExpression, scope);
        return;
      case ts.SyntaxKind.NewExpression: {
        const expr = node as ts.NewExpression;
        const callee = unwrap(expr.expression);
        const dotted = dottedName(callee);
        const line = lineAt(sf, expr.getStart(sf));
        if (dotted !== null) {
          const dot = dotted.lastIndexOf('.');
          this.calls.push({
            owner: scope.ownerId, shape: 'new', name: dot < 0 ? dotted : dotted.slice(dot + 1),
            object: dot < 0 ? null : dotted.slice(0, dot), line,
          });
        } else {
          this.calls.push({ owner: scope.ownerId, shape: 'other', name: '', object: null, line });
          this.visit(expr.expression, scope);
        }
        for (const arg of expr.arguments ?? []) this.visit(arg, scope);
        return;
      }
      case ts.SyntaxKind.PropertyAccessExpression: {
        const access = node as ts.PropertyAccessExpression;
        if (ts.isIdentifier(access.expression) && access.expression.text === 'require' && access.name.text === 'main') this.entrypoint = true;
        if (ts.isMetaProperty(access.expression) && access.name.text === 'main') this.entrypoint = true;
        this.visit(access.expression, scope);
        return;
      }
      case ts.SyntaxKind.ArrowFunction:
      case ts.SyntaxKind.FunctionExpression:
      case ts.SyntaxKind.MethodDeclaration:
      case ts.SyntaxKind.GetAccessor:
      case ts.SyntaxKind.SetAccessor:
      case ts.SyntaxKind.Constructor:
        this.visitFunctionParts(node as ts.FunctionLikeDeclaration, { ...scope, topLevel: false });
        return;
      case ts.SyntaxKind.CatchClause: {
        const clause = node as ts.CatchClause;
        if (clause.variableDeclaration) this.shadow(scope.ownerId, boundNames(clause.variableDeclaration.name));
        this.visit(clause.block, scope);
        return;
      }
      case ts.SyntaxKind.Identifier:
      case ts.SyntaxKind.StringLiteral:
      case ts.SyntaxKind.NumericLiteral:
      case ts.SyntaxKind.TypeReference:
        return;
      default:
        if (node.kind >= ts.SyntaxKind.FirstTypeNode && node.kind <= ts.SyntaxKind.LastTypeNode) return;
        ts.forEachChild(node, (child) => this.visit(child, scope));
    }
  }

  private visitVariable(decl: ts.VariableDeclaration, scope: Scope, exported: boolean, docNode: ts.Node): void {
    const sf = this.sf;
    const init = decl.initializer ? unwrap(decl.initializer) : undefined;
    const line = lineAt(sf, decl.getStart(sf));
    if (ts.isIdentifier(decl.name)) {
      const name = decl.name.text;
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
        } else if (dynamic !== null) {
          this.bindings.push({ local: name, specifier: dynamic, imported: '*' });
        } else if (init && ts.isPropertyAccessExpression(init) && requireSpecifier(init.expression) !== null) {
          this.bindings.push({ local: name, specifier: requireSpecifier(init.expression)!, imported: init.name.text });
        } else {
          this.shadow(scope.ownerId, [name]);
        }
        if (init) this.visit(init, scope);
      }
      if (exported) this.exportsList.push({ name, local: name, specifier: null, imported: null, line });
      return;
    }
    const specifier = requireSpecifier(init) ?? dynamicImportSpecifier(init);
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

  /** CommonJS export target of an assignment left side: `=` for `module.exports`, a name for `exports.x`. */
  private cjsExportName(left: ts.Expression): string | null {
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
  private visitAssignment(expr: ts.BinaryExpression, scope: Scope, statement: ts.Node): boolean {
    const sf = this.sf;
    const line = lineAt(sf, expr.getStart(sf));
    const exportName = this.cjsExportName(expr.left);
    if (exportName !== null) {
      this.exportValue(exportName, expr.right, scope, statement, line);
      return true;
    }
    const left = unwrap(expr.left);
    const right = unwrap(expr.right);
    if (scope.topLevel && ts.isPropertyAccessExpression(left) && ts.isIdentifier(left.name)
      && (ts.isFunctionExpression(right) || ts.isArrowFunction(right))) {
      const objectText = dottedName(left.expression);
      if (objectText !== null) {
        const owner = objectText.endsWith('.prototype') ? objectText.slice(0, -'.prototype'.length) : objectText;
        const ownerId = owner.includes('.') ? undefined : this.topDecls.get(owner);
        const ownerDecl = ownerId === undefined ? undefined : this.decls.get(ownerId);
        if (ownerDecl !== undefined && (ownerDecl.record.kind === 'function' || ownerDecl.record.kind === 'class')) {
          const methodName = left.name.text;
          const methodScope: Scope = { ownerId: scope.ownerId, declId: ownerDecl.record.id, prefix: owner, topLevel: false };
          const isAsync = hasModifier(right, ts.SyntaxKind.AsyncKeyword) ? 'async ' : '';
          const isStatic = objectText.endsWith('.prototype') ? '' : 'static ';
          this.declareFunction(right, 'method', methodName, methodScope, statement,
            this.signature(right, `${isStatic}${isAsync}${owner}.${methodName}`), statement);
          return true;
        }
      }
    }
    return false;
  }

  /** Records `export default x`, `module.exports = x`, `exports.name = x` and declares function values. */
  private exportValue(exportName: string, value: ts.Expression, scope: Scope, docNode: ts.Node, line: number): void {
    const v = unwrap(value);
    const record = (local: string | null, specifier: string | null = null, imported: string | null = null): void => {
      this.exportsList.push({ name: exportName, local, specifier, imported, line });
    };
    if (ts.isIdentifier(v)) {
      record(v.text);
      return;
    }
    if (ts.isFunctionExpression(v) || ts.isArrowFunction(v)) {
      const name = exportName === '=' || exportName === 'default' ? ((ts.isFunctionExpression(v) && v.name?.text) || 'default') : exportName;
      if (scope.topLevel) {
        const id = this.declareFunction(v, 'function', name, scope, docNode, this.functionSignature(v, name));
        this.addCap(id, 'exported');
        record(name);
      } else {
        this.visit(v, scope);
      }
      return;
    }
    if (ts.isClassExpression(v)) {
      const name = v.name?.text ?? (exportName === '=' ? 'default' : exportName);
      const id = scope.topLevel ? this.visitClass(v, name, scope, docNode) : this.visitClass(v, null, scope, docNode);
      if (id !== null) {
        this.addCap(id, 'exported');
        record(name);
      }
      return;
    }
    const specifier = requireSpecifier(v);
    if (specifier !== null) {
      record(null, specifier, '=');
      if (exportName === '=') this.exportsList.push({ name: '*', local: null, specifier, imported: '*', line });
      this.visit(v, scope);
      return;
    }
    if (ts.isPropertyAccessExpression(v) && requireSpecifier(v.expression) !== null) {
      record(null, requireSpecifier(v.expression), v.name.text);
      this.visit(v, scope);
      return;
    }
    if (exportName === '=' && ts.isObjectLiteralExpression(v)) {
      for (const property of v.properties) this.exportProperty(property, scope, line);
      return;
    }
    this.visit(v, scope);
  }

  private exportProperty(property: ts.ObjectLiteralElementLike, scope: Scope, line: number): void {
    const sf = this.sf;
    const push = (name: string, local: string | null, specifier: string | null = null, imported: string | null = null): void => {
      this.exportsList.push({ name, local, specifier, imported, line: lineAt(sf, property.getStart(sf)) });
    };
    if (ts.isShorthandPropertyAssignment(property)) {
      push(property.name.text, property.name.text);
      return;
    }
    if (ts.isSpreadAssignment(property)) {
      const specifier = requireSpecifier(property.expression);
      if (specifier !== null) {
        this.exportsList.push({ name: '*', local: null, specifier, imported: '*', line });
      }
      this.visit(property.expression, scope);
      return;
    }
    if (ts.isMethodDeclaration(property)) {
      const name = propertyNameText(sf, property.name);
      if (scope.topLevel) {
        const id = this.declareFunction(property, 'function', name, scope, property, this.functionSignature(property, name));
        this.addCap(id, 'exported');
        push(name, name);
      } else {
        this.visit(property, scope);
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
        const id = this.declareFunction(init, 'function', name, scope, property, this.functionSignature(init, name), property);
        this.addCap(id, 'exported');
        push(name, name);
        return;
      }
      const specifier = requireSpecifier(init);
      if (specifier !== null) push(name, null, specifier, '=');
      else if (ts.isPropertyAccessExpression(init) && requireSpecifier(init.expression) !== null) {
        push(name, null, requireSpecifier(init.expression), init.name.text);
      }
      this.visit(property.initializer, scope);
      return;
    }
    this.visit(property, scope);
  }

  private visitCall(call: ts.CallExpression, scope: Scope): void {
    const sf = this.sf;
    const callee = unwrap(call.expression);
    const line = lineAt(sf, call.getStart(sf));
    if (callee.kind === ts.SyntaxKind.ImportKeyword) {
      const specifier = literalText(call.arguments[0]);
      if (specifier !== null) this.imports.push({ specifier, line, kind: 'dynamic' });
      for (const arg of call.arguments) this.visit(arg, scope);
      return;
    }
    if (ts.isIdentifier(callee) && callee.text === 'require') {
      const specifier = literalText(call.arguments[0]);
      if (specifier !== null) {
        this.imports.push({ specifier, line, kind: 'require' });
        return;
      }
    }
    const root = leftmostIdentifier(callee);
    if (root !== null && TEST_CALLEES.has(root)) {
      for (const arg of call.arguments) {
        const a = unwrap(arg);
        if (ts.isIdentifier(a)) this.testCalled.add(a.text);
      }
    }
    const { shape, name, object } = classifyCallee(callee);
    this.calls.push({ owner: scope.ownerId, shape, name, object, line });
    if (shape === 'other') this.visit(call.expression, scope);
    else visitCalleeInner(callee, (n) => this.visit(n, scope));
    for (const arg of call.arguments) this.visit(arg, scope);
  }

  // ---------------------------------------------------------------- output

  private finish(): TsExtractResult {
    const sf = this.sf;
    const definesLines = new Map<string, number>();
    for (const record of this.exportsList) {
      if (record.local === null) continue;
      const id = this.topDecls.get(record.local);
      if (id === undefined) continue;
      this.addCap(id, 'exported');
      if (!definesLines.has(id)) definesLines.set(id, record.line);
    }
    for (const [id, state] of this.decls) {
      if (state.caps.has('exported') && !definesLines.has(id) && state.record.parent === null) definesLines.set(id, state.node.start_line);
    }
    for (const [id, line] of definesLines) {
      this.edges.push({ source_id: this.moduleId, relation: 'defines', target_id: id, source_path: this.path, line });
    }
    for (const name of this.testCalled) {
      const id = this.topDecls.get(name);
      if (id !== undefined) this.addCap(id, 'test');
    }
    const nodes: GraphNode[] = [withContentHash(moduleNode(this.path, lineAt(sf, sf.end), this.isTest, this.entrypoint))];
    for (const id of this.order) {
      const state = this.decls.get(id)!;
      if (this.isTest) state.caps.add('test');
      state.node.capabilities = [...state.caps].sort();
      nodes.push(withContentHash(state.node));
    }
    const shadows: Record<string, string[]> = {};
    for (const [owner, names] of this.shadows) shadows[owner] = [...names].sort();
    const linkData: TsLinkData = {
      format: 'docforge-ts-link/1',
      module_id: this.moduleId,
      is_test: this.isTest,
      imports: this.imports,
      bindings: this.bindings,
      exports: this.exportsList,
      decls: this.order.map((id) => this.decls.get(id)!.record),
      shadows,
      calls: this.calls,
      heritage: this.heritage,
    };
    return {
      nodes,
      edges: this.edges,
      issues: this.issues,
      logic_steps: this.steps,
      logic_flows: this.flows,
      link_data: linkData,
    };
  }
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
