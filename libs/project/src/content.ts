/**
 * Canonical content parsing (DESIGN.md section 3): Markdown with TOML front matter, plain
 * Markdown (also with another tool's front matter), and TOML record files become graph nodes,
 * declared relation edges, heading anchors and link references. Pure: no file system access; every finding is a SourceIssue, never a throw.
 */
import { posix } from 'node:path';
import { parseToml, TomlError } from './toml.js';
import { appendAll, AUTHORED_NODE_FIELDS, hashJson, ownString, type GraphEdge, type GraphNode, type AuthoredNodeField, type NodeOrigin, type ReviewStamp, type SourceIssue } from '@docforge/core';
import { commentStamps, frontMatterStamps, type RawReviewEntry } from '@docforge/core';
import type { Descriptor } from './descriptor-types.js';
import { blockEnd, lineOf, outlineToml, type TomlOutline } from '@docforge/markdown';
import { markdownFacts, selfAnchorIssues, SUMMARY_MAX } from '@docforge/markdown';
import type { DocBinding } from '@docforge/markdown';
import type { ParameterList } from '@docforge/core';
import { pageTitle } from './page-title.js';
import { crOnlyFrontMatter, findFrontMatter, findMisplacedFrontMatter, readFrontMatter, unclosedFrontMatter, type ForeignFields } from './front-matter.js';
import { authoredTextProblem, MAX_NODE_ID_CHARS, nodeIdProblem, UNSAFE_ID_CHARACTER } from '@docforge/core';

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
   * Set when the link is written from the site root (`/commands/npm-install`): `target_path` is then
   * project-relative, and the resolver also tries it under the linking page's content root.
   */
  site_root?: true;
  /**
   * Set for a mention (issue 9 item 2) instead of a link: the text of an inline code span or of a
   * link, and the section holding it; `target_path` is then ''. Resolved against code nodes by
   * {@link resolveGraph}.
   */
  mention?: { text: string; section: { slug: string; title: string; line: number } | null; receiver?: DocBinding };
  /** Set for a parameter list of a doc section (issue 32 item 2; param-lists.ts) instead of a link: `target_path` is then ''. */
  parameters?: ParameterList;
}

/** What one content source contributes before graph resolution. */
export interface ContentParse {
  nodes: GraphNode[];
  edges: GraphEdge[];
  links: LinkRef[];
  issues: SourceIssue[];
  /** Review stamps the source declares (issue 32 item 1; review-stamps.ts), matched to relations after resolution. */
  reviews: ReviewStamp[];
}

/** Input of {@link parseContentSource}. */
export interface ContentSourceInput {
  /** Project-relative POSIX path of the file. */
  path: string;
  /** File text (UTF-8). */
  text: string;
  descriptor: Descriptor;
}

/** Front matter keys: the authored node fields (@docforge/core), then the summary override, the relations table and the review stamps (issue 32). */
const FRONT_MATTER_FIELDS: readonly string[] = [...AUTHORED_NODE_FIELDS, 'summary', 'relations', 'reviews'];
const RECORD_FIELDS = [...FRONT_MATTER_FIELDS, 'body'];

type Table = Record<string, unknown>;

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function countLines(lines: readonly string[]): number {
  let count = lines.length;
  if (count > 1 && lines[count - 1] === '') count -= 1;
  return Math.max(1, count);
}

/** A field problem: message and the dotted key (relative to the entry) whose line to report. */
class FieldError extends Error {
  constructor(readonly key: string, message: string) {
    super(message);
  }
}

