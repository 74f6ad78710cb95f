/**
 * A line outline of a TOML text: which line declares which table header or key, with array-of-table
 * indices resolved (`views.0.renderer`). smol-toml gives values but no positions, so DocForge uses
 * this best-effort scanner to name the line of a bad key in descriptor and front matter messages.
 * It understands comments and single- and multi-line strings, so a `[x]` inside a `"""` body is
 * not mistaken for a header.
 */

/** One structural line of a TOML text. */
export interface OutlineEntry {
  /** 1-based line in the scanned text. */
  line: number;
  type: 'table' | 'array_table' | 'key';
  /** Resolved dotted path with array indices, e.g. `views.0.select` or `node.2.relations.implements`. */
  path: string;
}

/** The outline of a TOML text. */
export interface TomlOutline {
  entries: OutlineEntry[];
  /** Number of lines in the text. */
  lineCount: number;
  /** First line of each resolved path (headers and keys). */
  firstLine: Map<string, number>;
}

const BARE = String.raw`[A-Za-z0-9_-]+`;
const QUOTED = String.raw`"(?:[^"\\]|\\.)*"|'[^']*'`;
const PART = `(?:${BARE}|${QUOTED})`;
const DOTTED = `${PART}(?:\\s*\\.\\s*${PART})*`;
const ARRAY_HEADER = new RegExp(String.raw`^\s*\[\[\s*(${DOTTED})\s*\]\]`);
const TABLE_HEADER = new RegExp(String.raw`^\s*\[\s*(${DOTTED})\s*\]`);
const KEY_LINE = new RegExp(String.raw`^\s*(${DOTTED})\s*=`);
const PART_GLOBAL = new RegExp(PART, 'g');

function splitDotted(dotted: string): string[] {
  const parts: string[] = [];
  for (const match of dotted.matchAll(PART_GLOBAL)) {
    const raw = match[0];
    if (raw.startsWith('"')) {
      try {
        parts.push(JSON.parse(raw) as string);
      } catch {
        parts.push(raw.slice(1, -1));
      }
    } else if (raw.startsWith("'")) {
      parts.push(raw.slice(1, -1));
    } else {
      parts.push(raw);
    }
  }
  return parts;
}

/**
 * Marks, for each line of `text`, whether it starts outside every string (so it can hold a header
 * or a key). Comments and basic, literal and multi-line strings are tracked.
 */
function structuralLines(text: string): { lines: string[]; structural: boolean[] } {
  const lines = text.split(/\r?\n/);
  const structural: boolean[] = new Array<boolean>(lines.length).fill(true);
  let state: 'normal' | 'ml_basic' | 'ml_literal' = 'normal';
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    structural[index] = state === 'normal';
    let i = 0;
    while (i < line.length) {
      const ch = line[i];
      if (state === 'ml_basic') {
        if (ch === '\\') { i += 2; continue; }
        if (line.startsWith('"""', i)) {
          let end = i + 3;
          while (line[end] === '"' && end - i < 5) end += 1;
          state = 'normal';
          i = end;
          continue;
        }
        i += 1;
        continue;
      }
      if (state === 'ml_literal') {
        if (line.startsWith("'''", i)) {
          let end = i + 3;
          while (line[end] === "'" && end - i < 5) end += 1;
          state = 'normal';
          i = end;
          continue;
        }
        i += 1;
        continue;
      }
      if (ch === '#') break;
      if (line.startsWith('"""', i)) { state = 'ml_basic'; i += 3; continue; }
      if (line.startsWith("'''", i)) { state = 'ml_literal'; i += 3; continue; }
      if (ch === '"') {
        i += 1;
        while (i < line.length && line[i] !== '"') i += line[i] === '\\' ? 2 : 1;
        i += 1;
        continue;
      }
      if (ch === "'") {
        i += 1;
        while (i < line.length && line[i] !== "'") i += 1;
        i += 1;
        continue;
      }
      i += 1;
    }
  }
  return { lines, structural };
}

