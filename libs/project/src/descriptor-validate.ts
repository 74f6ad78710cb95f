/**
 * Validation of a parsed `docforge.toml` (DESIGN.md section 3): the shape (unknown keys, types,
 * ranges, ids, renderer keys) is checked by the descriptor schema's generated validator
 * ({@link checkDescriptorShape}); this module adds the semantic checks the schema cannot express
 * (roots that must stay inside the project, the state dir placement, view outputs, writer ids and
 * globs) and applies every default. Each failure is a `descriptor_invalid` error with the
 * offending line and key. The first failure in checking order is the one reported, shape or
 * semantic: each semantic check passes the shape gate ({@link ShapeGate}) at its position first.
 */
import { outlineToml } from '@docforge/markdown';
import {
  BUILTIN_CODE_ADAPTERS, DESCRIPTOR_FILE, MIN_MAX_OUTPUT_CHARS, type Descriptor, type ProposalWriterPolicy, type ApplierPolicy, type ViewDeclaration, type ViewRenderer, type ViewSelector,
} from './descriptor-types.js';
import { Checker, type Table } from './descriptor-check.js';
import { checkDescriptorShape, type ShapeGate } from './descriptor-shape.js';
import { checkStateDirPlacement, checkStateDirReal, linkedInto, noControlChars, relativePath, vcsSegment } from './descriptor-paths.js';
import type { DescriptorDocument } from '@docforge/protocol/descriptor';
import type { SourceIssue } from '@docforge/core';
import { ACCESS_ID_PATTERN, ACCESS_ID_RULE } from '@docforge/core';
import { checkExcludeGlobs, excludedRootWarnings, removedCodeWarnings } from './descriptor-exclude.js';
import { checkNeverWorking } from './descriptor-values.js';
import { checkIncludeDirs } from './descriptor-include-dirs.js';

export type { Table };
export { isInside } from './descriptor-paths.js';

const DEFAULT_EXCLUDE = ['**/node_modules/**', '**/.git/**'];

function rootList(check: Checker, root: string, items: readonly string[] | undefined, key: string, fallback: string[]): string[] {
  if (items === undefined) return [...fallback];
  const out: string[] = [];
  for (const item of items) {
    const normalized = relativePath(check, root, item, key, true);
    // Issue 30: neither the descriptor nor version-control metadata can be a root of sources.
    if (normalized.toLowerCase() === DESCRIPTOR_FILE) check.fail(key, `names the descriptor "${normalized}" itself, which is configuration, never a source`, check.itemLine(key, item));
    const vcs = vcsSegment(normalized);
    if (vcs !== undefined) check.fail(key, `"${normalized}" lies in "${vcs}", version-control metadata, never a source`, check.itemLine(key, item));
    const linked = linkedInto(root, normalized);
    if (linked !== null) check.fail(key, `"${normalized}" leads through a symbolic link to "${linked.real}", which lies in "${linked.into}", version-control metadata, never a source`, check.itemLine(key, item));
    if (!out.includes(normalized)) out.push(normalized);
  }
  return out;
}

function adapterCodes(value: string | readonly string[] | undefined, codeRoots: readonly string[]): string[] {
  if (value === undefined) return codeRoots.length > 0 ? [...BUILTIN_CODE_ADAPTERS] : [];
  const out: string[] = [];
  for (const item of typeof value === 'string' ? [value] : value) {
    if (item === 'none') continue;
    for (const id of item === 'auto' ? BUILTIN_CODE_ADAPTERS : [item]) if (!out.includes(id)) out.push(id);
  }
  return out;
}

function unique(values: readonly string[] | undefined): string[] | null {
  return values === undefined ? null : [...new Set(values)];
}

/**
 * Sets `table[key]` as an own, enumerable data property even for keys such as `__proto__`, which a
 * plain assignment would turn into a prototype change (then the policy lookup by own property
 * would silently find nothing and fail open).
 */
function defineOwn<T>(table: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(table, key, { value, enumerable: true, writable: true, configurable: true });
}

