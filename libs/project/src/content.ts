/**
 * Canonical content parsing (DESIGN.md section 3): Markdown with TOML front matter, plain
 * Markdown, and TOML record files become graph nodes, declared relation edges, heading anchors and
 * link references. Pure: no file system access; every finding is a SourceIssue, never a throw.
 */
import { posix } from 'node:path';
import MarkdownIt, { type Token } from 'markdown-it';
import { parse as parseToml, TomlError } from 'smol-toml';
import { withContentHash, type Anchor, type GraphEdge, type GraphNode, type NodeOrigin, type SourceIssue } from '@docforge/core';
import type { Descriptor } from './descriptor-types.js';
import { blockEnd, lineOf, outlineToml, type TomlOutline } from './toml-outline.js';
import { collectSections, inlineText } from './sections.js';

/** A relative link from a Markdown node to another project file, resolved later by {@link resolveGraph}. */
export interface LinkRef {
  /** Id of the node whose body holds the link. */
  from_id: string;
  /** Normalized project-relative POSIX path of the link target (query and fragment dropped). */
  target_path: string;
  /** Decoded fragment, or null. */
  anchor: string | null;
  /** 1-based line of the link in the source file. */
  line: number;
  /**
   * Set for a mention (issue 9 item 2) instead of a link: the text of an inline code span or of a
   * link, and the section holding it; `target_path` is then ''. Resolved against code nodes by
   * {@link resolveGraph}.
   */
  mention?: { text: string; section: { slug: string; title: string; line: number } | null };
}

/** What one content source contributes before graph resolution. */
export interface ContentParse {
  nodes: GraphNode[];
  edges: GraphEdge[];
  links: LinkRef[];
  issues: SourceIssue[];
}

/** Input of {@link parseContentSource}. */
export interface ContentSourceInput {
  /** Project-relative POSIX path of the file. */
  path: string;
  /** File text (UTF-8). */
  text: string;
  descriptor: Descriptor;
}

const SUMMARY_MAX = 400;
/** Longest inline code span or link text considered as a mention of a code node, in characters. */
const MAX_MENTION_CHARS = 200;
/** Most mentions recorded per Markdown node (bounded work and storage). */
const MAX_MENTIONS = 2000;
const FRONT_MATTER_FIELDS = ['id', 'kind', 'title', 'family', 'authority', 'status', 'tags', 'summary', 'relations'];
const RECORD_FIELDS = [...FRONT_MATTER_FIELDS, 'body'];

const markdown = new MarkdownIt({ html: true });

type Table = Record<string, unknown>;

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function countLines(lines: readonly string[]): number {
  let count = lines.length;
  if (count > 1 && lines[count - 1] === '') count -= 1;
  return Math.max(1, count);
}

