/**
 * Where canonical application writes one staged file, and the path-level confinement rules it
 * must pass (issue 11; issue 30, item 16). {@link applyTarget} is the rule set (also run at
 * proposal and validation time, issue 30 item 23); {@link folderPlan} says which folders must
 * already exist (every folder down to the file's content root: DocForge never re-creates a
 * missing content folder) and which new subfolders below the content root the write may make,
 * one component at a time by verified handle.
 */
import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { Descriptor } from '@docforge/project';
import { resolveWriteTarget } from './confinement.js';
import { contentRootOf, confineProposalPath, protectedPathProblem } from './policy.js';

/** Where one staged file is written. */
export interface ApplyTarget {
  /** Absolute real path written: a new file at its confined plain path, an existing one at its real path. */
  target: string;
  /** For an existing symbolic link at the node path: its link text, else null. */
  link: string | null;
}

/**
 * The absolute path a staged file is written at: a new file at its confined plain path
 * ({@link confineProposalPath}: no link along it, inside a content root, not protected, not
 * excluded); an existing one at its real path (a symlinked node file is written through), which
 * must lie inside a real declared content root and, like its plain path, be no path DocForge
 * never writes (the descriptor, the state dir, `.git`, a code root: `protectedPathProblem`).
 * @param realRoots the real paths of the existing content roots (`realContentRoots`)
 * @throws DocforgeError `path_outside_root`; Node's ENOENT when an existing file vanished
 */
export function applyTarget(descriptor: Descriptor, rel: string, exists: boolean, realRoots: readonly string[]): ApplyTarget {
  return resolveWriteTarget({ descriptor, roots: realRoots, confine: confineProposalPath, protectedProblem: protectedPathProblem }, rel, exists);
}

/** The folders of one write: the deepest existing one (verified before writing) and the new ones below it. */
export interface FolderPlan {
  /** The existing folder to open, relative to the real root (`''`: the root). */
  existing: string;
  /** Subfolder names to make below `existing`, in order (empty for an existing folder). */
  create: string[];
  /** The file's name in its folder. */
  name: string;
}

/**
 * Plans the folders of a write at `target` (an {@link applyTarget} result, `rel` its node path).
 * Only folders strictly below the path's content root may be made; a missing content root, or a
 * missing folder of an existing file, is refused (DocForge never re-creates one).
 * @returns the plan, or a refusal sentence
 */
export function folderPlan(descriptor: Descriptor, rel: string, target: string): FolderPlan | string {
  const rootReal = realpathSync(descriptor.root);
  const segments = path.relative(rootReal, path.dirname(target)).split(path.sep).filter((s) => s.length > 0);
  let depth = 0;
  for (; depth < segments.length; depth += 1) {
    let st;
    try {
      st = lstatSync(path.join(rootReal, ...segments.slice(0, depth + 1)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') break;
      throw error;
    }
    if (st.isSymbolicLink() || !st.isDirectory()) return `the folder ${segments.slice(0, depth + 1).join('/')} of ${rel} is a symbolic link or not a folder`;
  }
  const root = contentRootOf(path.posix.normalize(rel), descriptor);
  // The content root itself must exist: for a folder root its own segments, for a file root the folder holding it.
  const rootDepth = root === null || root === '.' ? 0 : Math.min(root.split('/').length, segments.length);
  if (depth < segments.length && depth < rootDepth) {
    return `the content folder ${segments.slice(0, depth + 1).join('/')} of ${rel} is missing; DocForge never re-creates a content folder`;
  }
  return { existing: segments.slice(0, depth).join('/'), create: segments.slice(depth), name: path.basename(target) };
}