/**
 * Builds the outline of a TOML text. Never throws; lines it cannot classify are ignored.
 * Keys inside inline tables are not listed (lookups fall back to the enclosing key).
 */
export function outlineToml(text: string): TomlOutline {
  const { lines, structural } = structuralLines(text);
  const entries: OutlineEntry[] = [];
  const firstLine = new Map<string, number>();
  /** Raw array-table path -> current index. */
  const arrayIndex = new Map<string, number>();
  let current = '';

  const resolve = (parts: string[], newArray: boolean): string => {
    let raw = '';
    let resolved = '';
    parts.forEach((part, position) => {
      raw = raw === '' ? part : `${raw}.${part}`;
      resolved = resolved === '' ? part : `${resolved}.${part}`;
      const last = position === parts.length - 1;
      if (last && newArray) {
        const next = (arrayIndex.get(raw) ?? -1) + 1;
        arrayIndex.set(raw, next);
        // A new element resets the indices of arrays nested below it.
        for (const key of [...arrayIndex.keys()]) if (key.startsWith(`${raw}.`)) arrayIndex.delete(key);
        resolved = `${resolved}.${next}`;
      } else if (arrayIndex.has(raw)) {
        resolved = `${resolved}.${arrayIndex.get(raw) ?? 0}`;
      }
    });
    return resolved;
  };
  const add = (entry: OutlineEntry): void => {
    entries.push(entry);
    if (!firstLine.has(entry.path)) firstLine.set(entry.path, entry.line);
  };

  for (let index = 0; index < lines.length; index += 1) {
    if (!structural[index]) continue;
    const line = lines[index] ?? '';
    let match = ARRAY_HEADER.exec(line);
    if (match?.[1] !== undefined) {
      current = resolve(splitDotted(match[1]), true);
      add({ line: index + 1, type: 'array_table', path: current });
      continue;
    }
    match = TABLE_HEADER.exec(line);
    if (match?.[1] !== undefined) {
      current = resolve(splitDotted(match[1]), false);
      add({ line: index + 1, type: 'table', path: current });
      continue;
    }
    match = KEY_LINE.exec(line);
    if (match?.[1] !== undefined) {
      const key = splitDotted(match[1]).join('.');
      add({ line: index + 1, type: 'key', path: current === '' ? key : `${current}.${key}` });
    }
  }
  let lineCount = lines.length;
  if (lineCount > 1 && lines[lineCount - 1] === '') lineCount -= 1;
  return { entries, lineCount, firstLine };
}

/**
 * The line of a resolved dotted path, falling back to its closest declared ancestor.
 * @returns a 1-based line, or null when neither the path nor any ancestor is declared.
 */
export function lineOf(outline: TomlOutline, path: string): number | null {
  let probe = path;
  for (;;) {
    const line = outline.firstLine.get(probe);
    if (line !== undefined) return line;
    const dot = probe.lastIndexOf('.');
    if (dot < 0) return null;
    probe = probe.slice(0, dot);
  }
}

/**
 * The last line of the block opened by the array-table header at `path` (e.g. `node.3`): the line
 * before the next header outside that element, with trailing blank and comment lines trimmed.
 */
export function blockEnd(outline: TomlOutline, path: string, lines: readonly string[]): number {
  const start = outline.firstLine.get(path);
  if (start === undefined) return outline.lineCount;
  let end = outline.lineCount;
  for (const entry of outline.entries) {
    if (entry.line <= start || entry.type === 'key') continue;
    if (entry.path === path || entry.path.startsWith(`${path}.`)) continue;
    end = entry.line - 1;
    break;
  }
  while (end > start) {
    const text = (lines[end - 1] ?? '').trim();
    if (text === '' || text.startsWith('#')) end -= 1;
    else break;
  }
  return end;
}
