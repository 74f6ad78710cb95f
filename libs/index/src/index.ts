export { INDEX_SCHEMA_VERSION, FTS_WEIGHTS } from './schema.js';
export { identifierWords, nodeTerms } from './terms.js';
export type { StateLayout } from '@docforge/fs-safe';
export { stateLayout, writeFileAtomic } from '@docforge/fs-safe';
export type { Publication, PublicationCheck } from './publication-format.js';
export { checkPublication, parsePublication, MAX_CURRENT_BYTES } from './publication-format.js';
export type { PublicationRead, PublicationStamp } from './publication.js';
export { readPublication, readPublicationOnce, publicationUnchanged, publicationFileIntact, withPublicationLock } from './publication.js';
export type { BuildStats, BuildTask, BuildOutcome, PrepareTask } from './build-types.js';
export type { NodeRow, SqliteDatabase, IndexTable } from './reader.js';
export { IndexReader, rowToNode } from './reader.js';
export type { NodeFilters, NodeSummary, NodeBrief, NodeProvenance, FacetField, FacetCounts } from './reader-nodes.js';
export type { FtsCandidate, FtsExcerptSource, RankedFtsCandidate } from './reader-fts.js';
export { SNIPPET_MAX_BODY_CHARS } from './reader-fts.js';
export type { EdgeDirection, EdgeKey, EdgeRecord, LogicStepRow, LogicFlowRow } from './reader-graph.js';
export type { BuildProgress, Staleness, SyncReport, IndexManagerOptions } from './manager.js';
export { IndexManager, resolveProjectRoot } from './manager.js';
export { rowsReadTotal } from './reader-statements.js';
export { openApplication, applicationEpoch, applicationBlocksPublication } from './application-guard.js';
export { BUILTIN_ADAPTER_MANIFESTS, builtinAdapterManifest, codeExtensionsOf } from './adapter-manifests.js';
export type {
  Receipt, ReceiptItem, ReceiptDiff, ReceiptBinding, ReceiptSummary, ReceiptFields, NodeField, NodeAddedItem, NodeRemovedItem, NodeChangedItem,
  EdgeItem, GraphSnapshot, DetailsOmittedReason,
} from './receipt-types.js';
export { NODE_FIELDS, CHANGE_KINDS, RECEIPT_SCHEMA_VERSION, RECEIPT_MAX_ITEMS, RECEIPT_MAX_DETAIL_BYTES, RECEIPT_MAX_FILE_BYTES, RECEIPT_FILE_NAME } from './receipt-types.js';
export { receiptItemJson, receiptItemHash, collectionHash, nodeSetHash, edgeSetHash } from './receipt-hash.js';
export { diffGraphs, nodeChangedFields } from './receipt-diff.js';
export { assembleReceipt, receiptText, loadIndexSnapshot } from './receipt-commit.js';
export { receiptProblem } from './receipt-verify.js';
export type { ReceiptState, ReceiptStatus, ReceiptExpectation } from './receipt-status.js';
export { generationReceiptStatus } from './receipt-status.js';
export { guardStdout } from './stdout-guard.js';
export type { ServedIndex, ServedSignature } from './served-index.js';
export { resolveServedIndex, pathWithin } from './served-index.js';
