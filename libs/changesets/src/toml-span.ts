/**
 * Span edits of one TOML table (issue 30, item 21: "bytes the operation did not touch are
 * rewritten on apply"). toml-patch re-serialises what it diffs: removing the last relation of a
 * `[[node]]` record deleted the comment and blank lines after the record. Here the change is
 * computed as a diff of the table's values, and each changed key is located in the source by the
 * concrete syntax tree of `@decimalturn/toml-patch` (`TomlDocument.cst`, with line/column
 * positions): only the touched value (or the touched key's own lines, or a sub-table's header
 * and key lines when it empties) is replaced. Every other byte, comment, blank line and line
 * ending stays as it was. The caller checks that the result reads back as the intended table.
 *
 * Returns null for a shape it does not edit by span (a changed date, a key defined in a form it
 * does not locate); the caller then falls back to toml-patch.
 *
 * Pure: no file system access.
 */
import { parse, TomlDocument } from '@decimalturn/toml-patch';
import { sameToml } from './toml-check.js';

type Table = Record<string, unknown>;

interface Pos { line: number; column: number }
interface Loc { start: Pos; end: Pos }
interface CstNode { type: string; loc: Loc; raw?: string; items?: CstNode[]; key?: { value?: string[]; item?: { value: string[] } }; value?: CstNode; item?: CstNode }

/** One `[header]` section (or the root/record main section: `block` of the record header). */
interface Section {
  /** Key path of the section relative to the scope (`[]`: the main section). */
  path: string[];
  /** Offset just after the header line's line break (main root section: 0). */
  bodyStart: number;
  /** Offset of the header line's start (main root section: 0). */
  headerStart: number;
  /** Key/value items of the section, in order. */
  items: CstNode[];
}

/** One key/value of the scope with its full relative key path. */
interface Entry { path: string[]; kv: CstNode; section: Section }

/** A replacement of `[from, to)` by `text`. */
interface Splice { from: number; to: number; text: string }

/** Which table of the text is edited: the document root, or the `index`-th `[[node]]` record. */
export type TomlScope = { kind: 'root' } | { kind: 'record'; index: number };

