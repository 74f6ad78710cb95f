/**
 * Markdown sections from markdown-it tokens (DESIGN.md section 3, "Headings give recognized
 * anchors"): each heading's GitHub slug, title, level and line range, and the text of one section
 * of a node's body by slug (contract: `docforge_get_node` `section`). One parser for headings:
 * nothing here scans Markdown text with its own rules.
 */
import type { Token } from 'markdown-it';
import { appendAll, ownString, type Anchor, type GraphNode } from '@docforge/core';
import { Slugger } from './slug.js';

/** Plain text of an inline token (text and code spans; breaks as spaces; images skipped). */
export function inlineText(token: Token | undefined): string {
  if (token?.children === null || token?.children === undefined) return token?.content ?? '';
  let out = '';
  for (const child of token.children) {
    if (child.type === 'text' || child.type === 'code_inline') out += child.content;
    else if (child.type === 'softbreak' || child.type === 'hardbreak') out += ' ';
  }
  return out;
}

const SPACE = /\s/;
const WORD = /\w/;
const UNQUOTED_VALUE_END = /[\s"'=<>`]/;

/** The `id=` / `name=` attribute value (ASCII case-insensitive) starting at `k`, with the index after it; null when none starts there. */
function anchorAttribute(html: string, k: number): { value: string; end: number } | null {
  let i = k + (html.slice(k, k + 2).toLowerCase() === 'id' ? 2 : html.slice(k, k + 4).toLowerCase() === 'name' ? 4 : Number.NaN);
  if (Number.isNaN(i)) return null;
  while (i < html.length && SPACE.test(html[i]!)) i += 1;
  if (html[i] !== '=') return null;
  for (i += 1; i < html.length && SPACE.test(html[i]!); ) i += 1;
  const quote = html[i];
  if (quote === '"' || quote === "'") {
    const close = html.indexOf(quote, i + 1);
    return close < 0 ? null : { value: html.slice(i + 1, close), end: close + 1 };
  }
  let j = i;
  while (j < html.length && !UNQUOTED_VALUE_END.test(html[j]!)) j += 1;
  return j === i ? null : { value: html.slice(i, j), end: j };
}

/**
 * `<a id="x">` / `<a name='x'>` opening tags in an HTML fragment (markdown-it html token content),
 * in order: each tag's span and its trimmed id. The same matches as the pattern
 * `<a\s[^>]*?\b(?:id|name)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))[^>]*>` (gi), found in linear
 * time: that pattern backtracked over runs of `<a ` without a `>` (5.8 s on 7.6 KB; regex guard,
 * issue 30). Every start before the first `>` fails alike once one fails, so the scan resumes there.
 */
function* anchorTags(html: string): Generator<{ start: number; end: number; id: string }> {
  const lastGt = html.lastIndexOf('>');
  for (let from = 0; ; ) {
    let p = html.indexOf('<', from);
    while (p >= 0 && !((html[p + 1] === 'a' || html[p + 1] === 'A') && p + 2 < html.length && SPACE.test(html[p + 2]!))) p = html.indexOf('<', p + 1);
    const gt = p < 0 ? -1 : html.indexOf('>', p + 3);
    if (gt < 0) return;
    let found: { value: string; end: number } | null = null;
    for (let k = p + 3; k < gt && found === null; k += 1) {
      const attribute = WORD.test(html[k - 1]!) ? null : anchorAttribute(html, k);
      if (attribute !== null && lastGt >= attribute.end) found = attribute;
    }
    if (found === null) {
      from = gt;
      continue;
    }
    const end = html.indexOf('>', found.end) + 1;
    yield { start: p, end, id: found.value.trim() };
    from = end;
  }
}

function htmlAnchorIds(html: string): string[] {
  const ids: string[] = [];
  for (const tag of anchorTags(html)) if (tag.id !== '') ids.push(tag.id);
  return ids;
}

/** Whether an HTML fragment holds nothing but anchor tags and white space. */
function onlyAnchors(html: string): boolean {
  let rest = '';
  let at = 0;
  for (const tag of anchorTags(html)) (rest += html.slice(at, tag.start), (at = tag.end));
  return (rest + html.slice(at)).replace(/<\/a\s*>/gi, '').trim() === '';
}

/**
 * Explicit HTML anchor ids of the block starting at `tokens[index]` (an `html_block`, or a
 * paragraph's `inline`), and whether the block holds nothing else.
 */
function blockAnchors(tokens: readonly Token[], index: number): { ids: string[]; alone: boolean } | null {
  const token = tokens[index] as Token;
  if (token.type === 'html_block') {
    const ids = htmlAnchorIds(token.content);
    return ids.length === 0 ? null : { ids, alone: onlyAnchors(token.content) };
  }
  if (token.type !== 'inline' || token.children === null) return null;
  const ids: string[] = [];
  let alone = true;
  for (const child of token.children) {
    if (child.type === 'html_inline') {
      appendAll(ids, htmlAnchorIds(child.content));
      if (!onlyAnchors(child.content)) alone = false;
    } else if (!(child.type === 'softbreak' || (child.type === 'text' && child.content.trim() === ''))) {
      alone = false;
    }
  }
  const parent = tokens[index - 1];
  if (parent?.type !== 'paragraph_open') alone = false;
  return ids.length === 0 ? null : { ids, alone };
}

/**
 * The sections of one parsed Markdown body, in document order. `tokens` come from
 * `markdown.parse(body)`; `firstLine` is the 1-based source-file line of the body's first line.
 * Each `heading_open` token (ATX or setext; never inside fenced code, which markdown-it does not
 * parse as headings) opens a section that runs to the line before the next heading of the same or
 * a higher level, or to the end of the body, trailing blank lines excluded. Slugs are unique per
 * body, exactly as GitHub makes them (`example`, `example-1`, ...). Explicit HTML anchors
 * (`<a id="x">`, `<a name="x">`, as GitHub keeps them) become `aliases` of a section: of the next
 * heading when they stand alone in the block right before it, otherwise of the section they sit
 * in (anchors before the first heading name no section and are dropped).
 */
export function collectSections(tokens: readonly Token[], body: string, firstLine: number): Anchor[] {
  const slugger = new Slugger();
  const lines = body.split('\n');
  const anchors: Anchor[] = [];
  // Sections not yet closed by a later heading, each deeper than the one before it.
  const open: Anchor[] = [];
  // Ids of a block of bare anchors, waiting to see whether a heading follows it.
  let pending: string[] = [];
  const close = (anchor: Anchor, nextLine: number): void => {
    let end = nextLine - 1;
    while (end > anchor.line && (lines[end - firstLine] ?? '').trim() === '') end -= 1;
    anchor.end_line = end;
  };
  const attach = (ids: readonly string[], anchor: Anchor | undefined): void => {
    if (anchor === undefined) return;
    for (const id of ids) if (!anchor.aliases.includes(id)) anchor.aliases.push(id);
  };
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index] as Token;
    if (token.type === 'heading_open' && token.map !== null) {
      const level = Number(token.tag.slice(1));
      const line = token.map[0] + firstLine;
      while (open.length > 0 && open[open.length - 1]!.level >= level) close(open.pop()!, line);
      const inline = tokens[index + 1];
      const text = inlineText(inline).trim();
      const anchor: Anchor = { slug: slugger.slug(text), title: ownString((inline?.content ?? text).trim()), level, line, end_line: line, aliases: [] };
      anchors.push(anchor);
      open.push(anchor);
      attach(pending, anchor);
      pending = [];
      continue;
    }
    if (token.map !== null && token.level === 0 && pending.length > 0) {
      // A top-level block other than a heading follows the bare anchors: they name the current section.
      attach(pending, open[open.length - 1]);
      pending = [];
    }
    const found = blockAnchors(tokens, index);
    if (found === null) continue;
    if (found.alone && (token.type === 'html_block' || tokens[index - 1]?.level === 0)) appendAll(pending, found.ids);
    else attach(found.ids, open[open.length - 1]);
  }
  attach(pending, open[open.length - 1]);
  for (const anchor of open) close(anchor, lines.length + firstLine);
  return anchors;
}

