/**
 * @docforge/changesets: the durable proposal store, projection of changesets onto the graph,
 * validation with the proposal rules, conflicts, staleness, rebase and the review diff (issue 10;
 * contract "Isolated proposal tools"). Canonical application (issue 11) builds on `evaluate`,
 * `ChangesetStore` and the serializer seam in serialize.ts.
 */
export { OPERATION_NAMES } from './types.js';
export type {
  OperationName, Operation, NodeCreateOp, NodeUpdateOp, NodeMoveOp, RelationshipUpdateOp, NodeDeleteOp, LinkReviewOp, ReviewRef, RelationRef, NodeSet,
  StoredStatus, ReadStatus, Finding, LifecycleReceipt, ChangesetDocument, Staleness, ChangesetSummary,
} from './types.js';
export { changesetSha256, operationSha256 } from './hash.js';
export { ChangesetStore, CHANGESET_ID_PATTERN, MAX_CHANGESET_BYTES, STORE_LOCK_TIMEOUT_MS, documentProblem } from './store.js';
export type { StoreListing } from './store.js';
export { writerPolicy, policyRefusal, confineProposalPath, confineProposalPolicy, protectedPathProblem, governingCodeRoot, isFileRootTempSibling } from './policy.js';
export { operationTextProblem } from './text-check.js';
export type { TextProblem } from './text-check.js';
export type { WriterPolicy, ProposalPolicy } from './policy.js';
export { Workspace } from './workspace.js';
export type { ProjectView, Located } from './workspace.js';
export { projectOperations, MAX_INBOUND_REPORTED } from './projection.js';
export type { Projection, OperationOutcome, NodeState, FileChange, ProjectOptions } from './projection.js';
export { evaluate, touchedSet, conflictFindings } from './validate.js';
export type { Evaluation, EvaluateOptions, TouchedSet } from './validate.js';
export { deriveStaleness, summarize, currentFileHash } from './status.js';
export { registerChangeset, addOperation, rebaseChangeset, abandonChangeset, evaluateStored } from './lifecycle.js';
export type { MutationOutcome, LifecycleOptions } from './lifecycle.js';
export { changeEntries, chunkPayload, asciiCanonicalJson } from './diff.js';
export type { ChangeEntry, FileDiff, FrontMatter, PayloadChunk } from './diff.js';
export { encodeCursor, decodeCursor, decodeCursorAt, longestCursorLength, MAX_CHANGESET_CURSOR_LENGTH } from './cursor.js';
export type { ChangesetCursorBinding } from './cursor.js';
export { indexProjectView, storeOf } from './index-view.js';
export { applyChangeset, recoverApplication, APPLICATION_LOCK_TIMEOUT_MS } from './apply.js';
export { applyTarget, folderPlan } from './apply-target.js';
export type { ApplyTarget, FolderPlan } from './apply-target.js';
export type { ApplyOutcome, ApplyOptions, AppliedFile, RecoveryOutcome } from './apply.js';
export { GENERIC_APPLIER, genericApplierOf, loadCanonicalApplier } from './applier.js';
export type { CanonicalApplier, ProjectCanonicalApplier } from './applier.js';
export { journalOpen, JOURNAL_STEPS, JOURNAL_VERSION } from './journal.js';
export { loadJournal } from './journal-check.js';
export type { Journal, JournalStep } from './journal.js';
