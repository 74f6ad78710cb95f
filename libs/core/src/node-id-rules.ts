/**
 * The rules every authored node id obeys, whatever its source (front matter, `[[node]]` records,
 * a project-owned adapter's output): ids are what tools take as `node_id` (at most
 * {@link MAX_NODE_ID_CHARS} characters), so an id no tool could name, or one carrying characters
 * that reach terminals and links unseen, gives no node (docs/errors.md).
 */

/** Most characters (UTF-16 code units) of a node id: the tools' `node_id` maxLength. */
export const MAX_NODE_ID_CHARS = 1024;

/** Characters an id may not hold: C0/C1 controls, DEL, bidi controls, invisible format characters. */
export const UNSAFE_ID_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;
const UNSAFE_ID_CHARACTERS = new RegExp(UNSAFE_ID_CHARACTER.source, 'gu');

/** A UTF-16 surrogate without its pair (no UTF-8 form). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** `id` with unsafe characters shown as `\uXXXX` escapes, cut to 80 characters (for messages). */
export function shownId(id: string): string {
  const shown = JSON.stringify(id.length > 80 ? `${id.slice(0, 80)}…` : id);
  return shown.replace(UNSAFE_ID_CHARACTERS, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`).replace(new RegExp(LONE_SURROGATE.source, 'g'), (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/**
 * Why `id` (already in NFC) is not a usable node id, or null when it is: longer than
 * {@link MAX_NODE_ID_CHARS}, whitespace, a lone surrogate, or a control, bidi or invisible character.
 */
export function nodeIdProblem(id: string): string | null {
  if (id.length > MAX_NODE_ID_CHARS) return `"id" must be at most ${MAX_NODE_ID_CHARS} characters (the tools' node_id limit), got ${id.length}: ${shownId(id)}`;
  if (/\s/.test(id)) return `"id" must not contain whitespace (${shownId(id)})`;
  if (LONE_SURROGATE.test(id)) return `"id" must not contain a lone UTF-16 surrogate (${shownId(id)})`;
  const unsafe = UNSAFE_ID_CHARACTER.exec(id);
  if (unsafe) return `"id" must not contain control, bidi or invisible characters (U+${unsafe[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} in ${shownId(id)})`;
  return null;
}