/** Every id a link fragment can name in a Markdown node: section slugs and explicit HTML anchor ids (`aliases`). */
export function anchorIds(anchors: readonly Anchor[]): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const anchor of anchors) {
    // In NFC, as link fragments are (issue 30 item 3).
    ids.add(anchor.slug.normalize('NFC'));
    for (const alias of anchor.aliases) ids.add(alias.normalize('NFC'));
  }
  return ids;
}

/**
 * Whether a link fragment (decoded, without `#`) names a place in a Markdown node whose
 * {@link anchorIds} are `ids`: a section slug, an explicit HTML anchor id, or the top of the page
 * (an empty fragment or `top`, in any case, as HTML defines). The same rule as
 * {@link sectionText}; `broken_link` findings use it. Case-sensitive, as HTML ids are.
 */
export function anchorResolves(ids: ReadonlySet<string>, fragment: string): boolean {
  return fragment === '' || fragment.toLowerCase() === 'top' || ids.has(fragment);
}

/** A section of a node's body: its recorded anchor and its Markdown text (heading line included). */
export interface NodeSection {
  anchor: Anchor;
  text: string;
}

/**
 * 1-based source-file line of the first line of a Markdown node's body. A Markdown node's body is
 * the file's tail (after the `+++` front matter, or the whole file) with `\n` line ends, and its
 * `end_line` is the file's last line (a final empty line after the last newline not counted).
 */
