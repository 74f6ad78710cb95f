/**
 * Strings kept for a build's lifetime (issue 35). V8 makes a substring of 13 or more characters a
 * view into its parent string, and the view keeps the whole parent alive: a heading title sliced
 * from markdown-it's normalized copy of a page held that copy (about a page's size), and a title
 * sliced from TOML held the front matter text.
 */

/** Shortest substring V8 keeps as a view of its parent rather than a copy. */
const SLICE_MIN = 13;

/**
 * `text` as a string of its own: equal to `text`, holding no larger string alive. Meant for
 * strings a parse result keeps (titles, summaries, ids from front matter); costs one copy.
 */
export function ownString(text: string): string {
  return text.length < SLICE_MIN ? text : ` ${text}`.slice(1);
}
