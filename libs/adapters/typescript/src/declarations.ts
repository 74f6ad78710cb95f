/**
 * Declarations of one TypeScript/JavaScript file: the extraction state shared by the traversal,
 * the CommonJS and call handlers (scopes, declaration nodes with overload merging, signatures,
 * link-data records), and the final result with capabilities and `defines` edges.
 */
import './prime.js';
import ts from './compiler-api.js';
import { codeId, encodeMemberName, withContentHash } from '@docforge/core';
import type { CodeExtractInput, GraphEdge, GraphNode, LogicFlow, LogicStep, SourceIssue } from '@docforge/core';
import type {
  TsBinding, TsCallSite, TsDeclRecord, TsExportRecord, TsHeritageRecord, TsImportRecord, TsLinkData, TsLiteralMember,
} from '@docforge/ts-link-model';
import { headerComment, moduleNode, type TsExtractResult } from './module-node.js';
import { isDeclarationPath, isEntrypointPath, isTestPath, languageOf, scriptKindOf } from './paths.js';
import { jsDocReturnType, jsDocTypedefs } from './jsdoc-types.js';
import { firstParagraph, hasModifier, leadingJsDoc, lineAt, nodeLines, oneLine } from './syntax.js';

/** Longest node summary, in characters. */
export const MAX_SUMMARY = 200;

/**
 * A declaration's summary (issue 9 item 4): its one-line signature (at most {@link MAX_SUMMARY}
 * characters), then ` — ` and the first paragraph of its doc comment, at most 400 characters in all.
 */
function withDoc(signature: string, doc: string): string {
  const head = oneLine(signature, MAX_SUMMARY);
  const lead = firstParagraph(doc);
  return lead === '' ? head : `${head} — ${lead}`.slice(0, 400);
}

/** Where a visited node sits: call owner, `contains` parent, qualified-name prefix. */
export interface Scope {
  /** Call attribution: nearest function/method node id, or the module id. */
  ownerId: string;
  /** Nearest declaration node id (parent for `contains`), or null for the module. */
  declId: string | null;
  /** Qualified-name prefix for declarations in this scope ('' at module level). */
  prefix: string;
  /** Directly at module level (not inside any function, class or callback). */
  topLevel: boolean;
  /**
   * The declaration whose `this` code here sees: a class inside its members, a function inside
   * its own body; null at module level and inside nested non-arrow functions (rebound `this`).
   */
  thisOf: string | null;
}

/** Types seen for one name: the one type every binding agrees on, or null (untyped or conflicting). */
type TypeVotes = Map<string, string | null>;

function vote(votes: TypeVotes, name: string, type: string | null): void {
  if (!votes.has(name)) votes.set(name, type);
  else if (votes.get(name) !== type) votes.set(name, null);
}

function agreed(votes: TypeVotes): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, type] of [...votes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) if (type !== null) out[name] = type;
  return out;
}

/** A declaration node under construction, with its link-data record and capabilities. */
export interface DeclState {
  record: TsDeclRecord;
  node: Omit<GraphNode, 'content_hash'>;
  /** Open for overload merging: created from a bodiless signature (or an interface). */
  open: boolean;
  caps: Set<string>;
}

/** Any function-like declaration that may carry a body. */
export type FunctionLikeWithBody = ts.FunctionLikeDeclaration;

/**
 * What the traversal needs from the visitor itself: the CommonJS and call handlers recurse
 * through it (kept as an interface so those modules do not import the traversal).
 */
export interface Walker {
  visit(node: ts.Node, scope: Scope): void;
  declareFunction(
    fn: FunctionLikeWithBody, kind: 'function' | 'method', name: string, scope: Scope, docNode: ts.Node, summary: string, span?: ts.Node,
  ): string;
  visitClass(node: ts.ClassLikeDeclaration, name: string | null, scope: Scope, docNode: ts.Node): string | null;
  /** Visits an anonymous function's parameters and body in `scope` (its calls count for `scope.ownerId`). */
  visitFunction(fn: ts.SignatureDeclaration & { body?: ts.Node | undefined }, scope: Scope): void;
}

/** The extraction state together with the traversal that recurses into sub-expressions. */
export type Extraction = ExtractState & Walker;

/** The extraction state of one file; the traversal ({@link Walker}) extends it. */
export class ExtractState {
  readonly path: string;
  readonly moduleId: string;
  readonly sf: ts.SourceFile;
  readonly language: 'typescript' | 'javascript';
  readonly isDts: boolean;
  readonly isTest: boolean;
  readonly logic: boolean;
  entrypoint = false;

