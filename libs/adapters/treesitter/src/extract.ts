/**
 * Per-file extraction shared by every language of the tree-sitter family (DESIGN.md section 3,
 * "Code nodes come from the adapter"): module and definition nodes, `contains`/`defines` edges,
 * Logic, syntax issues and link data, driven by a {@link LanguageSpec}. Never throws for bad source.
 */
import type { Node as SyntaxNode, Query, Tree } from 'web-tree-sitter';
import { codeId, withContentHash } from '@docforge/core';
import type { CodeExtractInput, GraphEdge, GraphNode, LogicFlow, LogicStep, ParsedSource, SourceIssue } from '@docforge/core';
import { TREE_LINK_DATA_VERSION, type TreeBase, type TreeCall, type TreeImport, type TreeLinkData, type TreeRecv } from './link-data.js';
import { buildLogic } from './logic.js';
import type { ArgType } from './lang/arg-types.js';

/**
 * The Logic `build` makes, or none when its control structures nest deeper than the call stack
 * holds (10,000 nested `if`s, break-it trial): the function keeps its node, edges and code text,
 * and only its Logic is missing (`get_logic` answers `logic_not_found`), instead of the whole file
 * failing to extract. Other errors propagate.
 */
function logicOrNone(build: () => { steps: LogicStep[]; flows: LogicFlow[] }): { steps: LogicStep[]; flows: LogicFlow[] } {
  try {
    return build();
  } catch (error) {
    if (error instanceof RangeError) return { steps: [], flows: [] };
    throw error;
  }
}
import { requireGrammar } from './runtime.js';
import type { LanguageSpec } from './spec.js';
import { cap, countLines, docComment, endLine, firstParagraph, line, precedingComments, syntaxErrors } from './tree.js';

/** The ParsedSource fields a code adapter returns. */
export type ExtractResult = Pick<ParsedSource, 'nodes' | 'edges' | 'issues' | 'logic_steps' | 'logic_flows' | 'link_data' | 'code_text'>;

/** Kinds whose function members are methods. */
const TYPE_KINDS = new Set(['class', 'interface', 'struct', 'trait', 'enum', 'record']);

/** The arguments of a call node (its `arguments` field or `argument_list` child, comments aside); null when it has no list. */
function callArguments(node: SyntaxNode, isComment: (type: string) => boolean): SyntaxNode[] | null {
  const list = node.childForFieldName('arguments') ?? node.children.find((c) => c?.type === 'argument_list') ?? null;
  return list === null ? null : list.namedChildren.filter((c): c is SyntaxNode => c !== null && !isComment(c.type));
}

/** Whether the node with id `id` is a proper ancestor of `node` (a walk up the parents). */
function hasAncestor(node: SyntaxNode, id: number): boolean {
  for (let up = node.parent; up !== null; up = up.parent) if (up.id === id) return true;
  return false;
}

/** Records that `name` is bound in `fn`, with what proves its type; a second binding keeps the proof only when it is the same. */
function bindLocal(fn: Draft, name: string, proof: TreeRecv | null): void {
  const seen = fn.locals.has(name);
  fn.locals.add(name);
  const before = fn.proofs.get(name);
  fn.proofs.set(name, !seen ? proof : before == null || proof === null || JSON.stringify(before) !== JSON.stringify(proof) ? null : before);
}

/** Records `type` as what a binding of `name` declares; a second binding keeps it only when it declares the same. */
function bindType(types: Map<string, string | null>, name: string, type: string | null): void {
  types.set(name, !types.has(name) || types.get(name) === type ? type : null);
}

/** A node under construction. */
interface Draft {
  id: string;
  qname: string;
  name: string;
  kind: string;
  parent: Draft | null;
  summary: string;
  doc: string;
  startLine: number;
  endLine: number;
  capabilities: Set<string>;
  exported: boolean;
  /** Names bound inside the body (parameters, local declarations). */
  locals: Set<string>;
  /** What proves each local's type (null: some binding proves none, or two differ); see LanguageSpec.typedBinds. */
  proofs: Map<string, TreeRecv | null>;
  /** The declared type of each name bound inside the body (null: unknown, or two bindings differ); LanguageSpec.declaredType. */
  types: Map<string, string | null>;
  /** The declared types of a type's own fields (same rule). */
  fields: Map<string, string | null>;
  /** Type parameters the definition introduces. */
  typeParams: readonly string[];
  /** Whether the body holds a binding the extractor does not track (LanguageSpec.opaqueBinders). */
  opaque: boolean;
  /** The declared parameter types (LanguageSpec with overloads). */
  paramTypes?: (string | null)[];
  /** The receiver variable of a method (Go `t`, Rust `self`, Java `this`), or null. */
  receiver: string | null;
  /** Whether the node so far comes from a declaration without a body (a definition may take it over). */
  declaration: boolean;
}

