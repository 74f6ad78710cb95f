/**
 * The per-source part of graph resolution (resolve.ts), shared by the full resolver and the
 * incremental one (resolve-incremental.ts) so both produce the same edges and issues: a source's
 * declared edges and links checked against the winning nodes, and one bucket of candidate edges
 * merged into the final edges. Every lookup a source makes can be reported to a recorder, which is
 * how the incremental resolver knows which sources a change can affect.
 */
import { MAX_MENTION_SECTIONS, codeId, oneOfCopies, type GraphEdge, type GraphNode, type SourceIssue } from '@docforge/core';
import type { LinkRef } from './content.js';
import { anchorIds, anchorResolves } from '@docforge/markdown';
import { apiTargets, memberTargets, type ApiNames } from './resolve-api.js';
import type { DocBinding } from '@docforge/markdown';
import { mentionName, unresolvedMentionIssue } from './drift-mentions.js';
import type { CodeNames } from './code-names.js';
export { codeNames, sameCodeNames, type CodeNames } from './code-names.js';
import { parameterDriftIssue, sectionAt, type ParameterList } from '@docforge/core';

/** What one source contributed (content or code), as input to graph resolution. */
export interface ResolveSource {
  /** Project-relative POSIX path. */
  path: string;
  nodes: readonly GraphNode[];
  edges: readonly GraphEdge[];
  links: readonly LinkRef[];
  /** Public API names proven by a code adapter's link step (the pseudo-source of linked edges only; issue 31 item 3). */
  api?: ApiNames;
  /** The file's content hash (sha256 hex): code files of one hash are copies (core `canonicalCopyPaths`). */
  content_hash?: string;
}

/**
 * How the inline code spans and link texts of documents resolved: `edges` mention-derived
 * `documents` edges, `linked` mentions behind them, `bare_leaf` mentions that are only a leaf name
 * of some code node (`refund`: never linked) or a qualified name nothing proves whose last name is
 * one (`yaml.parse` where no indexed entry of package `yaml` exports `parse`), `ambiguous` mentions naming more than one node
 * (linked to none), `unproven_receiver` mentions of a member of a value the document binds from a
 * call (`logger.foo()` after `const logger = pino()`) whose type no declaration proves to have
 * it (linked to none; present only when some are counted).
 */
export interface MentionCounts {
  edges: number;
  linked: number;
  bare_leaf: number;
  ambiguous: number;
  unproven_receiver?: number;
}

/** Receives every lookup one source's resolution makes (the incremental resolver's dependencies). */
export interface RefRecorder {
  /** The winner of this node id (or its absence) was consulted. */
  id(id: string): void;
  /** Whether this path is a source, a code path, and its first node, were consulted. */
  path(path: string): void;
  /** The code name tables were consulted (a mention). */
  names(): void;
  /** The file system was consulted (`pathExists`): the result can change without any source changing. */
  fileSystem(): void;
}

/** What {@link resolveSourceRefs} reads: the outcome of the duplicate-id pass and the project's paths. */
export interface RefContext {
  winners: ReadonlyMap<string, GraphNode>;
  /** Per source path: ids whose node in that source lost to another definition. */
  lost: ReadonlyMap<string, ReadonlySet<string>>;
  /** Per source path: the id of its first node (by start line). */
  firstNodeOf: ReadonlyMap<string, string>;
  sourcePaths: ReadonlySet<string>;
  codePaths: ReadonlySet<string>;
  /** The code name tables, built on first use. */
  names: () => CodeNames;
  isCodeSourcePath?: (path: string) => boolean;
  pathExists?: (path: string) => boolean;
  /** The descriptor's content roots, for links written from the site root ({@link siteRooted}). */
  contentRoots?: readonly string[];
}

/** Per resolution context: source and code paths by their NFC form, for the paths not already in NFC (built on first need). */
const realPathsOf = new WeakMap<RefContext, Map<string, string>>();

/**
 * The source or code path a link's target names, compared in NFC (issue 30 item 3): a link written
 * in NFC to a file whose name is in NFD (as macOS writes names) resolves to that file's real name.
 * `target` itself when it is a path of the project or no path matches.
 */
