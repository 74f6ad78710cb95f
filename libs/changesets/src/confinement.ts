/**
 * The path rules of canonical application, as functions the proposal, the validation of a stored
 * changeset and apply all call (issue 30, item 23: "apply never refuses a ready changeset for a
 * reason that already held when it became ready"). Before this module, apply proved the real path
 * of every touched file while the projection only checked plain path strings, so a created path
 * under a dangling symlinked folder, or a node file that is a symlink into a code root, was stored
 * `ready` and refused only at apply.
 *
 * - {@link pathNameProblem}: what a created or moved path may hold as text (issue 30, items 22 and
 *   25): no control, bidi or invisible format character (the rule of ids), no name over
 *   {@link MAX_NAME_BYTES} bytes (a longer whole path is refused by its ENAMETOOLONG, mapped by
 *   {@link pathErrnoError}).
 * - {@link linkedComponentProblem}: no existing component of a created path is a symbolic link
 *   (dangling ones included) or a file, and the path itself is not an existing directory.
 * - {@link writeTargetOf}: the absolute path apply writes a touched file at, for an existing file
 *   its real path, proven inside a real content root and not protected.
 *
 * Reads the file system (lstat, realpath); writes nothing.
 */
import { lstatSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';
import { Buffer } from 'node:buffer';
import { DocforgeError, errors } from '@docforge/core';
import { isInside } from '@docforge/fs-safe';
import type { Descriptor } from '@docforge/project';

/** Largest file or folder name, in UTF-8 bytes (NAME_MAX of Linux and macOS file systems). */
export const MAX_NAME_BYTES = 255;

/**
 * Largest created or moved project-relative path, in UTF-8 bytes: half of Linux PATH_MAX (4096,
 * the terminating NUL included), so the project root and the state dir's staging prefix fit in the
 * other half (break-it trial: `docs/` + `a/`x2000 + `x.md` was stored `ready`).
 */
export const MAX_PATH_BYTES = 2048;

/**
 * Most segments of a created or moved path (folders plus the file). Every write of canonical
 * application walks from the root through each folder (no `openat` in Node; dir-child.ts), so
 * creating a path of depth N costs O(N^2) folder lookups; 64 is far beyond any documentation tree
 * and keeps that walk cheap, and so the store lock an apply holds short.
 */
export const MAX_PATH_SEGMENTS = 64;

/**
 * Characters a path may not hold: the id rule of libs/core (node-id-rules.ts `UNSAFE_ID_CHARACTER`):
 * C0/C1 controls (line feed and carriage return included), DEL, bidi controls (U+202A..U+202E,
 * U+2066..U+2069, U+200E/U+200F, U+061C) and invisible format characters. Such a name would show
 * differently from what it is, or forge a line of a listing.
 */
const UNSAFE_PATH_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;

/** Why a created or moved path cannot be a file name DocForge writes. */
export interface PathNameProblem {
  /** `unsafe_character`, `name_too_long`, `path_too_long` or `path_too_deep`. */
  reason_code: 'unsafe_character' | 'name_too_long' | 'path_too_long' | 'path_too_deep';
  /** One sentence naming the cause and the limit. */
  reason: string;
  /** The offending character as `U+XXXX` (unsafe_character only). */
  character?: string;
  /** 0-based index of that character (UTF-16 code units). */
  offset?: number;
  /** The limit in bytes (name_too_long, path_too_long). */
  limit_bytes?: number;
  /** The limit in segments (path_too_deep). */
  limit_segments?: number;
}

function codePoint(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Why the text of a created or moved path (`node_create.path`, `node_move.new_path`) cannot name a
 * canonical file, or null. Lexical: no file system access.
 */
export function pathNameProblem(rel: string): PathNameProblem | null {
  const unsafe = UNSAFE_PATH_CHARACTER.exec(rel);
  if (unsafe !== null) {
    const character = codePoint(unsafe[0]);
    return {
      reason_code: 'unsafe_character', character, offset: unsafe.index,
      reason: `a control, bidi or invisible character ${character}: paths, like ids, may not hold one (a line feed or carriage return would forge a line of a listing, a bidi control would show the name reordered)`,
    };
  }
  const total = Buffer.byteLength(rel, 'utf8');
  if (total > MAX_PATH_BYTES) {
    return { reason_code: 'path_too_long', limit_bytes: MAX_PATH_BYTES, reason: `a path of ${total} bytes; created and moved paths hold at most ${MAX_PATH_BYTES} bytes (half of Linux PATH_MAX 4096, the rest for the project root and staging)` };
  }
  const names = rel.split(/[\\/]/).filter((name) => name !== '' && name !== '.');
  if (names.length > MAX_PATH_SEGMENTS) {
    return { reason_code: 'path_too_deep', limit_segments: MAX_PATH_SEGMENTS, reason: `a path of ${names.length} segments; created and moved paths hold at most ${MAX_PATH_SEGMENTS} (folders plus the file name)` };
  }
  for (const name of names) {
    const bytes = Buffer.byteLength(name, 'utf8');
    if (bytes > MAX_NAME_BYTES) {
      return { reason_code: 'name_too_long', limit_bytes: MAX_NAME_BYTES, reason: `a file or folder name of ${bytes} bytes; file systems hold names of at most ${MAX_NAME_BYTES} bytes (ENAMETOOLONG)` };
    }
  }
  return null;
}

function lstatOrNull(abs: string): Stats | null {
  try {
    return lstatSync(abs);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * Why a path that does not exist yet cannot be created as a plain file, or null: an existing
 * component along it (below the root) is a symbolic link (a dangling one too: apply would create
 * nothing through it, and the canonical walk never descends into it), or a file where a folder is
 * needed, or the path itself is already a directory or another non-file.
 * @param rootReal the real project root
 * @param normalized the normalized project-relative POSIX path
 */
export function linkedComponentProblem(rootReal: string, normalized: string): string | null {
  const segments = normalized.split('/');
  let current = rootReal;
  for (let i = 0; i < segments.length; i += 1) {
    current = path.join(current, segments[i]!);
    const st = lstatOrNull(current);
    if (st === null) return null;
    const shown = JSON.stringify(segments.slice(0, i + 1).join('/'));
    if (st.isSymbolicLink()) return `${shown} is a symbolic link${i + 1 < segments.length ? ' on the way to it' : ''}; proposals write plain paths inside the content roots only`;
    if (i + 1 < segments.length && !st.isDirectory()) return `${shown} on the way to it is a file, not a folder`;
    if (i + 1 === segments.length && !st.isFile()) return `${shown} already exists and is not a regular file`;
  }
  return null;
}

/**
 * Maps a file-system error raised by checking a proposed path to the structured error of its
 * cause (bad input is never `internal_error`): a name too long is `invalid_arguments`, a folder
 * that is a file or a loop of links is `path_outside_root`, and so is a path that vanishes or
 * changes while it is checked (ENOENT, EINVAL, ESTALE: `reason_code = "changed_during_check"`);
 * anything else is returned as it was.
 */
export function pathErrnoError(rel: string, error: unknown): unknown {
  if (error instanceof DocforgeError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENAMETOOLONG') return errors.invalidArguments(`${JSON.stringify(rel)} is too long for the file system (ENAMETOOLONG): a name may be at most ${MAX_NAME_BYTES} bytes, and the project root plus the path less than 4096`, { path: rel, reason_code: 'name_too_long', limit_bytes: MAX_NAME_BYTES }, { cause: error });
  if (code === 'ENOTDIR') return errors.pathOutsideRoot(`${JSON.stringify(rel)} passes through a file where a folder is needed; nothing was written.`, { path: rel }, { cause: error });
  if (code === 'ENOENT' || code === 'EINVAL' || code === 'ESTALE') return errors.pathOutsideRoot(`${JSON.stringify(rel)} changed on disk while it was checked (a folder on the way was moved, removed or replaced); nothing was written.`, { path: rel, reason_code: 'changed_during_check' }, { cause: error });
  if (code === 'ELOOP') return errors.pathOutsideRoot(`${JSON.stringify(rel)} passes through a loop of symbolic links; nothing was written.`, { path: rel }, { cause: error });
  return error;
}

/** What {@link writeTargetOf} needs besides the path. */
export interface WriteTargetRules {
  descriptor: Descriptor;
  /** Real paths of the declared content roots that exist (journal-check.ts `realContentRoots`). */
  roots: readonly string[];
  /** `confineProposalPath` of policy.ts (passed in: policy.ts imports this module). */
  confine: (descriptor: Descriptor, rel: string) => string;
  /** `protectedPathProblem` of policy.ts. */
  protectedProblem: (descriptor: Descriptor, rel: string) => string | null;
}

/**
 * The absolute path a staged file is written at: a new file at its confined plain path; an
 * existing one at its real path (a symlinked node file is written through), which must lie inside
 * a declared content root and, like its plain path, be no path DocForge never writes (the
 * descriptor, the state dir, `.git`, a code root). Apply stages with it; the proposal and the
 * validation of a stored changeset run it on every touched path, so a changeset it refuses never
 * becomes ready.
 * @param rel the normalized project-relative path
 * @param exists whether the canonical file exists (it is rewritten or deleted, not created)
 * @returns the target and, for a symlinked existing file, the link's text
 * @throws DocforgeError `path_outside_root` (and `invalid_arguments` for a name too long)
 */
export function writeTargetOf(rules: WriteTargetRules, rel: string, exists: boolean): { target: string; link: string | null } {
  try {
    return resolveWriteTarget(rules, rel, exists);
  } catch (error) {
    throw pathErrnoError(rel, error);
  }
}

/**
 * {@link writeTargetOf} without the mapping of file-system errors: canonical application
 * (apply-target.ts) reads a raw errno raised while a path changes under it as a changed base.
 * @throws DocforgeError `path_outside_root`; Node's errno errors as raised
 */
export function resolveWriteTarget(rules: WriteTargetRules, rel: string, exists: boolean): { target: string; link: string | null } {
  const { descriptor, roots } = rules;
  const rootReal = realpathSync(descriptor.root);
  if (!exists) return { target: path.join(rootReal, ...rules.confine(descriptor, rel).split('/')), link: null };
  const abs = path.join(descriptor.root, rel);
  const target = realpathSync(abs);
  if (!roots.some((root) => isInside(root, target))) throw errors.pathOutsideRoot(`${JSON.stringify(rel)} resolves outside the declared content roots; canonical application writes only inside them.`, { path: rel });
  const realRel = path.relative(rootReal, target).split(path.sep).join('/');
  const problem = rules.protectedProblem(descriptor, rel) ?? rules.protectedProblem(descriptor, realRel);
  if (problem !== null) throw errors.pathOutsideRoot(`${JSON.stringify(rel)} cannot be written: ${problem}.`, { path: rel });
  return { target, link: lstatSync(abs).isSymbolicLink() ? readlinkSync(abs) : null };
}
