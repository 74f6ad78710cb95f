/** The {@link ProjectView} of a synchronized index (the MCP server's and the CLI's view; no SQL here, only IndexReader calls). */
import path from 'node:path';
import type { TestFaults } from '@docforge/core';
import { codeExtensionsOf } from '@docforge/identity';
import { type IndexManager, type SyncReport } from '@docforge/sync';
import type { ProposalPolicy } from './policy.js';
import { ChangesetStore } from './store.js';
import type { ProjectView } from './workspace.js';

/**
 * Builds the projection view of the synchronized publication: nodes and inbound edges from the
 * index reader, the base from `source_hash`, the adapter's proposal operations from the loaded
 * project-owned adapter report, and the project integration's confined proposal policy (if any).
 */
export function indexProjectView(manager: IndexManager, sync: SyncReport, integrationPolicy: ProposalPolicy | null = null): ProjectView {
  const reader = manager.reader();
  const descriptor = sync.descriptor;
  return {
    root: descriptor.root,
    descriptor,
    sourceHash: sync.publication.source_hash,
    codeExtensions: codeExtensionsOf(descriptor.adapter.code),
    node: (id) => reader.getNode(id),
    inbound: (id, limit) => reader.edges(id, 'incoming', null, limit),
    reviewHash: (id) => reader.reviewHash(id),
    hasEdge: (source, relation, target) => reader.hasEdge(source, relation, target),
    adapterOperations: manager.projectAdapter()?.report?.proposal_operations ?? null,
    integrationPolicy,
  };
}

/** The changeset store of a project: `<root>/<state.dir>/changesets`, with the test-only fault points read at start (none when absent). */
export function storeOf(sync: SyncReport, faults?: TestFaults): ChangesetStore {
  return new ChangesetStore(path.join(sync.descriptor.root, sync.descriptor.state.dir), sync.descriptor.root, { faults });
}
