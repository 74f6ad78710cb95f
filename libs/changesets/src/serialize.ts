/**
 * Format-preserving source-text edits of the five operations (issue 11, item 3: "edits look
 * hand-made"): the one serializer both the projection (issue 10) and canonical application use,
 * so what a reviewer approved is byte for byte what lands on disk. Each function takes the
 * current text of one canonical file and returns the new text, or an {@link EditRefusal} naming
 * why the file cannot hold the change. The projection re-reads the result with the canonical
 * loader (`parseContentSource`), so what a text edit means is decided by that loader alone.
 *
 * - TOML front matter (`+++`) and `[[node]]` record files are edited by span (toml-span.ts,
 *   issue 30 item 21): the change is a diff of the table's values, and only the touched value,
 *   the touched key's own lines, or an emptied sub-table's header and key lines are replaced;
 *   every other byte, comment, blank line and line ending stays. A record is appended as text
 *   and leaves its file by cutting its own lines. Where a change cannot be located by span, the
 *   checked fallback is `@decimalturn/toml-patch` (`patch(source, changed)`). Either way the text
 *   must read back to exactly the table meant, else the edit is refused
 *   (`serialization_mismatch`, an error finding), never written half-right.
 * - YAML front matter (`---`, foreign to DocForge) is edited by span too (yaml-span.ts: the
 *   value of `title` or `tags` in its own style; a new key as one line), with the `yaml`
 *   Document API as the fallback.
 * - A body edit replaces only the text after the front matter block; the block's bytes stay.
 * - Line endings (LF or CRLF), a UTF-8 byte order mark and a final newline are kept as the file
 *   had them.
 * - A plain Markdown document's title is its first heading (or its foreign front matter `title`);
 *   metadata it cannot hold is refused (`metadata_not_representable`, an error finding).
 *
 * Pure: no file system access.
 */
import { parse as parseToml, patch as patchToml, stringify as stringifyToml } from '@decimalturn/toml-patch';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type { Document as YamlDocument } from 'yaml';
import { AUTHORED_NODE_FIELDS, ownValue, setOwn, type GraphNode } from '@docforge/core';
import { cutRecordLines, sameToml } from './toml-check.js';
import { lfStrings, spliced } from './toml-span.js';
import { spliceYaml } from './yaml-span.js';
import type { NodeCreateOp, NodeSet, RelationRef } from './types.js';

let yamlModule: typeof Yaml | null = null;
/** The `yaml` package, required on first use (issue 14; as front matter in libs/project): a server start loads none of it. */
function yaml(): typeof Yaml {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return yamlModule;
}

/** Why an edit cannot be expressed in the file (becomes an error finding). */
export interface EditRefusal {
  refused: true;
  code: string;
  message: string;
}

/** The outcome of one text edit: the new text (null: the file goes) plus warnings. */
export type EditResult = { refused: false; text: string | null; warnings: { code: string; message: string }[] } | EditRefusal;

type Table = Record<string, unknown>;
type Warning = { code: string; message: string };

function refuse(code: string, message: string): EditRefusal {
  return { refused: true, code, message };
}

function ok(text: string | null, warnings: Warning[] = []): EditResult {
  return { refused: false, text, warnings };
}

const BOM = '\ufeff';

/** Line ending of a text: CRLF when its first line break is CRLF, else LF. */
function eolOf(text: string): string {
  const i = text.indexOf('\n');
  return i > 0 && text[i - 1] === '\r' ? '\r\n' : '\n';
}

/** `text` with every line break turned into `eol`. */
function withEol(text: string, eol: string): string {
  const lf = text.replace(/\r\n/g, '\n');
  return eol === '\n' ? lf : lf.replace(/\n/g, eol);
}

/** A file's BOM and the text after it. */
function unBom(text: string): { bom: string; src: string } {
  return text.startsWith(BOM) ? { bom: BOM, src: text.slice(1) } : { bom: '', src: text };
}

/** Character offsets of the front matter block of a Markdown text (without BOM). */
interface FrontBlock {
  format: 'toml' | 'yaml';
  /** Offset of the first character after the opening delimiter line. */
  contentStart: number;
  /** Offset of the closing delimiter line. */
  contentEnd: number;
  /** Offset of the first body character (after the closing line and its line break). */
  bodyStart: number;
}

