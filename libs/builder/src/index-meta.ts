/**
 * The `meta` rows of a new index file, from a build's task, descriptor, graph and sources (the
 * keys and their encoding are the store's: libs/store write-rows.ts `indexMetaRows`).
 */
import { sourceHash, type Descriptor, type ResolvedGraph } from '@docforge/project';
import { indexMetaRows } from '@docforge/store';
import type { BuildTask, CachedSource } from './build-types.js';

/** The `meta` rows (key → value) of a new index file built by `task` with `graph` from `current`. */
export function indexMeta(
  task: BuildTask, descriptor: Descriptor, graph: ResolvedGraph, current: ReadonlyMap<string, CachedSource>,
  adapterVersion: string, logicSteps: number, descriptorHash: string,
): Record<string, string> {
  return indexMetaRows({
    projectId: descriptor.project.id,
    root: task.root,
    sourceIdentity: task.sourceIdentity,
    sourceHash: sourceHash([...current.values()].map((s) => ({ path: s.entry.path, content_hash: s.content_hash }))),
    adapterVersion,
    logicAllowed: task.logicAllowed,
    logicPresent: logicSteps > 0,
    descriptorHash,
    relations: graph.edges.map((e) => e.relation),
    mentionCounts: graph.mentions,
  });
}
