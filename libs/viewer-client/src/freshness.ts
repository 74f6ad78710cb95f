/**
 * The freshness of a graph-browser worker's snapshot (contract: Visualization boundary), as
 * `docforge_visualization_status` and `docforge viewer status` report it: the index state (the
 * manager's stat-only check of the snapshot's signature against `current.json`) and the source
 * state (the project's cheap source identity against the snapshot's), combined.
 */

/** Current, stale, or not known. */
export type Freshness = 'current' | 'stale' | 'unknown';

/** The combined state: stale when either is stale, current only when both are current, unknown otherwise. */
export function combineFreshness(index: Freshness, source: Freshness): Freshness {
  if (index === 'stale' || source === 'stale') return 'stale';
  return index === 'current' && source === 'current' ? 'current' : 'unknown';
}

/**
 * The source state of a snapshot: `current` when the project's cheap source identity is the
 * snapshot's, `stale` when it differs, `unknown` without an identity (no descriptor, a failed walk).
 */
export function sourceFreshness(identity: string | null, snapshotIdentity: string): Freshness {
  return identity === null ? 'unknown' : identity === snapshotIdentity ? 'current' : 'stale';
}
