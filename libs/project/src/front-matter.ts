/**
 * Front matter of Markdown files (DESIGN.md section 3; issue 8 item 2). DocForge's own front matter
 * is TOML between `+++` lines naming `id` and `kind`. Other tools put front matter in the same
 * place: Docusaurus and Jekyll use YAML between `---` lines, Hugo TOML between `+++` lines without
 * DocForge's `id` and `kind`. Such *foreign* front matter never defines a DocForge node: the file
 * stays a plain Markdown document with a path-derived id, and only its `title`, `description`
 * (or `summary`) and `tags` are read. YAML is read with the `yaml` package, TOML with smol-toml.
 *
 * Where front matter may stand: on line 1 only (after an optional UTF-8 byte order mark), as in
 * Hugo, Jekyll, Docusaurus (gray-matter) and GitHub's renderer. A `+++` or `---` block that only
 * blank lines precede is body text for all of them, so it is body text here too, with a
 * `misplaced_front_matter` warning; its lines never give the node's title or summary.
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { parseToml, TomlError } from './toml.js';
import { authoredTextProblem, type SourceIssue } from '@docforge/core';
import { lineOf, outlineToml, type TomlOutline } from '@docforge/markdown';

let yamlModule: typeof Yaml | null = null;
/**
 * The `yaml` package, required on first use (issue 14): its Node build is CommonJS, which Node's
 * ESM import would lex file by file in every process, including ones that read no front matter.
 */
function yaml(): typeof Yaml {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return yamlModule;
}

type Table = Record<string, unknown>;

/** A front matter block at the top of a Markdown file, as found by {@link findFrontMatter}. */
export interface FrontMatterBlock {
  format: 'toml' | 'yaml';
  /** 0-based index of the closing delimiter line, or null when the block is never closed. */
  close: number | null;
  /** The lines between the delimiters (to the end of the file for an unclosed block), joined by `\n`. */
  text: string;
}

/** What {@link readFrontMatter} made of a block. */
export type FrontMatterReading =
  /** DocForge's own front matter: a TOML table naming `id` or `kind`. */
  | { type: 'docforge'; table: Table; outline: TomlOutline }
  /** Foreign front matter: what it says about the page, and warnings about fields of the wrong type. */
  | { type: 'foreign'; fields: ForeignFields; issues: SourceIssue[] }
  /** A block that cannot be read; `docforge` when its lines name `id` or `kind` (DocForge's intent). */
  | { type: 'unreadable'; issue: SourceIssue; docforge: boolean };

/** The fields of foreign front matter DocForge uses; null when absent. */
export interface ForeignFields {
  title: string | null;
  /** `description` (Docusaurus, Jekyll, Hugo), else `summary` (Hugo). */
  description: string | null;
  /** Sorted, unique. */
  tags: string[];
  /** `reviews:` entries (issue 32 item 1) with their file lines, checked by review-stamps.ts. */
  reviews: { value: unknown; line: number }[];
}

const DELIMITERS: Record<string, FrontMatterBlock['format']> = { '+++': 'toml', '---': 'yaml' };

function delimiterOf(line: string | undefined): FrontMatterBlock['format'] | null {
  return line === undefined ? null : DELIMITERS[line.trimEnd()] ?? null;
}

function closingLine(lines: readonly string[], from: number, format: FrontMatterBlock['format']): number | null {
  for (let index = from; index < lines.length; index += 1) {
    const line = (lines[index] as string).trimEnd();
    // YAML also ends a document with `...` (Jekyll and gray-matter accept it).
    if (line === (format === 'toml' ? '+++' : '---') || (format === 'yaml' && line === '...')) return index;
  }
  return null;
}

/**
 * The front matter block that opens on line 1 of `lines` (a `+++` or `---` line), or null.
 * A `---` line that is never closed is a thematic break, not front matter (it returns null); an
 * unclosed `+++` block is front matter that runs to the end of the file (`close` null).
 */
export function findFrontMatter(lines: readonly string[]): FrontMatterBlock | null {
  const format = delimiterOf(lines[0]);
  if (format === null) return null;
  const close = closingLine(lines, 1, format);
  if (close === null && format === 'yaml') return null;
  return { format, close, text: lines.slice(1, close ?? lines.length).join('\n') };
}

