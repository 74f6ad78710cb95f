/**
 * Newline-delimited JSON framing over a stream socket (DESIGN.md section 6): one JSON object per
 * line, UTF-8, at most {@link MAX_FRAME_BYTES} bytes per line.
 */
import { StringDecoder } from 'node:string_decoder';
import { errors, type DocforgeError } from '@docforge/core';
import { MAX_FRAME_BYTES } from './frames.js';

/** What the decoder yields per line: the parsed value, or the protocol error of an unreadable line. */
export type DecodedLine = { ok: true; value: unknown } | { ok: false; error: DocforgeError };

/**
 * Splits a byte stream into frames. Feed chunks with {@link push}; each complete line yields one
 * decoded value or error. A line longer than the limit yields one error and is skipped up to its
 * newline; an empty line is ignored.
 */
export class NdjsonDecoder {
  private readonly decoder = new StringDecoder('utf8');
  private buffer = '';
  private skipping = false;

  /** @param maxBytes longest accepted line (default {@link MAX_FRAME_BYTES}) */
  constructor(private readonly maxBytes: number = MAX_FRAME_BYTES) {}

  /** Adds one chunk; returns the lines it completed, in order. */
  push(chunk: Buffer | string): DecodedLine[] {
    this.buffer += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    const out: DecodedLine[] = [];
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      out.push(...this.decodeLine(line));
    }
    if (!this.skipping && Buffer.byteLength(this.buffer) > this.maxBytes) {
      this.buffer = '';
      this.skipping = true;
      out.push({ ok: false, error: errors.viewerProtocolError(`A frame exceeds ${this.maxBytes} bytes.`, { max_bytes: this.maxBytes }) });
    } else if (this.skipping) {
      this.buffer = '';
    }
    return out;
  }

  private decodeLine(line: string): DecodedLine[] {
    if (line.trim() === '') return [];
    if (Buffer.byteLength(line) > this.maxBytes) return [{ ok: false, error: errors.viewerProtocolError(`A frame exceeds ${this.maxBytes} bytes.`, { max_bytes: this.maxBytes }) }];
    try {
      return [{ ok: true, value: JSON.parse(line) as unknown }];
    } catch {
      return [{ ok: false, error: errors.viewerProtocolError('A frame is not valid JSON.') }];
    }
  }
}

/** One frame as a line: JSON plus a newline. */
export function encodeFrame(frame: object): string {
  return `${JSON.stringify(frame)}\n`;
}
