/**
 * The proposal policy and path confinement (issue 10, item 4). The generic policy lets the
 * startup-bound writer use the five operations inside content roots; `[proposals.writers.ID]`
 * in the descriptor narrows operations and paths per writer; a project adapter's proposal
 * validator (`proposalOperations`) narrows operations further; nothing widens it. A project
 * integration supplies a confined {@link ProposalPolicy} that the others narrow in turn.
 */
import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { errors } from '@docforge/core';
import { resolveConfined } from '@docforge/fs-safe';
import { CONTENT_EXTENSIONS, type Descriptor } from '@docforge/project';
import { linkedComponentProblem, pathErrnoError } from './confinement.js';
import { OPERATION_NAMES, type OperationName } from './types.js';

/** The effective proposal policy of one writer. */
export interface WriterPolicy {
  writer: string;
  /** Allowed operations (a subset of the five). */
  operations: readonly OperationName[];
  /** Path globs a touched path must match (null: any path inside the content roots). */
  paths: readonly string[] | null;
  /** Path globs of the project integration's confined policy a touched path must ALSO match (null: none). */
  integration_paths: readonly string[] | null;
  /** Where each narrowing came from, for findings. */
  narrowed_by: ('integration' | 'descriptor' | 'project_adapter')[];
}

/**
 * The proposal policy a project integration supplies with its startup-bound writer (contract: "An
 * explicit project integration may construct the full fixed surface only after supplying a
 * confined proposal policy and startup-bound writer"). It can only narrow: the descriptor's
 * `[proposals.writers.ID]` and the project adapter's `proposalOperations` narrow it further.
 */
export interface ProposalPolicy {
  /** Allowed operations: a nonempty subset of the five operation names. */
  readonly operations: readonly OperationName[];
  /**
   * Project-relative POSIX path globs (picomatch) a created, moved, updated or deleted source
   * path must match; each glob's literal base must lie inside a content root.
   */
  readonly paths: readonly string[];
}

/**
 * Checks that an integration's proposal policy is confined to the descriptor's content roots and
 * names only known operations; returns a frozen copy.
 * @throws DocforgeError `policy_violation` for an unknown or missing operation, an empty path
 *   list, or a glob that is absolute, climbs with `..`, or whose literal base lies outside every
 *   content root (nothing is constructed)
 */
export function confineProposalPolicy(policy: ProposalPolicy, descriptor: Descriptor): ProposalPolicy {
  const operations = [...new Set(policy.operations)];
  const unknown = operations.filter((op) => !(OPERATION_NAMES as readonly string[]).includes(op));
  if (operations.length === 0 || unknown.length > 0) {
    throw errors.policyViolation(`the proposal policy must name operations among ${OPERATION_NAMES.join(', ')} (unknown: ${unknown.join(', ') || 'none'}; given: ${operations.length})`, { operations: policy.operations });
  }
  if (policy.paths.length === 0) throw errors.policyViolation('the proposal policy must name at least one path glob inside the content roots', { paths: [] });
  for (const glob of policy.paths) {
    const base = picomatch.scan(glob).base;
    const segments = glob.split('/');
    const inside = descriptor.sources.content_roots.some((root) => root === '.' || base === root || base.startsWith(`${root}/`));
    if (glob.startsWith('/') || /^[A-Za-z]:/.test(glob) || glob.includes('\\') || segments.includes('..') || segments.includes('.') || !inside) {
      throw errors.policyViolation(`proposal path glob ${JSON.stringify(glob)} is not confined to the content roots (${descriptor.sources.content_roots.join(', ')})`, { glob, content_roots: descriptor.sources.content_roots });
    }
  }
  return Object.freeze({ operations: Object.freeze(operations), paths: Object.freeze([...policy.paths]) });
}

/**
 * Intersects the generic policy with the descriptor's `[proposals.writers.ID]` and the project
 * adapter's declared operations.
 */
export function writerPolicy(writer: string, descriptor: Descriptor, adapterOperations: readonly string[] | null, integration: ProposalPolicy | null = null): WriterPolicy {
  let operations: OperationName[] = [...OPERATION_NAMES];
  let paths: string[] | null = null;
  const narrowed: WriterPolicy['narrowed_by'] = [];
  if (integration !== null) {
    operations = operations.filter((op) => integration.operations.includes(op));
    narrowed.push('integration');
  }
  const declared = Object.prototype.hasOwnProperty.call(descriptor.proposals.writers, writer) ? descriptor.proposals.writers[writer] : undefined;
  if (declared !== undefined) {
    if (declared.operations !== null) operations = operations.filter((op) => declared.operations!.includes(op));
    if (declared.paths !== null) paths = [...declared.paths];
    narrowed.push('descriptor');
  }
  if (adapterOperations !== null) {
    operations = operations.filter((op) => adapterOperations.includes(op));
    narrowed.push('project_adapter');
  }
  return { writer, operations, paths, integration_paths: integration === null ? null : [...integration.paths], narrowed_by: narrowed };
}