/** What the walk evaluates a node in. */
interface Context {
  draft: Draft;
  /** The innermost function or method (locals and calls belong to it), or the module. */
  fn: Draft;
  /** Qualifier for nested definitions (an `impl` type), else the draft's qname. */
  qualifier: string;
  /** Definitions and scopes enclosing this one (0 at the module). */
  depth: number;
}

/**
 * Most definitions and scopes nested in one another that become nodes. A qualified name repeats
 * every enclosing name, so N nested definitions cost O(N²) in ids and review hashes (break-it
 * trial: 4,000 nested Rust modules took a minute); deeper ones stay part of the innermost node.
 */
export const MAX_DEFINITION_DEPTH = 64;

/**
 * Most definition nodes one file gives (the module aside). A 4 MiB file of one-line functions (Go's
 * `func init() {}` repeated) is 280,000 definitions, and every node costs its id, summary, Logic,
 * code text and review hash downstream (break-it B3: 57 s and 905 MB); definitions after this many
 * stay part of the module, as definitions nested deeper than {@link MAX_DEFINITION_DEPTH} stay part
 * of the innermost. Real files stay far below it (a large generated `.pb.go`: a few thousand).
 */
export const MAX_DEFINITIONS_PER_FILE = 20_000;

class Extractor {
  readonly drafts: Draft[] = [];
  readonly byQname = new Map<string, Draft>();
  /** The next `~n` suffix to try per repeated qualified name, so N repeats (Go's many `init`s) cost O(N), not O(N²) (break-it B3). */
  readonly nextSuffix = new Map<string, number>();
  readonly imports: TreeImport[] = [];
  readonly calls: TreeCall[] = [];
  /** The function (or module) whose locals each call of {@link calls} is evaluated in, by index. */
  readonly callScopes: Draft[] = [];
  /** The argument types each call of {@link calls} shows (LanguageSpec.argTypes), by index; names are looked up at the end. */
  readonly callArgs: (ArgType[] | null)[] = [];
  readonly bases: TreeBase[] = [];
  /** Arity by draft qualified name (languages with overloads). */
  readonly arity: Record<string, [number, number | null]> = {};
  /** Methods no subtype inherits, or only one of the same package, by draft qualified name (DefinitionMatch.access). */
  readonly access: Record<string, 'private' | 'package'> = {};
  /** Declared result types by draft qualified name (LanguageSpec results). */
  readonly results: Record<string, (string[] | null)[]> = {};
  readonly logicSteps: LogicStep[] = [];
  readonly logicFlows: LogicFlow[] = [];
  readonly module: Draft;
  readonly testFile: boolean;
  pkg: string | null = null;
  /** The line of the first definition past {@link MAX_DEFINITIONS_PER_FILE}, which stays part of the module; null while under it. */
  boundedAt: number | null = null;
  /** The line of the first definition or scope left out for lying deeper than {@link MAX_DEFINITION_DEPTH}; null when none. */
  deepAt: number | null = null;

  constructor(readonly spec: LanguageSpec, readonly path: string, readonly source: string, readonly logic: boolean, readonly language = spec.id) {
    this.testFile = spec.isTestPath(path);
    this.module = this.newDraft('', '', 'module', null, 1, countLines(source));
    if (this.testFile) this.module.capabilities.add('test');
  }

  newDraft(qname: string, name: string, kind: string, parent: Draft | null, start: number, end: number): Draft {
    let unique = qname;
    if (this.byQname.has(unique)) {
      let n = this.nextSuffix.get(qname) ?? 2;
      for (; this.byQname.has(`${qname}~${n}`); n += 1);
      unique = `${qname}~${n}`;
      this.nextSuffix.set(qname, n + 1);
    }
    const draft: Draft = {
      id: codeId(this.path, unique), qname: unique, name, kind, parent, summary: '', doc: '', startLine: start, endLine: Math.max(start, end),
      capabilities: new Set(), exported: false, locals: new Set(), proofs: new Map(), receiver: null, declaration: false,
      types: new Map(), fields: new Map(), typeParams: [], opaque: false,
    };
    this.drafts.push(draft);
    this.byQname.set(unique, draft);
    return draft;
  }