/** An entry's fields as read: the authored node fields typed as core's, `summary` and `body` not yet defaulted. */
interface NodeFields extends Pick<GraphNode, AuthoredNodeField> {
  summary: string | null;
  body: string | null;
  relations: { relation: string; targets: string[] }[];
  /** The `reviews` entries as written (checked by review-stamps.ts). */
  reviews: unknown[];
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


/** A relation name a proposal can name (the proposal schema's `relation` pattern). */
export const PROPOSABLE_RELATION = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

/**
 * A warning per declared relation whose name no proposal could name (outside the proposal
 * schema's relation pattern, such as `"Bad Relation!"`): the edge is indexed, but no changeset can
 * add or remove it.
 */
function relationNameWarnings(result: ContentParse, fields: NodeFields, path: string, code: 'malformed_front_matter' | 'malformed_record', lineFor: (relation: string) => number): void {
  for (const { relation } of fields.relations) {
    if (PROPOSABLE_RELATION.test(relation)) continue;
    const line = lineFor(relation);
    const shown = JSON.stringify(relation.length > 80 ? `${relation.slice(0, 80)}…` : relation);
    result.issues.push({ severity: 'warning', code, message: `${path}:${line}: relation name ${shown} is not of the form ${PROPOSABLE_RELATION.source} that proposals use; the relation is indexed, but no changeset can add or remove it: rename it`, path, line, node_id: fields.id });
  }
}

/** Validates the node fields shared by front matter and `[[node]]` entries. Throws FieldError. */
function readFields(table: Table, allowed: readonly string[]): NodeFields {
  // Ids compare in NFC (issue 30 item 3), whichever normal form the file was written in.
  // Kept strings of their own (own-string.ts): a slice of the TOML text would hold the whole text alive.
  const id = ownString(requiredString(table, 'id').normalize('NFC'));
  if (id !== id.trim() || /\s/.test(id)) throw new FieldError('id', `"id" must not contain whitespace ("${id}")`);
  if (id.startsWith('code:')) throw new FieldError('id', `"id" must not start with the reserved prefix "code:" ("${id}")`);
  // Control, bidi and invisible format characters would reach terminals and links unseen, and an id
  // over the tools' node_id limit could never be named (docs/errors.md).
  const problem = nodeIdProblem(id);
  if (problem !== null) throw new FieldError('id', problem);
  const kind = ownString(requiredString(table, 'kind'));
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
    relations.push({ relation, targets: (targets as string[]).map((target) => target.normalize('NFC')) });
  }
  const reviews = table['reviews'] ?? [];
  if (!Array.isArray(reviews)) throw new FieldError('reviews', '"reviews" must be an array of tables ([[reviews]])');
  const named = { family: optionalString(table, 'family'), authority: optionalString(table, 'authority'), status: optionalString(table, 'status'), tags: [...new Set(tagsValue as string[])].sort() };
  // Control and bidi characters are refused in these fields as in ids (issue 30).
  const unsafe = authoredTextProblem({ title, kind, ...named });
  if (unsafe !== null) throw new FieldError(unsafe.key, unsafe.message);
  return {
    id,
    kind,
    title,
    reviews,
    ...named,
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

/** A node built once in its kept form (issue 35): one literal in the usual key order, so all pages' nodes share one hidden class; hashed as `withContentHash` does. */
function makeNode(f: Omit<GraphNode, 'content_hash' | 'language' | 'capabilities'>): GraphNode {
  const h: Omit<GraphNode, 'content_hash'> = { id: f.id, kind: f.kind, title: ownString(f.title), family: f.family, authority: f.authority, status: f.status, tags: f.tags,
    summary: f.summary, body: f.body, source_path: f.source_path, start_line: f.start_line, end_line: f.end_line, anchors: f.anchors, origin: f.origin, language: null, capabilities: [] };
  return { id: h.id, kind: h.kind, title: h.title, family: h.family, authority: h.authority, status: h.status, tags: h.tags, summary: h.summary, body: h.body,
    source_path: h.source_path, start_line: h.start_line, end_line: h.end_line, anchors: h.anchors, origin: h.origin, language: null, capabilities: h.capabilities, content_hash: hashJson(h) };
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
      edges.push({ source_id: fields.id, relation, target_id: ownString(target), source_path: path, line });
    }
  }
  return edges;
}

