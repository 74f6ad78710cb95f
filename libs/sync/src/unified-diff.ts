/**
 * The unified diff that `docforge affected --diff -` reads (issue 32 item 3), as `git diff` and
 * `diff -u` print it: per file, the old and new path and, per hunk, the old lines it removes and
 * the new lines it adds (context lines carry no change). Anything that is not such a diff is
 * refused with the line that broke it (`invalid_arguments`), so a wrong pipe never answers
 * "nothing affected".
 */
import { errors } from '@docforge/core';

/** One file of a unified diff. Paths are as printed, without git's `a/` and `b/` prefixes; null for `/dev/null` (a created or deleted file). */
export interface DiffFile {
  old_path: string | null;
  new_path: string | null;
  /** 1-based lines of the old file that hunks remove, ascending. */
  removed: number[];
  /** 1-based lines of the new file that hunks add, ascending. */
  added: number[];
  /**
   * Set when the section has no lines to map: `binary` (git's `Binary files A and B differ` or
   * `GIT binary patch`, also `diff -r`'s line) or `mode_only` (git's `old mode`/`new mode` without
   * content change or rename). Such a file is reported as not mapped, never silently dropped.
   */
  unmapped?: 'binary' | 'mode_only';
}

/** Most bytes of diff text read (a larger diff is refused, not cut). */
export const MAX_DIFF_BYTES = 64 * 1024 * 1024;

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Largest line number or count a hunk header may give (2^31 - 1). */
const MAX_HUNK_NUMBER = 2 ** 31 - 1;
/** Lines of git's extended header and of `diff` itself, allowed between files. */
const HEADER = /^(diff |index |old mode |new mode |deleted file mode |new file mode |similarity index |dissimilarity index |rename from |rename to |copy from |copy to |Binary files |Only in |GIT binary patch)/;

function diffError(lineNo: number, reason: string): Error {
  return errors.invalidArguments(`the diff on standard input is not a unified diff: line ${lineNo}: ${reason}`, { line: lineNo, reason });
}

/** Git's one-character C escapes (`quote_c_style`), by the letter after the backslash. */
const C_ESCAPES: Readonly<Record<string, number>> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/**
 * A path as git quotes it (`"docs/\303\251.md"`, `"a\tb"`): the C-style escapes and octal bytes
 * decoded, the bytes read as UTF-8. An escape git never writes is a malformed diff.
 */
