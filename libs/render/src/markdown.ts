/**
 * Node bodies to HTML through markdown-it with raw HTML disabled (issue 11 item 5). Links are
 * validated and rewritten: a link to another node's source file, or to a node id, becomes an
 * in-document anchor when that node is in the output, and a plain dotted span otherwise; only
 * `http:`, `https:` and `mailto:` links leave the document. Heading ids are prefixed with the node
 * anchor so that several nodes on one page never collide. A leading heading that repeats a heading
 * the page already shows is dropped ({@link LinkContext.shownHeadings}).
 */
import { posix } from 'node:path';
import { createRequire } from 'node:module';
import type MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import { slugify } from '@docforge/project';
import { withoutStampComments } from '@docforge/core';
import { nodeAnchor } from './html.js';

/** Where links of the body being rendered may point. */
export interface LinkContext {
  /** The node whose body is rendered. */
  nodeId: string;
  /** Its project-relative source path (relative links resolve against its directory). */
  sourcePath: string;
  /** Node ids present in this output. */
  present: ReadonlySet<string>;
  /** Project-relative source path -> the first node id defined there (for file links). */
  nodeByPath: ReadonlyMap<string, string>;
  /**
   * Headings the page already shows above this body (the view title, the node title): a body whose
   * first block is a heading equal to one of them after normalisation (the heading slug: case,
   * punctuation and spacing aside) drops that heading, keeping only its anchor (an empty
   * `span[id]`) so in-page links to it still land (issue 34 item 7).
   */
  shownHeadings?: readonly string[];
}

const EXTERNAL = /^(https?:|mailto:)/i;
/** Anything with a scheme (`javascript:`, `data:`, `file:`, `vbscript:` ...). */
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

function resolveHref(href: string, ctx: LinkContext): string | null {
  if (EXTERNAL.test(href)) return href;
  if (href.startsWith('#')) return `#${nodeAnchor(ctx.nodeId)}--${slugify(decodeURIComponent(href.slice(1)))}`;
  const [target = '', fragment] = href.split('#', 2);
  let decoded: string;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    return null;
  }
  if (ctx.present.has(decoded)) return `#${nodeAnchor(decoded)}`;
  const joined = posix.normalize(posix.join(posix.dirname(ctx.sourcePath), decoded));
  const id = ctx.nodeByPath.get(joined) ?? (ctx.present.has(`code:${joined}`) ? `code:${joined}` : undefined);
  if (id === undefined || !ctx.present.has(id)) return null;
  return fragment !== undefined && fragment !== '' ? `#${nodeAnchor(id)}--${slugify(fragment)}` : `#${nodeAnchor(id)}`;
}

/**
 * The normal form two headings are compared in: the heading slug (GitHub's: case and punctuation
 * dropped) of the NFKC text with runs of whitespace as one space. '' for a heading of no letters.
 */
export function headingKey(text: string): string {
  return slugify(text.normalize('NFKC').replace(/\s+/gu, ' ').trim());
}

let md: MarkdownIt | null = null;

/**
 * The renderer, built on first use (issue 14): markdown-it (its one-file CommonJS build) is
 * required only by a process that renders, so the MCP server and the CLI start without it.
 */
function renderer(): MarkdownIt {
  if (md !== null) return md;
  const parser = new (createRequire(import.meta.url)('markdown-it') as typeof MarkdownIt)({ html: false, linkify: false, typographer: false });
  // Scheme links other than http(s)/mailto are refused by the parser (they stay text). markdown-it
  // normalizes the URL first, so `JaVaScRiPt:` and entity tricks are caught too.
  parser.validateLink = (url: string): boolean => {
    const trimmed = url.trim();
    return !SCHEME.test(trimmed) || EXTERNAL.test(trimmed);
  };
  parser.core.ruler.push('docforge_links', (state) => {
    const ctx = (state.env as { docforge?: LinkContext }).docforge;
    if (ctx === undefined) return;
    const shown = new Set((ctx.shownHeadings ?? []).map(headingKey).filter((key) => key !== ''));
    for (const [index, block] of state.tokens.entries()) {
      if (block.type === 'heading_open') {
        const inline = state.tokens[index + 1];
        const text = inline?.children?.filter((t) => t.type === 'text' || t.type === 'code_inline').map((t) => t.content).join('') ?? '';
        block.attrSet('id', `${nodeAnchor(ctx.nodeId)}--${slugify(text)}`);
        if (index === 0 && inline !== undefined && shown.has(headingKey(text))) dropHeading(block, inline, state.tokens[index + 2]);
      }
      for (const token of block.children ?? []) {
        if (token.type !== 'link_open') continue;
        const href = token.attrGet('href') ?? '';
        const resolved = resolveHref(href, ctx);
        if (resolved !== null) {
          token.attrs = [['href', resolved]];
          continue;
        }
        // Neutralize: the link text stays, as a span that names where it pointed.
        const closeIndex = findClose(block.children!, block.children!.indexOf(token));
        token.tag = 'span';
        token.attrs = [['class', 'unresolved-link'], ['title', href]];
        if (closeIndex !== -1) block.children![closeIndex]!.tag = 'span';
      }
    }
  });
  md = parser;
  return md;
}

/** Turns a heading into an empty `span` that keeps its id (the anchor), with no text. */
function dropHeading(open: Token, inline: Token, close: Token | undefined): void {
  open.tag = 'span';
  inline.children = [];
  inline.content = '';
  if (close !== undefined) close.tag = 'span';
}

function findClose(tokens: { type: string }[], openIndex: number): number {
  let depth = 0;
  for (let i = openIndex; i < tokens.length; i++) {
    if (tokens[i]!.type === 'link_open') depth++;
    if (tokens[i]!.type === 'link_close' && --depth === 0) return i;
  }
  return -1;
}

/**
 * Renders one node body (Markdown) to safe HTML: raw HTML is escaped, unsafe links are text,
 * node links resolve inside the output (see the module comment).
 */
export function renderMarkdown(body: string, ctx: LinkContext): string {
  // Review stamp comments (issue 32) render as nothing: a stamped page's HTML is the page's before the stamp.
  return renderer().render(withoutStampComments(body), { docforge: ctx });
}