/** Why the policy refuses an operation on `paths`, or null when it allows it. */
export function policyRefusal(policy: WriterPolicy, op: OperationName, paths: readonly string[]): string | null {
  if (!policy.operations.includes(op)) {
    return `writer ${JSON.stringify(policy.writer)} may not propose ${op} (allowed: ${policy.operations.join(', ') || 'none'}; narrowed by ${policy.narrowed_by.join(' and ')})`;
  }
  for (const [globs, origin] of [[policy.paths, 'descriptor'], [policy.integration_paths, 'project integration']] as const) {
    if (globs === null) continue;
    const match = picomatch(globs as string[], { dot: true });
    const outside = paths.filter((p) => !match(p));
    if (outside.length > 0) return `writer ${JSON.stringify(policy.writer)} may not propose changes to ${outside.join(', ')} (allowed paths of the ${origin} policy: ${globs.join(', ')})`;
  }
  return null;
}

/**
 * The declared content root a normalized project-relative path lies under (lexically), or null. A
 * file root (`README.md`, issue 30 item 11) holds exactly itself: nothing beside or under it.
 */
export function contentRootOf(rel: string, descriptor: Descriptor): string | null {
  for (const root of descriptor.sources.content_roots) if (root === '.' || rel === root || rel.startsWith(`${root}/`)) return root;
  return null;
}

/** Like {@link contentRootOf}, but a root that is a file on disk holds only itself (never `README.md/x.md`). */
function heldByContentRoot(rel: string, descriptor: Descriptor, rootReal: string): boolean {
  return descriptor.sources.content_roots.some((root) => {
    if (root === '.' || rel === root) return true;
    if (!rel.startsWith(`${root}/`)) return false;
    try {
      return lstatSync(path.join(rootReal, ...root.split('/'))).isDirectory();
    } catch (error) {
      // A content folder not created yet holds what is proposed under it; any other failure holds nothing.
      return (error as NodeJS.ErrnoException).code === 'ENOENT';
    }
  });
}

/**
 * Whether a normalized project-relative path is what a content file root lets canonical
 * application touch beside the file itself: a temporary sibling `.<file>.<anything>.tmp` in the
 * same folder (the atomic write's temp file, removed after the rename). Item 16's directory-handle
 * confinement asks this for names in a file root's folder; every other name there is refused.
 */
export function isFileRootTempSibling(rel: string, descriptor: Descriptor): boolean {
  const slash = rel.lastIndexOf('/');
  const dir = slash < 0 ? '' : rel.slice(0, slash + 1);
  const name = rel.slice(slash + 1);
  return descriptor.sources.content_roots.some((root) => {
    // Only a root named like a content file can be a file root (a folder root has no temp siblings).
    if (!/\.(md|markdown|toml)$/i.test(root) || !root.startsWith(dir) || root.slice(dir.length).includes('/')) return false;
    const file = root.slice(dir.length);
    return name.startsWith(`.${file}.`) && name.endsWith('.tmp') && name.length > file.length + 6;
  });
}

function rootDepth(root: string): number {
  return root === '.' ? 0 : root.split('/').length;
}

/** The deepest of `roots` that holds `rel` (lexically; `.` holds everything), or null. */
function deepestRoot(rel: string, roots: readonly string[]): string | null {
  let best: string | null = null;
  for (const root of roots) {
    if (root !== '.' && rel !== root && !rel.startsWith(`${root}/`)) continue;
    if (best === null || rootDepth(root) > rootDepth(best)) best = root;
  }
  return best;
}

/**
 * The code root that governs a project-relative path, or null: the most specific declared root
 * holding the path decides. A path in a code root nested inside a content root (content root `.`,
 * code root `src`) belongs to that code root, which is never written; a content root nested in a
 * code root (fastify: content root `docs`, code root `.`) or declared as both stays writable.
 */
export function governingCodeRoot(rel: string, descriptor: Descriptor): string | null {
  const code = deepestRoot(rel, descriptor.sources.code_roots);
  if (code === null) return null;
  const content = deepestRoot(rel, descriptor.sources.content_roots);
  return content !== null && rootDepth(content) >= rootDepth(code) ? null : code;
}

/**
 * Why DocForge never writes a normalized project-relative path even inside a content root, or
 * null: the descriptor, the state dir, a `.git` folder, or a path governed by a code root
 * ({@link governingCodeRoot}; README: code roots are "never written"). Holds whatever the roots
 * are, e.g. with `content_roots = ["."]`.
 */
