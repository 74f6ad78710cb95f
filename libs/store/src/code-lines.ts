/**
 * The stored form of a node's code lines (`node_code.lines`, issue 31 item 1): raw DEFLATE of the
 * lines' UTF-8. The lines are read only to cut the excerpts of one search page, never searched in
 * SQL, and are most of what code text adds to an index file (fastify: 1.96 MB of lines, 0.56 MB
 * deflated). A node keeps at most `MAX_CODE_TEXT_CHARS` (64 Ki) characters of lines, so one read
 * inflates at most that much.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** The stored bytes of `lines`. */
export function packCodeLines(lines: string): Buffer {
  return deflateRawSync(Buffer.from(lines, 'utf8'));
}

/**
 * The lines of stored bytes, at most `maxChars` characters of them.
 * @throws zlib errors for bytes that are not raw DEFLATE (a damaged file)
 */
export function unpackCodeLines(packed: Uint8Array, maxChars: number): string {
  const text = inflateRawSync(packed).toString('utf8');
  return text.length > maxChars ? text.slice(0, maxChars) : text;
}