/** Line start offsets of a text (split on LF; a CR stays at the end of its line). */
function lineStarts(src: string): number[] {
  const starts = [0];
  for (let i = src.indexOf('\n'); i >= 0; i = src.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

class Source {
  readonly starts: number[];
  constructor(readonly src: string) {
    this.starts = lineStarts(src);
  }
  offset(p: Pos): number {
    return this.starts[p.line - 1]! + p.column;
  }
  /** Offset after the line break of the line holding offset `at` (or the end of the text). */
  lineEnd(at: number): number {
    const nl = this.src.indexOf('\n', at);
    return nl < 0 ? this.src.length : nl + 1;
  }
  lineStart(at: number): number {
    return this.src.lastIndexOf('\n', at - 1) + 1;
  }
}

function keyOf(node: CstNode): string[] {
  return node.key?.item?.value ?? node.key?.value ?? [];
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.every((p, i) => path[i] === p);
}

/** The sections of the scope, or null when the record does not exist. */
function sectionsOf(cst: CstNode[], s: Source, scope: TomlScope): Section[] | null {
  const sections: Section[] = [];
  if (scope.kind === 'root') {
    const main: Section = { path: [], bodyStart: 0, headerStart: 0, items: [] };
    sections.push(main);
    for (const block of cst) {
      if (block.type === 'KeyValue') main.items.push(block);
      else if (block.type === 'Table' || block.type === 'TableArray') sections.push(sectionOf(block, s, keyOf(block)));
    }
    return sections;
  }
  let seen = -1;
  for (const block of cst) {
    const key = keyOf(block);
    if (block.type === 'TableArray' && key.length === 1 && key[0] === 'node') {
      seen += 1;
      if (seen === scope.index) sections.push(sectionOf(block, s, []));
      else if (seen > scope.index) break;
    } else if (seen === scope.index && (block.type === 'Table' || block.type === 'TableArray') && key.length > 1 && key[0] === 'node') {
      sections.push(sectionOf(block, s, key.slice(1)));
    } else if (seen === scope.index && (block.type === 'Table' || block.type === 'TableArray')) break;
  }
  return sections.length > 0 ? sections : null;
}

function sectionOf(block: CstNode, s: Source, path: string[]): Section {
  const headerStart = s.offset(block.loc.start);
  return { path, headerStart, bodyStart: s.lineEnd(headerStart), items: (block.items ?? []).filter((i) => i.type === 'KeyValue') };
}

/** The end of a section: after the line of its last key/value (or its header line). */
function sectionEnd(section: Section, s: Source): number {
  const last = section.items[section.items.length - 1];
  return last === undefined ? section.bodyStart : s.lineEnd(s.offset(last.loc.end));
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };

function hex(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

function basicString(v: string): string {
  return `"${v.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => ESCAPES[c] ?? hex(c))}"`;
}

/** A multi-line basic string whose line breaks are `eol`; quote runs and control characters escaped. */
function multilineString(v: string, eol: string): string {
  let body = v.replace(/\r\n/g, '\n').replace(/[\\\u0000-\u0008\u000b-\u001f\u007f]/g, (c) => (c === '\\' ? '\\\\' : c === '\r' ? '\\r' : hex(c)));
  body = body.replace(/"(?="")/g, '\\"').replace(/"$/, '\\"');
  return `"""${eol}${body.replace(/\n/g, eol)}"""`;
}

/** TOML text of a value in the style of the value it replaces (quotes, inline array spacing). */
function render(value: unknown, old: CstNode | undefined, eol: string): string | null {
  if (typeof value === 'string') {
    const raw = old?.type === 'String' ? (old.raw ?? '') : '';
    if (raw.startsWith('"""') || raw.startsWith("'''") || (raw === '' && value.includes('\n'))) return multilineString(value, eol);
    if (raw.startsWith("'") && !/['\u0000-\u0008\u000a-\u001f\u007f]/.test(value)) return `'${value}'`;
    return basicString(value);
  }
  if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return String(value);
  if (Array.isArray(value)) return renderArray(value, old, eol);
  if (typeof value === 'object' && value !== null && !(value instanceof Date)) {
    const parts: string[] = [];
    for (const [k, v] of Object.entries(value)) {
      const text = render(v, undefined, eol);
      if (text === null) return null;
      parts.push(`${bareKey(k)} = ${text}`);
    }
    return parts.length === 0 ? '{}' : `{ ${parts.join(', ')} }`;
  }
  return null;
}

function renderArray(value: readonly unknown[], old: CstNode | undefined, eol: string): string | null {
  const oldItems = old?.type === 'InlineArray' ? (old.items ?? []).map((i) => i.item) : [];
  const firstString = oldItems.find((i) => i?.type === 'String');
  const parts: string[] = [];
  for (const v of value) {
    const text = render(v, firstString, eol);
    if (text === null || text.includes('\n')) return null;
    parts.push(text);
  }
  const padded = old?.type === 'InlineArray' && oldItems.length > 0 && /^\[\s/.test(old.raw ?? '') ;
  return parts.length === 0 ? '[]' : padded ? `[ ${parts.join(', ')} ]` : `[${parts.join(', ')}]`;
}

function bareKey(k: string): string {
  return /^[A-Za-z0-9_-]+$/.test(k) ? k : basicString(k);
}

function plainObject(v: unknown): v is Table {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

/** The state of one span edit. */
interface Run {
  s: Source;
  sections: Section[];
  entries: Entry[];
  splices: Splice[];
  eol: string;
  /** The scope is a `[[node]]` record (its sub-tables are headed `[node.…]`). */
  record: boolean;
}

/**
 * The text of `src` with the table of `scope` changed from `before` to `after` by span edits,
 * or null when a change cannot be located (the caller falls back and checks the result).
 * @param src a TOML text (front matter content or a records file, without BOM)
 */
export function spliceToml(src: string, scope: TomlScope, before: Table, after: Table): string | null {
  let cst: CstNode[];
  try {
    cst = new TomlDocument(src).cst as unknown as CstNode[];
  } catch {
    return null;
  }
  const s = new Source(src);
  const sections = sectionsOf(cst, s, scope);
  if (sections === null) return null;
  const entries: Entry[] = [];
  for (const section of sections) for (const kv of section.items) entries.push({ path: [...section.path, ...keyOf(kv)], kv, section });
  const nl = src.indexOf('\n');
  const run: Run = { s, sections, entries, splices: [], eol: nl > 0 && src[nl - 1] === '\r' ? '\r\n' : '\n', record: scope.kind === 'record' };
  if (!diff(run, [], before, after)) return null;
  let out = src;
  for (const splice of [...run.splices].sort((a, b) => b.from - a.from)) out = out.slice(0, splice.from) + splice.text + out.slice(splice.to);
  return out;
}

/** Records the splices turning `old` into `next` at key path `prefix`; false when one cannot be located. */
function diff(run: Run, prefix: string[], old: Table, next: Table): boolean {
  for (const key of new Set([...Object.keys(old), ...Object.keys(next)])) {
    const p = [...prefix, key];
    const had = Object.hasOwn(old, key);
    const has = Object.hasOwn(next, key);
    if (had && has && sameToml(old[key], next[key])) continue;
    const entry = run.entries.find((e) => e.path.length === p.length && startsWith(e.path, p));
    if (entry !== undefined) {
      if (!has) removeLines(run, entry.kv);
      else {
        const text = render(next[key], entry.kv.value, run.eol);
        if (text === null) return false;
        run.splices.push({ from: run.s.offset(entry.kv.value!.loc.start), to: run.s.offset(entry.kv.value!.loc.end), text });
      }
      continue;
    }
    if (had && plainObject(old[key])) {
      if (!has) {
        if (!removeObject(run, p)) return false;
      } else if (!plainObject(next[key]) || !diff(run, p, old[key] as Table, next[key] as Table)) return false;
      continue;
    }
    if (had || !insert(run, prefix, key, next[key])) return false;
  }
  return true;
}

/** Removes the lines of one key/value (its trailing comment and line break included). */
function removeLines(run: Run, kv: CstNode): void {
  const from = run.s.lineStart(run.s.offset(kv.loc.start));
  run.splices.push({ from, to: run.s.lineEnd(run.s.offset(kv.loc.end)), text: '' });
}

/**
 * Removes every key under `p`: its key/value lines, and each section headed by it with its header
 * line and the blank lines right before the header (its comments stay: they may belong to what follows).
 */
function removeObject(run: Run, p: string[]): boolean {
  const headed = run.sections.filter((sec) => sec.path.length >= p.length && startsWith(sec.path, p));
  for (const entry of run.entries) {
    if (!startsWith(entry.path, p)) continue;
    if (headed.includes(entry.section)) continue;
    removeLines(run, entry.kv);
  }
  for (const sec of headed) {
    if (sec.path.length === 0) return false;
    let from = sec.headerStart;
    while (from > 0) {
      const prev = run.s.lineStart(from - 1);
      if (run.s.src.slice(prev, from).trim() !== '') break;
      from = prev;
    }
    run.splices.push({ from, to: sectionEnd(sec, run.s), text: '' });
  }
  return true;
}

/**
 * Inserts a new key: `key = value` after the last key/value of the section of `prefix` (a header
 * `[prefix]`, or dotted keys under it in another section), or a new object as its own
 * `[prefix.key]` section at the end of the scope.
 */
function insert(run: Run, prefix: string[], key: string, value: unknown): boolean {
  const exact = run.sections.find((sec) => sec.path.length === prefix.length && startsWith(sec.path, prefix));
  if (plainObject(value) && Object.values(value).every((v) => !plainObject(v))) {
    if (Object.keys(value).length === 0) return true;
    const last = run.sections[run.sections.length - 1]!;
    const at = sectionEnd(last, run.s);
    const header = [...(run.record ? ['node'] : []), ...prefix, key].map(bareKey).join('.');
    const lines: string[] = [];
    for (const [k, v] of Object.entries(value)) {
      const text = render(v, undefined, run.eol);
      if (text === null) return false;
      lines.push(`${bareKey(k)} = ${text}`);
    }
    const lead = at > 0 && !run.s.src.slice(0, at).endsWith('\n') ? run.eol : '';
    run.splices.push({ from: at, to: at, text: `${lead}${run.eol}[${header}]${run.eol}${lines.join(run.eol)}${run.eol}` });
    return true;
  }
  const text = render(value, undefined, run.eol);
  if (text === null) return false;
  let section = exact;
  let dotted: string[] = [key];
  if (section === undefined) {
    const holder = run.entries.filter((e) => e.path.length > prefix.length && startsWith(e.path, prefix));
    const lastHolder = holder[holder.length - 1];
    if (lastHolder === undefined) return false;
    section = lastHolder.section;
    dotted = [...prefix.slice(section.path.length), key];
  }
  const lastItem = section.items[section.items.length - 1];
  const at = lastItem === undefined ? section.bodyStart : run.s.lineEnd(run.s.offset(lastItem.loc.end));
  const lead = at > 0 && !run.s.src.slice(0, at).endsWith('\n') ? run.eol : '';
  run.splices.push({ from: at, to: at, text: `${lead}${dotted.map(bareKey).join('.')} = ${text}${run.eol}` });
  return true;
}

/** The span edit of a TOML table (toml-span.ts), kept only when it reads back as `after` (line breaks inside strings compared as LF). */
export function spliced(src: string, scope: TomlScope, before: Table, after: Table): string | null {
  const text = spliceToml(src, scope, before, after);
  if (text === null) return null;
  try {
    const parsed = parse(text) as Table;
    if (scope.kind === 'root') return sameToml(lfStrings(parsed), lfStrings(after)) ? text : null;
    const records = parsed['node'];
    return Array.isArray(records) && sameToml(lfStrings(records[scope.index]), lfStrings(after)) ? text : null;
  } catch (error) {
    if (error instanceof Error) return null;
    throw error;
  }
}

/** `value` with CRLF turned into LF in every string (a CRLF file's multi-line strings hold CRLF). */
export function lfStrings(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\r\n/g, '\n');
  if (Array.isArray(value)) return value.map(lfStrings);
  if (typeof value === 'object' && value !== null && !(value instanceof Date)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, lfStrings(v)]));
  return value;
}
