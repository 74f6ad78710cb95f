/**
 * Per-file extraction of Python code nodes, intra-file edges and link data from a tree-sitter
 * syntax tree (DESIGN.md section 3, "Code nodes come from the adapter"). Pure apart from the
 * thread's parser; never throws for bad source. Python has no Logic in this adapter.
 */
import type { Node as SyntaxNode, Tree } from 'web-tree-sitter';
import { codeId, withContentHash } from '@docforge/core';
import type { CodeExtractInput, GraphEdge, GraphNode, SourceIssue } from '@docforge/core';
import { PYTHON_LINK_DATA_VERSION } from './link-data.js';
import type { PythonBase, PythonCall, PythonImport, PythonLinkData } from './link-data.js';
import { requireParser } from './runtime.js';
import { cap, collapse, countLines, firstParagraph, isPythonTestPath, PYTHON_LANGUAGE, type ExtractResult } from './module-facts.js';
import { recordFromImport, recordImport } from './imports.js';
import { ModuleAssigns } from './aliases.js';
import {
  collectTargets, docstring, dottedPath, endLine, isMainGuard, line, named, parameterList, parameterNames, stringValue, syntaxErrors,
} from './tree.js';

type DefKind = 'module' | 'class' | 'function' | 'method';

/** A node under construction. */
interface Draft {
  id: string;
  /** Qualified name inside the file, `''` for the module. */
  qname: string;
  name: string;
  kind: DefKind;
  parent: Draft | null;
  summary: string;
  body: string;
  startLine: number;
  endLine: number;
  capabilities: Set<string>;
  /** Names bound as plain local variables of a function scope (parameters, assignment targets). */
  locals: Set<string>;
  /** Names declared `global` inside a function scope. */
  globals: Set<string>;
  /** Names bound by imports in this scope. */
  imported: Set<string>;
}

/** What a walked node is evaluated in. */
interface Scope {
  draft: Draft;
  /** Name of the receiver parameter (`self`, `cls`) visible here, or null. */
  receiver: string | null;
  /** Qualified name of the class the receiver belongs to, or null. */
  receiverClass: string | null;
}

/** The scope a node is evaluated in, plus names that shadow every other binding there. */
interface Context {
  scope: Scope;
  /** Parameters of enclosing lambdas and variables of enclosing comprehensions, which shadow every other binding. */
  shadowed: ReadonlySet<string> | null;
}

/** How to walk the children of a node: `body` (when set) applies to the child in field `body`. */
interface ChildPolicy {
  context: Context;
  body: Context | null;
}

function childContext(policy: ChildPolicy, field: string | null): Context {
  return policy.body !== null && field === 'body' ? policy.body : policy.context;
}

/** Named node types the walk must look at; every other node is only descended through. */
const INTERESTING_TYPES = new Set([
  'decorator', 'function_definition', 'class_definition', 'call', 'lambda', 'list_comprehension', 'set_comprehension',
  'dictionary_comprehension', 'generator_expression', 'yield', 'import_statement', 'import_from_statement',
  'future_import_statement', 'global_statement', 'assignment', 'augmented_assignment', 'for_statement', 'for_in_clause',
  'as_pattern', 'named_expression', 'if_statement',
]);

class Extractor {
  readonly drafts: Draft[] = [];
  readonly byQname = new Map<string, Draft>();
  readonly imports: PythonImport[] = [];
  readonly calls: PythonCall[] = [];
  readonly bases: PythonBase[] = [];
  /** Module-level names bound once to a dotted name or a call of one (aliases.ts). */
  readonly assigns = new ModuleAssigns();
  all: string[] | null = null;
  readonly testFile: boolean;
  readonly module: Draft;

  constructor(readonly path: string, content: string) {
    this.testFile = isPythonTestPath(path);
    this.module = this.newDraft('', '', 'module', null, 1, countLines(content));
    const base = path.split('/').pop() ?? path;
    if (base === '__main__.py') this.module.capabilities.add('entrypoint');
    if (this.testFile) this.module.capabilities.add('test');
  }

  newDraft(qname: string, name: string, kind: DefKind, parent: Draft | null, startLine: number, end: number): Draft {
    const draft: Draft = {
      id: codeId(this.path, qname),
      qname,
      name,
      kind,
      parent,
      summary: '',
      body: '',
      startLine,
      endLine: Math.max(startLine, end),
      capabilities: new Set(),
      locals: new Set(),
      globals: new Set(),
      imported: new Set(),
    };
    this.drafts.push(draft);
    this.byQname.set(qname, draft);
    return draft;
  }

