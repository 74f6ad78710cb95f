/**
 * Loading the project descriptor `docforge.toml` (DESIGN.md section 3, schema version 1): a
 * confined, bounded read of the file, TOML parsing with line-accurate syntax errors, then
 * validation ({@link validateDescriptor}).
 */
import { closeSync, constants as fsConstants, fstatSync, lstatSync, openSync, readSync, realpathSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { parseToml, TomlError } from './toml.js';
import { DocforgeError, errors } from '@docforge/core';
import { DESCRIPTOR_FILE, MAX_DESCRIPTOR_BYTES, type Descriptor } from './descriptor-types.js';
import { isInside, validateDescriptor, type Table } from './descriptor-validate.js';
import { decodeSourceText, initHint } from '@docforge/core';

/** `descriptor_invalid` for the descriptor file as a whole; `missing` adds `details.reason_code = "missing"` (no such file). */
function descriptorFileError(reason: string, cause?: unknown, missing = false): DocforgeError {
  return errors.descriptorInvalid(`${DESCRIPTOR_FILE}: ${reason}`, { path: DESCRIPTOR_FILE, line: null, key: null, ...(missing ? { reason_code: 'missing' } : {}) }, cause === undefined ? undefined : { cause });
}

function fileKind(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  return 'a special file';
}

function checkDescriptorStat(file: string, target: string, stat: Stats): void {
  if (!stat.isFile()) throw descriptorFileError(`${file} is not a regular file (it is ${fileKind(stat)}${target === file ? '' : `, via symbolic link to ${target}`}); not read`);
  if (stat.size > MAX_DESCRIPTOR_BYTES) throw descriptorFileError(`${file} is larger than ${MAX_DESCRIPTOR_BYTES} bytes (${stat.size} bytes); not read`);
}

/**
 * Reads docforge.toml without ever blocking on or streaming from a non-regular file: a symlink
 * must resolve inside the root; the target's type and size are checked with lstat before it is
 * opened, then it is opened with O_NONBLOCK|O_NOFOLLOW (a FIFO swapped in cannot hang the open),
 * checked again with fstat on the open descriptor, and at most {@link MAX_DESCRIPTOR_BYTES} + 1
 * bytes are ever read.
 */
function readDescriptorText(realRoot: string, file: string): string {
  let target = file;
  try {
    const link = lstatSync(file);
    if (link.isSymbolicLink()) {
      try {
        target = realpathSync(file);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? String(error);
        throw descriptorFileError(`${file} is not a regular file (symbolic link whose target cannot be resolved: ${code})`, error);
      }
      if (!isInside(realRoot, target)) throw descriptorFileError(`${file} is not a regular file inside the project root (symbolic link to ${target})`);
    }
    // Type and size are checked on a stat before any open: opening a device can itself have effects.
    checkDescriptorStat(file, target, target === file ? link : lstatSync(target));
  } catch (error) {
    if (error instanceof DocforgeError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? `no ${DESCRIPTOR_FILE} in ${realRoot} (${initHint(realRoot)})` : `cannot read ${file} (${code ?? String(error)})`;
    throw descriptorFileError(reason, error, code === 'ENOENT');
  }
  let fd: number;
  try {
    fd = openSync(target, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK | fsConstants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw descriptorFileError(`cannot read ${file} (${code ?? String(error)})`, error);
  }
  try {
    // Re-checked on the open descriptor: the path may have been swapped since the stat above.
    checkDescriptorStat(file, target, fstatSync(fd));
    // Read at most MAX + 1 bytes: a file that grew past the cap after fstat is refused, never slurped.
    const buffer = Buffer.allocUnsafe(MAX_DESCRIPTOR_BYTES + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > MAX_DESCRIPTOR_BYTES) throw descriptorFileError(`${file} is larger than ${MAX_DESCRIPTOR_BYTES} bytes (grew while being read); not read`);
    }
    // TOML requires UTF-8: bytes that are not UTF-8 are refused, never replaced.
    const decoded = decodeSourceText(buffer.subarray(0, length), DESCRIPTOR_FILE);
    if (!decoded.ok) {
      throw errors.descriptorInvalid(`${DESCRIPTOR_FILE}:${decoded.line}: not UTF-8 text at column ${decoded.column} (${decoded.reason}); TOML requires UTF-8`, { path: DESCRIPTOR_FILE, line: decoded.line, key: null });
    }
    return decoded.text;
  } catch (error) {
    if (error instanceof DocforgeError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw descriptorFileError(`cannot read ${file} (${code ?? String(error)})`, error);
  } finally {
    closeSync(fd);
  }
}

/**
 * A TOML value parsed with integers as BigInt, with TOML's integers and floats told apart (issue 30,
 * break-it: `schema_version = 1.0` was read as the integer 1, because smol-toml gives the integer 1
 * and the float 1.0 as the same JS number). Each integer becomes a number again; each float whose
 * value is integral (`1.0`, `1e3`) becomes NaN, a float no integer field of the schema accepts, so
 * the shape check names the field and the integer it expects; other floats stay as they are. No
 * descriptor field takes a float. Tables, arrays and dates otherwise unchanged.
 */
function withFloatsMarked(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number') return Number.isInteger(value) ? Number.NaN : value;
  if (Array.isArray(value)) return value.map(withFloatsMarked);
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) Object.defineProperty(out, key, { value: withFloatsMarked(item), enumerable: true, writable: true, configurable: true });
  return out;
}

/**
 * Reads and validates `<root>/docforge.toml` (DESIGN.md section 3).
 * @param root project root directory (resolved with realpath)
 * @returns the descriptor with every default applied
 * @throws DocforgeError `descriptor_invalid` with details `{ path: 'docforge.toml', line, key }` for
 *   a missing or unreadable file, a descriptor that is not a regular file (FIFO, device, directory,
 *   socket, a symlink leaving the root or to a non-regular file: "docforge.toml: <path> is not a
 *   regular file", never read) or is larger than {@link MAX_DESCRIPTOR_BYTES}, bytes that are not UTF-8 (line of the first bad byte), a TOML syntax error (line from smol-toml), an unknown table or
 *   key, a wrong type, an out-of-range limit, a bad project id, a root escaping the project, or a
 *   `[state].dir` that is `.` or equals, contains or lies inside a content or code root.
 */
export function loadDescriptor(root: string): Descriptor {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch (error) {
    throw errors.descriptorInvalid(`${DESCRIPTOR_FILE}: project root ${root} does not exist`, { path: DESCRIPTOR_FILE, line: null, key: null }, { cause: error });
  }
  const file = join(realRoot, DESCRIPTOR_FILE);
  let text = readDescriptorText(realRoot, file);
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let doc: Table;
  try {
    doc = withFloatsMarked(parseToml(text, { integersAsBigInt: true })) as Table;
  } catch (error) {
    const line = error instanceof TomlError ? error.line : null;
    const reason = error instanceof Error ? error.message.split('\n')[0]?.replace(/^Invalid TOML document: /, '') ?? 'syntax error' : String(error);
    throw errors.descriptorInvalid(`${DESCRIPTOR_FILE}:${line ?? ''}: TOML syntax error: ${reason}`, { path: DESCRIPTOR_FILE, line, key: null }, { cause: error });
  }
  return validateDescriptor(doc, text, realRoot, file);
}

