/**
 * What the Markdown parser (markdown-it, the one parser for Markdown) tells about a body: heading
 * sections, relative links resolved against the file, same-file fragment links, the first heading
 * and a summary. Pure; no file system access.
 */
import { createRequire } from 'node:module';
import { posix } from 'node:path';
import type MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import type { Anchor, SourceIssue } from '@docforge/core';
import { anchorIds, anchorResolves, collectSections, inlineText } from './sections.js';
import { isScriptFence, readBindings, type DocBinding } from './doc-bindings.js';
import { parameterLists, type ParameterList } from '@docforge/core';

/** Longest summary, in characters. */
export const SUMMARY_MAX = 400;

let parser: MarkdownIt | null = null;
/**
 * The Markdown parser, created on first use (issue 14): markdown-it is required (its one-file
 * CommonJS build) only by a process that parses Markdown, so a build of code files alone, a
 * no-change sync and a server start never load it.
 */
function markdown(): MarkdownIt {
  parser ??= new (createRequire(import.meta.url)('markdown-it') as typeof MarkdownIt)({ html: true });
  return parser;
}

/** Longest inline code span or link text considered as a mention of a code node, in characters. */
const MAX_MENTION_CHARS = 200;
/** Most mentions recorded per Markdown node (bounded work and storage). */
const MAX_MENTIONS = 2000;

/** A mention (issue 9 item 2): the text of an inline code span or dotted/path link text, and its section. */
export interface MarkdownMention {
  text: string;
  section: { slug: string; title: string; line: number } | null;
  /**
   * What the mention's first segment stands for when a code block of the document, before the
   * mention, binds it (`const logger = pino()` for `logger.child()`); absent otherwise (issue 31 item 3).
   */
  receiver?: DocBinding;
}

/** Anchors, links, first heading and summary of a Markdown body (see {@link markdownFacts}). */
export interface MarkdownFacts {
  anchors: Anchor[];
  /** Relative links, and mentions (`target_path` empty, `mention` set) resolved later against code nodes. */
  links: { target_path: string; anchor: string | null; line: number; site_root?: true; mention?: MarkdownMention; parameters?: ParameterList }[];
  /** Same-file fragment links (`#section`), fragment decoded; a bare `#` is not one. */
  selfLinks: { anchor: string; line: number }[];
  /** Relative links whose path (after percent-decoding) leaves the project root (`../../etc/passwd`, `%2e%2e/x`); never followed. */
  outside: { href: string; line: number }[];
  firstHeading: string | null;
  /**
   * In a `README.*` ({@link isReadme}) only: its first level-1 heading (a Markdown `#`, or an HTML `<h1>`), null when it has
   * none (axios' README opens with `## Table of contents`) and in every other file; the page title rule is @docforge/project's.
   */
  readmeHeading: string | null;
  summary: string;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Resolves a Markdown href against the linking file (percent-decoded first). Returns null for
 * external links and in-page anchors, and `'outside'` for a target escaping the root.
 */
function resolveHref(href: string, fromPath: string): { target_path: string; anchor: string | null; site_root?: true } | 'outside' | null {
  const trimmed = href.trim();
  if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('//')) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return null;
  const hash = trimmed.indexOf('#');
  const fragment = hash >= 0 ? trimmed.slice(hash + 1) : '';
  let pathPart = hash >= 0 ? trimmed.slice(0, hash) : trimmed;
  const query = pathPart.indexOf('?');
  if (query >= 0) pathPart = pathPart.slice(0, query);
  pathPart = safeDecode(pathPart);
  if (pathPart === '') return null;
  const joined = pathPart.startsWith('/') ? pathPart.slice(1) : posix.join(posix.dirname(fromPath), pathPart);
  let normalized = posix.normalize(joined === '' ? '.' : joined);
  if (normalized === '..' || normalized.startsWith('../') || posix.isAbsolute(normalized)) return 'outside';
  while (normalized.length > 1 && normalized.endsWith('/')) normalized = normalized.slice(0, -1);
  const anchor = fragment === '' ? null : safeDecode(fragment).normalize('NFC');
  // Paths and anchors compare in NFC (issue 30 item 3); the resolver maps the path to the file's real name.
  // A path from the site root may name a page under the linking page's content root (resolve-refs.ts).
  return pathPart.startsWith('/') ? { target_path: normalized.normalize('NFC'), anchor, site_root: true } : { target_path: normalized.normalize('NFC'), anchor };
}