/** The `+++`/`---` block opening on line 1, as the canonical loader finds it, or null. */
function frontBlock(src: string): FrontBlock | null {
  const firstBreak = src.indexOf('\n');
  if (firstBreak < 0) return null;
  const opener = src.slice(0, firstBreak).replace(/\r$/, '').trimEnd();
  const format = opener === '+++' ? 'toml' : opener === '---' ? 'yaml' : null;
  if (format === null) return null;
  let at = firstBreak + 1;
  while (at <= src.length) {
    const next = src.indexOf('\n', at);
    const end = next < 0 ? src.length : next;
    const line = src.slice(at, end).replace(/\r$/, '').trimEnd();
    if (line === opener || (format === 'yaml' && line === '...')) {
      return { format, contentStart: firstBreak + 1, contentEnd: at, bodyStart: next < 0 ? src.length : next + 1 };
    }
    if (next < 0) break;
    at = next + 1;
  }
  return null;
}

/**
 * Replaces the body (everything after the front matter block, or the whole text) with `body`,
 * in the file's line endings; a final newline is kept or left out as the file had it.
 */
function replaceBody(text: string, body: string): string {
  const { bom, src } = unBom(text);
  const eol = eolOf(src);
  const block = frontBlock(src);
  const start = block?.bodyStart ?? 0;
  let next = body.replace(/\r\n/g, '\n');
  const hadFinal = src.endsWith('\n');
  if (hadFinal && next !== '' && !next.endsWith('\n')) next += '\n';
  if (!hadFinal && src.length > start && next.endsWith('\n')) next = next.slice(0, -1);
  return bom + src.slice(0, start) + withEol(next, eol);
}

