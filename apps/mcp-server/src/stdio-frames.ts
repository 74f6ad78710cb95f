/**
 * Reading MCP stdio frames (newline-delimited JSON-RPC messages) with a stated size limit
 * (issue 30 item 18). The SDK's `ReadBuffer` throws once its buffer passes 10 MiB, and its
 * transport then closes, so a large request ended the server silently. Here a message of up to
 * {@link MAX_REQUEST_BYTES} is read; a longer one is skipped up to its newline without being kept
 * in memory, and reported once with the request id found in its first {@link ID_SCAN_BYTES}, so
 * the server answers it and keeps serving. Buffering is linear: chunks are kept in a list and
 * joined once per message.
 */

/** The largest message read, in bytes, excluding its newline: 32 MiB (at least the SDK's former 10 MiB). */
export const MAX_REQUEST_BYTES = 32 * 1024 * 1024;

/** How much of an oversized message is searched for its request id, in bytes (the first 64 KiB). */
export const ID_SCAN_BYTES = 64 * 1024;

/** A JSON-RPC request id (or null when none could be read). */
export type FrameRequestId = string | number | null;

/** One event of the reader: a complete message line, or an oversized message that was skipped. */
export type Frame =
  | { kind: 'line'; text: string }
  | { kind: 'too_large'; id: FrameRequestId; limitBytes: number };

/** Splits a byte stream into message lines, skipping (and reporting) lines over the limit. */
export class FrameReader {
  #chunks: Buffer[] = [];
  #length = 0;
  /** Inside an oversized message: bytes are dropped until its newline. */
  #skipping = false;

  /** @param limitBytes longest message read, in bytes (default {@link MAX_REQUEST_BYTES}) */
  constructor(readonly limitBytes: number = MAX_REQUEST_BYTES) {}

  /** Adds one chunk; returns the frames it completed (a `too_large` frame as soon as the limit is passed), in order. */
  push(chunk: Buffer): Frame[] {
    const frames: Frame[] = [];
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, newline === -1 ? chunk.length : newline);
      if (!this.#skipping) this.#keep(piece, frames);
      if (newline === -1) break;
      if (this.#skipping) this.#skipping = false;
      else this.#endLine(frames);
      start = newline + 1;
    }
    return frames;
  }

  /** Keeps a piece of the current message, or reports the message once it passes the limit. */
  #keep(piece: Buffer, frames: Frame[]): void {
    if (this.#length + piece.length <= this.limitBytes) {
      if (piece.length > 0) {
        this.#chunks.push(piece);
        this.#length += piece.length;
      }
      return;
    }
    const prefix = Buffer.concat([...this.#chunks, piece]).subarray(0, ID_SCAN_BYTES);
    frames.push({ kind: 'too_large', id: requestIdOf(prefix.toString('utf8')), limitBytes: this.limitBytes });
    this.#reset();
    this.#skipping = true;
  }

  #endLine(frames: Frame[]): void {
    const text = Buffer.concat(this.#chunks, this.#length).toString('utf8').replace(/\r$/, '');
    this.#reset();
    if (text.trim() !== '') frames.push({ kind: 'line', text });
  }

  #reset(): void {
    this.#chunks = [];
    this.#length = 0;
  }
}

/**
 * The `id` member of the top-level JSON object that `text` begins (possibly cut short), when it is
 * a string or a finite number and appears complete in `text`; null otherwise (no object, no id,
 * an id of another type, or text cut before the id's end). Nested objects are skipped, never
 * searched, so an `"id"` inside `params` is not taken for the request's.
 */
export function requestIdOf(text: string): FrameRequestId {
  let i = skipSpace(text, 0);
  if (text[i] !== '{') return null;
  i += 1;
  for (;;) {
    i = skipSpace(text, i);
    if (text[i] !== '"') return null;
    const keyEnd = valueEnd(text, i);
    if (keyEnd < 0) return null;
    const key = parseJson(text.slice(i, keyEnd));
    i = skipSpace(text, keyEnd);
    if (text[i] !== ':') return null;
    i = skipSpace(text, i + 1);
    const end = valueEnd(text, i);
    if (end < 0) return null;
    if (key === 'id') {
      const id = parseJson(text.slice(i, end));
      return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
    }
    i = skipSpace(text, end);
    if (text[i] !== ',') return null;
    i += 1;
  }
}

/** JSON.parse, or undefined for text that is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i += 1;
  return i;
}

/** The index after the JSON value starting at `i`, or -1 when the text ends before it does. */
function valueEnd(text: string, i: number): number {
  const first = text[i];
  if (first === '"') return stringEnd(text, i);
  if (first === '{' || first === '[') return containerEnd(text, i);
  let j = i;
  while (j < text.length && !',}] \t\r\n'.includes(text[j]!)) j += 1;
  // A scalar running to the end of the text may be cut short (12 of 123).
  return j === text.length || j === i ? -1 : j;
}

/** The index after the string starting at `i` (a quote), or -1. */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j += 1) {
    if (text[j] === '\\') j += 1;
    else if (text[j] === '"') return j + 1;
  }
  return -1;
}

/** The index after the object or array starting at `i`, or -1. */
function containerEnd(text: string, i: number): number {
  let depth = 0;
  for (let j = i; j < text.length; j += 1) {
    const c = text[j];
    if (c === '"') {
      const end = stringEnd(text, j);
      if (end < 0) return -1;
      j = end - 1;
    } else if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') {
      depth -= 1;
      if (depth === 0) return j + 1;
    }
  }
  return -1;
}