/** `html` without its tags (`<b>x</b>` is `x`); a `<` never closed ends the text. */
function withoutTags(html: string): string {
  let out = '';
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open < 0) return out + html.slice(at);
    out += html.slice(at, open);
    const close = html.indexOf('>', open);
    if (close < 0) return out;
    at = close + 1;
  }
  return out;
}

/**
 * The text of the first `<h1>` element of an HTML block with text in it (tags dropped, entities
 * decoded, blanks collapsed), or null. Only `<h1>`: a README's `<h3>` of sponsors is no title.
 * Linear: `indexOf` scans only.
 */
export function htmlHeadingOne(html: string): string | null {
  const lower = html.toLowerCase();
  for (let open = lower.indexOf('<h1'); open >= 0; open = lower.indexOf('<h1', open + 3)) {
    const next = lower.charAt(open + 3);
    if (next !== '>' && next !== ' ' && next !== '\t' && next !== '\n' && next !== '\r' && next !== '/') continue;
    const tagEnd = lower.indexOf('>', open);
    if (tagEnd < 0) return null;
    const close = lower.indexOf('</h1', tagEnd);
    const inner = html.slice(tagEnd + 1, close < 0 ? html.length : close);
    const text = markdown().utils.unescapeAll(withoutTags(inner)).split(/\s+/).join(' ').trim();
    if (text !== '') return text;
  }
  return null;
}

/** Whether the file is a folder's README (`README.md`, `Readme.markdown`; not `README.old.md`). */
export function isReadme(path: string): boolean {
  const name = posix.basename(path).toLowerCase();
  return name.startsWith('readme.') && !name.slice('readme.'.length).includes('.');
}

/**
 * The title a heading token gives: a Markdown heading's text, or in a README an HTML block's first
 * `<h1>` (yargs' centred `<h1 align="center">` before its `## Description`); elsewhere such an
 * `<h1>` is a site banner repeated on every page (fastify's docs), never a title. Null for none.
 */
function headingText(tokens: readonly Token[], index: number, readme: boolean): string | null {
  const token = tokens[index] as Token;
  if (token.type === 'html_block') return readme ? htmlHeadingOne(token.content) : null;
  const text = inlineText(tokens[index + 1]).trim();
  return text === '' ? null : text;
}

/**
 * Anchors, links, first heading and summary of a Markdown body whose first line is `firstLine`.
 * Headings and paragraphs starting on a file line inside `skip` give no title or summary. The first
 * heading is the first Markdown heading, or in a `README.*` an HTML `<h1>` before it.
 */