  /**
   * Visits the interesting nodes of `tree` in document order, each in the context its nearest
   * visited ancestor gave (the module's at the top); a node whose visit returned null hides its
   * whole subtree. The nodes come from the language's visit query (one WASM call per file; see
   * runtime.ts): walking every syntax node from JS cost three or more WASM calls per node, most of
   * a file's extraction (Java, C) apart from the parse itself.
   */
  run(tree: Tree, query: Query): void {
    const root = tree.rootNode;
    const facts = this.spec.moduleFacts(root);
    this.pkg = facts.pkg;
    this.module.doc = facts.doc;
    this.module.summary = firstParagraph(facts.doc);
    const top: Context = { draft: this.module, fn: this.module, qualifier: '', depth: 0 };
    // Open ancestors: the end offset of each visited node whose subtree is still being read, and the context of its
    // descendants (null: skipped). Captures come in document order, a node before its descendants.
    const ends: number[] = [];
    const ids: number[] = [];
    const contexts: (Context | null)[] = [];
    for (const { node } of query.captures(root)) {
      const start = node.startIndex;
      const end = node.endIndex;
      // A zero-width node (a MISSING token) at an open node's end may lie inside it: only its ancestry tells.
      while (ends.length > 0 && start >= (ends[ends.length - 1] as number) && !(start === end && start === ends[ends.length - 1] && hasAncestor(node, ids[ids.length - 1] as number))) {
        ends.pop();
        ids.pop();
        contexts.pop();
      }
      const context = contexts.length === 0 ? top : (contexts[contexts.length - 1] as Context | null);
      if (context === null) continue;
      ends.push(end);
      ids.push(node.id);
      contexts.push(this.visit(node, context));
    }
  }

