/**
 * Checks and text surgery for the TOML edits of serialize.ts. `@decimalturn/toml-patch` keeps
 * formatting but its array diff is not always faithful: removing one `[[node]]` entry from an
 * array of tables also drops every other entry's sub-tables (`[node.relations]`), silently. So a
 * record leaves its file by cutting its own lines ({@link cutRecordLines}), and every patched
 * text must read back to exactly the table that was meant ({@link sameToml}) before it is used.
 *
 * Pure: no file system access.
 */

/** Whether two parsed TOML values are equal, ignoring key order (dates compare by their TOML text). */
export function sameToml(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.constructor === b.constructor && JSON.stringify(a) === JSON.stringify(b) && String(a) === String(b);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((value, i) => sameToml(value, b[i]));
  }
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    const rb = b as Record<string, unknown>;
    const ra = a as Record<string, unknown>;
    return ka.every((key) => Object.hasOwn(rb, key) && sameToml(ra[key], rb[key]));
  }
  return Object.is(a, b);
}

/**
 * `src` (a records file, BOM stripped) without the lines `startLine..endLine` (1-based, as the
 * canonical loader reports a record: its `[[node]]` header through its last non-blank,
 * non-comment line, sub-tables included) and the blank lines after them; a record at the end of
 * the file takes the blank lines before it instead, so no new blank tail appears. Line endings of
 * the other lines are kept as they are.
 */
export function cutRecordLines(src: string, startLine: number, endLine: number): string {
  const lines = src.split('\n');
  const blank = (i: number): boolean => (lines[i] ?? '').trim() === '';
  let from = startLine - 1;
  let to = endLine;
  while (to < lines.length && blank(to)) to += 1;
  if (to < lines.length) return [...lines.slice(0, from), ...lines.slice(to)].join('\n');
  // The last record: the blank lines before it go too; the final line break stays as it was.
  while (from > 0 && blank(from - 1)) from -= 1;
  if (from === 0) return '';
  const kept = lines.slice(0, from).join('\n');
  return src.endsWith('\n') ? `${kept}\n` : kept.replace(/\r$/, '');
}