/** TOML text of a table for a NEW file or record (nothing to preserve). */
function tomlText(table: Table): string {
  const text = stringifyToml(table);
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** `patch(source, changed)` of toml-patch, keeping the source's line endings. */
function patchTomlText(source: string, changed: Table): string {
  const eol = eolOf(source);
  const patched = patchToml(source, changed);
  return eol === '\r\n' ? withEol(patched, eol) : patched;
}

/**
 * Edits the TOML or YAML front matter of a Markdown text in place: `edit` changes the parsed
 * table (TOML) or receives a setter (YAML); bytes outside the block are kept.
 */
function editFront(text: string, block: FrontBlock, edit: (table: Table) => Warning[] | EditRefusal): EditResult {
  const { bom, src } = unBom(text);
  const raw = src.slice(block.contentStart, block.contentEnd);
  let replaced: string;
  let warnings: Warning[];
  if (block.format === 'toml') {
    let table: Table;
    try {
      table = parseToml(raw) as Table;
    } catch {
      return refuse('malformed_front_matter', 'the TOML front matter cannot be read');
    }
    const before = structuredClone(table);
    const outcome = edit(table);
    if (!Array.isArray(outcome)) return outcome;
    warnings = outcome;
    replaced = raw.trim() === '' ? tomlText(table) : spliced(raw, { kind: 'root' }, before, table) ?? patchTomlText(raw, table);
    if (!readsBack(replaced, table)) return mismatch('the TOML front matter');
  } else {
    const doc = yaml().parseDocument(raw);
    if (doc.errors.length > 0 || (doc.contents !== null && !yaml().isMap(doc.contents))) return refuse('malformed_front_matter', 'the YAML front matter cannot be read');
    const before = (doc.toJS() ?? {}) as Table;
    const table: Table = structuredClone(before);
    const outcome = edit(table);
    if (!Array.isArray(outcome)) return outcome;
    warnings = outcome;
    replaced = spliceYaml(yaml(), raw, doc, before, table) ?? rewrittenYaml(doc, before, table, eolOf(src));
  }
  const eol = eolOf(src);
  if (replaced !== '' && !replaced.endsWith('\n')) replaced += eol;
  return ok(bom + src.slice(0, block.contentStart) + replaced + src.slice(block.contentEnd), warnings);
}

/** The YAML front matter re-serialised by the Document API (the fallback of {@link spliceYaml}). */
function rewrittenYaml(doc: YamlDocument, before: Table, table: Table, eol: string): string {
  for (const key of Object.keys(before)) if (!(key in table)) doc.delete(key);
  for (const [key, value] of Object.entries(table)) {
    if (JSON.stringify(before[key]) !== JSON.stringify(value)) setYaml(doc, key, value);
  }
  return withEol(doc.toString(), eol);
}

/**
 * Sets one key of a YAML document keeping the node's style: a scalar changes its value in place
 * (its comment stays), a sequence keeps flow or block style and its comment.
 */
function setYaml(doc: YamlDocument, key: string, value: unknown): void {
  const existing = doc.get(key, true);
  if (yaml().isScalar(existing) && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')) {
    existing.value = value;
    return;
  }
  const node = doc.createNode(value);
  if (yaml().isSeq(existing) && yaml().isSeq(node)) {
    node.flow = existing.flow ?? false;
    if (existing.comment) node.comment = existing.comment;
    if (existing.commentBefore) node.commentBefore = existing.commentBefore;
  }
  doc.set(key, node);
}

/** The front matter / record fields of a created node, in the canonical key order. */
function createdFields(node: NodeCreateOp['node']): Table {
  const table: Table = {};
  for (const field of AUTHORED_NODE_FIELDS) {
    const value = node[field];
    if (value !== undefined) table[field] = Array.isArray(value) ? [...value] : value;
  }
  if (node.relations !== undefined && Object.keys(node.relations).length > 0) {
    table['relations'] = Object.fromEntries(Object.entries(node.relations).map(([k, v]) => [k, [...v]]));
  }
  return table;
}

function isMarkdownPath(p: string): boolean {
  const lower = p.toLowerCase();
  return lower.endsWith('.md') || lower.endsWith('.markdown');
}

/**
 * `node_create`: a new Markdown file with TOML front matter, or a `[[node]]` record appended to a
 * `.toml` file (created when absent; the file's other records stay byte-identical).
 * @param current the file's current text, or null when it does not exist
 */
export function createNodeText(op: NodeCreateOp, current: string | null): EditResult {
  if (isMarkdownPath(op.path)) {
    if (current !== null) return refuse('path_exists', `${op.path} already exists; node_create writes a new Markdown file`);
    return ok(`+++\n${tomlText(createdFields(op.node))}+++\n${op.body.replace(/\r\n/g, '\n')}`);
  }
  if (op.path.toLowerCase().endsWith('.toml')) {
    const record = { ...createdFields(op.node), body: op.body };
    if (current === null) return ok(tomlText({ node: [record] }));
    return appendRecord(current, op.path, record);
  }
  return refuse('unsupported_path', `${op.path} must end in .md, .markdown or .toml`);
}

/** Parses a records file (BOM stripped); null when unreadable or `node` is not an array of tables. */
function parseRecords(src: string): Table | null {
  try {
    const doc = parseToml(src) as Table;
    if (doc['node'] === undefined) doc['node'] = [];
    return Array.isArray(doc['node']) ? doc : null;
  } catch {
    return null;
  }
}

/**
 * Appends a `[[node]]` record to a records file as text: the file's bytes stay as they are, a
 * blank line and the record (in the file's line endings) follow; checked like every TOML edit.
 */
function appendRecord(text: string, p: string, record: Table): EditResult {
  const { bom, src } = unBom(text);
  const doc = parseRecords(src);
  if (doc === null) return refuse('malformed_record', `${p} is not a readable TOML records file`);
  (doc['node'] as Table[]).push(record);
  if (src.trim() === '') return ok(bom + tomlText(doc));
  const eol = eolOf(src);
  const edited = `${src}${src.endsWith('\n') ? '' : eol}${eol}${withEol(tomlText({ node: [record] }), eol)}`;
  if (!sameToml(lfStrings(parseRecords(edited)), lfStrings(doc))) return mismatch(p);
  return ok(bom + edited);
}

/**
 * Edits the record `node` of a records file: by span (toml-span.ts: only the touched values or
 * lines change), else with toml-patch; untouched records keep their bytes either way.
 */
function editRecord(text: string, node: GraphNode, edit: FieldEdit, newBody: string | undefined): EditResult {
  const { bom, src } = unBom(text);
  const doc = parseRecords(src);
  const records = (doc?.['node'] ?? []) as Table[];
  const index = recordIndex(records, node.id);
  if (doc === null || index < 0) return refuse('malformed_record', `${node.source_path} no longer holds a readable [[node]] record ${node.id}`);
  const entry = records[index]!;
  const before = structuredClone(entry);
  const outcome = edit(entry);
  if (!Array.isArray(outcome)) return outcome;
  if (newBody !== undefined) entry['body'] = newBody;
  const edited = spliced(src, { kind: 'record', index }, before, entry) ?? patchTomlText(src, doc);
  if (!sameToml(lfStrings(parseRecords(edited)), lfStrings(doc))) return mismatch(node.source_path);
  return ok(bom + edited, outcome);
}

/** Whether a TOML text parses to exactly `table` (key order aside). */
function readsBack(text: string, table: Table): boolean {
  try {
    return sameToml(parseToml(text), table);
  } catch {
    return false;
  }
}

function mismatch(what: string): EditRefusal {
  return refuse('serialization_mismatch', `the edit of ${what} cannot be written faithfully: the edited TOML would not read back as the intended change, so nothing would be written`);
}

function recordIndex(records: readonly Table[], id: string): number {
  return records.findIndex((entry) => typeof entry === 'object' && entry !== null && entry['id'] === id);
}

/** Edits the fields table of one node (front matter table or `[[node]]` entry) in place. */
type FieldEdit = (table: Table) => Warning[] | EditRefusal;

/** Applies `edit` to the node's own table in `text` (DocForge front matter or record). */
function editFields(node: GraphNode, text: string, edit: FieldEdit, newBody?: string): EditResult {
  if (node.origin === 'record') return editRecord(text, node, edit, newBody);
  const block = frontBlock(unBom(text).src);
  if (block === null || block.format !== 'toml') return refuse('malformed_front_matter', `${node.source_path} has no TOML front matter`);
  const edited = editFront(text, block, edit);
  if (edited.refused || newBody === undefined) return edited;
  return ok(replaceBody(edited.text!, newBody), edited.warnings);
}

/** Sets `set` on a table; arrays are copied. */
function assign(table: Table, set: NodeSet): void {
  for (const [key, value] of Object.entries(set)) table[key] = Array.isArray(value) ? [...(value as string[])] : value;
}

/**
 * `node_update`: sets metadata fields and/or replaces the body. A plain Markdown document holds a
 * title (its foreign front matter `title`, else its first heading), tags only in foreign front
 * matter, and a body: any other field is refused (`metadata_not_representable`).
 */
export function updateNodeText(node: GraphNode, text: string, set: NodeSet | undefined, body: string | undefined): EditResult {
  if (node.origin === 'markdown') return updatePlainMarkdown(node, text, set ?? {}, body);
  return editFields(node, text, (table) => {
    assign(table, set ?? {});
    return [];
  }, body);
}

function updatePlainMarkdown(node: GraphNode, text: string, set: NodeSet, body: string | undefined): EditResult {
  const block = frontBlock(unBom(text).src);
  const frontKeys = frontMatterKeys(text, block);
  const holdable = new Set(['title', ...(frontKeys !== null ? ['tags'] : [])]);
  const extra = Object.keys(set).filter((k) => !holdable.has(k));
  if (extra.length > 0) {
    return refuse('metadata_not_representable', `${node.source_path} is plain Markdown without DocForge front matter: it cannot hold ${extra.join(', ')} (only a title, its first heading${frontKeys !== null ? ', tags in its front matter' : ''}, and a body)`);
  }
  let current = text;
  const frontSet: Table = {};
  if (set.tags !== undefined) frontSet['tags'] = [...set.tags];
  if (set.title !== undefined && frontKeys?.has('title') === true) frontSet['title'] = set.title;
  if (Object.keys(frontSet).length > 0) {
    const edited = editFront(current, block!, (table) => {
      Object.assign(table, frontSet);
      return [];
    });
    if (edited.refused) return edited;
    current = edited.text!;
  }
  if (body !== undefined) current = replaceBody(current, body);
  if (set.title !== undefined && frontKeys?.has('title') !== true) current = retitle(current, node, set.title, body !== undefined);
  return ok(current);
}

/** Keys of a readable foreign front matter block, or null when there is none. */
function frontMatterKeys(text: string, block: FrontBlock | null): Set<string> | null {
  if (block === null) return null;
  const raw = unBom(text).src.slice(block.contentStart, block.contentEnd);
  try {
    const value = block.format === 'toml' ? (parseToml(raw) as Table) : ((yaml().parseDocument(raw).toJS() ?? {}) as Table);
    return typeof value === 'object' && value !== null ? new Set(Object.keys(value)) : null;
  } catch {
    return null;
  }
}

/**
 * Sets a plain Markdown document's title: the first heading's text (ATX or setext), else a new
 * `# title` heading before the body. After a body replacement the first heading is searched in
 * the new body.
 */
function retitle(text: string, node: GraphNode, title: string, bodyReplaced: boolean): string {
  const { bom, src } = unBom(text);
  const eol = eolOf(src);
  const start = frontBlock(src)?.bodyStart ?? 0;
  const lines = src.slice(start).split('\n');
  let index = -1;
  if (!bodyReplaced) {
    const first = node.anchors[0];
    const offsetLines = src.slice(0, start).split('\n').length - 1;
    if (first !== undefined && first.title === node.title) index = first.line - 1 - offsetLines;
  } else {
    index = lines.findIndex((line, i) => /^\s{0,3}#{1,6}\s+\S/.test(line) || (i + 1 < lines.length && line.trim() !== '' && /^\s{0,3}(=+|-+)\s*\r?$/.test(lines[i + 1]!)));
  }
  if (index >= 0 && index < lines.length) {
    const line = lines[index]!;
    const cr = line.endsWith('\r') ? '\r' : '';
    const atx = /^(\s{0,3}#{1,6}\s+)/.exec(line);
    lines[index] = atx ? `${atx[1]}${title}${cr}` : `${title}${cr}`;
    return bom + src.slice(0, start) + lines.join('\n');
  }
  return bom + src.slice(0, start) + `# ${title}${eol}${eol}` + src.slice(start);
}

/**
 * `relationship_update`: adds and removes relation targets in the node's `[relations]` table;
 * the body is not touched. A plain Markdown document cannot hold relations.
 */
export function updateRelationsText(node: GraphNode, text: string, add: readonly RelationRef[], remove: readonly RelationRef[]): EditResult {
  if (node.origin === 'markdown') {
    return refuse('metadata_not_representable', `${node.source_path} is plain Markdown without DocForge front matter: it cannot hold declared relations`);
  }
  return editFields(node, text, (table) => {
    const warnings: Warning[] = [];
    const current = table['relations'];
    const relations: Record<string, unknown> = typeof current === 'object' && current !== null && !Array.isArray(current) ? (current as Table) : {};
    const list = (name: string): string[] => {
      const value = ownValue(relations, name);
      return typeof value === 'string' ? [value] : Array.isArray(value) ? value.map(String) : [];
    };
    for (const ref of remove) {
      const targets = list(ref.relation);
      if (!targets.includes(ref.target_id)) {
        warnings.push({ code: 'relation_not_present', message: `${node.id} has no ${ref.relation} relation to ${ref.target_id} to remove` });
        continue;
      }
      const left = targets.filter((t) => t !== ref.target_id);
      if (left.length === 0) delete relations[ref.relation];
      else setOwn(relations, ref.relation, left);
    }
    for (const ref of add) {
      const targets = list(ref.relation);
      if (targets.includes(ref.target_id)) {
        warnings.push({ code: 'relation_already_present', message: `${node.id} already has a ${ref.relation} relation to ${ref.target_id}` });
        continue;
      }
      setOwn(relations, ref.relation, [...targets, ref.target_id]);
    }
    if (Object.keys(relations).length > 0) table['relations'] = relations;
    else delete table['relations'];
    return warnings;
  });
}

/**
 * `node_delete` and the source half of `node_move`: removes the node from its file. A Markdown
 * file holds one node, so the file goes (null); a record leaves the file's other records as they
 * were, byte for byte.
 */
export function removeNodeText(node: GraphNode, text: string): EditResult {
  if (node.origin !== 'record') return ok(null);
  const { bom, src } = unBom(text);
  const doc = parseRecords(src);
  const index = doc === null ? -1 : recordIndex(doc['node'] as Table[], node.id);
  if (doc === null || index < 0) return refuse('malformed_record', `${node.source_path} no longer holds a readable [[node]] record ${node.id}`);
  (doc['node'] as Table[]).splice(index, 1);
  // The record's own lines (`node` was read from this text), checked like every TOML edit.
  const cut = cutRecordLines(src, node.start_line, node.end_line);
  if (!sameToml(parseRecords(cut), doc)) return mismatch(node.source_path);
  return ok(bom + cut);
}

/**
 * The target half of `node_move`: the node's text at `newPath`. A Markdown node moves with its
 * whole file (its bytes unchanged); a record moves into a `.toml` records file (appended, created
 * when absent).
 * @param sourceText the node's current file text
 * @param targetText the current text at `newPath`, or null when absent
 */
export function movedNodeText(node: GraphNode, sourceText: string, newPath: string, targetText: string | null): EditResult {
  if (node.origin !== 'record') {
    if (!isMarkdownPath(newPath)) return refuse('unsupported_path', `a Markdown node moves to a .md or .markdown path, not ${newPath}`);
    if (targetText !== null) return refuse('path_exists', `${newPath} already exists`);
    return ok(sourceText);
  }
  if (!newPath.toLowerCase().endsWith('.toml')) return refuse('unsupported_path', `a [[node]] record moves to a .toml records file, not ${newPath}`);
  const doc = parseRecords(unBom(sourceText).src);
  const index = doc === null ? -1 : recordIndex(doc['node'] as Table[], node.id);
  if (doc === null || index < 0) return refuse('malformed_record', `${node.source_path} no longer holds a readable [[node]] record ${node.id}`);
  const entry = (doc['node'] as Table[])[index]!;
  if (targetText === null) return ok(tomlText({ node: [entry] }));
  return appendRecord(targetText, newPath, entry);
}

/** The field edit, refusal and success makers of this serializer, for the `link_review` edit (review-edit.ts). */
export { editFields, refuse as refuseEdit, ok as okEdit };
