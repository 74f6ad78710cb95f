/**
 * Source-text edits of the five operations (issue 10 projection; the seam issue 11's canonical
 * serializer replaces with format-preserving edits). Each function takes the current text of one
 * canonical file and returns the new text, or a {@link EditRefusal} naming why the file cannot
 * hold the change. The projection re-reads the result with the canonical loader
 * (`parseContentSource`), so what a text edit means is decided by that loader alone.
 * Pure: no file system access.
 */
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import type { GraphNode } from '@docforge/core';
import type { NodeCreateOp, NodeSet, RelationRef } from './types.js';

/** Why an edit cannot be expressed in the file (becomes an error finding). */
export interface EditRefusal {
  refused: true;
  code: string;
  message: string;
}

/** The outcome of one text edit. */
export type EditResult = { refused: false; text: string | null; warnings: { code: string; message: string }[] } | EditRefusal;

type Table = Record<string, unknown>;

function refuse(code: string, message: string): EditRefusal {
  return { refused: true, code, message };
}

function ok(text: string | null, warnings: { code: string; message: string }[] = []): EditResult {
  return { refused: false, text, warnings };
}

/** Line ending of a text: CRLF when its first line break is CRLF, else LF. */
function eolOf(text: string): string {
  const i = text.indexOf('\n');
  return i > 0 && text[i - 1] === '\r' ? '\r\n' : '\n';
}

function withEol(text: string, eol: string): string {
  return eol === '\n' ? text : text.replace(/\r?\n/g, eol);
}

/** A Markdown file split at its `+++` front matter (as `parseContentSource` splits it). */
interface MarkdownParts {
  bom: string;
  eol: string;
  /** TOML text between the `+++` lines, or null for plain Markdown. */
  front: string | null;
  body: string;
}

function splitMarkdown(text: string): MarkdownParts {
  const bom = text.charCodeAt(0) === 0xfeff ? '\ufeff' : '';
  const source = bom ? text.slice(1) : text;
  const eol = eolOf(source);
  const lines = source.split(/\r?\n/);
  if ((lines[0] ?? '').trimEnd() === '+++') {
    for (let i = 1; i < lines.length; i += 1) {
      if ((lines[i] ?? '').trimEnd() === '+++') return { bom, eol, front: lines.slice(1, i).join('\n'), body: lines.slice(i + 1).join('\n') };
    }
  }
  return { bom, eol, front: null, body: lines.join('\n') };
}

function joinMarkdown(parts: MarkdownParts): string {
  const body = parts.body;
  if (parts.front === null) return parts.bom + withEol(body, parts.eol);
  const front = parts.front.endsWith('\n') || parts.front === '' ? parts.front : `${parts.front}\n`;
  return parts.bom + withEol(`+++\n${front}+++\n${body}`, parts.eol);
}

