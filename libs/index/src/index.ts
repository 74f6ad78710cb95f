export { INDEX_SCHEMA_VERSION, FTS_WEIGHTS } from './schema.js';
export type { Publication, StateLayout } from './publication.js';
export { readPublication, publicationFileIntact, stateLayout, writeFileAtomic, withPublicationLock } from './publication.js';
export type { BuildStats, BuildTask, BuildOutcome } from './build.js';
export type { NodeRow, SqliteDatabase, IndexTable } from './reader.js';
export { IndexReader, rowToNode } from './reader.js';
export type { NodeFilters, NodeSummary, NodeBrief, NodeProvenance } from './reader-nodes.js';
export type { FtsCandidate, FtsExcerptSource } from './reader-fts.js';
export { SNIPPET_MAX_BODY_CHARS } from './reader-fts.js';
export type { EdgeDirection, EdgeRecord, LogicStepRow, LogicFlowRow } from './reader-graph.js';
export type { BuildProgress, Staleness, SyncReport, IndexManagerOptions } from './manager.js';
export { IndexManager, CODE_EXTENSIONS } from './manager.js';
export type {
  Receipt, ReceiptItem, ReceiptDiff, ReceiptBinding, ReceiptSummary, ReceiptFields, ReceiptState, ReceiptStatus, ReceiptExpectation,
  NodeField, NodeAddedItem, NodeRemovedItem, NodeChangedItem, EdgeItem, GraphSnapshot, DetailsOmittedReason,
} from './receipt.js';
export {
  generationReceiptStatus, diffGraphs, assembleReceipt, receiptText, receiptItemJson, receiptItemHash, collectionHash, receiptProblem,
  nodeSetHash, edgeSetHash, edgeIdentityKey, nodeChangedFields, loadIndexSnapshot,
  NODE_FIELDS, CHANGE_KINDS, RECEIPT_SCHEMA_VERSION, RECEIPT_MAX_ITEMS, RECEIPT_MAX_DETAIL_BYTES, RECEIPT_MAX_FILE_BYTES, RECEIPT_FILE_NAME,
} from './receipt.js';