function gitUnquote(quoted: string, lineNo: number): string {
  const bytes: number[] = [];
  const body = quoted.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== '\\') {
      for (const b of Buffer.from(ch, 'utf8')) bytes.push(b);
      continue;
    }
    const next = body[i + 1];
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1, i + 4));
    if (octal !== null && Number.parseInt(octal[0], 8) <= 255) {
      bytes.push(Number.parseInt(octal[0], 8));
      i += 3;
    } else if (next !== undefined && Object.hasOwn(C_ESCAPES, next)) {
      bytes.push(C_ESCAPES[next]!);
      i += 1;
    } else {
      throw diffError(lineNo, `a quoted path with an escape git does not write (${JSON.stringify(body.slice(i, i + 4))})`);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** A path of a `---`/`+++` line: the text up to a tab (diff -u puts the time there), git's quoting undone, `a/`/`b/` removed, null for /dev/null. */
function headerPath(text: string, prefix: 'a/' | 'b/', lineNo: number): string | null {
  let name = text.split('\t')[0]!.trimEnd();
  if (name.startsWith('"') && name.endsWith('"') && name.length >= 2) name = gitUnquote(name, lineNo);
  if (name === '/dev/null') return null;
  return name.startsWith(prefix) ? name.slice(2) : name;
}

/**
 * Parses unified diff text. Text before the first file header (a commit message, `git show`
 * output) is skipped only when it is not itself diff-like; an empty text is a diff of no files.
 * @throws DocforgeError `invalid_arguments` (details: `line`, `reason`) for text that is not a
 *   unified diff: non-empty text without any file header, a hunk outside a file, a malformed hunk
 *   header, a hunk whose lines do not match its counts, or a line no diff has.
 */
export function parseUnifiedDiff(text: string): DiffFile[] {
  if (Buffer.byteLength(text, 'utf8') > MAX_DIFF_BYTES) throw errors.invalidArguments(`the diff on standard input is larger than ${MAX_DIFF_BYTES} bytes`, { max_bytes: MAX_DIFF_BYTES });
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const files = new Map<string, DiffFile>();
  let current: DiffFile | null = null;
  let pending: { from: string | null; to: string | null } | null = null;
  let section: GitSection | null = null;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!.replace(/\r$/, '');
    if (line.startsWith('--- ') && (lines[i + 1] ?? '').startsWith('+++ ')) {
      current = fileOf(files, headerPath(line.slice(4), 'a/', i + 1), headerPath(lines[i + 1]!.slice(4).replace(/\r$/, ''), 'b/', i + 2));
      if (section !== null) section.content = true;
      pending = null;
      i += 2;
      continue;
    }
    const binary = binaryFiles(line);
    if (binary !== null) {
      fileOf(files, headerPath(binary[0], 'a/', i + 1), headerPath(binary[1], 'b/', i + 1)).unmapped = 'binary';
      if (section !== null) section.content = true;
    } else if (section !== null && line.startsWith('GIT binary patch')) {
      if (section.paths !== null) fileOf(files, section.paths.old, section.paths.new).unmapped = 'binary';
      section.content = true;
    } else if (section !== null && (line.startsWith('old mode ') || line.startsWith('new mode '))) {
      section.mode = true;
    }
    // git's extended header: a section that has no `---`/`+++` lines (a pure rename, a binary file,
    // a mode change, an empty new file) still names its paths.
    if (line.startsWith('diff --git ')) {
      endSection(files, section);
      section = { paths: gitHeaderPaths(line.slice('diff --git '.length), i + 1), mode: false, content: false };
      pending = { from: null, to: null };
      current = null;
    } else if (pending !== null && line.startsWith('rename from ')) {
      pending.from = extendedPath(line.slice('rename from '.length), i + 1);
    } else if (pending !== null && line.startsWith('rename to ')) {
      pending.to = extendedPath(line.slice('rename to '.length), i + 1);
      if (pending.from !== null) current = fileOf(files, pending.from, pending.to);
      if (section !== null) section.content = true;
    }
    if (line.startsWith('@@')) {
      if (current === null) throw diffError(i + 1, 'a hunk before any "--- "/"+++ " file header');
      i = readHunk(lines, i, current);
      continue;
    }
    if (HEADER.test(line) || (current === null && !line.startsWith('+') && !line.startsWith('-'))) {
      i += 1;
      continue;
    }
    if (line === '' && current !== null) {
      i += 1;
      continue;
    }
    throw diffError(i + 1, `unexpected line ${JSON.stringify(line.slice(0, 80))}`);
  }
  endSection(files, section);
  if (files.size === 0 && lines.some((l) => l.trim() !== '')) throw diffError(1, 'no "--- "/"+++ " file header found');
  // One entry per file however many sections name it, its lines in order, each once.
  return [...files.values()].map((file) => ({ ...file, removed: [...new Set(file.removed)].sort((a, b) => a - b), added: [...new Set(file.added)].sort((a, b) => a - b) }));
}

/**
 * The two paths of a `Binary files A and B differ` line (git, and `diff -r`; paths as in `---`/`+++` lines), or null:
 * the matches of the former /^Binary files (.+) and (.+) differ$/ (cubic on a line of many ` and `: issue 30) in linear
 * time. A is the longest (the last ` and ` leaving both paths non-empty); a line break anywhere is no match.
 */
export function binaryFiles(line: string): [string, string] | null {
  const head = 'Binary files ';
  const tail = ' differ';
  if (!line.startsWith(head) || !line.endsWith(tail) || /[\n\r\u2028\u2029]/.test(line)) return null;
  const middle = line.slice(head.length, line.length - tail.length);
  const at = middle.length >= 7 ? middle.lastIndexOf(' and ', middle.length - 6) : -1;
  return at >= 1 ? [middle.slice(0, at), middle.slice(at + 5)] : null;
}

/** What one `diff --git` section showed, for the sections without lines to map. */
interface GitSection {
  /** The old and new path of the `diff --git` line, when it can be read (null: ambiguous). */
  paths: { old: string; new: string } | null;
  /** `old mode`/`new mode` lines. */
  mode: boolean;
  /** `---`/`+++` lines, a binary file or a rename: the section is already recorded. */
  content: boolean;
}

/** Records a finished section that has no lines to map and was not recorded yet: a mode change alone. */
function endSection(files: Map<string, DiffFile>, section: GitSection | null): void {
  if (section === null || section.paths === null) return;
  if (section.mode && !section.content) fileOf(files, section.paths.old, section.paths.new).unmapped = 'mode_only';
}