export function protectedPathProblem(descriptor: Descriptor, rel: string): string | null {
  const descriptorRel = path.relative(descriptor.root, descriptor.path).split(path.sep).join('/');
  const state = descriptor.state.dir;
  if (rel === descriptorRel) return `${JSON.stringify(rel)} is the project descriptor; proposals never write it`;
  if (rel === state || rel.startsWith(`${state}/`)) return `${JSON.stringify(rel)} lies in the state dir "${state}"; proposals never write there`;
  if (rel.split('/').includes('.git')) return `${JSON.stringify(rel)} lies in a .git folder; proposals never write there`;
  const code = governingCodeRoot(rel, descriptor);
  if (code !== null) return `${JSON.stringify(rel)} lies in the code root ${JSON.stringify(code)}; code roots are never written (content roots: ${descriptor.sources.content_roots.join(', ')})`;
  return null;
}

/**
 * Proves that a proposed path (a created file or a move target) is a plain relative path inside a
 * content root: no `..`, not absolute, no symbolic link anywhere along it (the canonical walk does
 * not descend into symlinked folders, so a file there would not be read back), not excluded, and
 * not protected ({@link protectedPathProblem}: the descriptor, the state dir, `.git`, a code root).
 * A created path must not exist yet as a folder, nor pass through a file or a dangling link.
 * @returns the normalized project-relative POSIX path
 * @throws DocforgeError `path_outside_root` otherwise (nothing is written); `invalid_arguments`
 *   for a name the file system refuses as too long
 */
export function confineProposalPath(descriptor: Descriptor, rel: string): string {
  try {
    return confineLinkFree(descriptor, rel);
  } catch (error) {
    throw pathErrnoError(rel, error);
  }
}

/** {@link confineProposalPath} before its file-system errors are mapped to their causes. */
function confineLinkFree(descriptor: Descriptor, rel: string): string {
  const resolved = resolveConfined(descriptor.root, rel);
  const normalized = path.posix.normalize(rel.replace(/\\/g, '/'));
  const rootReal = realpathSync(descriptor.root);
  if (resolved !== path.join(rootReal, ...normalized.split('/'))) {
    throw errors.pathOutsideRoot(`${JSON.stringify(rel)} passes through a symbolic link; proposals write plain paths inside the content roots only.`, { path: rel });
  }
  // A dangling link resolves as "missing", so the realpath check above does not see it (issue 30, item 23).
  const linked = linkedComponentProblem(rootReal, normalized);
  if (linked !== null) throw errors.pathOutsideRoot(`${JSON.stringify(rel)}: ${linked}.`, { path: rel });
  if (!heldByContentRoot(normalized, descriptor, rootReal)) {
    throw errors.pathOutsideRoot(`${JSON.stringify(rel)} is outside the content roots (${descriptor.sources.content_roots.join(', ')}).`, { path: rel, content_roots: descriptor.sources.content_roots });
  }
  const problem = protectedPathProblem(descriptor, normalized);
  if (problem !== null) throw errors.pathOutsideRoot(`${problem}.`, { path: rel });
  const unread = unreadPathProblem(descriptor, normalized);
  if (unread !== null) throw errors.pathOutsideRoot(`${JSON.stringify(rel)} ${unread}, so the canonical loader would never read it back; choose another path.`, { path: rel, reason_code: 'not_read_back' });
  return normalized;
}

/**
 * Why the source walk (libs/project walk.ts) would not read a file at `rel` back as content, or
 * null: its name has no content extension as the walk reads extensions (`.md` alone, or `.env`, is
 * a dot file with none), or an exclude glob matches it or a folder on the way to it (the walk
 * never descends into an excluded folder). Lexical; the content roots, state dir and `.git` are
 * checked by the caller (break-it trial: `docs/.md` was stored `ready` and failed at verify).
 */
function unreadPathProblem(descriptor: Descriptor, rel: string): string | null {
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  const extension = dot <= 0 ? '' : name.slice(dot).toLowerCase();
  if (!CONTENT_EXTENSIONS.includes(extension)) return `has the file name ${JSON.stringify(name)}, which has no content extension the source walk reads (${CONTENT_EXTENSIONS.join(', ')}; a name that is only an extension is a dot file without one)`;
  const excluded = picomatch(descriptor.sources.exclude, { dot: true });
  if (excluded(rel)) return 'is excluded from the sources';
  for (let slash = rel.indexOf('/'); slash > 0; slash = rel.indexOf('/', slash + 1)) {
    if (excluded(rel.slice(0, slash))) return `lies in the folder ${JSON.stringify(rel.slice(0, slash))}, which is excluded from the sources`;
  }
  return null;
}