  readonly decls = new Map<string, DeclState>();
  readonly order: string[] = [];
  readonly edges: GraphEdge[] = [];
  readonly issues: SourceIssue[] = [];
  readonly steps: LogicStep[] = [];
  readonly flows: LogicFlow[] = [];
  readonly imports: TsImportRecord[] = [];
  readonly bindings: TsBinding[] = [];
  readonly exportsList: TsExportRecord[] = [];
  readonly calls: TsCallSite[] = [];
  readonly heritage: TsHeritageRecord[] = [];
  readonly shadows = new Map<string, Set<string>>();
  /** Module-level declaration names → node id (for prototype methods and export marking). */
  readonly topDecls = new Map<string, string>();
  readonly testCalled = new Set<string>();
  /** Per owner: the declared/constructed type of each bound name (see {@link bindTyped}). */
  readonly localTypes = new Map<string, TypeVotes>();
  /** Per class: field types declared by annotation (TypeScript) or property initializer. */
  readonly declaredFields = new Map<string, TypeVotes>();
  /** Per class: types of the values assigned to `this.<field>` in its members. */
  readonly assignedFields = new Map<string, TypeVotes>();
  readonly typeParams = new Map<string, string[]>();
  readonly moduleConsts = new Set<string>();
  /** Module-level `const` object literals by name (literals.ts). */
  readonly literals = new Map<string, TsLiteralMember[]>();
  /** Keys assigned at run time per root (literals.ts `recordMemberWrite`). */
  readonly mutated = new Map<string, Set<string>>();
  /** Module-level `const x = require('m')` names → `m` (null: declared more than once). */
  readonly constRequires = new Map<string, string | null>();
  /** Per owner: its `const` locals initialized with an object literal (null: declared more than once), for `Object.setPrototypeOf`. */
  readonly objectConsts = new Map<string, Map<string, ts.ObjectLiteralExpression | null>>();
  /** Per owner: what `Object.setPrototypeOf` made the prototype of such a local (see `TsLinkData.protos`). */
  readonly protos = new Map<string, Map<string, string>>();
  /** Names spread (`...x`) or passed as an `Object.assign` source anywhere in the module. */
  readonly copied = new Set<string>();
  /** How many times each identifier is read as a value (see `TsLinkData.value_refs`). */
  readonly identRefs = new Map<string, number>();
  /** Module-level consts (`k`) and members of const object literals (`keys.k`) initialized with `Symbol(...)`. */
  readonly moduleSymbols = new Set<string>();
  /**
   * Module-level variables bound to an object (`{}`, an object literal, `Object.create(...)`):
   * `x.name = function () {}` on one declares `x.name` (commonjs.ts). The value is true when the
   * variable is an alias of the module's exports (`var app = exports = module.exports = {}`).
   */
  readonly objectVars = new Map<string, boolean>();
  /** The function nodes declared as members of an {@link objectVars} variable, by variable name. */
  readonly objectMembers = new Map<string, string[]>();
  /** Declarations added when the walk is done (type aliases, type-alias.ts: after every value of the same name). */
  readonly deferred: (() => void)[] = [];