/**
 * The paths of a `diff --git a/P b/Q` line: two quoted names, or, unquoted, the one split where
 * both sides name the same path (`a/P b/P`, as git writes every section but a rename's, whose
 * `rename from`/`rename to` lines name its paths); null when it cannot be told.
 */
function gitHeaderPaths(rest: string, lineNo: number): { old: string; new: string } | null {
  const quoted = /^("(?:[^"\\]|\\.)*"|[^"\s]\S*) ("(?:[^"\\]|\\.)*"|\S+)$/.exec(rest);
  if (quoted !== null && (quoted[1]!.startsWith('"') || quoted[2]!.startsWith('"'))) {
    const old = headerPath(quoted[1]!, 'a/', lineNo);
    const next = headerPath(quoted[2]!, 'b/', lineNo);
    return old === null || next === null ? null : { old, new: next };
  }
  if ((rest.length - 1) % 2 !== 0) return null;
  const half = (rest.length - 1) / 2;
  const left = rest.slice(0, half);
  const right = rest.slice(half + 1);
  if (!left.startsWith('a/') || !right.startsWith('b/') || left.slice(2) !== right.slice(2)) return null;
  return { old: left.slice(2), new: right.slice(2) };
}

/** The entry of `files` for this pair of paths, made on first use (sections of one file are merged). */
function fileOf(files: Map<string, DiffFile>, oldPath: string | null, newPath: string | null): DiffFile {
  const key = JSON.stringify([oldPath, newPath]);
  let file = files.get(key);
  if (file === undefined) {
    file = { old_path: oldPath, new_path: newPath, removed: [], added: [] };
    files.set(key, file);
  }
  return file;
}

/** A path of a `rename from`/`rename to` line (git writes it without `a/`/`b/`, quoted when needed). */
function extendedPath(text: string, lineNo: number): string {
  const name = text.trimEnd();
  return name.startsWith('"') && name.endsWith('"') && name.length >= 2 ? gitUnquote(name, lineNo) : name;
}

/** Reads the hunk whose header is at `start`, records its removed and added lines, and returns the index after it. */
function readHunk(lines: readonly string[], start: number, file: DiffFile): number {
  const match = HUNK.exec(lines[start]!);
  if (!match) throw diffError(start + 1, `malformed hunk header ${JSON.stringify(lines[start]!.slice(0, 80))}`);
  let oldLine = Number(match[1]);
  let newLine = Number(match[3]);
  let oldLeft = match[2] === undefined ? 1 : Number(match[2]);
  let newLeft = match[4] === undefined ? 1 : Number(match[4]);
  // No source file has 2^31 lines: a larger start or count is not a diff of one (break-it trial).
  if ([oldLine, newLine, oldLeft, newLeft].some((n) => n > MAX_HUNK_NUMBER)) throw diffError(start + 1, `a hunk line number or count above ${MAX_HUNK_NUMBER} in ${JSON.stringify(lines[start]!.slice(0, 80))}`);
  let i = start + 1;
  while (oldLeft > 0 || newLeft > 0) {
    if (i >= lines.length) throw diffError(i, `the hunk at line ${start + 1} ends early (${oldLeft} old and ${newLeft} new lines missing)`);
    const line = lines[i]!.replace(/\r$/, '');
    const mark = line[0];
    if (mark === '\\') {
      i += 1;
      continue;
    }
    // An empty line is a context line whose single space an editor or mail client removed.
    if (mark === ' ' || line === '') {
      if (oldLeft === 0 || newLeft === 0) throw diffError(i + 1, `the hunk at line ${start + 1} has more lines than its header counts`);
      oldLine += 1;
      newLine += 1;
      oldLeft -= 1;
      newLeft -= 1;
    } else if (mark === '-') {
      if (oldLeft === 0) throw diffError(i + 1, `the hunk at line ${start + 1} removes more lines than its header counts`);
      file.removed.push(oldLine);
      oldLine += 1;
      oldLeft -= 1;
    } else if (mark === '+') {
      if (newLeft === 0) throw diffError(i + 1, `the hunk at line ${start + 1} adds more lines than its header counts`);
      file.added.push(newLine);
      newLine += 1;
      newLeft -= 1;
    } else {
      throw diffError(i + 1, `a hunk line must start with " ", "+" or "-" (got ${JSON.stringify(line.slice(0, 80))})`);
    }
    i += 1;
  }
  while (i < lines.length && lines[i]!.startsWith('\\')) i += 1;
  return i;
}