function parseWriters(check: Checker, gate: ShapeGate, table: NonNullable<DescriptorDocument['proposals']>['writers']): Record<string, ProposalWriterPolicy> {
  gate.before(['proposals', 'writers'], 1);
  const writers: Record<string, ProposalWriterPolicy> = {};
  for (const [id, entry] of Object.entries(table ?? {})) {
    const scope = `proposals.writers.${id}`;
    // The id is checked before its table's shape, its globs after the whole table's.
    gate.before(['proposals', 'writers', id], -2);
    // The id grammar of --proposal-writer (issue 30): an id outside it could never be bound.
    if (!ACCESS_ID_PATTERN.test(id)) check.fail(scope, `must name a writer id of 1 to 256 printable characters in the id grammar of --proposal-writer (${ACCESS_ID_RULE.replace(/^1 to \d+ characters: /, '')}), got ${JSON.stringify(id)}`);
    gate.before(['proposals', 'writers', id, 'paths'], 1);
    const paths = unique(entry.paths);
    for (const glob of paths ?? []) noControlChars(check, `${scope}.paths`, glob);
    for (const glob of paths ?? []) if (glob.startsWith('/') || glob.split('/').includes('..')) check.fail(`${scope}.paths`, `glob "${glob}" must be project-relative without ".."`);
    // Issue 30 (helper fx30): an empty glob matches no path, so the writer could never write.
    for (const glob of paths ?? []) if (glob.trim() === '') check.fail(`${scope}.paths`, `must not hold an empty glob, got ${JSON.stringify(glob)}: it matches no path, so the writer could write nowhere; remove it, or name the paths the writer may write (e.g. "docs/**")`, check.itemLine(`${scope}.paths`, glob));
    defineOwn(writers, id, { operations: unique(entry.operations), paths });
  }
  return writers;
}

function parseProposals(check: Checker, gate: ShapeGate, doc: DescriptorDocument): Descriptor['proposals'] {
  const writers = parseWriters(check, gate, doc.proposals?.writers);
  gate.before(['proposals', 'appliers'], 1);
  const appliers: Record<string, ApplierPolicy> = {};
  for (const [id, entry] of Object.entries(doc.proposals?.appliers ?? {})) {
    gate.before(['proposals', 'appliers', id], -2);
    if (!ACCESS_ID_PATTERN.test(id)) check.fail(`proposals.appliers.${id}`, `must name an applier id of 1 to 256 printable characters in the id grammar of --canonical-applier (${ACCESS_ID_RULE.replace(/^1 to \d+ characters: /, '')}), got ${JSON.stringify(id)}`);
    gate.before(['proposals', 'appliers', id, 'writers'], 1);
    // Issue 30 (helper fx30): a writer id outside the grammar of --proposal-writer names no writer that could ever run.
    for (const writer of entry.writers) {
      if (!ACCESS_ID_PATTERN.test(writer)) check.fail(`proposals.appliers.${id}.writers`, `must list writer ids in the id grammar of --proposal-writer (${ACCESS_ID_RULE.replace(/^1 to \d+ characters: /, '')}), got ${JSON.stringify(writer)}: no writer could ever be bound to it; write the id as --proposal-writer takes it`, check.itemLine(`proposals.appliers.${id}.writers`, writer));
    }
    defineOwn(appliers, id, { writers: [...new Set(entry.writers)] });
  }
  return { writers, appliers };
}

function selector(value: object | undefined): ViewSelector {
  const out: ViewSelector = {};
  for (const [field, list] of Object.entries(value ?? {}) as [string, string[] | undefined][]) if (list !== undefined) out[field as keyof ViewSelector] = [...new Set(list)];
  return out;
}

type ViewDocument = NonNullable<DescriptorDocument['views']>[number];

