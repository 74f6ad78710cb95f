/**
 * The walk behind the cheap source identity (DESIGN.md section 4), shared by the IndexManager and
 * the no-change fast path (no-change.ts), so both compute the identity with the same code: the
 * lstat walk of the sources, then the extra stat identities (docforge.toml, extra identity files,
 * the project-owned adapter's fingerprint), the walk findings, and the state of what the compared
 * publication's build read or probed outside the sources (build-dependencies.ts). Light imports
 * only (issue 14).
 */
import path from 'node:path';
import type { SourceIssue } from '@docforge/core';
import type { Descriptor } from '@docforge/project';
import { cheapIdentity, statIdentity, walkSources, type SourceWalk, type StatIdentity } from '@docforge/project';
import { codeExtensionsOf } from './adapter-manifests.js';
import { DEPENDENCIES_META_KEY, decodeDependencies, dependencyIdentities, NO_DEPENDENCIES, type BuildDependencies } from './build-dependencies.js';

/** Pseudo stat identities for walk findings, so that a change in them changes the cheap identity. */
export function walkIssueIdentities(issues: readonly SourceIssue[]): StatIdentity[] {
  return issues.map((issue) => ({ path: `\u0000walk:${issue.code}:${issue.path ?? ''}:${issue.message}`, size: 0, mtime_ns: '0', ctime_ns: '0', ino: '0' }));
}

/**
 * Stat identities other than the walked sources: docforge.toml, each of `extraFiles`
 * (project-relative; a missing one counts with size -1) and, when a project-owned adapter is bound,
 * its implementation fingerprint (`adapterFingerprint`, null when none).
 */
export function identityExtra(root: string, descriptor: Descriptor, extraFiles: readonly string[], adapterFingerprint: string | null): StatIdentity[] {
  const extra: (StatIdentity | null)[] = [statIdentity(descriptor.path, 'docforge.toml')];
  for (const rel of extraFiles) extra.push(statIdentity(path.join(root, rel), rel) ?? { path: rel, size: -1, mtime_ns: '0', ctime_ns: '0', ino: '0' });
  if (adapterFingerprint !== null) extra.push({ path: '\u0000adapter', size: 0, mtime_ns: '0', ctime_ns: '0', ino: adapterFingerprint });
  return extra.filter((e): e is StatIdentity => e !== null);
}

/**
 * One identity walk: the walked sources, every extra stat identity (extras, then walk findings; a
 * build gets these as `identityExtra`) and the state of the compared publication's dependencies.
 */
export interface IdentityWalk {
  walk: SourceWalk;
  extra: StatIdentity[];
  /** {@link dependencyIdentities} of the dependency list this walk was compared against. */
  dependencies: StatIdentity[];
}

/**
 * Walks the sources of `descriptor` (lstat only; code files of its `[adapter] code` adapters) and
 * collects the extra identities ({@link identityExtra}, then {@link walkIssueIdentities}) and the
 * state of `dependencies` (the list of the publication the identity is compared with; null when
 * unreadable, which matches no published identity).
 * @throws what `walkSources` throws
 */
export function identityWalk(
  root: string, descriptor: Descriptor, extraFiles: readonly string[], adapterFingerprint: string | null, dependencies: BuildDependencies | null,
): IdentityWalk {
  const walk = walkSources(descriptor, codeExtensionsOf(descriptor.adapter.code));
  // Walk findings (a new outside symlink, an unreadable directory) change no source stat, so they join the identity.
  return {
    walk, extra: [...identityExtra(root, descriptor, extraFiles, adapterFingerprint), ...walkIssueIdentities(walk.issues)],
    dependencies: dependencyIdentities(root, dependencies),
  };
}

/** The cheap source identity of an {@link IdentityWalk} (no project-owned adapter inputs). */
export function walkIdentity(walked: IdentityWalk): string {
  return cheapIdentity(walked.walk.entries, [...walked.extra, ...walked.dependencies]);
}

/**
 * The dependency list of a published index file from its `meta` rows (as `IndexReader.meta`):
 * {@link NO_DEPENDENCIES} when there is no publication (`meta` null), null when the row is missing
 * or malformed.
 */
export function dependenciesOfMeta(meta: Readonly<Record<string, string>> | null): BuildDependencies | null {
  return meta === null ? NO_DEPENDENCIES : decodeDependencies(meta[DEPENDENCIES_META_KEY]);
}
