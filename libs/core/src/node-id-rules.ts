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

/**
 * Characters a title may not hold (issue 30): C0 controls but tab, line feed and carriage return, DEL, C1 controls, the
 * bidi controls of {@link UNSAFE_ID_CHARACTER} (U+061C, U+200E/U+200F, U+202A..U+202E, U+2066..U+2069) and U+2028/U+2029.
 * The zero-width joiners and other invisible format characters stay allowed: Persian, Indic and emoji text needs them.
 */
export const UNSAFE_TITLE_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/u;

/** The authored text fields {@link authoredTextProblem} checks, as read (absent or null: not checked). */
export interface AuthoredText {
  title?: string | null;
  kind?: string | null;
  family?: string | null;
  authority?: string | null;
  status?: string | null;
  tags?: readonly string[] | null;
}

/**
 * The first field of `fields` holding a character an id may not hold (issue 30: ids refused bidi controls, titles, kinds
 * and tags took them): `kind`, `family`, `authority`, `status` and each tag by the id rule ({@link UNSAFE_ID_CHARACTER}:
 * they are names that filters compare, so an invisible character would make two names look alike), `title` by
 * {@link UNSAFE_TITLE_CHARACTER}. `key` is the field (`tags` for a tag); `message` names it and the character as
 * `U+XXXX`. Null when every field is clean.
 */
export function authoredTextProblem(fields: AuthoredText): { key: string; message: string } | null {
  const named: [string, string | null | undefined, RegExp][] = [
    ['title', fields.title, UNSAFE_TITLE_CHARACTER],
    ...(['kind', 'family', 'authority', 'status'] as const).map((key): [string, string | null | undefined, RegExp] => [key, fields[key], UNSAFE_ID_CHARACTER]),
    ...(fields.tags ?? []).map((tag): [string, string, RegExp] => ['tags', tag, UNSAFE_ID_CHARACTER]),
  ];
  for (const [key, value, rule] of named) {
    const unsafe = typeof value === 'string' ? rule.exec(value) : null;
    if (unsafe === null) continue;
    const code = `U+${unsafe[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    return { key, message: `"${key}" must not contain control or bidi characters, as ids may not (${code} in ${shownId(value as string)})` };
  }
  return null;
}
