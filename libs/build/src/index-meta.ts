/**
 * The `meta` rows of a new index file (schema.ts): what a reader and a later build check a file
 * against (schema, project, root, source identity and hash, adapter version, Logic policy and
 * presence, descriptor hash), the relation names present and the mention counts.
 */
import { sourceHash, type Descriptor, type ResolvedGraph } from '@docforge/project';
import type { BuildTask, CachedSource } from './build-types.js';
import { INDEX_SCHEMA_VERSION } from '@docforge/store';

/** The `meta` rows (key → value) of a new index file built by `task` with `graph` from `current`. */
export function indexMeta(
  task: BuildTask, descriptor: Descriptor, graph: ResolvedGraph, current: ReadonlyMap<string, CachedSource>,
  adapterVersion: string, logicSteps: number, descriptorHash: string,
): Record<string, string> {
  return {
    schema_version: String(INDEX_SCHEMA_VERSION),
    project_id: descriptor.project.id,
    root: task.root,
    source_identity: task.sourceIdentity,
    source_hash: sourceHash([...current.values()].map((s) => ({ path: s.entry.path, content_hash: s.content_hash }))),
    adapter_version: adapterVersion,
    logic_allowed: task.logicAllowed ? '1' : '0',
    logic_present: logicSteps > 0 ? '1' : '0',
    descriptor_hash: descriptorHash,
    // Sorted relation names present in the graph, so readers never scan the edge table for them.
    relations: JSON.stringify([...new Set(graph.edges.map((e) => e.relation))].sort()),
    // Mention resolution counts (issue 9 item 2), reported by docforge_validate_project.
    mention_counts: JSON.stringify(graph.mentions),
  };
}
