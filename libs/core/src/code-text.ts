/**
 * Code text of code nodes (issue 31 item 1): the words inside a function's body (its identifiers,
 * string literals and comments) and a module's top level, so a search for an error code, a string
 * literal or a comment finds the declaration that holds it, with the matching line as excerpt.
 * Shared by the built-in adapters, which pass their language's keywords. Each source line belongs
 * to the innermost node whose extent holds it; nested declarations get their own lines.
 */
import type { GraphNode, NodeCodeText } from './model.js';

export type { NodeCodeText } from './model.js';

/**
 * Most characters of kept lines per node: the bound of one long body's excerpt scan
 * (`EXCERPT_SCAN_CHARS` of libs/retrieval), so a search reads no more of a huge function than of
 * any other large node. Lines past it are neither indexed nor shown.
 */
export const MAX_CODE_TEXT_CHARS = 65_536;

/** Most characters kept of one source line (a minified line is cut there; its words past the cut are not indexed). */
export const MAX_CODE_LINE_CHARS = 400;


/** What a language passes to {@link collectCodeText}. */
export interface CodeTextOptions {
  /** Node kinds that own code text (a line whose innermost node is of another kind, e.g. an interface, is its own declaration's and is left out). */
  owners: ReadonlySet<string>;
  /** Words never indexed (the language's keywords), compared as written. */
  keywords: ReadonlySet<string>;
}

/** A word of code: letters, digits and `_` (so `err.code` gives `err`, `code`; `$` separates). */
const WORD = /[\p{L}\p{M}\p{N}_]+/gu;
const DIGITS = /^\p{N}+$/u;

/** Whether a word is searchable code text: not a keyword, not one character, not a number of fewer than 3 digits. */
function keptWord(word: string, keywords: ReadonlySet<string>): boolean {
  if (word.length < 2 || keywords.has(word)) return false;
  return word.length >= 3 || !DIGITS.test(word);
}

type Extent = Pick<GraphNode, 'id' | 'kind' | 'start_line' | 'end_line'>;

/**
 * The innermost node of each line 1..`lineCount` (index into `nodes`, -1 for none): nodes sorted
 * by start (outer first on equal starts), swept with a stack of open extents. Linear in lines plus
 * nodes (times the nesting depth for the pops).
 */
function innermost(nodes: readonly Extent[], lineCount: number): Int32Array {
  const order = nodes.map((_, i) => i).sort((a, b) => nodes[a]!.start_line - nodes[b]!.start_line || nodes[b]!.end_line - nodes[a]!.end_line || a - b);
  const owner = new Int32Array(lineCount + 1).fill(-1);
  const stack: number[] = [];
  let next = 0;
  for (let line = 1; line <= lineCount; line += 1) {
    while (next < order.length && nodes[order[next]!]!.start_line <= line) {
      stack.push(order[next]!);
      next += 1;
    }
    while (stack.length > 0 && nodes[stack[stack.length - 1]!]!.end_line < line) stack.pop();
    if (stack.length > 0) owner[line] = stack[stack.length - 1]!;
  }
  return owner;
}

/**
 * The code text of every owning node of one file (see {@link CodeTextOptions}), in `nodes`
 * order, nodes without any kept line left out. Per node at most {@link MAX_CODE_TEXT_CHARS}
 * characters of lines. Linear in the text.
 * @param text the file's text
 * @param nodes the file's nodes (extents in 1-based lines)
 */
export function collectCodeText(text: string, nodes: readonly Extent[], options: CodeTextOptions): NodeCodeText[] {
  const sourceLines = text.split(/\r\n|\r|\n/);
  const owner = innermost(nodes, sourceLines.length);
  const kept = nodes.map(() => ({ lines: [] as string[], chars: 0, words: new Set<string>() }));
  for (let line = 1; line <= sourceLines.length; line += 1) {
    const index = owner[line]!;
    if (index < 0 || !options.owners.has(nodes[index]!.kind)) continue;
    const into = kept[index]!;
    if (into.chars >= MAX_CODE_TEXT_CHARS) continue;
    const trimmed = sourceLines[line - 1]!.trim();
    if (trimmed === '') continue;
    const shown = (trimmed.length > MAX_CODE_LINE_CHARS ? trimmed.slice(0, MAX_CODE_LINE_CHARS) : trimmed).replace(/\t/g, ' ');
    const words = (shown.match(WORD) ?? []).filter((w) => keptWord(w, options.keywords));
    if (words.length === 0) continue;
    const entry = `${line}\t${shown}`;
    if (into.chars + entry.length + 1 > MAX_CODE_TEXT_CHARS) {
      into.chars = MAX_CODE_TEXT_CHARS;
      continue;
    }
    into.lines.push(entry);
    into.chars += entry.length + 1;
    for (const w of words) into.words.add(w);
  }
  const out: NodeCodeText[] = [];
  nodes.forEach((node, i) => {
    const k = kept[i]!;
    if (k.lines.length > 0) out.push({ node_id: node.id, words: [...k.words].join(' '), lines: k.lines.join('\n') });
  });
  return out;
}
