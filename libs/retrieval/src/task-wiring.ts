/**
 * What governs and wires a task's focus (issue 31 item 4), for task kinds with
 * `wiringFirst` ({@link TaskKindPreference}). A hop's tier orders candidates inside their depth,
 * before their primary/other group (the traversal keeps depth; tier-0 hops of the best-ranked
 * focus node come first, issue 30):
 *
 * - tier 0, governs or wires the focus: an incoming `evidence` (`documents`, `governs`, `proves`,
 *   `verifies`, ...), `execution` (`calls`, ...) or `dependency` (`imports`, ...) edge of a node on
 *   the focus's containment chain: the documents that govern it, its callers and importers, and
 *   those of the module that holds it;
 * - tier 1, anything else: outgoing relations, structure along the containment chain (the focus's
 *   container and its own members), relations of neighbours;
 * - tier 2, structure off the chain: a node reached at depth 2 only through a structure edge that
 *   leaves the containment chain (up to a container and down to its other members, or into the
 *   members of a dependency). Such a node enters only when the task's own words match it (one of
 *   the first {@link TASK_MATCH_RANK} search hits) or when another, non-structure hop reaches it.
 *
 * Only relation kinds and graph distance decide: no name, path or project is special.
 */
import type { PathHop, Visit } from './task-visit.js';
import type { TASK_MATCH_RANK, TaskKindPreference } from './task-plan.js';

/** A hop's tier: 0 governs or wires the focus, 1 other, 2 structure off the containment chain. */
export type HopTier = 0 | 1 | 2;

/**
 * Structure relations of the version-1 alias map whose stored source is the container (`contains`,
 * `defines`, `owns`) or the member (`defined_in`). Another structure relation has no known
 * containment direction, so it never extends the chain.
 */
const CONTAINER_IS_SOURCE: Readonly<Record<string, boolean>> = Object.freeze(Object.assign(Object.create(null) as Record<string, boolean>, {
  contains: true, defines: true, owns: true, defined_in: false,
}));

/** Categories whose incoming edge on the chain governs (evidence) or wires (execution, dependency) the focus. */
const WIRING_CATEGORIES: ReadonlySet<string> = new Set(['evidence', 'execution', 'dependency']);

/** `down` when the hop goes from a container to its member, `up` for the reverse, null when unknown. */
function containment(hop: PathHop): 'up' | 'down' | null {
  const containerIsSource = CONTAINER_IS_SOURCE[hop.relation];
  if (containerIsSource === undefined) return null;
  // An outgoing hop leaves the stored source: from the container when the container is the source.
  return (hop.direction === 'outgoing') === containerIsSource ? 'down' : 'up';
}

/**
 * Whether `visit` lies on its focus's containment chain: the focus itself, or reached from it only
 * through structure hops that all go the same way (its containers, or its members and theirs).
 */
export function onContainmentChain(visit: Pick<Visit, 'path'>): boolean {
  let way: 'up' | 'down' | null = null;
  for (const hop of visit.path) {
    if (hop.category !== 'structure') return false;
    const step = containment(hop);
    if (step === null || (way !== null && step !== way)) return false;
    way = step;
  }
  return true;
}

/**
 * The tier of a hop taken from `from` (see the module comment), as a function of the hop: the
 * containment-chain test of `from` is made once for all its hops.
 */
export function hopTierFrom(from: Pick<Visit, 'path'>): (hop: PathHop) => HopTier {
  const chain = onContainmentChain(from);
  const atFocus = from.path.length === 0;
  const way = chain && !atFocus ? containment(from.path.at(-1)!) : null;
  return (hop) => {
    // The focus's own container and members are part of the change, whatever the relation.
    if (hop.category === 'structure') return atFocus || (way !== null && containment(hop) === way) ? 1 : 2;
    return chain && hop.direction === 'incoming' && WIRING_CATEGORIES.has(hop.category) ? 0 : 1;
  };
}