  /** Returns the draft for a definition, merging redefinitions of the same qualified name into the first. */
  definition(scope: Scope, name: string, kind: DefKind, outer: SyntaxNode): { draft: Draft; fresh: boolean } {
    const qname = scope.draft.qname === '' ? name : `${scope.draft.qname}.${name}`;
    const existing = this.byQname.get(qname);
    if (existing !== undefined) return { draft: existing, fresh: false };
    return { draft: this.newDraft(qname, name, kind, scope.draft, line(outer), endLine(outer)), fresh: true };
  }

  /**
   * Walks the whole tree with a TreeCursor, materializing node wrappers only for the node types
   * that matter (wrapper allocation, not parsing, dominates the cost of a full-tree walk).
   */
  run(tree: Tree): void {
    const root = tree.rootNode;
    this.module.body = docstring(root);
    this.module.summary = firstParagraph(this.module.body);
    const moduleContext: Context = { scope: { draft: this.module, receiver: null, receiverClass: null }, shadowed: null };
    const cursor = tree.walk();
    try {
      const policies: ChildPolicy[] = [];
      let context = moduleContext;
      for (;;) {
        const policy = cursor.nodeIsNamed && INTERESTING_TYPES.has(cursor.nodeType)
          ? this.visit(cursor.currentNode, context)
          : { context, body: null };
        if (policy !== null && cursor.gotoFirstChild()) {
          policies.push(policy);
          context = childContext(policy, cursor.currentFieldName);
          continue;
        }
        let moved = false;
        while (policies.length > 0) {
          if (cursor.gotoNextSibling()) {
            context = childContext(policies[policies.length - 1] as ChildPolicy, cursor.currentFieldName);
            moved = true;
            break;
          }
          cursor.gotoParent();
          policies.pop();
        }
        if (!moved) break;
      }
    } finally {
      cursor.delete();
    }
  }

  /** Handles one interesting node and says how to walk its children (null: skip them). */
  visit(node: SyntaxNode, context: Context): ChildPolicy | null {
    const { scope, shadowed } = context;
    const same: ChildPolicy = { context, body: null };
    switch (node.type) {
      case 'decorator': {
        const expression = named(node)[0] ?? null;
        // A bare `@name` decorator is a call of `name` with the decorated definition.
        if (expression !== null && expression.type !== 'call') this.recordCall(expression, scope, shadowed);
        return same;
      }
      case 'function_definition':
      case 'class_definition':
        return this.visitDefinition(node, context);
      case 'call':
        this.recordCall(node.childForFieldName('function'), scope, shadowed);
        return same;
      case 'lambda': {
        const names = new Set(shadowed ?? []);
        for (const name of parameterNames(node.childForFieldName('parameters'))) names.add(name);
        return { context: { scope, shadowed: names }, body: null };
      }
      case 'list_comprehension':
      case 'set_comprehension':
      case 'dictionary_comprehension':
      case 'generator_expression': {
        // Comprehension variables live in their own scope, at module level too.
        const names = new Set(shadowed ?? []);
        for (const child of named(node)) if (child.type === 'for_in_clause') collectTargets(child.childForFieldName('left'), names);
        return { context: { scope, shadowed: names }, body: null };
      }
      case 'yield':
        if (shadowed === null && (scope.draft.kind === 'function' || scope.draft.kind === 'method')) {
          scope.draft.capabilities.add('generator');
        }
        return same;
      case 'import_statement':
        this.visitImport(node, scope);
        return null;
      case 'import_from_statement':
        this.visitFromImport(node, scope);
        return null;
      case 'future_import_statement':
        return null;
      case 'global_statement':
        for (const child of named(node)) if (child.type === 'identifier') scope.draft.globals.add(child.text);
        return null;
      case 'assignment':
      case 'augmented_assignment': {
        const left = node.childForFieldName('left');
        this.bindTargets(left, scope);
        if (scope.draft.kind === 'module') this.assigns.assignment(node);
        if (scope.draft.kind === 'module' && left?.type === 'identifier' && left.text === '__all__') {
          this.recordAll(node.childForFieldName('right'), node.type === 'augmented_assignment');
        }
        return same;
      }
      case 'for_statement':
      case 'for_in_clause':
        this.bindTargets(node.childForFieldName('left'), scope);
        return same;
      case 'as_pattern':
        this.bindTargets(node.childForFieldName('alias'), scope);
        return same;
      case 'named_expression':
        this.bindTargets(node.childForFieldName('name'), scope);
        return same;
      case 'if_statement':
        if (scope.draft.kind === 'module' && node.parent?.type === 'module' && isMainGuard(node.childForFieldName('condition'))) {
          this.module.capabilities.add('entrypoint');
        }
        return same;
      default:
        return same;
    }
  }

