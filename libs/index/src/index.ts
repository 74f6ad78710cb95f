export { INDEX_SCHEMA_VERSION, FTS_WEIGHTS } from './schema.js';
export type { Publication, StateLayout } from './publication.js';
export { readPublication, publicationFileIntact, stateLayout, writeFileAtomic, withPublicationLock } from './publication.js';
export type { BuildStats, BuildTask, BuildOutcome } from './build.js';
export type { NodeRow, SqliteDatabase } from './reader.js';
export { IndexReader, rowToNode } from './reader.js';
export type { BuildProgress, Staleness, SyncReport, IndexManagerOptions } from './manager.js';
export { IndexManager, CODE_EXTENSIONS } from './manager.js';