/** Keys that mark a lone mapping after an unclosed `---` as front matter (DocForge's fields and the common foreign ones). */
const FRONT_MATTER_KEYS = new Set(['id', 'kind', 'title', 'description', 'summary', 'tags', 'date', 'author', 'layout', 'slug', 'sidebar_position', 'draft', 'status', 'family', 'authority']);

/**
 * The warning for a `---` on line 1 that is never closed although the lines after it, up to the
 * first blank line, read as front matter (issue 30): a YAML mapping of two keys or more, or of one
 * key DocForge or a site generator reads as metadata (`title:`). The file stays body text, the
 * `---` a thematic break; the warning tells the author their metadata was ignored. Null otherwise.
 */
export function unclosedFrontMatter(path: string, lines: readonly string[]): SourceIssue | null {
  if (delimiterOf(lines[0]) !== 'yaml' || closingLine(lines, 1, 'yaml') !== null) return null;
  let end = 1;
  while (end < lines.length && (lines[end] as string).trim() !== '') end += 1;
  if (end === 1) return null;
  const doc = yaml().parseDocument(lines.slice(1, end).join('\n'));
  if (doc.errors.length > 0 || !yaml().isMap(doc.contents)) return null;
  const keys = doc.contents.items.map((item) => (yaml().isScalar(item.key) ? String(item.key.value) : ''));
  if (keys.length < 2 && !keys.some((key) => FRONT_MATTER_KEYS.has(key))) return null;
  return finding('warning', path, 1, `the "---" on line 1 is never closed, so the ${keys.length === 1 ? 'key' : 'keys'} ${keys.slice(0, 5).map((key) => JSON.stringify(key)).join(', ')} below it ${keys.length === 1 ? 'is' : 'are'} read as body text, not front matter: add a closing "---" line after them`);
}

/**
 * A front-matter-shaped block after leading blank lines: a closed `+++` block, or a closed `---`
 * block whose content is a YAML mapping. Returns its 0-based first and last line indices, or null.
 */
export function findMisplacedFrontMatter(lines: readonly string[]): { first: number; last: number } | null {
  let first = 0;
  while (first < lines.length && (lines[first] as string).trim() === '') first += 1;
  if (first === 0 || first >= lines.length) return null;
  const format = delimiterOf(lines[first]);
  if (format === null) return null;
  const last = closingLine(lines, first + 1, format);
  if (last === null) return null;
  if (format === 'yaml') {
    // `---` is also a thematic break: only a block holding a YAML mapping looks like front matter.
    const doc = yaml().parseDocument(lines.slice(first + 1, last).join('\n'));
    if (doc.errors.length > 0 || !yaml().isMap(doc.contents) || doc.contents.items.length === 0) return null;
  }
  return { first, last };
}

function finding(severity: SourceIssue['severity'], path: string, line: number, message: string): SourceIssue {
  return { severity, code: 'malformed_front_matter', message: `${path}:${line}: ${message}`, path, line, node_id: null };
}

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** A scalar as text (`title: 2024` is a number in YAML and TOML); null for anything else. */
function scalarText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return null;
}

/**
 * Tags as the tools write them: a list of strings (Hugo, Jekyll, Docusaurus), Docusaurus tag
 * objects `{label: ...}`, or a space-separated string (Jekyll). Null when the value has none of
 * these shapes.
 */
function tagList(value: unknown): string[] | null {
  if (typeof value === 'string') return value.split(/\s+/).filter((tag) => tag !== '');
  if (!Array.isArray(value)) return null;
  const tags: string[] = [];
  for (const item of value) {
    const text = isTable(item) ? scalarText(item['label']) : scalarText(item);
    if (text === null) return null;
    if (text.trim() !== '') tags.push(text.trim());
  }
  return tags;
}

/**
 * Reads the foreign fields from a parsed mapping; a used field of the wrong shape is a warning
 * at `lineOfKey(key)` and is ignored.
 */