export function realPathOf(ctx: RefContext, target: string): string {
  if (ctx.sourcePaths.has(target) || ctx.codePaths.has(target)) return target;
  let byNormal = realPathsOf.get(ctx);
  if (byNormal === undefined) {
    byNormal = new Map();
    for (const paths of [ctx.sourcePaths, ctx.codePaths]) {
      for (const p of paths) {
        const normal = p.normalize('NFC');
        if (normal !== p && !byNormal.has(normal)) byNormal.set(normal, p);
      }
    }
    realPathsOf.set(ctx, byNormal);
  }
  return byNormal.size === 0 ? target : (byNormal.get(target.normalize('NFC')) ?? target);
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareEdges(a: GraphEdge, b: GraphEdge): number {
  return (
    compare(a.source_id, b.source_id) ||
    compare(a.relation, b.relation) ||
    compare(a.target_id, b.target_id) ||
    compare(a.source_path, b.source_path) ||
    a.line - b.line
  );
}

export function compareIssues(a: SourceIssue, b: SourceIssue): number {
  return (
    compare(a.path ?? '', b.path ?? '') ||
    (a.line ?? 0) - (b.line ?? 0) ||
    compare(a.code, b.code) ||
    compare(a.node_id ?? '', b.node_id ?? '') ||
    compare(a.message, b.message)
  );
}

/** Whether the last segment of a path has no extension (`guides/install`, `guides/`). */
function extensionless(target: string): boolean {
  const name = target.slice(target.lastIndexOf('/') + 1);
  return name === '' || name === '.' || name.lastIndexOf('.') <= 0;
}

/**
 * The pages an extensionless link may name, as Docusaurus resolves them: `<path>.md`,
 * `<path>.markdown`, `<path>/index.md`, `<path>/README.md` (for the root `.`: `index.md`, `README.md`).
 */
function pageCandidates(target: string): string[] {
  const base = target === '.' ? '' : `${target}/`;
  return target === '.' ? ['index.md', 'README.md'] : [`${target}.md`, `${target}.markdown`, `${base}index.md`, `${base}README.md`];
}

const MARKDOWN_TARGET = /\.(md|markdown)$/i;

/** Anchor ids per node object, built on first use (a large file is linked many times; node objects are never mutated in their anchors). */
const anchorCache = new WeakMap<GraphNode, ReadonlySet<string>>();

function idsOf(node: GraphNode): ReadonlySet<string> {
  let ids = anchorCache.get(node);
  if (ids === undefined) anchorCache.set(node, (ids = anchorIds(node.anchors)));
  return ids;
}

/** One source's resolution in progress: what it reads, where its results go, and its mention edges so far. */
interface SourceRun {
  source: ResolveSource;
  ctx: RefContext;
  addCandidate: (edge: GraphEdge) => void;
  issues: SourceIssue[];
  counts: MentionCounts;
  record: RefRecorder | undefined;
  /** Whether this source's node with that id lost to a definition in another source (its edges and links are dropped). */
  ownedElsewhere: (id: string) => boolean;
  /** Mention edges by `from_id NUL target`, created on the first mention. */
  mentionEdges: Map<string, GraphEdge> | null;
}

/**
 * Resolves one source's declared edges and links against `ctx` (see `resolveGraph` for the rules):
 * calls `addCandidate` with each candidate edge in the source's order, pushes `dangling_relation`
 * and `broken_link` issues to `issues`, and counts mentions into `counts`. Mention edges of one
 * `(from, target)` pair merge their sections (a link's `from_id` is a node of its own source).
 */
export function resolveSourceRefs(
  source: ResolveSource, ctx: RefContext, addCandidate: (edge: GraphEdge) => void, issues: SourceIssue[], counts: MentionCounts, record?: RefRecorder,
): void {
  const lostHere = ctx.lost.get(source.path);
  const ownedElsewhere = (id: string): boolean => lostHere !== undefined && lostHere.has(id) && ctx.winners.get(id)?.source_path !== source.path;
  const run: SourceRun = { source, ctx, addCandidate, issues, counts, record, ownedElsewhere, mentionEdges: null };
  for (const edge of source.edges) resolveDeclaredEdge(run, edge);
  for (const link of source.links) {
    record?.id(link.from_id);
    if (ownedElsewhere(link.from_id) || !ctx.winners.has(link.from_id)) continue;
    if (link.mention !== undefined) resolveMentionLink(run, link, link.mention);
    else if (link.parameters !== undefined) resolveParameterList(run, link, link.parameters);
    else resolvePathLink(run, link);
  }
}

/** A declared edge: a candidate when both ends are winners; a `dangling_relation` error when only the target is missing (not for code sources). */
function resolveDeclaredEdge(run: SourceRun, edge: GraphEdge): void {
  const { winners } = run.ctx;
  run.record?.id(edge.source_id);
  if (run.ownedElsewhere(edge.source_id)) return;
  if (!winners.has(edge.source_id)) return;
  run.record?.id(edge.target_id);
  if (!winners.has(edge.target_id)) {
    if (!edge.source_id.startsWith('code:')) {
      run.issues.push({
        severity: 'error',
        code: 'dangling_relation',
        message: `${edge.source_path}:${edge.line}: relation "${edge.relation}" of "${edge.source_id}" targets "${edge.target_id}", which is not a node`,
        path: edge.source_path,
        line: edge.line,
        node_id: edge.source_id,
      });
    }
    return;
  }
  run.addCandidate(edge);
}

/** An inline code span or link text naming code: one `documents` edge per `(from, target)` pair, its sections merged. */
function resolveMentionLink(run: SourceRun, link: LinkRef, mention: NonNullable<LinkRef['mention']>): void {
  run.record?.names();
  // Whether a class method is static (its signature says so), null when the id is no method of a class.
  const isStatic = (id: string): boolean | null => {
    const owner = id.slice(0, Math.max(id.indexOf('#'), id.lastIndexOf('.')));
    run.record?.id(id);
    run.record?.id(owner);
    const node = run.ctx.winners.get(id);
    return node?.kind === 'method' && run.ctx.winners.get(owner)?.kind === 'class' ? node.summary.startsWith('static ') : null;
  };
  const target = resolveMention(mention.text, run.ctx.names(), run.counts, mention.receiver, isStatic);
  const drift = target === null ? unresolvedMentionIssue({ ...link, mention }, run.source.path, run.ctx.names(), run.ctx, (id) => run.ctx.winners.get(id), run.record) : null;
  if (drift !== null) run.issues.push(drift);
  if (target === null || target === link.from_id) return;
  const key = `${link.from_id}\u0000${target}`;
  const section = mention.section;
  const entry = { slug: section?.slug ?? null, title: section?.title ?? null, line: link.line };
  run.mentionEdges ??= new Map();
  const existing = run.mentionEdges.get(key);
  if (existing === undefined) {
    const edge: GraphEdge = { source_id: link.from_id, relation: 'documents', target_id: target, source_path: run.source.path, line: link.line, mention: { sections: [entry] } };
    run.mentionEdges.set(key, edge);
    run.addCandidate(edge);
  } else if (existing.mention!.sections.length < MAX_MENTION_SECTIONS && !existing.mention!.sections.some((x) => x.slug === entry.slug)) {
    existing.mention!.sections.push(entry);
  }
}

/** A section's parameter list (issue 32 item 2): a `drift_parameters` warning when the function its heading names declares others. */
function resolveParameterList(run: SourceRun, link: LinkRef, list: ParameterList): void {
  run.record?.names();
  const target = resolveMention(list.function, run.ctx.names(), { edges: 0, linked: 0, bare_leaf: 0, ambiguous: 0 });
  if (target !== null) run.record?.id(target);
  const node = target === null ? undefined : run.ctx.winners.get(target);
  const drift = node === undefined ? null : parameterDriftIssue(list, link.line, sectionAt(run.ctx.winners.get(link.from_id)?.anchors ?? [], link.line), link.from_id, run.source.path, node);
  if (drift !== null) run.issues.push(drift);
}

/**
 * A link to a path: `documents` to a code file's module node, `relates_to` to the first node of a
 * source (its anchor checked in Markdown), else a `broken_link` warning when it names a Markdown
 * or code file that is no source. An extensionless link first resolves to the page it names.
 */
function resolvePathLink(run: SourceRun, original: LinkRef): void {
  const { ctx, record, source } = run;
  const broken = (message: string): void => {
    run.issues.push({ severity: 'warning', code: 'broken_link', message: `${source.path}:${original.line}: ${message}`, path: source.path, line: original.line, node_id: original.from_id });
  };
  const rooted = siteRooted(run, original);
  record?.path(rooted.target_path);
  const real = realPathOf(ctx, rooted.target_path);
  const link = pageLink(run, real === rooted.target_path ? rooted : { ...rooted, target_path: real }, broken);
  if (link === null) return;
  let relation: string;
  let target: string | undefined;
  if (ctx.codePaths.has(link.target_path)) {
    relation = 'documents';
    target = codeId(link.target_path);
    record?.id(target);
    if (!ctx.winners.has(target)) return;
  } else if (ctx.firstNodeOf.has(link.target_path)) {
    relation = 'relates_to';
    target = ctx.firstNodeOf.get(link.target_path);
    if (target !== undefined) record?.id(target);
    const targetNode = target === undefined ? undefined : ctx.winners.get(target);
    if (link.anchor !== null && targetNode !== undefined && targetNode.source_path === link.target_path && MARKDOWN_TARGET.test(link.target_path) && !anchorResolves(idsOf(targetNode), link.anchor)) {
      broken(`link to "${link.target_path}#${link.anchor}": that file has no section or anchor "${link.anchor}"`);
    }
  } else {
    if (MARKDOWN_TARGET.test(link.target_path) && !ctx.sourcePaths.has(link.target_path)) {
      broken(`link to "${link.target_path}" does not resolve to a Markdown source under the content roots`);
    } else if (ctx.isCodeSourcePath !== undefined && !ctx.sourcePaths.has(link.target_path) && ctx.isCodeSourcePath(link.target_path)) {
      broken(`link to "${link.target_path}" does not resolve to a code file under the code roots`);
    }
    return;
  }
  if (target === undefined || target === link.from_id) return;
  run.addCandidate({ source_id: link.from_id, relation, target_id: target, source_path: source.path, line: link.line });
}

/** Whether `target` names a source, a code file or (without an extension) a page of the project. */
function knownTarget(ctx: RefContext, target: string): boolean {
  const real = realPathOf(ctx, target);
  if (ctx.codePaths.has(real) || ctx.sourcePaths.has(real)) return true;
  return extensionless(real) && pageCandidates(real).some((candidate) => ctx.sourcePaths.has(candidate));
}

/**
 * A link written from the site root (`/commands/npm-install`), as documentation sites (Docusaurus,
 * MkDocs, Hugo) publish a content folder at `/`: unchanged when its path names something from the
 * project root, else the same path under the content root holding the linking page when that names
 * a source, a code file or a page; otherwise unchanged (and reported broken as before). Every path
 * tried is recorded, so an incremental resolution re-checks the link when one appears.
 */
function siteRooted(run: SourceRun, link: LinkRef): LinkRef {
  const { ctx, record, source } = run;
  const roots = ctx.contentRoots;
  if (link.site_root !== true || roots === undefined || knownTarget(ctx, link.target_path)) return link;
  const root = roots.filter((r) => r !== '.' && source.path.startsWith(`${r}/`)).sort((a, b) => b.length - a.length)[0];
  if (root === undefined) return link;
  const candidate = `${root}/${link.target_path}`;
  if (record !== undefined) for (const path of [candidate, ...(extensionless(candidate) ? pageCandidates(candidate) : [])]) record.path(path);
  return knownTarget(ctx, candidate) ? { ...link, target_path: candidate } : link;
}

/**
 * The link to resolve: unchanged unless it is a Docusaurus-style link without `.md` to no known
 * path, which becomes a link to the page it names; null when it names no page (then `broken`
 * unless the file system shows something there).
 */
function pageLink(run: SourceRun, link: LinkRef, broken: (message: string) => void): LinkRef | null {
  const { ctx, record } = run;
  if (ctx.codePaths.has(link.target_path) || ctx.firstNodeOf.has(link.target_path) || ctx.sourcePaths.has(link.target_path) || !extensionless(link.target_path)) return link;
  const candidates = pageCandidates(link.target_path);
  if (record !== undefined) for (const candidate of candidates) record.path(candidate);
  const page = candidates.find((candidate) => ctx.sourcePaths.has(candidate));
  if (page !== undefined) return { ...link, target_path: page };
  if (ctx.pathExists !== undefined) {
    record?.fileSystem();
    if (!ctx.pathExists(link.target_path)) {
      broken(`link to "${link.target_path}" does not resolve to a page (tried ${candidates.map((c) => `"${c}"`).join(', ')}) or any file in the project`);
    }
  }
  return null;
}

/**
 * Merges one source id's candidate edges (in source path order, then each source's order) into
 * final edges: sorted, one per `(relation, target_id)` keeping the first in (source_path, line)
 * order, with an `undeclared_relation` warning for each kept edge whose relation `allowed` lacks.
 * Sorts `bucket` in place.
 */
export function finishBucket(bucket: GraphEdge[], allowed: ReadonlySet<string> | null, edges: GraphEdge[], issues: SourceIssue[]): void {
  if (bucket.length > 1) bucket.sort(compareEdges);
  let previous: GraphEdge | null = null;
  for (const edge of bucket) {
    if (previous !== null && previous.relation === edge.relation && previous.target_id === edge.target_id) continue;
    previous = edge;
    edges.push(edge);
    if (allowed !== null && !allowed.has(edge.relation)) {
      issues.push({
        severity: 'warning',
        code: 'undeclared_relation',
        message: `${edge.source_path}:${edge.line}: relation "${edge.relation}" is neither an aliased relation nor declared in [vocabulary].relations of docforge.toml`,
        path: edge.source_path,
        line: edge.line,
        node_id: edge.source_id,
      });
    }
  }
}

/**
 * A name distinctive enough to link on its own: a compound identifier (camelCase
 * `lookupVatRate`, snake_case `read_base_url`, PascalCase `RefundService`, an acronym before a
 * word `RSAAlgorithm`, `HTTPServer`), never a plain word (`refund`, `Ledger`), which prose uses in
 * its ordinary sense, nor an acronym's plural (`URLs`, `APIs`).
 */
const DISTINCTIVE_NAME = /[a-z0-9][A-Z]|[A-Za-z0-9]_+[A-Za-z0-9]|^[A-Z][a-z0-9]+[A-Z]|[A-Z]{2}[a-z]{2}/;

/** A dotted chain of identifiers (`yaml.parse`, `Ledger.refund`): no path, no spaces. */
const DOTTED_NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;

/**
 * The code node a mention names (issue 9 item 2), or null. A trailing call (`()`,
 * `(paymentId, amount)`) is dropped first, `::` between names reads as `.` and `A::B#m` as `A.B.m` ({@link mentionName}); the span then names a node when it equals a module's
 * code path (`src/ledger/ledger.ts`, a leading `./` dropped), a qualified name (`Ledger.refund`),
 * a `module.export` form resolved through the module's `defines` edges (`pino.transport`), or a
 * distinctive compound name ({@link DISTINCTIVE_NAME}) of exactly one top-level declaration
 * outside test code that no member shares (`lookupVatRate`; a test's local `onRoute` is not the
 * hook a page names). Any other bare leaf name (`refund`, a method's `start`)
 * never links, and a name matching several nodes links to none; both are counted in `counts`.
 * A dotted name is also looked up in the public API ({@link apiTargets}, issue 31 item 3), through
 * `receiver` when the document binds its first segment: then through that binding (the name
 * tables still apply as without it), and a member of a bound call result that nothing proves is
 * counted as `unproven_receiver`. A method named in the method-call style (`.option()`, or
 * `program.option()` with `program` bound to a package export the API does not follow) links to
 * the one public API member so named ({@link memberTargets}); several are counted ambiguous. A
 * method of a bound `new C()` links when `isStatic` shows it is an instance method of class `C`. A public name naming one declaration links before the other
 * tables (a declaration file's namespace repeating it does not make it ambiguous).
 */
export function resolveMention(text: string, names: CodeNames, counts: MentionCounts, receiver?: DocBinding, isStatic?: (id: string) => boolean | null): string | null {
  // `::` paths (Rust `Bytes::new`, C++ `ns::f`) name what the dotted form names (issue 33 item 6); `A::B#m` names `A.B.m`.
  const name = mentionName(text);
  if (name === '' || /\s/.test(name)) return null;
  // `.option()`: the one public API member so named (commander's README style; resolve-api.ts memberTargets).
  if (/^\.[A-Za-z_$][\w$]*$/.test(name)) return oneOf(withoutDeclarationTwins(memberTargets(name.slice(1), names.api, names.apiMembers), names), counts);
  let unproven = false;
  const called = text.trimEnd().endsWith(')');
  if (receiver !== undefined && (name.includes('.') || called)) {
    const bound = apiTargets(name, receiver, names.api, isStatic);
    let ids = withoutDeclarationTwins(bound.ids, names);
    const rest = name.split('.').slice(1);
    // A bound package export the public API does not follow (`exports.program = new Command()`): its package's one member so named.
    if (ids.length === 0 && receiver.module !== undefined && receiver.call === undefined && receiver.construct === undefined && rest.length === 1 && !names.api.has([receiver.module, ...receiver.path].join('.'))) {
      ids = withoutDeclarationTwins(memberTargets(rest[0]!, names.api, names.apiMembers, receiver.module), names);
    }
    if (ids.length > 0) return oneOf(ids, counts);
    unproven = bound.unproven;
  } else {
    // A public API name proven through the package's exports names the implementation, also where
    // a declaration file repeats the name (`pino.d.ts`'s `namespace pino { function destination }`).
    // A bare package name (`pino`, no call, no member) names the package, not its exported function.
    const api = name.includes('.') || called ? apiTargets(name, undefined, names.api).ids : [];
    if (api.length === 1) {
      counts.linked += 1;
      return api[0]!;
    }
  }
  const target = resolveByName(name, names, counts, receiver === undefined);
  if (target === null && unproven) counts.unproven_receiver = (counts.unproven_receiver ?? 0) + 1;
  // A qualified name nothing proves (`yaml.parse` where no indexed entry exports `parse`) whose
  // last name is some declaration's is counted with the bare leaves: it names code, links none.
  else if (target === null && DOTTED_NAME.test(name) && !names.qualified.has(name) && !names.exports.has(name) && !names.api.has(name) && names.leaves.has(name.slice(name.lastIndexOf('.') + 1))) counts.bare_leaf += 1;
  return target;
}

/** The one id of `ids` (counted linked), or null: several are counted ambiguous, none is not counted. */
function oneOf(ids: readonly string[], counts: MentionCounts): string | null {
  if (ids.length === 1) counts.linked += 1;
  else if (ids.length > 1) counts.ambiguous += 1;
  return ids.length === 1 ? ids[0]! : null;
}

/** A declaration file: TypeScript's `.d.ts`/`.d.mts`/`.d.cts` and Python's `.pyi` stubs. */
const DECLARATION_FILE = /\.d\.[cm]?ts$|\.pyi$/;

/**
 * The ids without those in declaration files ({@link DECLARATION_FILE}) when at least one is not in
 * one: a name that a package's implementation declares and its shipped typings repeat names the
 * implementation (new-user trial: commander's `typings/index.d.ts` made `Command.requiredOption`
 * ambiguous, so the README's mention linked nothing, and a rename in the JavaScript hid behind the
 * typings). Names only declaration files hold stay as they are. Ids that are all build copies of
 * one declaration (byte-identical files, twins: core `oneOfCopies`) name the kept copy, as search shows it.
 */
function withoutDeclarationTwins(ids: readonly string[], names: CodeNames): readonly string[] {
  if (ids.length < 2) return ids;
  const implementation = ids.filter((id) => !DECLARATION_FILE.test(id.slice('code:'.length).split('#')[0]!));
  return oneOfCopies(implementation.length === 0 ? ids : implementation, (path) => names.copies?.get(path));
}

/** {@link resolveMention} by the name tables (and, without a document binding, the public API as written). */
function resolveByName(name: string, names: CodeNames, counts: MentionCounts, unbound: boolean): string | null {
  const path = names.paths.get(name);
  if (path !== undefined) {
    counts.linked += 1;
    return path;
  }
  if (!name.includes('.')) {
    const top = withoutDeclarationTwins(names.topLevel.get(name) ?? [], names);
    if (top.length === 1 && !names.members.has(name) && DISTINCTIVE_NAME.test(name)) {
      counts.linked += 1;
      return top[0]!;
    }
    if (/^[\w$#]+$/.test(name) && names.leaves.has(name)) counts.bare_leaf += 1;
    return null;
  }
  const ids = withoutDeclarationTwins([...new Set([...(names.qualified.get(name) ?? []), ...(names.exports.get(name) ?? []), ...(unbound ? names.api.get(name) ?? [] : [])])], names);
  if (ids.length === 1) {
    counts.linked += 1;
    return ids[0]!;
  }
  if (ids.length > 1) counts.ambiguous += 1;
  return null;
}