  constructor(input: CodeExtractInput) {
    this.path = input.path;
    this.moduleId = codeId(input.path);
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

  /**
   * The qualified name of `name` in a scope, as ids spell it: a computed member's key escaped by
   * `encodeMemberName` (`[Symbols%2EkConnected]`), so a `.` of the key never separates names.
   */
  qualified(scope: Scope, name: string): string {
    const segment = encodeMemberName(name);
    return scope.prefix === '' ? segment : `${scope.prefix}.${segment}`;
  }

  /**
   * Creates (or, for overloads, extends) a declaration node and its `contains` edge.
   * @returns the node id and whether an existing overload node was extended
   */
  addDecl(
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
        if (existing.node.body === '') existing.node.body = leadingJsDoc(this.sf, docNode);
        existing.node.summary = withDoc(summary, existing.node.body);
        return { id, merged: true };
      }
      let n = 2;
      while (this.decls.has(`${this.moduleId}#${qname}~${n}`)) n += 1;
      id = `${this.moduleId}#${qname}~${n}`;
    }
    // The record's name is the id's last segment (the linker matches names without separators); the title keeps the source text.
    const record: TsDeclRecord = { id, name: encodeMemberName(name), kind, parent: scope.declId };
    const node: Omit<GraphNode, 'content_hash'> = {
      id,
      kind,
      title: name,
      family: null,
      authority: null,
      status: null,
      tags: [],
      summary: withDoc(summary, leadingJsDoc(this.sf, docNode)),
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

  /**
   * A type alias (`type X<T> = ...`, issue 30): a declaration node of kind `type`, the kind the Go
   * and Rust adapters give a type declaration, so documentation naming it links as an interface
   * does. A type is no value, so it is added when the walk is done ({@link deferred}), and not at
   * all when a declaration of the scope already holds its name (`function f` beside `type f = ...`,
   * which TypeScript allows): that node stays the name's one node, its id unchanged, and mentions
   * of the name stay unambiguous.
   */
  visitTypeAlias(decl: ts.TypeAliasDeclaration, scope: Scope): void {
    const sf = this.sf;
    const name = decl.name.text;
    // The summary is the declaration from its name on; withDoc cuts it to one line of MAX_SUMMARY.
    const summary = `type ${sf.text.slice(decl.name.getStart(sf), decl.end)}`.replace(/;\s*$/, '');
    const exported = scope.topLevel && hasModifier(decl, ts.SyntaxKind.ExportKeyword);
    this.deferred.push(() => {
      if (this.decls.has(`${this.moduleId}#${this.qualified(scope, name)}`)) return;
      const { id } = this.addDecl('type', name, scope, decl, summary, decl, false);
      if (!exported) return;
      this.addCap(id, 'exported');
      this.exportsList.push({ name, local: name, specifier: null, imported: null, line: lineAt(sf, decl.getStart(sf)) });
    });
  }

  /** Notes a function-local `const name = { ... }` (its prototype may be set: literals.ts `recordPrototype`). */
  objectConst(ownerId: string, name: string, literal: ts.ObjectLiteralExpression): void {
    let consts = this.objectConsts.get(ownerId);
    if (consts === undefined) {
      consts = new Map();
      this.objectConsts.set(ownerId, consts);
    }
    consts.set(name, consts.has(name) ? null : literal);
  }

  addCap(id: string, cap: string): void {
    this.decls.get(id)?.caps.add(cap);
  }

  shadow(ownerId: string, names: readonly string[]): void {
    for (const name of names) this.bindTyped(ownerId, name, null);
  }

  /**
   * Binds a local name in an owner (it shadows outer declarations), with its declared or
   * constructed type (a type reference text) or null. A name bound more than once keeps a type
   * only when every binding has that same type.
   */
  bindTyped(ownerId: string, name: string, type: string | null): void {
    let set = this.shadows.get(ownerId);
    if (set === undefined) {
      set = new Set();
      this.shadows.set(ownerId, set);
    }
    set.add(name);
    let votes = this.localTypes.get(ownerId);
    if (votes === undefined) {
      votes = new Map();
      this.localTypes.set(ownerId, votes);
    }
    vote(votes, name, type);
  }

  /** The type a local of an owner has so far (for `this.x = param` in a constructor), or null. */
  localType(ownerId: string, name: string): string | null {
    return this.localTypes.get(ownerId)?.get(name) ?? null;
  }

  /**
   * A JavaScript function's `@return {T}` (jsdoc-types.ts) as its declared return type, as an
   * annotation would be; not when the body returns an object literal (`returned`: the code proves
   * what it returns, the comment only claims it) or an annotation already declared one.
   */
  documentedReturn(id: string, docNode: ts.Node): void {
    const record = this.decls.get(id)!.record;
    if (this.language !== 'javascript' || record.returns !== undefined || record.returned !== undefined) return;
    const documented = jsDocReturnType(this.sf, docNode);
    if (documented !== null) record.returns = documented;
  }

  /** Records a field type of a class: `declared` by annotation/initializer, else as assigned through `this`. */
  fieldType(classId: string, name: string, type: string | null, declared: boolean): void {
    const map = declared ? this.declaredFields : this.assignedFields;
    let votes = map.get(classId);
    if (votes === undefined) {
      votes = new Map();
      map.set(classId, votes);
    }
    vote(votes, name, type);
  }

  signature(fn: ts.SignatureDeclaration, head: string): string {
    const params = fn.parameters.map((p) => this.sf.text.slice(p.getStart(this.sf), p.end)).join(', ');
    const returnType = fn.type ? `: ${this.sf.text.slice(fn.type.getStart(this.sf), fn.type.end)}` : '';
    return oneLine(`${head}(${params})${returnType}`, MAX_SUMMARY);
  }

  functionSignature(fn: ts.SignatureDeclaration, name: string): string {
    const isAsync = hasModifier(fn, ts.SyntaxKind.AsyncKeyword) ? 'async ' : '';
    const star = (fn as ts.FunctionLikeDeclarationBase).asteriskToken ? '*' : '';
    return this.signature(fn, `${isAsync}function${star} ${name}`);
  }

  methodSignature(fn: ts.SignatureDeclaration, owner: string, name: string): string {
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

  /** Adds the object-literal fields (issue 31 item 6) to the link data when the file has any literal. */
  private literalData(linkData: TsLinkData): void {
    if (this.protos.size > 0) {
      linkData.protos = Object.fromEntries([...this.protos].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([owner, names]) => [owner, Object.fromEntries([...names].sort())]));
    }
    if (this.literals.size === 0 && this.protos.size === 0) return;
    const names = [...this.literals.keys()].sort();
    if (names.length > 0) linkData.literals = Object.fromEntries(names.map((name) => [name, this.literals.get(name)!]));
    const copied = names.filter((name) => this.copied.has(name));
    if (copied.length > 0) linkData.copied = copied;
    linkData.mutated = Object.fromEntries([...this.mutated].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([root, keys]) => [root, [...keys].sort()]));
    const values = new Set<string>();
    for (const members of this.literals.values()) for (const member of members) if (member.value !== null) values.add(member.value);
    linkData.value_refs = Object.fromEntries([...values].sort().map((name) => [name, this.identRefs.get(name) ?? 0]));
  }