/** The review entries of `fields` with their file lines (`scope` the outline prefix, `offset` the outline's line offset). */
function reviewEntries(fields: NodeFields, outline: TomlOutline, scope: string, offset: number, fallbackLine: number): RawReviewEntry[] {
  return fields.reviews.map((value, index) => {
    const line = lineOf(outline, `${scope}reviews.${index}`);
    return { value, line: line === null ? fallbackLine : line + offset };
  });
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

/** File lines (1-based, inclusive) whose headings and paragraphs never give a title or summary. */
interface SkipRange {
  from: number;
  to: number;
}

interface PlainOptions {
  /** 0-based index of the first body line. */
  bodyFrom: number;
  skip: SkipRange | null;
  foreign: ForeignFields | null;
}

/**
 * A plain Markdown node: id from the path under its content root, kind `document`, title from
 * foreign front matter, else the first heading outside `skip`, else the file name.
 */
function plainNode(result: ContentParse, path: string, lines: readonly string[], lineCount: number, descriptor: Descriptor, options: PlainOptions): ContentParse {
  const body = lines.slice(options.bodyFrom).join('\n');
  const facts = markdownFacts(body, options.bodyFrom + 1, path, options.skip);
  const root = contentRootOf(path, descriptor);
  const relative = root === null || root === '.' ? path : path.slice(root.length + 1);
  const fileName = stripExtension(posix.basename(path));
  const foreign = options.foreign;
  // The path-derived id in NFC (issue 30 item 3); `source_path` keeps the file's real name.
  const id = stripExtension(relative).normalize('NFC');
  // A name holding a control, bidi or invisible character gives no node: the id would carry it, as a front matter id may not.
  const unsafe = UNSAFE_ID_CHARACTER.exec(id);
  if (unsafe) {
    // The message names no path: the finding's location puts it in front (JSON and the CLI's text escape it).
    const code = `U+${unsafe[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    result.issues.push({ severity: 'error', code: 'unsafe_file_name', message: `the file name holds a control, bidi or invisible character (${code}); a node id derived from it would carry it, so the file gives no node: rename it`, path, line: null, node_id: null });
    return result;
  }
  if (id.length > MAX_NODE_ID_CHARS) {
    result.issues.push({ severity: 'error', code: 'unsafe_file_name', message: `the path-derived node id is ${id.length} characters, over the tools' node_id limit of ${MAX_NODE_ID_CHARS}: no tool could name it, so the file gives no node; shorten its path or give it an id in front matter`, path, line: null, node_id: null });
    return result;
  }
  const node = makeNode({
    id,
    kind: 'document',
    title: foreign?.title ?? pageTitle(path, facts, descriptor) ?? fileName,
    family: null,
    authority: null,
    status: null,
    tags: foreign?.tags ?? [],
    summary: foreign !== null && foreign.description !== null ? truncateSummary(foreign.description) : facts.summary,
    body,
    source_path: path,
    start_line: 1,
    end_line: lineCount,
    anchors: facts.anchors,
    origin: 'markdown' satisfies NodeOrigin,
  });
  result.nodes.push(node);
  appendAll(result.links, facts.links.map((link) => ({ from_id: node.id, ...link })));
  appendAll(result.issues, selfAnchorIssues(path, node.id, facts.anchors, facts.selfLinks, facts.outside));
  appendAll(result.issues, vocabularyIssues(node, descriptor, path));
  appendAll(result.reviews, frontMatterStamps(foreign?.reviews ?? [], node.id, path, result.issues));
  appendAll(result.reviews, commentStamps(lines, options.bodyFrom, facts.anchors, node.id, path, result.issues));
  return result;
}

/** A node from DocForge's own front matter (closing `+++` at 0-based line `close`); a field error gives no node. */
function frontMatterNode(result: ContentParse, path: string, lines: readonly string[], lineCount: number, descriptor: Descriptor, close: number, table: Table, outline: TomlOutline): ContentParse {
  let fields: NodeFields;
  try {
    fields = readFields(table, FRONT_MATTER_FIELDS);
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    const keyLine = error.key === '' ? null : lineOf(outline, error.key);
    const line = keyLine === null ? 1 : keyLine + 1;
    result.issues.push({ severity: 'error', code: 'malformed_front_matter', message: `${path}:${line}: front matter ${error.message}`, path, line, node_id: null });
    return result;
  }
  for (const key of fields.unknown) {
    const keyLine = lineOf(outline, key);
    const line = keyLine === null ? 1 : keyLine + 1;
    result.issues.push({ severity: 'warning', code: 'unknown_field', message: `${path}:${line}: front matter field "${key}" is not a DocForge field and is ignored`, path, line, node_id: fields.id });
  }
  relationNameWarnings(result, fields, path, 'malformed_front_matter', (relation) => (lineOf(outline, `relations.${relation}`) ?? 0) + 1);
  const body = lines.slice(close + 1).join('\n');
  const facts = markdownFacts(body, close + 2, path, null);
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
  appendAll(result.edges, relationEdges(fields, path, outline, '', 1, 1));
  appendAll(result.links, facts.links.map((link) => ({ from_id: node.id, ...link })));
  appendAll(result.issues, selfAnchorIssues(path, node.id, facts.anchors, facts.selfLinks, facts.outside));
  appendAll(result.issues, vocabularyIssues(node, descriptor, path));
  appendAll(result.reviews, frontMatterStamps(reviewEntries(fields, outline, '', 1, 1), node.id, path, result.issues));
  appendAll(result.reviews, commentStamps(lines, close + 1, facts.anchors, node.id, path, result.issues));
  return result;
}

/**
 * One Markdown file (see {@link parseContentSource} and front-matter.ts for the front matter rules):
 * DocForge front matter gives a `document` node; foreign front matter (YAML, or TOML naming neither
 * `id` nor `kind`) and no front matter give a plain `markdown` node; an unreadable block is an
 * error finding and, unless its lines name `id` or `kind`, the page is still a plain node whose
 * body starts after the block.
 */
function parseMarkdown(path: string, text: string, descriptor: Descriptor): ContentParse {
  const result: ContentParse = { nodes: [], edges: [], links: [], issues: [], reviews: [] };
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = source.split(/\r?\n/);
  const lineCount = countLines(lines);
  const block = findFrontMatter(lines);
  if (block !== null) {
    const reading = readFrontMatter(block, path);
    if (reading.type === 'docforge') return frontMatterNode(result, path, lines, lineCount, descriptor, block.close as number, reading.table, reading.outline);
    if (reading.type === 'foreign') {
      appendAll(result.issues, reading.issues);
      return plainNode(result, path, lines, lineCount, descriptor, { bodyFrom: (block.close as number) + 1, skip: null, foreign: reading.fields });
    }
    result.issues.push(reading.issue);
    if (reading.docforge) return result;
    // The page is kept; the unreadable block's lines never become its title, summary or body.
    if (block.close !== null) return plainNode(result, path, lines, lineCount, descriptor, { bodyFrom: block.close + 1, skip: null, foreign: null });
    return plainNode(result, path, lines, lineCount, descriptor, { bodyFrom: 0, skip: { from: 1, to: lines.length }, foreign: null });
  }
  const crOnly = crOnlyFrontMatter(path, lines[0]) ?? unclosedFrontMatter(path, lines);
  if (crOnly !== null) result.issues.push(crOnly);
  const misplaced = findMisplacedFrontMatter(lines);
  if (misplaced !== null) {
    const line = misplaced.first + 1;
    result.issues.push({
      severity: 'warning',
      code: 'misplaced_front_matter',
      message: `${path}:${line}: a front matter block must start on line 1; this block after blank lines is read as body text (its lines give no title or summary)`,
      path,
      line,
      node_id: null,
    });
  }
  return plainNode(result, path, lines, lineCount, descriptor, { bodyFrom: 0, skip: misplaced === null ? null : { from: misplaced.first + 1, to: misplaced.last + 1 }, foreign: null });
}

function parseRecords(path: string, text: string, descriptor: Descriptor): ContentParse {
  const result: ContentParse = { nodes: [], edges: [], links: [], issues: [], reviews: [] };
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
    relationNameWarnings(result, fields, path, 'malformed_record', (relation) => lineOf(outline, `${scope}.relations.${relation}`) ?? startLine);
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
    appendAll(result.edges, relationEdges(fields, path, outline, `${scope}.`, 0, startLine));
    appendAll(result.issues, vocabularyIssues(node, descriptor, path));
    appendAll(result.reviews, frontMatterStamps(reviewEntries(fields, outline, `${scope}.`, 0, startLine), node.id, path, result.issues));
  });
  return result;
}

