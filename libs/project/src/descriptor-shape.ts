/**
 * The shape of `docforge.toml` (closed tables, types, enums, ranges, required keys, which keys
 * each view renderer takes) is checked by the generated validator of
 * protocol/schemas/v1/descriptor.schema.json, the one source of truth for it. This module runs that
 * validator and turns its first failure into the `descriptor_invalid` message users have always
 * seen (`docforge.toml:LINE: [table].key must ...`): ajv reports every failure, and the one named
 * is the one the checks would meet first in the order of DESIGN.md section 3 (top-level keys,
 * schema_version, [project], [state], [sources], [adapter], [vocabulary], [limits], [[views]] in
 * order, [proposals]).
 */
import { validateDescriptorDocument, type DescriptorDocument } from '@docforge/protocol/descriptor';
import type { SchemaValidationError } from '@docforge/protocol/validator';
import { ALLOWED, isTable, type Checker, type Table } from './descriptor-check.js';
import { VIEW_SELECTOR_KEYS } from './descriptor-types.js';
import { shapeMessage } from './descriptor-shape-messages.js';

/** One schema failure as a user-facing problem: the dotted key, the message and where it sorts. */
export interface ShapeProblem {
  key: string;
  /**
   * The message, or how to make it when this problem is the one reported: a view output's message
   * runs the path checks, which throw their own error for a path they refuse, so it is made only
   * then (made eagerly, it would pre-empt every problem ranking before it).
   */
  message: string | (() => string);
  /** The line to name; the key's own line when undefined, none when null. */
  line?: number | null;
  /** Position in the checking order (compared element by element). */
  rank: number[];
}

/** Top-level tables in checking order; [vocabulary] and [limits] values come after every table's keys. */
const TOP_RANK: Readonly<Record<string, number>> = { schema_version: 1, project: 2, state: 3, sources: 4, adapter: 5, vocabulary: 6, limits: 7, views: 10, proposals: 11 };
/** The checking order of a view's keys (0: its unknown keys, 4: keys of another renderer, 7: a matrix's missing keys). */
const VIEW_STEP: Readonly<Record<string, number>> = { id: 1, title: 2, renderer: 3, select: 5, output: 6, rows: 8, columns: 9, relations: 10, mode: 10.5, focus: 11, depth: 12 };
/** Renderer-specific keys: which renderer may declare them. */
const RENDERER_KEYS: Readonly<Record<string, string>> = { rows: 'matrix', columns: 'matrix', relations: 'matrix', mode: 'matrix', focus: 'graph', depth: 'graph' };

/** The value at `segments` below `doc`, or undefined. */
function valueAt(doc: unknown, segments: readonly string[]): unknown {
  let value = doc;
  for (const segment of segments) {
    if (Array.isArray(value)) value = value[Number(segment)];
    else if (isTable(value)) value = Object.prototype.hasOwnProperty.call(value, segment) ? value[segment] : undefined;
    else return undefined;
  }
  return value;
}