interface MarkdownFacts {
  anchors: Anchor[];
  links: { target_path: string; anchor: string | null; line: number; mention?: LinkRef['mention'] }[];
  firstHeading: string | null;
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
 * Resolves a Markdown href against the linking file. Returns null for external links, in-page
 * anchors, and targets escaping the root.
 */
function resolveHref(href: string, fromPath: string): { target_path: string; anchor: string | null } | null {
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
  if (normalized === '..' || normalized.startsWith('../') || posix.isAbsolute(normalized)) return null;
  while (normalized.length > 1 && normalized.endsWith('/')) normalized = normalized.slice(0, -1);
  const anchor = fragment === '' ? null : safeDecode(fragment);
  return { target_path: normalized, anchor };
}

/** Anchors, links, first heading and summary of a Markdown body whose first line is `firstLine`. */
function markdownFacts(body: string, firstLine: number, path: string): MarkdownFacts {
  const tokens = markdown.parse(body, {});
  const anchors = collectSections(tokens, body, firstLine);
  const links: MarkdownFacts['links'] = [];
  let firstHeading: string | null = null;
  let summary: string | null = null;
  let fallbackSummary: string | null = null;
  let lastLine = 0;
  let linkText: string | null = null;
  // Mentions: inline code spans and link texts that may name a code node (resolved later).
  const mention = (raw: string, line: number): void => {
    const text = raw.trim();
    // Only what could name a code node: no inner whitespace once a trailing call is dropped.
    if (text === '' || text.length > MAX_MENTION_CHARS || mentions >= MAX_MENTIONS || /\s/.test(text.replace(/\([^()]*\)$/, ''))) return;
    mentions += 1;
    let section: Anchor | null = null;
    for (const a of anchors) if (a.line <= line && line <= a.end_line && (section === null || a.line >= section.line)) section = a;
    links.push({ target_path: '', anchor: null, line, mention: { text, section: section ? { slug: section.slug, title: section.title, line: section.line } : null } });
  };
  let mentions = 0;
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index] as Token;
    if (token.map !== null) lastLine = token.map[0];
    if (token.type === 'heading_open') {
      const text = inlineText(tokens[index + 1]).trim();
      if (firstHeading === null && text !== '') firstHeading = text;
    } else if (token.type === 'paragraph_open') {
      const text = inlineText(tokens[index + 1]).replace(/\s+/g, ' ').trim();
      if (text !== '') {
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
          const resolved = resolveHref(href, path);
          if (resolved !== null) links.push({ ...resolved, line });
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
  const chosen = summary ?? fallbackSummary ?? '';
  return { anchors, links, firstHeading, summary: chosen.length > SUMMARY_MAX ? chosen.slice(0, SUMMARY_MAX).trimEnd() : chosen };
}

/** A field problem: message and the dotted key (relative to the entry) whose line to report. */
class FieldError extends Error {
  constructor(readonly key: string, message: string) {
    super(message);
  }
}

interface NodeFields {
  id: string;
  kind: string;
  title: string;
  family: string | null;
  authority: string | null;
  status: string | null;
  tags: string[];
  summary: string | null;
  body: string | null;
  relations: { relation: string; targets: string[] }[];
  unknown: string[];
}

function optionalString(table: Table, key: string): string | null {
  const value = table[key];
  if (value === undefined) return null;
  if (typeof value !== 'string') throw new FieldError(key, `"${key}" must be a string`);
  return value;
}

function requiredString(table: Table, key: string): string {
  const value = table[key];
  if (value === undefined) throw new FieldError('', `"${key}" is required`);
  if (typeof value !== 'string' || value.trim() === '') throw new FieldError(key, `"${key}" must be a non-empty string`);
  return value;
}

/** Validates the node fields shared by front matter and `[[node]]` entries. Throws FieldError. */
function readFields(table: Table, allowed: readonly string[]): NodeFields {
  const id = requiredString(table, 'id');
  if (id !== id.trim() || /\s/.test(id)) throw new FieldError('id', `"id" must not contain whitespace ("${id}")`);
  if (id.startsWith('code:')) throw new FieldError('id', `"id" must not start with the reserved prefix "code:" ("${id}")`);
  const kind = requiredString(table, 'kind');
  const title = requiredString(table, 'title');
  const tagsValue = table['tags'] ?? [];
  if (!Array.isArray(tagsValue) || tagsValue.some((tag) => typeof tag !== 'string')) throw new FieldError('tags', '"tags" must be an array of strings');
  const relationsValue = table['relations'] ?? {};
  if (!isTable(relationsValue)) throw new FieldError('relations', '"relations" must be a table mapping relation names to target ids');
  const relations: NodeFields['relations'] = [];
  for (const [relation, value] of Object.entries(relationsValue)) {
    const targets = typeof value === 'string' ? [value] : Array.isArray(value) ? value : null;
    if (targets === null || targets.some((target) => typeof target !== 'string' || target.trim() === '')) {
      throw new FieldError(`relations.${relation}`, `relation "${relation}" must be a target id or an array of target ids`);
    }
    if (relation.trim() === '') throw new FieldError('relations', 'relation names must not be empty');
    relations.push({ relation, targets: targets as string[] });
  }
  return {
    id,
    kind,
    title,
    family: optionalString(table, 'family'),
    authority: optionalString(table, 'authority'),
    status: optionalString(table, 'status'),
    tags: [...new Set(tagsValue as string[])].sort(),
    summary: optionalString(table, 'summary'),
    body: allowed.includes('body') ? optionalString(table, 'body') : null,
    relations,
    unknown: Object.keys(table).filter((key) => !allowed.includes(key)),
  };
}

function truncateSummary(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SUMMARY_MAX ? flat.slice(0, SUMMARY_MAX).trimEnd() : flat;
}

function vocabularyIssues(node: GraphNode, descriptor: Descriptor, path: string): SourceIssue[] {
  const issues: SourceIssue[] = [];
  const checks: [string, string | null, string[] | null][] = [
    ['kind', node.kind, descriptor.vocabulary.kinds],
    ['authority', node.authority, descriptor.vocabulary.authorities],
    ['status', node.status, descriptor.vocabulary.statuses],
  ];
  for (const [field, value, allowed] of checks) {
    if (value === null || allowed === null || allowed.includes(value)) continue;
    issues.push({
      severity: 'warning',
      code: `undeclared_${field}`,
      message: `${path}:${node.start_line}: ${field} "${value}" of node "${node.id}" is not declared in [vocabulary] of docforge.toml`,
      path,
      line: node.start_line,
      node_id: node.id,
    });
  }
  return issues;
}

function makeNode(fields: Omit<GraphNode, 'content_hash' | 'language' | 'capabilities'>): GraphNode {
  return withContentHash({ ...fields, language: null, capabilities: [] });
}

function relationEdges(fields: NodeFields, path: string, outline: TomlOutline, scope: string, offset: number, fallbackLine: number): GraphEdge[] {
  const edges: GraphEdge[] = [];
  const seen = new Set<string>();
  for (const { relation, targets } of fields.relations) {
    const keyLine = lineOf(outline, `${scope}relations.${relation}`);
    const line = keyLine === null ? fallbackLine : keyLine + offset;
    for (const target of targets) {
      const key = `${relation}\u0000${target}`;
      if (seen.has(key)) continue;
      seen.add(key);
      edges.push({ source_id: fields.id, relation, target_id: target, source_path: path, line });
    }
  }
  return edges;
}

function tomlErrorLine(error: unknown): number | null {
  return error instanceof TomlError ? error.line : null;
}

function tomlErrorReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return (error.message.split('\n')[0] ?? error.message).replace(/^Invalid TOML document: /, '');
}

/** The content root holding `path` (longest match), or null. */
function contentRootOf(path: string, descriptor: Descriptor): string | null {
  let best: string | null = null;
  for (const root of descriptor.sources.content_roots) {
    if (root === '.' || path.startsWith(`${root}/`)) {
      if (best === null || best === '.' || (root !== '.' && root.length > best.length)) best = root;
    }
  }
  return best;
}

function stripExtension(path: string): string {
  return path.replace(/\.(md|markdown)$/i, '');
}

function parseMarkdown(path: string, text: string, descriptor: Descriptor): ContentParse {
  const result: ContentParse = { nodes: [], edges: [], links: [], issues: [] };
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = source.split(/\r?\n/);
  const lineCount = countLines(lines);
  const malformed = (line: number, message: string): ContentParse => {
    result.issues.push({ severity: 'error', code: 'malformed_front_matter', message: `${path}:${line}: ${message}`, path, line, node_id: null });
    return result;
  };

  if ((lines[0] ?? '').trimEnd() === '+++') {
    let close = -1;
    for (let index = 1; index < lines.length; index += 1) {
      if ((lines[index] ?? '').trimEnd() === '+++') {
        close = index;
        break;
      }
    }
    if (close < 0) return malformed(1, 'front matter opened with "+++" is never closed by a "+++" line');
    const frontText = lines.slice(1, close).join('\n');
    let table: Table;
    try {
      table = parseToml(frontText) as Table;
    } catch (error) {
      const at = tomlErrorLine(error);
      return malformed(at === null ? 1 : at + 1, `front matter TOML syntax error: ${tomlErrorReason(error)}`);
    }
    const outline = outlineToml(frontText);
    let fields: NodeFields;
    try {
      fields = readFields(table, FRONT_MATTER_FIELDS);
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      const keyLine = error.key === '' ? null : lineOf(outline, error.key);
      return malformed(keyLine === null ? 1 : keyLine + 1, `front matter ${error.message}`);
    }
    for (const key of fields.unknown) {
      const keyLine = lineOf(outline, key);
      const line = keyLine === null ? 1 : keyLine + 1;
      result.issues.push({ severity: 'warning', code: 'unknown_field', message: `${path}:${line}: front matter field "${key}" is not a DocForge field and is ignored`, path, line, node_id: fields.id });
    }
    const body = lines.slice(close + 1).join('\n');
    const facts = markdownFacts(body, close + 2, path);
    const node = makeNode({
      id: fields.id,
      kind: fields.kind,
      title: fields.title,
      family: fields.family,
      authority: fields.authority,
      status: fields.status,
      tags: fields.tags,
      summary: fields.summary !== null ? truncateSummary(fields.summary) : facts.summary,
      body,
      source_path: path,
      start_line: 1,
      end_line: lineCount,
      anchors: facts.anchors,
      origin: 'document',
    });
    result.nodes.push(node);
    result.edges.push(...relationEdges(fields, path, outline, '', 1, 1));
    result.links.push(...facts.links.map((link) => ({ from_id: node.id, ...link })));
    result.issues.push(...vocabularyIssues(node, descriptor, path));
    return result;
  }

  const body = lines.join('\n');
  const facts = markdownFacts(body, 1, path);
  const root = contentRootOf(path, descriptor);
  const relative = root === null || root === '.' ? path : path.slice(root.length + 1);
  const fileName = stripExtension(posix.basename(path));
  const node = makeNode({
    id: stripExtension(relative),
    kind: 'document',
    title: facts.firstHeading ?? fileName,
    family: null,
    authority: null,
    status: null,
    tags: [],
    summary: facts.summary,
    body,
    source_path: path,
    start_line: 1,
    end_line: lineCount,
    anchors: facts.anchors,
    origin: 'markdown' satisfies NodeOrigin,
  });
  result.nodes.push(node);
  result.links.push(...facts.links.map((link) => ({ from_id: node.id, ...link })));
  result.issues.push(...vocabularyIssues(node, descriptor, path));
  return result;
}

function parseRecords(path: string, text: string, descriptor: Descriptor): ContentParse {
  const result: ContentParse = { nodes: [], edges: [], links: [], issues: [] };
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const malformed = (line: number | null, message: string, nodeId: string | null = null): void => {
    result.issues.push({ severity: 'error', code: 'malformed_record', message: line === null ? `${path}: ${message}` : `${path}:${line}: ${message}`, path, line, node_id: nodeId });
  };
  let doc: Table;
  try {
    doc = parseToml(source) as Table;
  } catch (error) {
    malformed(tomlErrorLine(error), `TOML syntax error: ${tomlErrorReason(error)}`);
    return result;
  }
  if (doc['node'] === undefined) return result;
  const outline = outlineToml(source);
  const lines = source.split(/\r?\n/);
  const entries = doc['node'];
  if (!Array.isArray(entries)) {
    malformed(lineOf(outline, 'node'), '"node" must be an array of tables ([[node]])');
    return result;
  }
  entries.forEach((entry, index) => {
    const scope = `node.${index}`;
    const declared = outline.firstLine.get(scope);
    const startLine = declared ?? lineOf(outline, 'node') ?? 1;
    const endLine = declared === undefined ? startLine : blockEnd(outline, scope, lines);
    if (!isTable(entry)) {
      malformed(startLine, `[[node]] entry ${index + 1} must be a table`);
      return;
    }
    let fields: NodeFields;
    try {
      fields = readFields(entry, RECORD_FIELDS);
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      const line = (error.key === '' ? null : lineOf(outline, `${scope}.${error.key}`)) ?? startLine;
      const id = typeof entry['id'] === 'string' ? entry['id'] : null;
      malformed(line, `[[node]] entry ${index + 1}: ${error.message}`, id);
      return;
    }
    for (const key of fields.unknown) {
      const line = lineOf(outline, `${scope}.${key}`) ?? startLine;
      result.issues.push({ severity: 'warning', code: 'unknown_field', message: `${path}:${line}: [[node]] field "${key}" is not a DocForge field and is ignored`, path, line, node_id: fields.id });
    }
    const body = fields.body ?? '';
    const node = makeNode({
      id: fields.id,
      kind: fields.kind,
      title: fields.title,
      family: fields.family,
      authority: fields.authority,
      status: fields.status,
      tags: fields.tags,
      summary: fields.summary !== null ? truncateSummary(fields.summary) : body === '' ? '' : markdownFacts(body, startLine, path).summary,
      body,
      source_path: path,
      start_line: startLine,
      end_line: endLine,
      anchors: [],
      origin: 'record',
    });
    result.nodes.push(node);
    result.edges.push(...relationEdges(fields, path, outline, `${scope}.`, 0, startLine));
    result.issues.push(...vocabularyIssues(node, descriptor, path));
  });
  return result;
}

/**
 * Parses one content source (DESIGN.md section 3). `*.md`/`*.markdown` with a `+++` TOML front
 * matter give one `document` node (errors: `malformed_front_matter`, file gives no node); plain
 * Markdown gives one `markdown` node with a path-derived id; `*.toml` files give one `record` node
 * per `[[node]]` entry (errors: `malformed_record`, per entry). Heading anchors use GitHub slugs;
 * relative links become {@link LinkRef}s. Undeclared kinds/authorities/statuses under a closed
 * vocabulary are warnings. Pure and deterministic; never throws for bad input.
 */
export function parseContentSource(input: ContentSourceInput): ContentParse {
  const lower = input.path.toLowerCase();
  if (lower.endsWith('.md') || lower.endsWith('.markdown')) return parseMarkdown(input.path, input.text, input.descriptor);
  if (lower.endsWith('.toml')) return parseRecords(input.path, input.text, input.descriptor);
  return { nodes: [], edges: [], links: [], issues: [] };
}