  /** Handles one interesting node; returns the context of its children, or null to skip them. */
  visit(node: SyntaxNode, context: Context): Context | null {
    const spec = this.spec;
    const imports = spec.imports(node);
    if (imports !== null) {
      for (const imp of imports) this.imports.push(context.qualifier === '' ? imp : { ...imp, scope: context.qualifier });
      return null;
    }
    const callee = spec.callee(node);
    if (callee !== undefined) {
      // Outside any function (a field initializer, a C# operator or property body) the innermost definition calls.
      const owner = context.fn === this.module ? context.draft : context.fn;
      const list = spec.overloads === true && callee !== null ? callArguments(node, spec.isComment) : null;
      const args = list === null ? null : list.length;
      this.calls.push({ owner: owner.qname, line: line(node), path: callee, ...(args === null ? {} : { args }) });
      this.callScopes.push(context.fn);
      this.callArgs.push(list !== null && list.length > 0 ? (spec.argTypes?.(node, list) ?? null) : null);
      return context;
    }
    const typed = spec.typedBinds?.(node);
    const declared = spec.declaredType?.(node) ?? null;
    if (spec.opaqueBinders !== undefined && spec.opaqueBinders.has(node.type)) context.fn.opaque = true;
    if (declared?.field === true && TYPE_KINDS.has(context.draft.kind)) bindType(context.draft.fields, declared.name, declared.type);
    for (const name of spec.binds(node)) {
      bindLocal(context.fn, name, typed?.get(name) ?? null);
      bindType(context.fn.types, name, declared?.name === name && !declared.field ? declared.type : null);
    }
    if (context.depth >= MAX_DEFINITION_DEPTH) {
      if (this.deepAt === null && (spec.scope?.(node) != null || spec.definition(node, { kind: context.draft.kind, qname: context.qualifier, inType: false, testFile: this.testFile, pkg: this.pkg, path: this.path }) !== null)) this.deepAt = line(node);
      return context;
    }
    if (this.drafts.length > MAX_DEFINITIONS_PER_FILE) {
      if (this.boundedAt === null && spec.definition(node, { kind: context.draft.kind, qname: context.qualifier, inType: false, testFile: this.testFile, pkg: this.pkg, path: this.path }) !== null) this.boundedAt = line(node);
      return context;
    }
    const scope = spec.scope?.(node) ?? null;
    if (scope !== null) {
      const qualifier = context.qualifier === '' ? scope.qualifier : `${context.qualifier}.${scope.qualifier}`;
      if (scope.implements !== null) this.bases.push({ owner: qualifier, line: line(node), path: scope.implements, relation: 'implements' });
      return { ...context, qualifier, depth: context.depth + 1 };
    }
    const inType = context.qualifier !== context.draft.qname || TYPE_KINDS.has(context.draft.kind);
    const parent = { kind: context.draft.kind, qname: context.qualifier, inType, testFile: this.testFile, pkg: this.pkg, path: this.path };
    const match = spec.definition(node, parent);
    if (match === null) return context;
    const owner = match.qualifier ?? context.qualifier;
    const qname = owner === '' ? match.name : `${owner}.${match.name}`;
    const earlier = this.byQname.get(qname);
    const same = earlier !== undefined && earlier.kind === match.kind ? earlier : undefined;
    if (same !== undefined && match.reopen === true) return { draft: same, fn: context.fn, qualifier: same.qname, depth: context.depth + 1 };
    // A declaration repeated as written adds nothing; another signature is an overload (`~2`), and then no definition takes a declaration over.
    if (same !== undefined && match.declaration === true && same.summary === cap(match.signature)) return context;
    const takeOver = same?.declaration === true && match.declaration !== true && !this.byQname.has(`${qname}~2`);
    const draft = takeOver && same !== undefined ? same : this.newDraft(qname, match.name, match.kind, context.draft, line(node), endLine(node));
    draft.startLine = line(node);
    draft.endLine = Math.max(draft.startLine, endLine(node));
    draft.declaration = match.declaration === true;
    draft.capabilities.clear();
    draft.summary = cap(match.signature);
    draft.doc = docComment(precedingComments(match.docAnchor ?? node, spec.isComment, spec.skipBeforeDoc));
    Object.assign(draft, { exported: match.exported, typeParams: match.typeParams ?? [] });
    if (match.arity !== undefined) this.arity[draft.qname] = [match.arity.min, match.arity.max];
    else delete this.arity[draft.qname];
    if (match.access !== undefined) this.access[draft.qname] = match.access;
    for (const capability of match.capabilities) draft.capabilities.add(capability);
    for (const base of spec.bases?.(node) ?? []) this.bases.push({ owner: draft.qname, line: base.line, path: base.path, relation: base.relation, ...(base.mixin === undefined ? {} : { mixin: base.mixin }) });
    const isFunction = match.kind === 'function' || match.kind === 'method';
    if (isFunction) {
      draft.receiver = match.receiver;
      for (const param of match.params) bindLocal(draft, param, match.paramProofs?.get(param) ?? null);
      for (const param of match.params) bindType(draft.types, param, match.paramTypes?.find((p) => p.name === param)?.type ?? null);
      if (match.paramTypes !== undefined) draft.paramTypes = match.paramTypes.map((p) => p.type);
      if (match.results !== undefined && match.results.some((r) => r !== null)) this.results[draft.qname] = match.results;
      if (this.logic && spec.logic !== null && match.body !== null) {
        const built = logicOrNone(() => buildLogic(spec.logic!, draft.id, node, match.body!, cap(match.signature).slice(0, 120), this.source));
        for (const step of built.steps) this.logicSteps.push(step);
        for (const flow of built.flows) this.logicFlows.push(flow);
      }
    }
    return { draft, fn: isFunction ? draft : context.fn, qualifier: draft.qname, depth: context.depth + 1 };
  }