  bindTargets(target: SyntaxNode | null, scope: Scope): void {
    if (scope.draft.kind === 'function' || scope.draft.kind === 'method') collectTargets(target, scope.draft.locals);
    else if (scope.draft.kind === 'module') this.assigns.bind(target);
  }

  /**
   * Creates (or merges into) the node of a class or function definition. Its parameters,
   * annotations, bases and decorators are evaluated in the enclosing scope; its body in its own.
   */
  visitDefinition(node: SyntaxNode, context: Context): ChildPolicy {
    const { scope } = context;
    const nameNode = node.childForFieldName('name');
    if (nameNode === null) return { context, body: null };
    const name = nameNode.text;
    const parent = node.parent;
    const outer = parent !== null && parent.type === 'decorated_definition' ? parent : node;
    const decorators = outer === node ? [] : named(outer).filter((child) => child.type === 'decorator');
    const body = node.childForFieldName('body');
    if (node.type === 'class_definition') {
      const { draft, fresh } = this.definition(scope, name, 'class', outer);
      const superclasses = node.childForFieldName('superclasses');
      if (fresh) {
        draft.summary = cap(`class ${name}${superclasses === null ? '' : parameterList(superclasses)}`);
        draft.body = docstring(body);
        if (this.testFile && name.startsWith('Test')) draft.capabilities.add('test');
      }
      for (const base of superclasses === null ? [] : named(superclasses)) {
        if (/^(keyword_argument|list_splat|dictionary_splat|comment)$/.test(base.type)) continue;
        this.bases.push({ cls: draft.qname, line: line(base), path: dottedPath(base) });
      }
      return { context, body: { scope: { draft, receiver: null, receiverClass: null }, shadowed: null } };
    }
    const kind: DefKind = scope.draft.kind === 'class' ? 'method' : 'function';
    const { draft, fresh } = this.definition(scope, name, kind, outer);
    const params = node.childForFieldName('parameters');
    const names = parameterNames(params);
    const isAsync = node.child(0)?.type === 'async';
    if (fresh) {
      const returns = node.childForFieldName('return_type');
      draft.summary = cap(`${isAsync ? 'async ' : ''}def ${name}${parameterList(params)}${returns === null ? '' : ` -> ${collapse(returns.text)}`}`);
      draft.body = docstring(body);
    }
    if (isAsync) draft.capabilities.add('async');
    if (this.testFile && name.startsWith('test')) draft.capabilities.add('test');
    for (const param of names) draft.locals.add(param);
    let receiver: string | null = null;
    let receiverClass: string | null = null;
    if (kind === 'method') {
      const isStatic = decorators.some((decorator) => collapse(decorator.text) === '@staticmethod');
      const first = names[0];
      if (!isStatic && first !== undefined) {
        receiver = first;
        receiverClass = scope.draft.qname;
      }
    } else if (scope.receiver !== null && !names.includes(scope.receiver)) {
      // A nested function sees the enclosing method's receiver through its closure.
      receiver = scope.receiver;
      receiverClass = scope.receiverClass;
    }
    return { context, body: { scope: { draft, receiver, receiverClass }, shadowed: null } };
  }

  recordCall(callee: SyntaxNode | null, scope: Scope, shadowed: ReadonlySet<string> | null): void {
    if (callee === null) return;
    let path = dottedPath(callee);
    let cls: string | null = null;
    if (path !== null) {
      const head = path[0] as string;
      if (head === '<super>') {
        cls = scope.receiverClass;
        if (cls === null) path = null;
      } else if (shadowed !== null && shadowed.has(head)) {
        path = null;
      } else if (scope.receiver !== null && head === scope.receiver) {
        // Only `self.m()` is resolvable; `self()` and `self.attr.m()` depend on runtime values.
        const member = path.length === 2 ? path[1] : undefined;
        path = member === undefined ? null : ['<self>', member];
        cls = member === undefined ? null : scope.receiverClass;
      }
    }
    this.calls.push({ owner: scope.draft.qname, line: line(callee), path, cls });
  }

  recordAll(value: SyntaxNode | null, append: boolean): void {
    if (value === null || (value.type !== 'list' && value.type !== 'tuple')) return;
    const names: string[] = [];
    for (const element of named(value)) {
      const text = stringValue(element);
      if (text !== null) names.push(text);
    }
    this.all = append && this.all !== null ? [...this.all, ...names] : names;
  }

  visitImport(node: SyntaxNode, scope: Scope): void {
    recordImport(node, scope.draft, this.imports);
  }

  visitFromImport(node: SyntaxNode, scope: Scope): void {
    recordFromImport(node, scope.draft, this.imports);
  }