function foreignFields(table: Table, path: string, lineOfKey: (key: string) => number, itemLine: (key: string, index: number) => number): { fields: ForeignFields; issues: SourceIssue[] } {
  const issues: SourceIssue[] = [];
  const text = (key: string): string | null => {
    const value = table[key];
    if (value === undefined || value === null) return null;
    const result = scalarText(value);
    if (result === null) issues.push(finding('warning', path, lineOfKey(key), `front matter field "${key}" is not text; ignored`));
    return result === null || result.trim() === '' ? null : result.trim();
  };
  let title = text('title');
  const description = text('description') ?? text('summary');
  let tags: string[] = [];
  if (table['tags'] !== undefined && table['tags'] !== null) {
    const list = tagList(table['tags']);
    if (list === null) issues.push(finding('warning', path, lineOfKey('tags'), 'front matter field "tags" is neither a list of tags nor a string; ignored'));
    else tags = [...new Set(list)].sort();
  }
  // A title or tag holding a control or bidi character is ignored with a warning, as an unusable shape is (issue 30).
  for (let unsafe = authoredTextProblem({ title, tags }); unsafe !== null; unsafe = authoredTextProblem({ title, tags })) {
    issues.push(finding('warning', path, lineOfKey(unsafe.key), `front matter field ${unsafe.message}; ignored`));
    if (unsafe.key === 'title') title = null;
    else tags = [];
  }
  let reviews: ForeignFields['reviews'] = [];
  if (table['reviews'] !== undefined && table['reviews'] !== null) {
    if (!Array.isArray(table['reviews'])) issues.push(finding('warning', path, lineOfKey('reviews'), 'front matter field "reviews" is not a list of review stamps; ignored'));
    else reviews = table['reviews'].map((value: unknown, index: number) => ({ value, line: itemLine('reviews', index) }));
  }
  issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { fields: { title, description, tags, reviews }, issues };
}

/** `yaml` error messages carry a position relative to the block; the finding gives the file line instead. */
function yamlReason(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '').trim();
}

/** Source offset of the first scalar (key or value) whose text holds a lone surrogate, or null. */
function loneSurrogateOffset(doc: Yaml.Document.Parsed): number | null {
  let at: number | null = null;
  yaml().visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && /\p{Surrogate}/u.test(node.value)) {
        at = node.range?.[0] ?? 0;
        return yaml().visit.BREAK;
      }
      return undefined;
    },
  });
  return at;
}

function readYaml(block: FrontMatterBlock, path: string): FrontMatterReading {
  const lineCounter = new (yaml().LineCounter)();
  const doc = yaml().parseDocument(block.text, { lineCounter, uniqueKeys: true });
  const lastLine = (block.close ?? 1) + 1;
  const error = doc.errors[0];
  if (error !== undefined) {
    const at = Math.min(lastLine, 1 + (error.linePos?.[0].line ?? 1));
    return { type: 'unreadable', docforge: false, issue: finding('error', path, at, `YAML front matter cannot be read: ${yamlReason(error.message)}`) };
  }
  if (doc.contents !== null && !yaml().isMap(doc.contents)) {
    return { type: 'unreadable', docforge: false, issue: finding('error', path, 2, 'YAML front matter must be a mapping of fields (key: value)') };
  }
  // A `\uD800` escape decodes to a lone surrogate, which no UTF-8 file or index can hold: refused
  // like TOML's invalid escape instead of being stored as replacement characters (break-it trial).
  const lone = loneSurrogateOffset(doc);
  if (lone !== null) {
    return { type: 'unreadable', docforge: false, issue: finding('error', path, Math.min(lastLine, 1 + lineCounter.linePos(lone).line), 'YAML front matter cannot be read: invalid unicode escape (a lone surrogate half, \\uD800-\\uDFFF, has no UTF-8 form)') };
  }
  let table: Table;
  try {
    // Aliases are expanded with the library's bound (no "billion laughs").
    const value: unknown = doc.toJS({ maxAliasCount: 100 });
    table = isTable(value) ? value : {};
  } catch (caught) {
    return { type: 'unreadable', docforge: false, issue: finding('error', path, 2, `YAML front matter cannot be read: ${caught instanceof Error ? caught.message : String(caught)}`) };
  }
  const keyLines = new Map<string, number>();
  const itemLines = new Map<string, number[]>();
  if (yaml().isMap(doc.contents)) {
    for (const pair of doc.contents.items) {
      if (!yaml().isScalar(pair.key) || typeof pair.key.value !== 'string' || !pair.key.range) continue;
      keyLines.set(pair.key.value, lineCounter.linePos(pair.key.range[0]).line + 1);
      if (yaml().isSeq(pair.value)) itemLines.set(pair.key.value, pair.value.items.map((item) => (yaml().isNode(item) && item.range ? lineCounter.linePos(item.range[0]).line + 1 : 2)));
    }
  }
  const reading = foreignFields(table, path, (key) => keyLines.get(key) ?? 2, (key, index) => itemLines.get(key)?.[index] ?? keyLines.get(key) ?? 2);
  const docforgeKeys = DOCFORGE_ONLY_KEYS.filter((key) => Object.hasOwn(table, key));
  if (docforgeKeys.length > 0) {
    const line = Math.min(...docforgeKeys.map((key) => keyLines.get(key) ?? 2));
    const named = docforgeKeys.map((key) => `"${key}"`).join(', ');
    reading.issues.push(finding('warning', path, line, `YAML front matter names DocForge's ${named}, which DocForge reads only in TOML front matter (+++ lines): this page is a plain Markdown document with its path-derived id and these fields are ignored; write the block between +++ lines in TOML to make it a DocForge node`));
    reading.issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  }
  return { type: 'foreign', ...reading };
}