  /**
   * Drops callee paths whose head is a local name of the calling function (not provable), and
   * turns a head naming the method's receiver into `<self>` (when no local rebinds it).
   */
  shadowLocals(): void {
    this.calls.forEach((call, index) => {
      // `['<recv>', x, m]` (C++ `x.m()`; `<recv->` for `x->m()`): a call on a variable, kept only as `<typed>` when x's
      // declarations prove its type: an object's (a type proof) for `.`, a pointer's to what `new` made (a call proof) for `->`.
      const recv = call.path?.[0] === '<recv>' || call.path?.[0] === '<recv->';
      const fits = (proof: TreeRecv): boolean => !recv || ('type' in proof) === (call.path?.[0] === '<recv>');
      const path = recv ? (call.path as string[]).slice(1) : call.path;
      const head = path?.[0];
      const owner = this.callScopes[index];
      if (path === null || head === undefined || owner === undefined) {
        if (recv) call.path = null;
        return;
      }
      const proof = owner.proofs.get(head);
      // A proof naming a local (a type or function declared or bound in the body) proves nothing outside it.
      const proofHead = proof == null ? undefined : 'type' in proof ? proof.type[0] : proof.call[0];
      if (proof != null && fits(proof) && path.length === 2 && proofHead !== undefined && !owner.locals.has(proofHead) && proofHead !== owner.receiver) {
        call.path = ['<typed>', path[1] as string];
        call.recv = proof;
      } else if (recv || owner.locals.has(head) || (this.spec.callableLocals === true && head === '<self>' && owner.locals.has(path[1] ?? ''))) call.path = null;
      // An unqualified call naming a local (a C# local function or delegate) reaches no enclosing type's method.
      else if (head === '<bare>' && owner.locals.has(path[1] ?? '')) call.path = ['<self>', path[1] as string];
      else if (head === owner.receiver) call.path = path.length === 2 ? ['<self>', path[1] as string] : null;
    });
  }

  /** Whether `type` names a type parameter in scope of `draft` (its own, or of a definition enclosing it). */
  generic(type: string, draft: Draft | null): boolean {
    const words = new Set(type.match(/\w+/g) ?? []);
    for (let d = draft; d !== null; d = d.parent) if (d.typeParams.some((t) => words.has(t))) return true;
    return false;
  }

  /**
   * Sets each call's argument types (TreeCall.types): a name is the calling function's local or parameter when it binds it
   * (its declared type), else a field of the function's own type when the function binds nothing untracked; a type naming a
   * type parameter in scope is unknown.
   */
  argumentTypes(): void {
    this.calls.forEach((call, index) => {
      const raw = this.callArgs[index];
      const fn = this.callScopes[index];
      if (raw == null || fn === undefined) return;
      const types = raw.map((arg) => {
        if (arg === null || typeof arg === 'string') return arg;
        if (fn === this.module) return null;
        const type = fn.types.has(arg.name) ? fn.types.get(arg.name) : fn.opaque || fn.parent === null || !TYPE_KINDS.has(fn.parent.kind) ? null : fn.parent.fields.get(arg.name);
        return type ?? null;
      }).map((type) => (type === null || this.generic(type, fn) ? null : type));
      if (types.some((type) => type !== null)) call.types = types;
    });
  }

  /** The declared parameter types of every method (a subclass's or a base's overload of the same name may be in another file). */
  overloadParams(): Record<string, (string | null)[]> {
    const out: Record<string, (string | null)[]> = {};
    for (const draft of this.drafts) {
      if (draft.paramTypes === undefined) continue;
      out[draft.qname] = draft.paramTypes.map((type) => (type === null || this.generic(type, draft) ? null : type));
    }
    return out;
  }