function parseView(check: Checker, gate: ShapeGate, root: string, view: ViewDocument, index: number, views: readonly ViewDeclaration[], stateDir: string): ViewDeclaration {
  const scope = `views.${index}`;
  gate.before(['views', String(index), 'id'], 1);
  const id = view.id;
  if (views.some((other) => other.id === id)) check.fail(`${scope}.id`, `duplicates the view id "${id}"`);
  gate.before(['views', String(index), 'output'], 1);
  const output = relativePath(check, root, view.output, `${scope}.output`, false, true);
  if (!output.endsWith('.html')) check.fail(`${scope}.output`, `must name an .html file, got "${output}"`);
  if (output === stateDir || output.startsWith(`${stateDir}/`)) check.fail(`${scope}.output`, `must not lie inside the state dir "${stateDir}"`);
  // Issue 30 (break-it trial): outputs get the confinement of changeset paths, never VCS metadata.
  const vcs = vcsSegment(output);
  if (vcs !== undefined) check.fail(`${scope}.output`, `"${output}" lies in "${vcs}", version-control metadata; DocForge never writes there`);
  const twin = views.find((other) => other.output === output);
  if (twin !== undefined) check.fail(`${scope}.output`, `is also the output of view "${twin.id}"; each view writes its own file`);
  // Every key of this view is shape-checked before it is read.
  gate.before(['views', String(index + 1)], -2);
  const declared: ViewDeclaration = { id, title: view.title ?? id, renderer: view.renderer as ViewRenderer, select: selector(view.select), output };
  if (view.renderer === 'matrix') {
    declared.rows = selector(view.rows);
    declared.columns = selector(view.columns);
    declared.relations = [...new Set(view.relations ?? [])];
    // Issue 30 (helper fx30): a blank name matches no edge (a document's relation name is never blank).
    for (const relation of declared.relations) if (relation.trim() === '') check.fail(`${scope}.relations`, `must not hold a blank relation name, got ${JSON.stringify(relation)}: no edge has one, so the matrix would stay empty; remove it, or name relations such as "implements"`, check.itemLine(`${scope}.relations`, relation));
    if (view.mode === 'coverage') declared.mode = 'coverage';
  }
  if (view.renderer === 'graph') {
    declared.focus = view.focus!;
    declared.depth = view.depth ?? 2;
  }
  return declared;
}

function parseViews(check: Checker, gate: ShapeGate, root: string, doc: DescriptorDocument, stateDir: string): ViewDeclaration[] {
  gate.before(['views'], 1);
  const views: ViewDeclaration[] = [];
  (doc.views ?? []).forEach((view, index) => views.push(parseView(check, gate, root, view, index, views, stateDir)));
  return views;
}

/** The checked path values, in checking order: the state dir, the content and code roots (then the state dir's placement), the adapter module. */
interface Paths {
  stateDir: string;
  contentRoots: string[];
  codeRoots: string[];
  module: string | null;
  includeDirs: string[];
  /** `include_dir_missing` and `include_dir_not_indexed` warnings (descriptor-include-dirs.ts). */
  includeWarnings: SourceIssue[];
}

function checkPaths(check: Checker, gate: ShapeGate, root: string, doc: DescriptorDocument): Paths {
  gate.before(['state', 'dir'], 1);
  const stateDir = doc.state?.dir === undefined ? '.docforge' : relativePath(check, root, doc.state.dir, 'state.dir', false);
  gate.before(['sources', 'content_roots'], 1);
  const contentRoots = rootList(check, root, doc.sources?.content_roots, 'sources.content_roots', ['docs']);
  gate.before(['sources', 'code_roots'], 1);
  const codeRoots = rootList(check, root, doc.sources?.code_roots, 'sources.code_roots', []);
  // The placement came right after the code roots, before [sources].exclude.
  gate.before(['sources', 'code_roots'], 2);
  const exclude: readonly unknown[] = Array.isArray(doc.sources?.exclude) ? doc.sources.exclude : DEFAULT_EXCLUDE;
  checkStateDirPlacement(check, root, stateDir, doc.state?.dir !== undefined, contentRoots, codeRoots, exclude);
  checkStateDirReal(check, root, stateDir);
  gate.before(['adapter', 'module'], 1);
  const module = doc.adapter?.module === undefined ? null : relativePath(check, root, doc.adapter.module, 'adapter.module', false);
  gate.before(['adapter', 'c'], 1);
  const include = checkIncludeDirs(check, root, doc.adapter?.c?.include_dirs ?? [], stateDir, codeRoots);
  return { stateDir, contentRoots, codeRoots, module, includeDirs: include.dirs, includeWarnings: include.warnings };
}