/** The JSON Pointer `/a/b~1c` as segments `['a', 'b/c']`. */
function pointerSegments(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * Where a problem at `key` sorts in the checking order.
 * @param tableLevel the problem is about the table at `key` itself (its type or an unknown key in it)
 */
export function rankOf(doc: Table, key: readonly string[], tableLevel: boolean): number[] {
  const [head, ...rest] = key;
  if (head === undefined || !(head in TOP_RANK)) return [0];
  const top = TOP_RANK[head]!;
  if (head === 'schema_version') return [top];
  if (head === 'vocabulary' || head === 'limits') {
    return rest.length === 0 || tableLevel ? [top] : [top + 2, (ALLOWED[head] ?? []).indexOf(rest[0]!)];
  }
  if (head === 'views') {
    if (rest.length === 0) return [top, -1];
    return [top, Number(rest[0]), tableLevel || rest.length === 1 ? 0 : VIEW_STEP[rest[1]!] ?? 13];
  }
  if (head === 'proposals') {
    if (rest.length === 0 || (rest.length === 1 && tableLevel)) return [top, 0];
    const group = rest[0] === 'writers' ? 1 : 3;
    if (rest.length === 1) return [top, group];
    const entries = valueAt(doc, ['proposals', rest[0]!]);
    const index = isTable(entries) ? Object.keys(entries).indexOf(rest[1]!) : 0;
    const within = rest.length === 2 || tableLevel ? 0 : 1 + (ALLOWED[group === 1 ? 'proposal_writer' : 'proposal_applier'] ?? []).indexOf(rest[2]!);
    return [top, group + 1, index, within];
  }
  return rest.length === 0 || tableLevel ? [top, 0] : [top, 1 + (ALLOWED[head] ?? []).indexOf(rest[0]!)];
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const d = (a[i] ?? -1) - (b[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

/** An unknown key (`additionalProperties`) in the table at `table`. */
function unknownKey(doc: Table, table: string[], key: string): ShapeProblem {
  const full = [...table, key].join('.');
  const rank = rankOf(doc, table, true);
  if (table.length === 0) return { key: full, rank, message: `is not a known top-level table or key (expected one of: ${(ALLOWED[''] ?? []).join(', ')})` };
  if (table[0] === 'views' && table.length === 3) return { key: full, rank: rankOf(doc, table, false), message: `is not a known selector key (expected one of: ${VIEW_SELECTOR_KEYS.join(', ')})` };
  const list = table[0] === 'views' ? 'views' : table[0] === 'proposals' && table.length === 3 ? (table[1] === 'writers' ? 'proposal_writer' : 'proposal_applier')
    : table[0] === 'adapter' && table.length === 2 ? 'adapter_c' : table[0]!;
  return { key: full, rank, message: `is not a known key (expected one of: ${(ALLOWED[list] ?? []).join(', ')})` };
}

/** A missing required key (`required`) of the table at `table`; `byRenderer` when a renderer requires it. */
function missingKey(doc: Table, check: Checker, table: string[], key: string, byRenderer: boolean): ShapeProblem {
  const full = [...table, key].join('.');
  if (table.length === 0) {
    return key === 'schema_version'
      ? { key: full, line: null, rank: [1], message: 'is required and must be 1' }
      : { key: full, line: null, rank: rankOf(doc, [key], true), message: 'is required (with id and name)' };
  }
  if (byRenderer) {
    const scope = table.join('.');
    const step = key === 'focus' ? VIEW_STEP['focus']! : 7;
    const message = key === 'focus' ? 'is required for the graph renderer and must be a node id' : 'is required for the matrix renderer';
    return { key: full, line: check.lineOf(`${scope}.id`), rank: [TOP_RANK['views']!, Number(table[1]), step, ['rows', 'columns', 'relations'].indexOf(key)], message };
  }
  if (table[0] === 'proposals') return { key: full, rank: rankOf(doc, [...table, key], false), message: 'must list the writer ids whose changesets this applier may apply' };
  return { key: full, rank: rankOf(doc, [...table, key], false), message: shapeMessage([...table, key], 'required', undefined, check) };
}

/** A view declaring a key of another renderer (the schema's `not` under `allOf`). */
function foreignRendererKey(doc: Table, table: string[]): ShapeProblem | null {
  const view = valueAt(doc, table);
  if (!isTable(view)) return null;
  const renderer = view['renderer'];
  for (const [key, owner] of Object.entries(RENDERER_KEYS)) {
    if (view[key] !== undefined && owner !== renderer) {
      return { key: [...table, key].join('.'), rank: [TOP_RANK['views']!, Number(table[1]), 4], message: `is a key of the ${owner} renderer, not of ${String(renderer)}` };
    }
  }
  return null;
}

/** The user-facing problem of one ajv error, or null for errors that only accompany another (`if`). */
function problemOf(doc: Table, check: Checker, root: string, error: SchemaValidationError): ShapeProblem | null {
  const at = pointerSegments(error.instancePath);
  switch (error.keyword) {
    case 'if':
      return null;
    case 'additionalProperties':
      return unknownKey(doc, at, String(error.params['additionalProperty']));
    case 'required':
      return missingKey(doc, check, at, String(error.params['missingProperty']), error.schemaPath.includes('/allOf/'));
    case 'not':
      if (error.schemaPath.includes('/allOf/')) return foreignRendererKey(doc, at);
      break;
    default:
      break;
  }
  // A failing list item is reported on its list (`[sources].exclude must be an array of strings`).
  const field = at.length > 0 && /^\d+$/.test(at[at.length - 1]!) ? at.slice(0, -1) : at;
  const value = valueAt(doc, field);
  return { key: field.join('.'), rank: rankOf(doc, field, field.length <= 1), message: () => shapeMessage(field, error.keyword, value, check, root, error.message) };
}

/** A copy of `value` with every TOML date replaced by null: no schema position takes a date, and ajv would take one for a table. */
function withoutDates(value: unknown): unknown {
  if (value instanceof Date) return null;
  if (Array.isArray(value)) return value.map(withoutDates);
  // Object.fromEntries defines own properties, so a key such as `__proto__` stays an ordinary key.
  if (isTable(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutDates(v)]));
  return value;
}

/**
 * The first shape problem, held back until the semantic checks that the checking order puts
 * before it have run: the hand validator this check replaced met its problems in one pass in that
 * order, so a path escaping the root in `[state].dir` is still reported before an unknown key in
 * `[limits]`. The loader calls {@link ShapeGate.before} ahead of each semantic check, which may
 * then read every value ranking before it as typed, and {@link ShapeGate.pass} after the last.
 */
export class ShapeGate {
  constructor(private readonly check: Checker, private readonly doc: Table, private readonly first: ShapeProblem | null) {}

  /**
   * Throws the held problem when it sorts before step `step` of the checks at `key` (its
   * {@link rankOf} position): a positive step comes after the key's own shape problems, -2 before
   * them (a writer id is checked before its table).
   * @throws DocforgeError `descriptor_invalid`
   */
  before(key: readonly string[], step: number): void {
    if (this.first === null) return;
    if (compareRanks(this.first.rank, [...rankOf(this.doc, key, false), step]) <= 0) this.throwFirst();
  }

  /**
   * Throws the held problem, if any (every semantic check has run).
   * @throws DocforgeError `descriptor_invalid`
   */
  pass(): void {
    if (this.first !== null) this.throwFirst();
  }

  private throwFirst(): never {
    const first = this.first!;
    this.check.fail(first.key, typeof first.message === 'string' ? first.message : first.message(), first.line);
  }
}

/**
 * Checks the parsed descriptor against protocol/schemas/v1/descriptor.schema.json.
 * @returns the document, typed only where the gate lets a check through, and the gate holding
 *   the first failure in checking order (none when the shape is valid)
 */
export function checkDescriptorShape(check: Checker, doc: Table, root: string): { doc: DescriptorDocument; gate: ShapeGate } {
  const typed = doc as unknown as DescriptorDocument;
  if (validateDescriptorDocument(withoutDates(doc))) return { doc: typed, gate: new ShapeGate(check, doc, null) };
  const problems = (validateDescriptorDocument.errors ?? [])
    .map((error) => problemOf(doc, check, root, error))
    .filter((problem): problem is ShapeProblem => problem !== null);
  // Array.prototype.sort is stable: equal ranks keep ajv's (document) order.
  problems.sort((a, b) => compareRanks(a.rank, b.rank));
  // A failure no problem describes sorts first (rank []).
  const first = problems[0] ?? { key: '', message: 'does not match the descriptor schema', rank: [] };
  return { doc: typed, gate: new ShapeGate(check, doc, first) };
}