  result(issues: SourceIssue[]): ExtractResult {
    this.shadowLocals();
    if (this.spec.argTypes !== undefined) this.argumentTypes();
    const nodes: GraphNode[] = [];
    const edges: GraphEdge[] = [];
    const topNames = new Set(this.drafts.filter((d) => d.parent === this.module).map((d) => d.name));
    if (this.spec.moduleEntrypoint(this.path, this.pkg, topNames)) this.module.capabilities.add('entrypoint');
    for (const draft of this.drafts) {
      if (draft.exported) draft.capabilities.add('exported');
      if (draft.parent === this.module && draft.exported) {
        edges.push({ source_id: this.module.id, relation: 'defines', target_id: draft.id, source_path: this.path, line: draft.startLine });
      }
      if (draft.parent !== null) edges.push({ source_id: draft.parent.id, relation: 'contains', target_id: draft.id, source_path: this.path, line: draft.startLine });
      nodes.push(withContentHash({
        id: draft.id, kind: draft.kind, title: draft.qname === '' ? this.path : draft.qname, family: null, authority: null, status: null, tags: [],
        summary: draft.qname === '' || draft.doc === '' ? draft.summary : cap(`${draft.summary} — ${firstParagraph(draft.doc)}`),
        body: draft.doc, source_path: this.path, start_line: draft.startLine, end_line: draft.endLine, anchors: [],
        language: this.language, capabilities: [...draft.capabilities].sort(), origin: 'code',
      }));
    }
    const linkData: TreeLinkData = { version: TREE_LINK_DATA_VERSION, lang: this.spec.id, package: this.pkg, imports: this.imports, calls: this.calls, bases: this.bases };
    if (this.spec.overloads === true) linkData.arity = this.arity;
    const params = this.spec.argTypes === undefined ? {} : this.overloadParams();
    if (Object.keys(params).length > 0) linkData.params = params;
    if (Object.keys(this.access).length > 0) linkData.access = this.access;
    if (Object.keys(this.results).length > 0) linkData.results = this.results;
    const protos = this.drafts.filter((d) => d.declaration && (d.kind === 'function' || d.kind === 'method')).map((d) => d.qname);
    if (protos.length > 0) linkData.protos = protos;
    return { nodes, edges, issues, logic_steps: this.logicSteps, logic_flows: this.logicFlows, link_data: linkData };
  }
}

/** The module specifier of the grammar that parses the file at `path` (its dialect's where that applies). */
export function grammarFor(spec: LanguageSpec, path: string, options: CodeExtractInput['options']): string {
  return spec.dialect?.applies(path, options) === true ? spec.dialect.grammar : `@vscode/tree-sitter-wasm/wasm/${spec.grammar}`;
}

/** The `GraphNode.language` of the file at `path`: its dialect's (C's `c`, issue 30) where that applies, else the adapter id. */
export function languageFor(spec: LanguageSpec, path: string, options: CodeExtractInput['options']): string {
  return spec.dialect?.applies(path, options) === true ? spec.dialect.language : spec.id;
}

/**
 * Extracts one file of `spec`'s language with strategy `ast`. Nodes: the module `code:<path>` and
 * its definitions `code:<path>#<qualified.name>` (a repeated qualified name gets `~2`, `~3`);
 * Logic for functions and methods when `input.logic` and the language has a {@link LogicSpec}.
 * Syntax errors become `syntax_error` warnings; extraction continues on the recovered tree.
 * @throws DocforgeError `internal_error` when the file's grammar ({@link grammarFor}) is not loaded on this thread.
 */
export function extractTree(spec: LanguageSpec, input: CodeExtractInput): ExtractResult {
  const { parser, query } = requireGrammar(grammarFor(spec, input.path, input.options));
  const extractor = new Extractor(spec, input.path, input.content, input.logic, languageFor(spec, input.path, input.options));
  let tree: Tree | null = null;
  try {
    tree = parser.parse(spec.parseText?.(input.content) ?? input.content);
    if (tree === null) {
      return extractor.result([{ severity: 'error', code: 'syntax_error', message: `${spec.display} parser returned no tree`, path: input.path, line: null, node_id: extractor.module.id }]);
    }
    extractor.run(tree, query);
    const root = tree.rootNode;
    const issues = root.hasError ? syntaxErrors(root, spec.display, input.path, extractor.module.id, spec.syntaxArtefact, input.content) : [];
    if (extractor.boundedAt !== null) {
      issues.push({
        severity: 'warning', code: 'code_definitions_bounded', path: input.path, line: extractor.boundedAt, node_id: extractor.module.id,
        message: `More than ${MAX_DEFINITIONS_PER_FILE} definitions in one file: those from this line on are no nodes and stay part of the module.`,
      });
    }
    if (extractor.deepAt !== null) {
      issues.push({
        severity: 'warning', code: 'code_definitions_bounded', path: input.path, line: extractor.deepAt, node_id: extractor.module.id,
        message: `Definitions nested more than ${MAX_DEFINITION_DEPTH} deep: those from this line on are no nodes and stay part of the innermost one.`,
      });
    }
    return extractor.result(issues);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const fallback = new Extractor(spec, input.path, input.content, false, languageFor(spec, input.path, input.options));
    return fallback.result([{ severity: 'error', code: 'extract_failed', message: `${spec.display} extraction failed: ${message}`, path: input.path, line: null, node_id: fallback.module.id }]);
  } finally {
    tree?.delete();
  }
}
