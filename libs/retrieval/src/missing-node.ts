/**
 * The `node_not_found` error and its did-you-mean (new-user trials): the id the caller probably
 * meant, read from the index on the error path only.
 */
import { errors, type DocforgeError } from '@docforge/core';
import type { IndexReader } from '@docforge/store';

/** What {@link missingNode} reads of the index. */
export type MissingNodeReader = Pick<IndexReader, 'hasNode' | 'nodeIdsNear' | 'nodeIdsWithPrefix' | 'nodeIdsAtPath'>;

/**
 * The `node_not_found` error for an id the index does not hold, naming the id the caller probably
 * meant when one exists: a code path written without its `code:` prefix (`lib/proto.js`), or a
 * page written with its `.md` extension, else an id equal but for ASCII case, else the one code
 * declaration a bare name names (`transport`), else a near miss ({@link nearMiss}). A source path
 * (`docs/clients.md`, `docs/clients`) names the node(s) defined in that file (the first as
 * `did_you_mean`, up to 4 more in the message). A handful of primary-key and index reads, each
 * bounded (the error path only).
 */
export function missingNode(reader: MissingNodeReader, id: string): DocforgeError {
  const candidates = [id.startsWith('code:') ? null : `code:${id}`, /\.(md|markdown)$/i.test(id) ? id.replace(/\.(md|markdown)$/i, '') : null];
  const meant = candidates.find((candidate): candidate is string => candidate !== null && reader.hasNode(candidate)) ?? null;
  if (meant !== null) return errors.nodeNotFound(id, undefined, meant);
  // A source path (`docs/clients.md`, or `docs/clients` without its extension): the nodes defined in that file.
  const atPath = /[/.]/.test(id) && !id.includes(':') && !id.includes('#') ? reader.nodeIdsAtPath(id.replace(/^\.\//, ''), PATH_SUGGESTIONS) : [];
  if (atPath.length > 0) return errors.nodeNotFound(id, undefined, atPath[0] ?? null, atPath.slice(1));
  // Else an id equal but for case, or the one declaration a bare name names (none when several do).
  const near = reader.nodeIdsNear(id, 2);
  if (near.length === 1) return errors.nodeNotFound(id, undefined, near[0] ?? null);
  return errors.nodeNotFound(id, undefined, near.length === 0 ? nearMiss(reader, id) : null);
}

/** Most nodes of one source file a `node_not_found` message names. */
const PATH_SUGGESTIONS = 5;

/** Most declarations a qualifier (`DateTime` of `DateTime.plsu`) is looked up as. */
const OWNERS = 8;

/** Most siblings a typo is compared with. */
const TYPO_SIBLINGS = 2_000;

/**
 * The one id a near-miss `id` names, or null (none, or several as near). The same for a bare
 * qualified name (`DateTime.plsu`) and a full code id (`code:src/datetime.js#DateTime.plsu`):
 * 1. a typo in the last segment: the one sibling that shares everything up to the last separator
 *    and is within a small edit distance of it ({@link typoSibling}; `#buildRouting.rout`);
 * 2. a code id whose qualified name is right but whose path is not (`code:datetime.js#DateTime.plus`):
 *    the one declaration the qualified name names as a bare name;
 * 3. a typo anywhere in a code id's qualified name (`#DateTme.plus`): the one declaration of the
 *    same file whose qualified name is that near;
 * 4. the qualifier names declarations as a bare name (`DateTime`, also under a mistyped path; at
 *    most {@link OWNERS} of them) and the last segment is a typo of a member of exactly one.
 */
function nearMiss(reader: MissingNodeReader, id: string): string | null {
  const sibling = typoSibling(reader, id);
  if (sibling !== null) return sibling;
  const hash = id.startsWith('code:') ? id.indexOf('#') : -1;
  const qualified = hash > 0 ? id.slice(hash + 1) : !id.includes(':') && !id.includes('#') && !id.includes('/') ? id : '';
  if (qualified === '') return null;
  if (hash > 0) {
    const named = reader.nodeIdsNear(qualified, 2);
    if (named.length === 1) return named[0]!;
    const inFile = closestSuffix(reader, id.slice(0, hash + 1), qualified);
    if (inFile !== null) return inFile;
  }
  const dot = qualified.lastIndexOf('.');
  if (dot <= 0) return null;
  // Build copies declare the owner too (luxon's `build/amd/luxon.js#DateTime`): the one member found among its first owners.
  const found = new Set<string>();
  for (const owner of reader.nodeIdsNear(qualified.slice(0, dot), OWNERS)) {
    const member = closestSuffix(reader, `${owner}.`, qualified.slice(dot + 1));
    if (member !== null) found.add(member);
  }
  return found.size === 1 ? [...found][0]! : null;
}

/**
 * The one id that shares everything of `id` up to its last separator (`#`, `.`, `/`, `-`) and whose
 * last segment is within a small edit distance of the typed one ({@link closestSuffix}); null when
 * none or several are that close.
 */
function typoSibling(reader: Pick<IndexReader, 'nodeIdsWithPrefix'>, id: string): string | null {
  const cut = Math.max(id.lastIndexOf('#'), id.lastIndexOf('.'), id.lastIndexOf('/'), id.lastIndexOf('-'));
  if (cut <= 0) return null;
  return closestSuffix(reader, id.slice(0, cut + 1), id.slice(cut + 1));
}

/**
 * The one id starting with `prefix` whose rest is within a small edit distance of `typed` (1 for
 * up to 4 characters, else 2; a swap of two neighbouring characters is one edit: `plsu` -> `plus`),
 * among the first {@link TYPO_SIBLINGS} such ids; null when none or several are that close.
 */
function closestSuffix(reader: Pick<IndexReader, 'nodeIdsWithPrefix'>, prefix: string, typed: string): string | null {
  const bound = typed.length <= 4 ? 1 : 2;
  let best: string | null = null;
  let bestDistance = bound + 1;
  let ties = 0;
  for (const sibling of reader.nodeIdsWithPrefix(prefix, TYPO_SIBLINGS)) {
    const rest = sibling.slice(prefix.length);
    if (Math.abs(rest.length - typed.length) > bound) continue;
    const d = editDistance(rest, typed);
    if (d < bestDistance) [best, bestDistance, ties] = [sibling, d, 1];
    else if (d === bestDistance) ties += 1;
  }
  return ties === 1 ? best : null;
}

/**
 * The optimal-string-alignment distance of two strings: insertions, deletions, substitutions and
 * swaps of two neighbouring characters, one edit each (UTF-16 units). O(|a|·|b|) time, O(|b|) memory.
 */
function editDistance(a: string, b: string): number {
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      current.push(d);
    }
    [before, previous] = [previous, current];
  }
  return previous[b.length]!;
}