function bodyFirstLine(body: string, endLine: number): number {
  const bodyLines = body.split('\n');
  const fileLines = endLine + (bodyLines.length > 1 && bodyLines[bodyLines.length - 1] === '' ? 1 : 0);
  return fileLines - bodyLines.length + 1;
}

/**
 * The section of `node` whose recorded anchor has this slug, or else this explicit HTML anchor id
 * among its `aliases` (contract: `docforge_get_node` `section`, "a recognized anchor slug of the
 * node"): the lines `line`..`end_line` (source-file lines) of the node's body, mapped through the
 * body's position in its file. `node` is a Markdown node as `parseContentSource` makes it
 * (only those carry anchors). Returns null when the node has no such anchor. Pure; never throws.
 */
export function sectionText(node: Pick<GraphNode, 'body' | 'anchors' | 'end_line'>, slug: string): NodeSection | null {
  const anchor = node.anchors.find((candidate) => candidate.slug === slug) ?? node.anchors.find((candidate) => candidate.aliases.includes(slug));
  if (anchor === undefined) return null;
  const first = bodyFirstLine(node.body, node.end_line);
  const lines = node.body.split('\n');
  const from = Math.max(0, anchor.line - first);
  const to = Math.max(from, anchor.end_line - first + 1);
  return { anchor, text: lines.slice(from, to).join('\n') };
}

/**
 * The deepest recorded section of a Markdown node that holds the body character at `offset` (a
 * UTF-16 index into `node.body`): the anchor with the latest heading line whose `line`..`end_line`
 * holds that character's source-file line; null before the first heading or past every section.
 * Pure; never throws.
 */
export function sectionAtOffset(node: Pick<GraphNode, 'body' | 'anchors' | 'end_line'>, offset: number): Anchor | null {
  let newlines = 0;
  const end = Math.min(Math.max(0, offset), node.body.length);
  for (let at = node.body.indexOf('\n'); at !== -1 && at < end; at = node.body.indexOf('\n', at + 1)) newlines += 1;
  const line = bodyFirstLine(node.body, node.end_line) + newlines;
  let best: Anchor | null = null;
  for (const anchor of node.anchors) if (anchor.line <= line && line <= anchor.end_line && (best === null || anchor.line >= best.line)) best = anchor;
  return best;
}
