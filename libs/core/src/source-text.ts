/**
 * Text decoding of source files (issue 8 item 3). DocForge reads sources as UTF-8 and never
 * replaces bytes silently: a file that is not valid UTF-8 (Latin-1 bytes, UTF-16 or UTF-32 with or
 * without a byte order mark, a binary file) is not decoded at all, and the caller reports one
 * `invalid_encoding` finding with the line and column of the first bad byte and indexes nothing
 * from the file. A UTF-8 byte order mark is valid UTF-8 and is kept (the parsers skip it).
 *
 * One exception follows the language: a Python file may declare its encoding in a PEP 263 comment
 * (`# -*- coding: latin-1 -*-` on line 1 or 2); it is decoded with that encoding when the runtime
 * knows it, still without replacement.
 */
import { isUtf8 } from 'node:buffer';
import { formatErrorMessage } from './errors.js';
import type { SourceIssue } from './model.js';

/** Outcome of {@link decodeSourceText}. */
export type DecodedSource =
  | { ok: true; text: string }
  | {
      ok: false;
      /** 1-based line of the first bad byte (lines end at byte 0x0A). */
      line: number;
      /** 1-based byte column of the first bad byte in that line. */
      column: number;
      /** Byte offset of the first bad byte. */
      offset: number;
      /** What the bytes look like: a sentence fragment for the finding. */
      reason: string;
    };

/** Byte length of a well-formed UTF-8 sequence starting at `offset`, or 0 when ill-formed (Unicode Table 3-7). */
function sequenceLength(bytes: Uint8Array, offset: number): number {
  const b0 = bytes[offset] as number;
  if (b0 < 0x80) return 1;
  const at = (i: number): number => (offset + i < bytes.length ? (bytes[offset + i] as number) : -1);
  const cont = (value: number, low = 0x80, high = 0xbf): boolean => value >= low && value <= high;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(at(1)) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const low = b0 === 0xe0 ? 0xa0 : 0x80;
    const high = b0 === 0xed ? 0x9f : 0xbf;
    return cont(at(1), low, high) && cont(at(2)) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const low = b0 === 0xf0 ? 0x90 : 0x80;
    const high = b0 === 0xf4 ? 0x8f : 0xbf;
    return cont(at(1), low, high) && cont(at(2)) && cont(at(3)) ? 4 : 0;
  }
  return 0;
}

/** Offset of the first byte that does not start a well-formed UTF-8 sequence, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let offset = 0; offset < bytes.length; ) {
    const length = sequenceLength(bytes, offset);
    if (length === 0) return offset;
    offset += length;
  }
  return -1;
}

function position(bytes: Uint8Array, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset; index += 1) {
    if (bytes[index] === 0x0a) {
      line += 1;
      lineStart = index + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((value, index) => bytes[index] === value);
}

/** A byte order mark of UTF-16 or UTF-32, named; null for none. */
function foreignByteOrderMark(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0xff, 0xfe, 0x00, 0x00])) return 'UTF-32 LE';
  if (startsWith(bytes, [0x00, 0x00, 0xfe, 0xff])) return 'UTF-32 BE';
  if (startsWith(bytes, [0xff, 0xfe])) return 'UTF-16 LE';
  if (startsWith(bytes, [0xfe, 0xff])) return 'UTF-16 BE';
  return null;
}

/** Python codec names that are not WHATWG encoding labels, mapped to one that is. */
const PYTHON_ALIASES: Record<string, string> = { 'latin-1': 'latin1', latin: 'latin1', cp819: 'latin1', '8859': 'latin1', 'iso-8859-1': 'latin1' };

/** PEP 263: `coding[:=]name` in a comment on line 1 or 2 of a Python file, as a TextDecoder label. */
function pythonDeclaredEncoding(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 400)).toString('latin1');
  const lines = head.split('\n', 2);
  for (const line of lines) {
    const match = /^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)/.exec(line);
    if (match) {
      // Python codec names to WHATWG labels (TextDecoder): `latin_1` -> `latin1`, `iso8859_15` -> `iso8859-15`.
      const name = (match[1] as string).toLowerCase().replace(/_/g, '-');
      return PYTHON_ALIASES[name] ?? name;
    }
    if (!/^[ \t\f]*(#.*)?\r?$/.test(line)) break;
  }
  return null;
}

function failure(bytes: Uint8Array, offset: number, reason: string): DecodedSource {
  return { ok: false, offset, ...position(bytes, offset), reason };
}

/**
 * Decodes the bytes of one source file without ever substituting U+FFFD.
 * @param bytes the file's content
 * @param path project-relative path; only its extension matters (`.py`/`.pyi` honour PEP 263)
 * @returns the text, or where and why the bytes are not text DocForge reads: a UTF-16/UTF-32 byte
 *   order mark (offset 0), a NUL byte (UTF-16/UTF-32 without a byte order mark, or a binary file;
 *   sources never hold NUL), or the first byte that is not valid UTF-8.
 */
export function decodeSourceText(bytes: Uint8Array, path: string): DecodedSource {
  const mark = foreignByteOrderMark(bytes);
  if (mark !== null) return failure(bytes, 0, `the file is ${mark} (byte order mark); DocForge reads UTF-8 only`);
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    // UTF-32 puts three NUL bytes beside an ASCII character, UTF-16 one.
    const wide = bytes[nul + 1] === 0 && bytes[nul + 2] === 0;
    return failure(bytes, nul, `NUL byte: the file looks like ${wide ? 'UTF-32' : 'UTF-16'} without a byte order mark, or binary; DocForge reads UTF-8 only`);
  }
  if (/\.pyi?$/i.test(path)) {
    const declared = pythonDeclaredEncoding(bytes);
    if (declared !== null && !/^utf-?8(-sig)?$/.test(declared)) {
      let decoder;
      try {
        decoder = new TextDecoder(declared, { fatal: true });
      } catch {
        decoder = null; // an encoding the runtime does not know: read as UTF-8 below
      }
      if (decoder !== null) {
        try {
          return { ok: true, text: decoder.decode(bytes) };
        } catch {
          return failure(bytes, 0, `bytes invalid in the declared encoding "${declared}"`);
        }
      }
    }
  }
  if (isUtf8(bytes)) return { ok: true, text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') };
  const offset = firstInvalidUtf8(bytes);
  const byte = (bytes[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0');
  return failure(bytes, offset < 0 ? 0 : offset, `byte 0x${byte} is not valid UTF-8 (a Latin-1 or Windows-1252 file?)`);
}

/**
 * The `invalid_encoding` finding (severity error) for a source that {@link decodeSourceText}
 * refused; its message is the registry template of `invalid_encoding` (libs/core errors.ts).
 */
export function invalidEncodingIssue(path: string, refused: Extract<DecodedSource, { ok: false }>): SourceIssue {
  const message = formatErrorMessage('invalid_encoding', { path, line: refused.line, column: refused.column, reason: refused.reason });
  return { severity: 'error', code: 'invalid_encoding', message, path, line: refused.line, node_id: null };
}
