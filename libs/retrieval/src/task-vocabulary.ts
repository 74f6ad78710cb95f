/**
 * The relation vocabulary of one index generation for `docforge_get_task_context`: the relation
 * names with edges (read once per published file), their version-1 alias categories, and the hash
 * that binds a task plan's traversal steps to the complete vocabulary.
 */
import { RELATION_ALIASES, domainHash, hashJson, relationCategory } from '@docforge/core';
import type { IndexReader } from '@docforge/store';

/** Version-1 relation categories, in alias-map order, plus `unclassified`. */
export const RELATION_CATEGORIES = Object.freeze([...Object.keys(RELATION_ALIASES), 'unclassified']);

/** The complete relation vocabulary of one index generation, bound by hash. */
export interface RelationVocabulary {
  /** Hash over the version-1 alias map, the declared extra relations and every relation with edges. */
  vocabulary_hash: string;
  /** The `relation_vocabulary.vocabulary_hash` of `docforge_get_contract` (aliases and declared extras). */
  contract_vocabulary_hash: string;
  /** Sorted distinct relation names that have at least one edge. */
  relations: readonly string[];
  /** Categories (including `unclassified`) with at least one edge, in {@link RELATION_CATEGORIES} order. */
  categories_with_edges: readonly string[];
}

const observedCache = new WeakMap<IndexReader, readonly string[]>();

function parseRelationList(text: string | undefined): string[] | null {
  if (text === undefined) return null;
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) && value.every((v) => typeof v === 'string') ? [...new Set(value as string[])].sort() : null;
  } catch {
    return null;
  }
}

/**
 * The relation vocabulary of the reader's generation. The distinct relation names are read once
 * per published index file (immutable) and cached per reader: from the index meta key `relations`
 * when the build recorded it, else with one scan of the edge keys ({@link IndexReader.distinctRelations}).
 * @param declaredRelations the descriptor's `[vocabulary].relations` (null: open vocabulary)
 */
export function relationVocabulary(reader: IndexReader, declaredRelations: readonly string[] | null): RelationVocabulary {
  let observed = observedCache.get(reader);
  if (!observed) {
    // An index that records its relation names in meta (`relations`, a JSON array) spares the scan.
    const recorded = parseRelationList(reader.meta.relations);
    observed = Object.freeze(recorded ?? reader.distinctRelations());
    observedCache.set(reader, observed);
  }
  const extra = declaredRelations === null ? null : [...declaredRelations].sort();
  const present = new Set(observed.map(relationCategory));
  return {
    vocabulary_hash: domainHash('docforge.relation_vocabulary.v1', { alias_map_version: 1, aliases: RELATION_ALIASES, declared_extra: extra, open: extra === null, observed }),
    contract_vocabulary_hash: hashJson({ aliases: RELATION_ALIASES, extra_relations: declaredRelations ?? null, open: declaredRelations === null }),
    relations: observed,
    categories_with_edges: RELATION_CATEGORIES.filter((c) => present.has(c)),
  };
}
