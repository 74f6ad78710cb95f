/**
 * Filter values that no node holds (`docforge_search`, `docforge_filter_nodes`): an empty page
 * caused by a typo (`kinds: ["fucntion"]`) says which value matched nothing and, when one is
 * close, which value the index does hold.
 */
import { closest, distance } from 'fastest-levenshtein';
import type { FacetField, IndexReader, NodeFilters } from '@docforge/store';
import { ALIASED_RELATIONS, LOGIC_LANGUAGES } from '@docforge/core';
import { relationVocabulary } from './task-vocabulary.js';

/** One filter value that no node of the index holds, with the nearest value that one does, or null. */
export interface UnmatchedFilterValue {
  /** The filter list, as the tool's argument names it (`kinds`, `languages`, ..., `relations`). */
  filter: keyof NodeFilters | 'relations';
  value: string;
  /**
   * A value of that field's whole vocabulary (issue 30: values the index holds, built-in relations,
   * languages and capabilities, the descriptor's `[vocabulary]` lists) equal but for case, or
   * within a small edit distance; null when none is close. It may be a value no node or edge of
   * this index holds (the output schemas have no room for saying so: docs/architecture.md).
   */
  did_you_mean: string | null;
}

/** The node field behind each filter list, as {@link IndexReader.facetValues} names it. */
const FACET_OF: Readonly<Record<keyof NodeFilters, FacetField>> = {
  kinds: 'kind',
  families: 'family',
  authorities: 'authority',
  statuses: 'status',
  tags: 'tag',
  languages: 'language',
  capabilities: 'capability',
};

/** Most existing values per field compared with an unmatched one (facet lists are read once, bounded). */
export const SUGGESTION_CANDIDATES = 500;

/** Most unmatched values reported in one answer (a filter list may be long). */
export const UNMATCHED_FILTER_CAP = 20;

/** Node filter values known without an index (issue 30): the built-in adapters' languages and code capabilities. */
export const BUILTIN_FILTER_VALUES: Readonly<Partial<Record<keyof NodeFilters, readonly string[]>>> = Object.freeze({
  languages: Object.freeze([...LOGIC_LANGUAGES, 'python']),
  capabilities: Object.freeze(['async', 'entrypoint', 'exported', 'generator', 'test']),
});

/**
 * The values of `filters` that no node holds, in filter order then value order, at most
 * {@link UNMATCHED_FILTER_CAP}. Each is one indexed lookup (families, authorities and statuses: one
 * scan of the nodes table when absent), so callers ask only when a first page came back empty.
 * The suggestion is a value of the same field equal ignoring case, else the closest one within
 * an edit distance of a third of the value's length (at least 1, at most 3), taken from the
 * field's whole vocabulary (issue 30): the values nodes of the index hold, then the known ones
 * ({@link BUILTIN_FILTER_VALUES} and `known`, such as the descriptor's `[vocabulary].kinds`).
 */
export function unmatchedFilterValues(reader: IndexReader, filters: NodeFilters, known: Partial<Record<keyof NodeFilters, readonly string[] | null>> = {}): UnmatchedFilterValue[] {
  const out: UnmatchedFilterValue[] = [];
  let facets: ReturnType<IndexReader['facetValues']> | null = null;
  for (const filter of Object.keys(FACET_OF) as (keyof NodeFilters)[]) {
    for (const value of filters[filter] ?? []) {
      if (out.length >= UNMATCHED_FILTER_CAP) return out;
      if (reader.filterValueExists(filter, value)) continue;
      facets ??= reader.facetValues(SUGGESTION_CANDIDATES);
      const held = facets[FACET_OF[filter]].values.map((v) => v.value);
      const heldSet = new Set(held);
      const extra = [...(BUILTIN_FILTER_VALUES[filter] ?? []), ...(known[filter] ?? [])].filter((v) => !heldSet.has(v));
      const near = nearestName(value, [...held, ...new Set(extra)]);
      out.push({ filter, value, did_you_mean: near });
    }
  }
  return out;
}