  /** Adds the deferred declarations (type aliases), then marks the exported ones: each one's `defines` line, by id. */
  private exportLines(): Map<string, number> {
    for (const add of this.deferred) add();
    const definesLines = new Map<string, number>();
    for (const record of this.exportsList) {
      if (record.local === null) continue;
      const id = this.topDecls.get(record.local);
      if (id === undefined) continue;
      this.addCap(id, 'exported');
      if (!definesLines.has(id)) definesLines.set(id, record.line);
    }
    return definesLines;
  }

  /** The extraction result: nodes with capabilities, `defines` edges and the link data. */
  finish(): TsExtractResult {
    const sf = this.sf;
    const definesLines = this.exportLines();
    // Members of an exported object variable (`module.exports = res`, or an alias of the exports) are exported.
    const exportedLocals = new Set(this.exportsList.map((record) => record.local));
    for (const [owner, ids] of this.objectMembers) {
      if (this.objectVars.get(owner) === true || exportedLocals.has(owner)) for (const id of ids) this.addCap(id, 'exported');
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
    const nodes: GraphNode[] = [withContentHash(moduleNode(this.path, lineAt(sf, sf.end), this.isTest, this.entrypoint, headerComment(sf.text)))];
    for (const id of this.order) {
      const state = this.decls.get(id)!;
      if (this.isTest) state.caps.add('test');
      state.node.capabilities = [...state.caps].sort();
      nodes.push(withContentHash(state.node));
    }
    const shadows: Record<string, string[]> = {};
    for (const [owner, names] of this.shadows) shadows[owner] = [...names].sort();
    const linkData: TsLinkData = {
      format: 'docforge-ts-link/2',
      module_id: this.moduleId,
      is_test: this.isTest,
      imports: this.imports,
      bindings: this.bindings,
      exports: this.exportsList,
      decls: this.order.map((id) => this.decls.get(id)!.record),
      shadows,
      calls: this.calls,
      heritage: this.heritage,
      locals: {},
      fields: {},
      assigned: {},
      type_params: Object.fromEntries([...this.typeParams].filter(([, names]) => names.length > 0)),
      consts: [...this.moduleConsts].sort(),
      ...(this.moduleSymbols.size > 0 ? { symbols: [...this.moduleSymbols].sort() } : {}),
    };
    this.literalData(linkData);
    if (this.language === 'javascript') Object.assign(linkData, jsDocTypedefs(sf));
    for (const [owner, votes] of this.localTypes) {
      const typed = agreed(votes);
      if (Object.keys(typed).length > 0) linkData.locals[owner] = typed;
    }
    for (const id of new Set([...this.declaredFields.keys(), ...this.assignedFields.keys()])) {
      const declared = this.declaredFields.get(id) ?? new Map<string, string | null>();
      const assigned = this.assignedFields.get(id) ?? new Map<string, string | null>();
      // A declared (annotated or initialized) field keeps its declared type in TypeScript; in
      // JavaScript nothing enforces it, so every assignment must agree with it as well.
      const merged: TypeVotes = new Map(declared);
      for (const [name, type] of assigned) {
        if (this.language === 'typescript' && declared.has(name)) continue;
        vote(merged, name, type);
      }
      const typed = agreed(merged);
      if (Object.keys(typed).length > 0) linkData.fields[id] = typed;
      if (assigned.size > 0) linkData.assigned[id] = [...assigned.keys()].sort();
    }
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
