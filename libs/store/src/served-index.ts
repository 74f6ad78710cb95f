/**
 * Which index file a viewer may serve (DESIGN.md section 6): only the publication of a real
 * DocForge project. The viewer manager checks it before forking a worker and the worker again
 * before it opens SQLite (defence in depth), so a crafted `ensure_worker` cannot make a worker
 * serve an arbitrary SQLite file, or source files, from an arbitrary directory.
 */
import { existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { errors } from '@docforge/core';
import { stateLayout, type StateLayout } from '@docforge/fs-safe';
import { loadDescriptor, type Descriptor } from '@docforge/project';
import { readPublication } from './publication.js';

/** The five fields that name one exact publication (current.json). */
export interface ServedSignature {
  generation: number;
  source_identity: string;
  index_file: string;
  index_ino: string;
  index_size: number;
}

/** A checked viewer target: real paths only. */
export interface ServedIndex {
  /** Real path of the project root. */
  root: string;
  /** Real path of the published index file: `<root>/<state dir>/index/<index_file>`. */
  indexPath: string;
  descriptor: Descriptor;
  layout: StateLayout;
}

/** Whether `candidate` is `parent` or lies below it (both absolute, normalized; works for `/`). */
export function pathWithin(parent: string, candidate: string): boolean {
  const rel = path.relative(parent, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

function realOf(file: string): string | null {
  try {
    return realpathSync(file);
  } catch {
    return null;
  }
}

/**
 * Proves that `indexPath` is exactly the index file `current.json` of the project at `projectRoot`
 * currently publishes with `signature`: the root is absolute, exists, is a directory and holds
 * docforge.toml; symlinks of the root and the index path are resolved (realpath); the index file
 * must be `<real root>/<[state].dir>/index/<signature.index_file>`, a regular file whose inode and
 * size match, and current.json must carry the same five signature fields.
 * @throws DocforgeError `project_root_invalid` (root not absolute, missing, not a directory, no
 *   docforge.toml); `descriptor_invalid`; `invalid_arguments` (index path not the published index
 *   file of that root); `snapshot_replaced` (current.json or the file no longer has that signature)
 */
export function resolveServedIndex(projectRoot: string, indexPath: string, signature: ServedSignature): ServedIndex {
  if (projectRoot.includes('\0')) throw errors.projectRootInvalid(projectRoot, 'contains a NUL byte');
  if (!path.isAbsolute(projectRoot)) throw errors.projectRootInvalid(projectRoot, 'is not an absolute path');
  const root = realOf(projectRoot);
  if (root === null || !statSync(root).isDirectory()) throw errors.projectRootInvalid(projectRoot, 'does not exist or is not a directory');
  if (!existsSync(path.join(root, 'docforge.toml'))) throw errors.projectRootInvalid(projectRoot, 'holds no docforge.toml, so it is no DocForge project');
  const descriptor = loadDescriptor(root);
  const layout = stateLayout(path.join(root, descriptor.state.dir), root);
  const refuse = (why: string): never => {
    throw errors.invalidArguments(`index_path must be the index file the project's current.json publishes (${why}).`, { project_root: projectRoot, index_path: indexPath });
  };
  if (indexPath.includes('\0') || !path.isAbsolute(indexPath)) refuse('it is not an absolute path');
  const indexDir = realOf(layout.indexDir);
  if (indexDir === null || indexDir !== layout.indexDir || !pathWithin(root, indexDir)) refuse('the state dir index directory is missing, a link or outside the root');
  const expected = path.join(layout.indexDir, signature.index_file);
  if (path.dirname(expected) !== layout.indexDir) refuse('the signature names no file of the index directory');
  if (realOf(indexPath) !== expected) refuse(`it does not resolve to ${expected}`);
  const published = readPublication(layout);
  if (published === null) throw errors.snapshotReplaced(signature.index_file, 'the project has no valid current.json');
  const same = published.generation === signature.generation && published.source_identity === signature.source_identity && published.index_file === signature.index_file
    && published.index_ino === signature.index_ino && published.index_size === signature.index_size;
  if (!same) throw errors.snapshotReplaced(signature.index_file, 'current.json publishes another signature');
  const st = lstatSync(expected, { bigint: true });
  if (!st.isFile() || String(st.ino) !== signature.index_ino || Number(st.size) !== signature.index_size) {
    throw errors.snapshotReplaced(signature.index_file, 'the index file no longer has the published inode and size');
  }
  return { root, indexPath: expected, descriptor, layout };
}
