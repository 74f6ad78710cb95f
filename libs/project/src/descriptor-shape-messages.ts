/**
 * The message of a schema failure at one descriptor key: the words `docforge.toml` errors have
 * always used (tests and docs pin them), chosen by the key's position in the schema and, where the
 * message names the offending value (`got "Bad Id"`, `unknown renderer "shell"`), by the value.
 */
import { BUILTIN_CODE_ADAPTERS, ID_PATTERN, PROPOSAL_OPERATIONS } from './descriptor-types.js';
import type { Checker } from './descriptor-check.js';
import { relativePath } from './descriptor-paths.js';

/** The inclusive integer ranges of descriptor values (the schema's minimum and maximum). */
export const INTEGER_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  'limits.max_results': [1, 10000],
  'limits.max_output_chars': [2000, 10_000_000],
  'views.*.depth': [1, 4],
};

const TABLE = 'must be a table';
const STRINGS = 'must be an array of strings';
const NON_EMPTY = 'must be a non-empty string';
const ID_RULE = `must be a string matching ${ID_PATTERN.source}`;
const RENDERERS = ['page', 'catalog', 'matrix', 'graph'];

/** Fixed messages by key pattern (`*` for a view index, a writer or applier id, a selector field). */
const FIXED: Readonly<Record<string, string>> = {
  schema_version: 'must be 1',
  project: TABLE, sources: TABLE, adapter: TABLE, vocabulary: TABLE, limits: TABLE, state: TABLE, proposals: TABLE,
  'project.name': NON_EMPTY,
  'state.dir': NON_EMPTY,
  'adapter.module': NON_EMPTY,
  'adapter.c': TABLE,
  'adapter.c.include_dirs': STRINGS,
  'adapter.c.headers': 'must be "c" or "cpp" (the grammar of .h files)',
  'sources.exclude': STRINGS,
  'vocabulary.kinds': STRINGS, 'vocabulary.authorities': STRINGS, 'vocabulary.statuses': STRINGS, 'vocabulary.relations': STRINGS,
  'adapter.strategy': 'must be "ast" or "lexical"',
  'adapter.canonical_applier': 'must be "generic" (the built-in canonical applier); a project-owned applier comes from [adapter] module',
  views: 'must be an array of tables ([[views]])',
  'views.*.id': ID_RULE,
  'views.*.title': 'must be a string',
  'views.*.select': TABLE, 'views.*.rows': TABLE, 'views.*.columns': TABLE,
  'views.*.select.*': STRINGS, 'views.*.rows.*': STRINGS, 'views.*.columns.*': STRINGS,
  'views.*.mode': 'must be "coverage" (the matrix renderer\'s coverage mode) or omitted',
  'views.*.focus': 'is required for the graph renderer and must be a node id',
  'proposals.writers': 'must be a table of [proposals.writers.ID] tables',
  'proposals.appliers': 'must be a table of [proposals.appliers.ID] tables',
  'proposals.writers.*': 'must be a table with operations and paths',
  'proposals.appliers.*': 'must be a table with writers',
  'proposals.writers.*.paths': STRINGS,
  'proposals.appliers.*.writers': STRINGS,
};

/** `views.3.select.kinds` -> `views.*.select.*`; `proposals.writers.bot.paths` -> `proposals.writers.*.paths`. */
export function keyPattern(field: readonly string[]): string {
  return field.map((segment, i) => {
    if (field[0] === 'views' && (i === 1 || i === 3)) return '*';
    if (field[0] === 'proposals' && i === 2) return '*';
    return segment;
  }).join('.');
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function adapterCodeMessage(value: unknown): string {
  const items = typeof value === 'string' ? [value] : value;
  const unknown = isStringList(items) ? items.find((id) => id !== 'none' && id !== 'auto' && !BUILTIN_CODE_ADAPTERS.includes(id)) : undefined;
  if (unknown !== undefined) return `names an unknown code adapter "${unknown}" (expected one of ${BUILTIN_CODE_ADAPTERS.map((id) => `"${id}"`).join(', ')}, "none" or "auto")`;
  return `must be a string or an array of strings (${[...BUILTIN_CODE_ADAPTERS, 'none', 'auto'].map((id) => `"${id}"`).join(', ')})`;
}

function operationsMessage(value: unknown): string {
  const unknown = isStringList(value) ? value.find((op) => !PROPOSAL_OPERATIONS.includes(op)) : undefined;
  return unknown === undefined ? STRINGS : `names an unknown operation "${unknown}" (expected: ${PROPOSAL_OPERATIONS.join(', ')})`;
}

/**
 * A view output that fails the schema's `\.html$`: the path checks come first (a relative path
 * inside the root, as for every path value), then the extension, named in its normalized form.
 */
function outputMessage(field: readonly string[], keyword: string, value: unknown, check: Checker, root: string | undefined): string {
  if (keyword !== 'pattern' || root === undefined) return NON_EMPTY;
  const normalized = relativePath(check, root, value, field.join('.'), false, true);
  return `must name an .html file, got "${normalized}"`;
}

/**
 * `, got 0` / `, got 1.5` / `, got "x"` for a scalar value, else ''. A number is shown as written on
 * its line (`raw`) when there is one: an integral float (`5.0`) reaches here as NaN, and an integer
 * past 2^53 (`99999999999999999999`) rounded.
 */
function gotValue(value: unknown, raw: string | null): string {
  if (typeof value === 'number') return raw !== null ? `, got ${raw}` : Number.isNaN(value) ? '' : `, got ${value}`;
  if (typeof value === 'string') return `, got ${JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)}`;
  return typeof value === 'boolean' ? `, got ${value}` : '';
}

/**
 * The message for a schema failure (`keyword`) at `field` holding `value`.
 * @param root the real project root (a view output's path checks); `fallback` ajv's own message
 *   for a failure no pinned message covers
 */
export function shapeMessage(field: readonly string[], keyword: string, value: unknown, check: Checker, root?: string, fallback?: string): string {
  const pattern = keyPattern(field);
  // A float where an integer is meant (`1.0`, `1e3`, `2.5`: the loader gives integral floats as NaN) says so.
  const float = typeof value === 'number' && !Number.isInteger(value) ? ' (got a TOML float: write the integer without a decimal point or exponent)' : '';
  const range = INTEGER_RANGES[pattern];
  // Issue 30: a range error says what it got (`got 0`, `got 1.5`); an integral float (`1.0`, read as NaN) keeps the float note.
  if (range !== undefined) return `must be an integer from ${range[0]} to ${range[1]}${float}${gotValue(value, check.rawValue(field.join('.')))}`;
  if (pattern === 'schema_version') return `must be 1${float}${gotValue(value, check.rawValue('schema_version'))}`;
  switch (pattern) {
    case 'project.id':
      return `${ID_RULE}${typeof value === 'string' ? `, got "${value}"` : ''}`;
    case 'sources.content_roots':
    case 'sources.code_roots':
      return keyword === 'minLength' ? NON_EMPTY : STRINGS;
    case 'adapter.code':
      return adapterCodeMessage(value);
    case 'views.*.renderer':
      return `must be one of: ${RENDERERS.join(', ')}${typeof value === 'string' ? ` (unknown renderer "${value}")` : ''}`;
    case 'views.*.output':
      return outputMessage(field, keyword, value, check, root);
    case 'views.*.relations':
      return keyword === 'minItems' ? 'must name at least one relation' : STRINGS;
    case 'proposals.writers.*.operations':
      return operationsMessage(value);
    default:
      return FIXED[pattern] ?? `does not match the descriptor schema (${fallback ?? keyword})`;
  }
}