/**
 * The one of `existing` that `value` probably meant: one equal but for case, else the nearest
 * within an edit distance of a third of `value`'s length (at least 1, at most 3) (`serch` ->
 * `search` among the CLI's commands), else one the value contains or begins ({@link containedName});
 * null when none is that close.
 */
export function nearestName(value: string, existing: readonly string[]): string | null {
  if (existing.length === 0) return null;
  const folded = value.toLowerCase();
  const sameCase = existing.find((candidate) => candidate.toLowerCase() === folded);
  if (sameCase !== undefined) return sameCase;
  const lowered = existing.map((candidate) => candidate.toLowerCase());
  const nearest = closest(folded, lowered);
  const bound = Math.min(3, Math.max(1, Math.floor(value.length / 3)));
  if (distance(folded, nearest) <= bound) return existing[lowered.indexOf(nearest)] ?? null;
  return containedName(folded, existing, lowered);
}

/**
 * The existing name of at least {@link MIN_CONTAINED} characters that a value contains (a kind
 * spelled with a qualifier, `typealias` -> `type`, `testfile` -> `test`), the longest one; else the
 * one existing name the value begins (`func` -> `function`, a value of at least 3 characters);
 * null when none, or when two tie.
 */
function containedName(folded: string, existing: readonly string[], lowered: readonly string[]): string | null {
  const unique = (indexes: number[]): string | null => (indexes.length === 1 ? existing[indexes[0]!] ?? null : null);
  const contained = lowered.flatMap((name, i) => (name.length >= MIN_CONTAINED && folded.includes(name) ? [i] : []));
  if (contained.length > 0) {
    const longest = Math.max(...contained.map((i) => lowered[i]!.length));
    return unique(contained.filter((i) => lowered[i]!.length === longest));
  }
  return folded.length >= 3 ? unique(lowered.flatMap((name, i) => (name.startsWith(folded) ? [i] : []))) : null;
}

/** Shortest existing name {@link nearestName} suggests because a value contains it. */
const MIN_CONTAINED = 4;

/**
 * The values of a filter's field that nodes of the index hold (at most `max`, by value), for a
 * miss with no suggestion: the reader then learns what the field holds (`kinds`: `class`,
 * `function`, ... `type`) instead of an empty answer alone. `truncated` when there are more.
 */
export function existingFilterValues(reader: IndexReader, filter: keyof NodeFilters, max: number): { values: string[]; truncated: boolean } {
  const counts = reader.facetValues(Math.min(max, SUGGESTION_CANDIDATES))[FACET_OF[filter]];
  return { values: counts.values.map((v) => v.value), truncated: counts.truncated };
}

/**
 * The names of a `relations` filter (backlinks, dependencies, impact) that no edge of the index
 * carries, at most {@link UNMATCHED_FILTER_CAP}, each with the nearest name of the whole relation
 * vocabulary (issue 30: the index's relation names, the built-in aliased relations and the
 * descriptor's `[vocabulary].relations`), or null. Between names equally near, one with edges
 * comes first.
 * The index's relation names are read once
 * per published index (cached per reader).
 * @param declared the descriptor's `[vocabulary].relations` (null: open vocabulary, none declared)
 */
export function unmatchedRelations(reader: IndexReader, relations: readonly string[] | undefined, declared: readonly string[] | null = null): UnmatchedFilterValue[] {
  if (!relations || relations.length === 0) return [];
  const observed = relationVocabulary(reader, null).relations;
  const known = new Set(observed);
  const unused = [...new Set([...ALIASED_RELATIONS, ...(declared ?? [])])].filter((name) => !known.has(name));
  return relations
    .filter((relation) => !known.has(relation))
    .slice(0, UNMATCHED_FILTER_CAP)
    .map((relation) => {
      const near = nearestName(relation, [...observed, ...unused]);
      return { filter: 'relations' as const, value: relation, did_you_mean: near };
    });
}