/**
 * Parses one content source (DESIGN.md section 3). `*.md`/`*.markdown` with DocForge's `+++` TOML
 * front matter (naming `id` or `kind`) give one `document` node (errors: `malformed_front_matter`,
 * the file gives no node); plain Markdown, and Markdown with foreign front matter (YAML `---`, or
 * TOML naming neither `id` nor `kind`: front-matter.ts), give one `markdown` node with a
 * path-derived id (an unreadable foreign block: `malformed_front_matter` error, the page is kept; a
 * block after blank lines: `misplaced_front_matter` warning); `*.toml` files give one `record` node
 * per `[[node]]` entry (errors: `malformed_record`, per entry). Heading anchors use GitHub slugs;
 * relative links become {@link LinkRef}s; same-file fragment links naming no anchor are
 * `broken_link` warnings. Undeclared kinds/authorities/statuses under a closed vocabulary are
 * warnings. `text` is already decoded (see encoding.ts). Pure and deterministic; never throws for
 * bad input.
 */
export function parseContentSource(input: ContentSourceInput): ContentParse {
  const lower = input.path.toLowerCase();
  if (lower.endsWith('.md') || lower.endsWith('.markdown')) return parseMarkdown(input.path, input.text, input.descriptor);
  if (lower.endsWith('.toml')) return parseRecords(input.path, input.text, input.descriptor);
  return { nodes: [], edges: [], links: [], issues: [], reviews: [] };
}