/**
 * Keys only DocForge's own front matter uses (Docusaurus and Jekyll use `id`, `title`, `tags`, never
 * these): YAML front matter naming one is DocForge front matter written in the wrong format, so its
 * fields are ignored with a warning instead of silently (break-it trial 50).
 */
const DOCFORGE_ONLY_KEYS: readonly string[] = ['kind', 'relations', 'family', 'authority'];

function tomlReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return (error.message.split('\n')[0] ?? error.message).replace(/^Invalid TOML document: /, '');
}

function readToml(block: FrontMatterBlock, path: string): FrontMatterReading {
  const outline = outlineToml(block.text);
  // DocForge's intent shows in the keys its lines name, even when the TOML does not parse.
  const docforge = outline.firstLine.has('id') || outline.firstLine.has('kind');
  if (block.close === null) {
    return { type: 'unreadable', docforge, issue: finding('error', path, 1, 'front matter opened with "+++" is never closed by a "+++" line') };
  }
  let table: Table;
  try {
    table = parseToml(block.text) as Table;
  } catch (error) {
    const at = error instanceof TomlError ? error.line + 1 : 1;
    return { type: 'unreadable', docforge, issue: finding('error', path, Math.min(at, block.close + 1), `front matter TOML syntax error: ${tomlReason(error)}`) };
  }
  if (table['id'] !== undefined || table['kind'] !== undefined) return { type: 'docforge', table, outline };
  return { type: 'foreign', ...foreignFields(table, path, (key) => (lineOf(outline, key) ?? 1) + 1, (key, index) => (lineOf(outline, `${key}.${index}`) ?? 1) + 1) };
}

/**
 * Reads a front matter block found by {@link findFrontMatter}.
 * - TOML naming `id` or `kind`: DocForge front matter (validated by the caller).
 * - TOML without both, and every YAML block: foreign front matter.
 * - A block that cannot be read (unclosed `+++`, a syntax error, YAML that is not a mapping): an
 *   error finding `malformed_front_matter` at the file line of the fault; `docforge` says whether
 *   its lines name `id` or `kind`.
 * Pure; never throws.
 * @param path project-relative path, for findings
 */
export function readFrontMatter(block: FrontMatterBlock, path: string): FrontMatterReading {
  return block.format === 'yaml' ? readYaml(block, path) : readToml(block, path);
}

/**
 * A first line that opens front matter but ends it with a lone CR (`+++\rid = ...`: classic Mac OS
 * line endings, which Markdown tools and DocForge's line rules do not all read as line breaks): the
 * block would silently be body text, so it is an error finding (break-it trial, issue 30). Null
 * for any other first line.
 * @param path project-relative path, for the finding
 * @param first the file's first line, split on LF or CRLF (so a CR-only file is one line)
 */
export function crOnlyFrontMatter(path: string, first: string | undefined): SourceIssue | null {
  const cr = first === undefined ? -1 : first.indexOf('\r');
  if (cr < 0 || cr === (first as string).length - 1 || !['+++', '---'].includes((first as string).slice(0, cr).trimEnd())) return null;
  const message = `${path}:1: front matter cannot be read: its lines end with a lone carriage return (CR, classic Mac OS line endings); save the file with LF or CRLF line endings`;
  return { severity: 'error', code: 'malformed_front_matter', message, path, line: 1, node_id: null };
}
