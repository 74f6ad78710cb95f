/**
 * Text a proposal may carry (bad-input fix). Every string of an operation ends up in a canonical
 * file that the loader reads back as UTF-8 (libs/core `decodeSourceText`). Two kinds of
 * character can never round-trip through that loader, so they are refused before anything is
 * projected or stored:
 *
 * - U+0000 (NUL): the loader refuses a file holding a NUL byte as `invalid_encoding` (not text),
 *   so the node would vanish from the index after application;
 * - a lone UTF-16 surrogate (U+D800..U+DFFF not in a high+low pair): it has no UTF-8 encoding
 *   (TOML refuses it; a body would be written as U+FFFD, not the reviewed text).
 *
 * Every other byte sequence a JavaScript string can produce as UTF-8 is valid UTF-8 without a
 * foreign byte order mark, so these two are exactly what the loader would reject.
 */
import { UNSAFE_ID_CHARACTER, UNSAFE_TITLE_CHARACTER } from '@docforge/core';
import type { Operation } from './types.js';

/** Where and why one string of an operation cannot be written as canonical text. */
export interface TextProblem {
  /** The field inside the operation, dotted with array indices: `body`, `set.title`, `add[0].target_id`. */
  field: string;
  /** The same place as a JSON pointer relative to the operation: `/body`, `/set/title`, `/add/0/target_id`. */
  pointer: string;
  /** The offending character as `U+XXXX`. */
  character: string;
  /** 0-based index (UTF-16 code units) of the character in the string. */
  offset: number;
  /** One sentence: what the character is and why the loader cannot read it back. */
  reason: string;
}

/** NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const UNWRITABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first unwritable character of `text`, or null. */
function unwritable(text: string): { character: string; offset: number; reason: string } | null {
  const match = UNWRITABLE.exec(text);
  if (match === null) return null;
  const code = match[0].charCodeAt(0);
  const character = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const reason = code === 0
    ? 'a NUL character: the canonical loader refuses a file holding a NUL byte as invalid_encoding, so the node would vanish from the index'
    : `a lone UTF-16 surrogate ${character}, which has no UTF-8 encoding: the canonical file could not hold the reviewed text`;
  return { character, offset: match.index, reason };
}

function walk(value: unknown, field: string, pointer: string): TextProblem | null {
  if (typeof value === 'string') {
    const found = unwritable(value);
    return found === null ? null : { field, pointer, ...found };
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const problem = walk(value[i], `${field}[${i}]`, `${pointer}/${i}`);
      if (problem !== null) return problem;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const childField = field === '' ? key : `${field}.${key}`;
      const childPointer = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      const inKey = unwritable(key);
      if (inKey !== null) return { field: childField, pointer: childPointer, ...inKey, reason: `its name holds ${inKey.reason}` };
      const problem = walk(child, childField, childPointer);
      if (problem !== null) return problem;
    }
  }
  return null;
}

/**
 * The first string (value or object key, in document order) of `operation` that the canonical
 * loader could not read back, then a node field it would refuse ({@link authoredFieldProblem}), or
 * null when every string is writable text.
 */
export function operationTextProblem(operation: Operation): TextProblem | null {
  return walk(operation, '', '') ?? authoredFieldProblem(operation);
}

/**
 * A `node_create` node or `node_update` set whose title, kind, family, authority, status or tag holds a control or bidi
 * character (core's title and id rules, as `authoredTextProblem` applies them; issue 30): the loader would refuse the node
 * (`malformed_front_matter`), so the proposal is refused first, as an id holding one is.
 */
function authoredFieldProblem(operation: Operation): TextProblem | null {
  const [fields, prefix] = operation.op === 'node_create' ? [operation.node, 'node'] : operation.op === 'node_update' && operation.set !== undefined ? [operation.set, 'set'] : [null, ''];
  if (fields === null) return null;
  const tags = Array.isArray(fields.tags) ? fields.tags : [];
  const entries: [string, string, unknown][] = [
    ...(['title', 'kind', 'family', 'authority', 'status'] as const).map((key): [string, string, unknown] => [key, key, fields[key]]),
    ...tags.map((tag, i): [string, string, unknown] => [`tags[${i}]`, `tags/${i}`, tag]),
  ];
  for (const [name, path, value] of entries) {
    if (typeof value !== 'string') continue;
    const match = (name === 'title' ? UNSAFE_TITLE_CHARACTER : UNSAFE_ID_CHARACTER).exec(value);
    if (match === null) continue;
    const character = `U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    const what = name === 'title' ? 'a title' : name.startsWith('tags') ? 'a tag' : `a ${name}`;
    return { field: `${prefix}.${name}`, pointer: `/${prefix}/${path}`, character, offset: match.index, reason: `a control or bidi character ${character}, which the loader refuses in ${what} as in an id` };
  }
  return null;
}

/** The message naming the operation and field of a {@link TextProblem}. */
export function textProblemMessage(index: number, op: Operation['op'], problem: TextProblem): string {
  return `operation ${index} (${op}): field ${problem.field} holds ${problem.reason} (character ${problem.offset}); remove or replace it`;
}