  /**
   * Drops the callee of calls whose head is a plain local variable (a parameter or an assigned
   * name) of an enclosing function: such a call cannot be resolved statically and must not be
   * linked to a module-level definition of the same name.
   */
  shadowLocals(): void {
    for (const call of this.calls) {
      const path = call.path;
      if (path === null || path[0] === '<self>' || path[0] === '<super>') continue;
      const head = path[0] as string;
      let draft: Draft | null = this.byQname.get(call.owner) ?? null;
      let first = true;
      while (draft !== null && draft.kind !== 'module') {
        const visible = first || draft.kind !== 'class';
        first = false;
        if (visible) {
          const definesHead = this.byQname.has(draft.qname === '' ? head : `${draft.qname}.${head}`);
          if (definesHead || draft.imported.has(head) || draft.globals.has(head)) break;
          if (draft.kind !== 'class' && draft.locals.has(head)) {
            call.path = null;
            break;
          }
        }
        draft = draft.parent;
      }
    }
  }

  result(issues: SourceIssue[]): ExtractResult {
    this.shadowLocals();
    const allNames = new Set(this.all ?? []);
    const nodes: GraphNode[] = [];
    const edges: GraphEdge[] = [];
    for (const draft of this.drafts) {
      if (draft.parent === this.module && (!draft.name.startsWith('_') || allNames.has(draft.name))) {
        draft.capabilities.add('exported');
        edges.push({ source_id: this.module.id, relation: 'defines', target_id: draft.id, source_path: this.path, line: draft.startLine });
      }
      if (draft.parent !== null) {
        edges.push({ source_id: draft.parent.id, relation: 'contains', target_id: draft.id, source_path: this.path, line: draft.startLine });
      }
      nodes.push(withContentHash({
        id: draft.id,
        kind: draft.kind,
        title: draft.qname === '' ? this.path : draft.qname,
        family: null,
        authority: null,
        status: null,
        tags: [],
        // A declaration's docstring joins its signature in the summary (issue 9 item 4); a module's summary is its docstring already.
        summary: draft.qname === '' || draft.body === '' ? draft.summary : cap(`${draft.summary} — ${firstParagraph(draft.body)}`),
        body: draft.body,
        source_path: this.path,
        start_line: draft.startLine,
        end_line: draft.endLine,
        anchors: [],
        language: PYTHON_LANGUAGE,
        capabilities: [...draft.capabilities].sort(),
        origin: 'code',
      }));
    }
    const linkData: PythonLinkData = {
      version: PYTHON_LINK_DATA_VERSION,
      imports: this.imports,
      calls: this.calls,
      bases: this.bases,
      all: this.all,
    };
    const globals = new Set(this.drafts.flatMap((d) => [...d.globals]));
    const module = { defined: (name: string) => this.byQname.has(name), imported: (name: string) => this.module.imported.has(name), wildcard: this.imports.some((i) => i.wildcard && i.scope === '') };
    const assigns = this.assigns.result(module, globals);
    if (Object.keys(assigns).length > 0) linkData.assigns = assigns;
    return { nodes, edges, issues, logic_steps: [], logic_flows: [], link_data: linkData };
  }
}

/**
 * Extracts the nodes, `contains`/`defines` edges, syntax issues and link data of one Python file.
 * Nodes: the module `code:<path>`, classes `code:<path>#C`, functions `code:<path>#f`, methods
 * `code:<path>#C.m`, nested definitions `code:<path>#outer.inner`; a redefinition of the same
 * qualified name is merged into the first one. Logic is never produced for Python
 * (`logic_steps` and `logic_flows` are empty whatever `input.logic` says).
 * Never throws for bad source: syntax errors become `syntax_error` warnings and extraction
 * continues on the recovered tree.
 * @throws DocforgeError `internal_error` when {@link initPythonAdapter} has not resolved on this thread.
 */
export function extractPython(input: CodeExtractInput): ExtractResult {
  const parser = requireParser();
  const extractor = new Extractor(input.path, input.content);
  let tree: Tree | null = null;
  try {
    tree = parser.parse(input.content);
    if (tree === null) {
      return extractor.result([{
        severity: 'error', code: 'syntax_error', message: 'Python parser returned no tree', path: input.path, line: null, node_id: extractor.module.id,
      }]);
    }
    const root = tree.rootNode;
    extractor.run(tree);
    const issues = root.hasError ? syntaxErrors(root, input.path, extractor.module.id) : [];
    return extractor.result(issues);
  } catch (error) {
    // Defensive: bad source must never make extraction throw; report it instead of losing the file.
    const message = error instanceof Error ? error.message : String(error);
    const fallback = new Extractor(input.path, input.content);
    return fallback.result([{
      severity: 'error', code: 'extract_failed', message: `Python extraction failed: ${message}`, path: input.path, line: null, node_id: fallback.module.id,
    }]);
  } finally {
    tree?.delete();
  }
}