/**
 * Validates a parsed descriptor and applies every default (DESIGN.md section 3).
 * @param doc the parsed TOML document; `text` its source, for line numbers; `root` the real root
 * @throws DocforgeError `descriptor_invalid` with details `{ path: 'docforge.toml', line, key }`;
 *   `path_outside_root` for a state dir reached through a link or leaving the root
 */
export function validateDescriptor(raw: Table, text: string, root: string, file: string): Descriptor {
  const check: Checker = new Checker(outlineToml(text), text.split('\n'));
  const { doc, gate } = checkDescriptorShape(check, raw, root);
  const { stateDir, contentRoots, codeRoots, module, includeDirs, includeWarnings } = checkPaths(check, gate, root, doc);
  const views = parseViews(check, gate, root, doc, stateDir);
  const proposals = parseProposals(check, gate, doc);
  gate.pass();
  const id = doc.project.id;
  const exclude = doc.sources?.exclude === undefined ? [...DEFAULT_EXCLUDE] : [...doc.sources.exclude];
  for (const glob of exclude) noControlChars(check, 'sources.exclude', glob);
  const own = checkExcludeGlobs(check, exclude);
  checkNeverWorking(check, doc);
  for (const always of [`${stateDir}/**`, '**/.git/**']) if (!exclude.includes(always)) exclude.push(always);
  const adapter = doc.adapter ?? {};
  const vocab = doc.vocabulary ?? {};
  const limits = effectiveLimits(check, doc.limits);
  const covering = excludedRootWarnings(check, own.compiled, [['content', contentRoots], ['code', codeRoots]]);
  const removing = doc.adapter?.code === 'none' ? [] : removedCodeWarnings(check, root, own.compiled, codeRoots, stateDir, covering.covered);
  const warnings = [...limits.warnings, ...own.warnings, ...covering.warnings, ...removing, ...includeWarnings];
  return {
    schema_version: 1,
    root,
    path: file,
    project: { id, name: doc.project.name ?? id },
    sources: { content_roots: contentRoots, code_roots: codeRoots, exclude },
    adapter: { code: adapterCodes(adapter.code, codeRoots), strategy: adapter.strategy ?? 'ast', module, canonical_applier: adapter.canonical_applier === 'generic' ? 'generic' : null,
      c: { include_dirs: includeDirs, ...(adapter.c?.headers === undefined ? {} : { headers: adapter.c.headers }) } },
    vocabulary: { kinds: unique(vocab.kinds), authorities: unique(vocab.authorities), statuses: unique(vocab.statuses), relations: unique(vocab.relations) },
    limits: limits.limits,
    state: { dir: stateDir },
    views,
    proposals,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/**
 * `[limits]` with defaults, `max_output_chars` raised to {@link MIN_MAX_OUTPUT_CHARS} when set
 * lower (issue 30, item 8): the schema still accepts 2000 and up, so existing descriptors stay
 * valid, and the raise is a `max_output_chars_raised` warning at the key's line.
 */
function effectiveLimits(check: Checker, limits: DescriptorDocument['limits']): { limits: Descriptor['limits']; warnings: SourceIssue[] } {
  const configured = limits?.max_output_chars ?? 60000;
  const effective = { max_results: limits?.max_results ?? 200, max_output_chars: Math.max(configured, MIN_MAX_OUTPUT_CHARS) };
  if (configured >= MIN_MAX_OUTPUT_CHARS) return { limits: effective, warnings: [] };
  const line = check.lineOf('limits.max_output_chars');
  const message = `${DESCRIPTOR_FILE}:${line ?? ''}${line === null ? '' : ':'} [limits].max_output_chars = ${configured} is below the floor of ${MIN_MAX_OUTPUT_CHARS} characters (the smallest limit at which bootstrap and get_contract return every contract record); ${MIN_MAX_OUTPUT_CHARS} is used`;
  return { limits: effective, warnings: [{ severity: 'warning', code: 'max_output_chars_raised', message, path: DESCRIPTOR_FILE, line, node_id: null }] };
}