function tomlText(table: Table): string {
  const text = stringifyToml(table);
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** The front matter / record fields of a created node, in the canonical key order. */
function createdFields(node: NodeCreateOp['node']): Table {
  const table: Table = { id: node.id, kind: node.kind, title: node.title };
  if (node.family !== undefined) table['family'] = node.family;
  if (node.authority !== undefined) table['authority'] = node.authority;
  if (node.status !== undefined) table['status'] = node.status;
  if (node.tags !== undefined) table['tags'] = [...node.tags];
  if (node.relations !== undefined && Object.keys(node.relations).length > 0) {
    table['relations'] = Object.fromEntries(Object.entries(node.relations).map(([k, v]) => [k, [...v]]));
  }
  return table;
}

/**
 * `node_create`: a new Markdown file with TOML front matter, or a `[[node]]` record appended to a
 * `.toml` file (created when absent).
 * @param current the file's current text, or null when it does not exist
 */
export function createNodeText(op: NodeCreateOp, current: string | null): EditResult {
  const lower = op.path.toLowerCase();
  if (lower.endsWith('.md') || lower.endsWith('.markdown')) {
    if (current !== null) return refuse('path_exists', `${op.path} already exists; node_create writes a new Markdown file`);
    return ok(joinMarkdown({ bom: '', eol: '\n', front: tomlText(createdFields(op.node)), body: op.body }));
  }
  if (lower.endsWith('.toml')) {
    const record = { ...createdFields(op.node), body: op.body };
    if (current === null) return ok(tomlText({ node: [record] }));
    const doc = parseRecords(current);
    if (doc === null) return refuse('malformed_record', `${op.path} is not a readable TOML records file`);
    (doc['node'] as Table[]).push(record);
    return ok(withEol(tomlText(doc), eolOf(current)));
  }
  return refuse('unsupported_path', `${op.path} must end in .md, .markdown or .toml`);
}

function parseRecords(text: string): Table | null {
  try {
    const doc = parseToml(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as Table;
    if (doc['node'] === undefined) doc['node'] = [];
    return Array.isArray(doc['node']) ? doc : null;
  } catch {
    return null;
  }
}

function recordIndex(doc: Table, id: string): number {
  return (doc['node'] as unknown[]).findIndex((entry) => typeof entry === 'object' && entry !== null && (entry as Table)['id'] === id);
}

/** Edits the fields table of one node (front matter table or `[[node]]` entry) in place. */
type FieldEdit = (table: Table) => { code: string; message: string }[] | EditRefusal;

/** Applies `edit` to the node's own table in `text` (front matter or record). */
function editFields(node: GraphNode, text: string, edit: FieldEdit, newBody?: string): EditResult {
  if (node.origin === 'record') {
    const doc = parseRecords(text);
    const index = doc === null ? -1 : recordIndex(doc, node.id);
    if (doc === null || index < 0) return refuse('malformed_record', `${node.source_path} no longer holds a readable [[node]] record ${node.id}`);
    const entry = (doc['node'] as Table[])[index]!;
    const outcome = edit(entry);
    if (!Array.isArray(outcome)) return outcome;
    if (newBody !== undefined) entry['body'] = newBody;
    return ok(withEol(tomlText(doc), eolOf(text)), outcome);
  }
  const parts = splitMarkdown(text);
  if (parts.front === null) return refuse('malformed_front_matter', `${node.source_path} has no TOML front matter`);
  let table: Table;
  try {
    table = parseToml(parts.front) as Table;
  } catch {
    return refuse('malformed_front_matter', `${node.source_path} has unreadable TOML front matter`);
  }
  const outcome = edit(table);
  if (!Array.isArray(outcome)) return outcome;
  return ok(joinMarkdown({ ...parts, front: tomlText(table), body: newBody ?? parts.body }), outcome);
}

/**
 * `node_update`: sets metadata fields and/or replaces the body. A plain Markdown document holds
 * only a title (its first heading) and a body: any other field is refused
 * (`metadata_not_representable`).
 */
export function updateNodeText(node: GraphNode, text: string, set: NodeSet | undefined, body: string | undefined): EditResult {
  if (node.origin === 'markdown') {
    const extra = Object.keys(set ?? {}).filter((k) => k !== 'title');
    if (extra.length > 0) {
      return refuse('metadata_not_representable', `${node.source_path} is plain Markdown without front matter: it cannot hold ${extra.join(', ')} (only a title, its first heading, and a body)`);
    }
    const parts = splitMarkdown(text);
    let newBody = body ?? parts.body;
    if (set?.title !== undefined) newBody = retitle(newBody, node, set.title);
    return ok(joinMarkdown({ ...parts, body: newBody }));
  }
  return editFields(node, text, (table) => {
    for (const [key, value] of Object.entries(set ?? {})) table[key] = Array.isArray(value) ? [...value] : value;
    return [];
  }, body);
}

/** Replaces the first heading's text of a plain Markdown body, or prepends `# title`. */
function retitle(body: string, node: GraphNode, title: string): string {
  const lines = body.split('\n');
  const first = node.anchors[0];
  if (first !== undefined && first.title === node.title) {
    const index = first.line - 1;
    const line = lines[index] ?? '';
    const atx = /^(\s{0,3}#{1,6}\s+)/.exec(line);
    if (atx) {
      lines[index] = `${atx[1]}${title}`;
      return lines.join('\n');
    }
    // A setext heading: its text is the line itself.
    lines[index] = title;
    return lines.join('\n');
  }
  return `# ${title}\n\n${body}`;
}

/**
 * `relationship_update`: adds and removes relation targets in the node's `[relations]` table;
 * the body is not touched. A plain Markdown document cannot hold relations.
 */
export function updateRelationsText(node: GraphNode, text: string, add: readonly RelationRef[], remove: readonly RelationRef[]): EditResult {
  if (node.origin === 'markdown') {
    return refuse('metadata_not_representable', `${node.source_path} is plain Markdown without front matter: it cannot hold declared relations`);
  }
  return editFields(node, text, (table) => {
    const warnings: { code: string; message: string }[] = [];
    const relations: Record<string, string[]> = {};
    const current = table['relations'];
    if (typeof current === 'object' && current !== null && !Array.isArray(current)) {
      for (const [k, v] of Object.entries(current as Table)) relations[k] = typeof v === 'string' ? [v] : Array.isArray(v) ? v.map(String) : [];
    }
    for (const ref of remove) {
      const list = relations[ref.relation] ?? [];
      if (!list.includes(ref.target_id)) warnings.push({ code: 'relation_not_present', message: `${node.id} has no ${ref.relation} relation to ${ref.target_id} to remove` });
      relations[ref.relation] = list.filter((t) => t !== ref.target_id);
      if (relations[ref.relation]!.length === 0) delete relations[ref.relation];
    }
    for (const ref of add) {
      const list = relations[ref.relation] ?? [];
      if (list.includes(ref.target_id)) warnings.push({ code: 'relation_already_present', message: `${node.id} already has a ${ref.relation} relation to ${ref.target_id}` });
      else list.push(ref.target_id);
      relations[ref.relation] = list;
    }
    delete table['relations'];
    if (Object.keys(relations).length > 0) table['relations'] = relations;
    return warnings;
  });
}

/**
 * `node_delete` and the source half of `node_move`: removes the node from its file. A Markdown
 * file holds one node, so the file goes (null); a record leaves the file's other records.
 */
export function removeNodeText(node: GraphNode, text: string): EditResult {
  if (node.origin !== 'record') return ok(null);
  const doc = parseRecords(text);
  const index = doc === null ? -1 : recordIndex(doc, node.id);
  if (doc === null || index < 0) return refuse('malformed_record', `${node.source_path} no longer holds a readable [[node]] record ${node.id}`);
  (doc['node'] as Table[]).splice(index, 1);
  return ok(withEol(tomlText(doc), eolOf(text)));
}

/**
 * The target half of `node_move`: the node's text at `newPath`. A Markdown node moves with its
 * whole file; a record moves into a `.toml` records file (appended, created when absent).
 * @param sourceText the node's current file text
 * @param targetText the current text at `newPath`, or null when absent
 */
export function movedNodeText(node: GraphNode, sourceText: string, newPath: string, targetText: string | null): EditResult {
  const lower = newPath.toLowerCase();
  if (node.origin !== 'record') {
    if (!(lower.endsWith('.md') || lower.endsWith('.markdown'))) return refuse('unsupported_path', `a Markdown node moves to a .md or .markdown path, not ${newPath}`);
    if (targetText !== null) return refuse('path_exists', `${newPath} already exists`);
    return ok(sourceText);
  }
  if (!lower.endsWith('.toml')) return refuse('unsupported_path', `a [[node]] record moves to a .toml records file, not ${newPath}`);
  const doc = parseRecords(sourceText);
  const index = doc === null ? -1 : recordIndex(doc, node.id);
  if (doc === null || index < 0) return refuse('malformed_record', `${node.source_path} no longer holds a readable [[node]] record ${node.id}`);
  const entry = (doc['node'] as Table[])[index]!;
  if (targetText === null) return ok(tomlText({ node: [entry] }));
  const target = parseRecords(targetText);
  if (target === null) return refuse('malformed_record', `${newPath} is not a readable TOML records file`);
  (target['node'] as Table[]).push(entry);
  return ok(withEol(tomlText(target), eolOf(targetText)));
}
