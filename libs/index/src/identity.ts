/**
 * The walk behind the cheap source identity (DESIGN.md section 4), shared by the IndexManager and
 * the no-change fast path (no-change.ts), so both compute the identity with the same code: the
 * lstat walk of the sources, then the extra stat identities (docforge.toml, extra identity files,
 * the project-owned adapter's fingerprint) and the walk findings. Light imports only (issue 14).
 */
import path from 'node:path';
import type { SourceIssue } from '@docforge/core';
import type { Descriptor } from '@docforge/project';
import { statIdentity, walkSources, type SourceWalk, type StatIdentity } from '@docforge/project/walk';
import { codeExtensionsOf } from './adapter-manifests.js';

/** Pseudo stat identities for walk findings, so that a change in them changes the cheap identity. */
export function walkIssueIdentities(issues: readonly SourceIssue[]): StatIdentity[] {
  return issues.map((issue) => ({ path: `\u0000walk:${issue.code}:${issue.path ?? ''}:${issue.message}`, size: 0, mtime_ns: '0', ino: '0' }));
}

/**
 * Stat identities other than the walked sources: docforge.toml, each of `extraFiles`
 * (project-relative; a missing one counts with size -1) and, when a project-owned adapter is bound,
 * its implementation fingerprint (`adapterFingerprint`, null when none).
 */
export function identityExtra(root: string, descriptor: Descriptor, extraFiles: readonly string[], adapterFingerprint: string | null): StatIdentity[] {
  const extra: (StatIdentity | null)[] = [statIdentity(descriptor.path, 'docforge.toml')];
  for (const rel of extraFiles) extra.push(statIdentity(path.join(root, rel), rel) ?? { path: rel, size: -1, mtime_ns: '0', ino: '0' });
  if (adapterFingerprint !== null) extra.push({ path: '\u0000adapter', size: 0, mtime_ns: '0', ino: adapterFingerprint });
  return extra.filter((e): e is StatIdentity => e !== null);
}

/** One identity walk: the walked sources and every extra stat identity (extras, then walk findings). */
export interface IdentityWalk {
  walk: SourceWalk;
  extra: StatIdentity[];
}

/**
 * Walks the sources of `descriptor` (lstat only; code files of its `[adapter] code` adapters) and
 * collects the extra identities ({@link identityExtra}, then {@link walkIssueIdentities}).
 * @throws what `walkSources` throws
 */
export function identityWalk(root: string, descriptor: Descriptor, extraFiles: readonly string[], adapterFingerprint: string | null): IdentityWalk {
  const walk = walkSources(descriptor, codeExtensionsOf(descriptor.adapter.code));
  // Walk findings (a new outside symlink, an unreadable directory) change no source stat, so they join the identity.
  return { walk, extra: [...identityExtra(root, descriptor, extraFiles, adapterFingerprint), ...walkIssueIdentities(walk.issues)] };
}