export function markdownFacts(body: string, firstLine: number, path: string, skip: { from: number; to: number } | null = null): MarkdownFacts {
  const tokens = markdown().parse(body, {});
  const anchors = collectSections(tokens, body, firstLine);
  const links: MarkdownFacts['links'] = [];
  const selfLinks: MarkdownFacts['selfLinks'] = [];
  const outside: MarkdownFacts['outside'] = [];
  let [firstHeading, readmeHeading]: (string | null)[] = [null, null];
  let summary: string | null = null;
  let fallbackSummary: string | null = null;
  let lastLine = 0;
  let linkText: string | null = null;
  let mentions = 0;
  const bindings = new Map<string, DocBinding>();
  // Mentions: inline code spans and link texts that may name a code node (resolved later).
  const mention = (raw: string, line: number): void => {
    const text = raw.trim();
    // Only what could name a code node: no inner whitespace once a trailing call is dropped.
    if (text === '' || text.length > MAX_MENTION_CHARS || mentions >= MAX_MENTIONS || /\s/.test(text.replace(/\([^()]*\)$/, ''))) return;
    mentions += 1;
    let section: Anchor | null = null;
    for (const a of anchors) if (a.line <= line && line <= a.end_line && (section === null || a.line >= section.line)) section = a;
    const root = bindings.size === 0 ? undefined : /^([A-Za-z_$][\w$]*)[.(]/.exec(text)?.[1];
    const receiver = root === undefined ? undefined : bindings.get(root);
    links.push({
      target_path: '', anchor: null, line,
      mention: { text, section: section ? { slug: section.slug, title: section.title, line: section.line } : null, ...(receiver !== undefined ? { receiver } : {}) },
    });
  };
  const readme = isReadme(path);
  const skipped = (token: Token): boolean => skip !== null && token.map !== null && token.map[0] + firstLine >= skip.from && token.map[0] + firstLine <= skip.to;
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index] as Token;
    if (token.map !== null) lastLine = token.map[0];
    if (token.type === 'fence' && isScriptFence(token.info)) readBindings(token.content, bindings);
    // Heading and paragraph texts are read only while still wanted (the first of each is kept).
    if (token.type === 'heading_open' || token.type === 'html_block') {
      if (firstHeading === null && !skipped(token)) firstHeading = headingText(tokens, index, readme);
      if (readme && readmeHeading === null && !skipped(token) && (token.tag === 'h1' || token.type === 'html_block')) readmeHeading = headingText(tokens, index, readme);
    } else if (token.type === 'paragraph_open') {
      // A summary is set only together with or after the fallback: then neither changes any more.
      if (summary !== null) continue;
      const text = inlineText(tokens[index + 1]).replace(/\s+/g, ' ').trim();
      if (text !== '' && !skipped(token)) {
        if (summary === null && token.level === 0) summary = text;
        if (fallbackSummary === null) fallbackSummary = text;
      }
    } else if (token.type === 'inline' && token.children !== null) {
      let line = (token.map?.[0] ?? lastLine) + firstLine;
      for (const child of token.children) {
        if (child.type === 'softbreak' || child.type === 'hardbreak') {
          line += 1;
        } else if (child.type === 'text' && child.content.includes('\n')) {
          line += child.content.split('\n').length - 1;
        } else if (child.type === 'link_open') {
          linkText = '';
          const href = child.attrGet('href');
          if (href === null) continue;
          const trimmed = href.trim();
          if (trimmed.startsWith('#') && trimmed.length > 1) selfLinks.push({ anchor: safeDecode(trimmed.slice(1)).normalize('NFC'), line });
          const resolved = resolveHref(href, path);
          if (resolved === 'outside') outside.push({ href: trimmed, line });
          else if (resolved !== null) links.push({ ...resolved, line });
        } else if (child.type === 'link_close') {
          // Link text counts only when it reads as a dotted or path name (`Ledger.refund`, `src/x.ts`).
          if (linkText !== null && /[./]/.test(linkText)) mention(linkText, line);
          linkText = null;
        } else if (child.type === 'code_inline') {
          if (linkText !== null) linkText += child.content;
          else mention(child.content, line);
        } else if (child.type === 'text' && linkText !== null) {
          linkText += child.content;
        }
      }
    }
  }
  // Parameter lists (issue 32 item 2): `target_path` empty, compared with the code by the resolver.
  for (const { line, ...list } of parameterLists(tokens, firstLine)) links.push({ target_path: '', anchor: null, line, parameters: list });
  const chosen = summary ?? fallbackSummary ?? '';
  return { anchors, links, selfLinks, outside, firstHeading, readmeHeading, summary: chosen.length > SUMMARY_MAX ? chosen.slice(0, SUMMARY_MAX).trimEnd() : chosen };
}

/**
 * The link findings a Markdown body yields on its own, as `broken_link` warnings: same-file anchor
 * links (`#nope`) naming no section or anchor, and links leaving the project root (never read).
 */
export function selfAnchorIssues(path: string, nodeId: string, anchors: readonly Anchor[], fragments: MarkdownFacts['selfLinks'], outside: MarkdownFacts['outside'] = []): SourceIssue[] {
  const issues: SourceIssue[] = outside.map((link) => ({
    severity: 'warning' as const,
    code: 'broken_link',
    message: `${path}:${link.line}: link to "${link.href}" leaves the project root; it is not followed`,
    path,
    line: link.line,
    node_id: nodeId,
  }));
  if (fragments.length === 0) return issues;
  const ids = anchorIds(anchors);
  for (const link of fragments) {
    if (anchorResolves(ids, link.anchor)) continue;
    issues.push({
      severity: 'warning',
      code: 'broken_link',
      message: `${path}:${link.line}: link to "#${link.anchor}": this file has no section or anchor "${link.anchor}"`,
      path,
      line: link.line,
      node_id: nodeId,
    });
  }
  return issues;
}
