/**
 * `@docforge/fs-safe`: safe file access in one place (DESIGN.md sections 4 and 7): atomic durable
 * writes, reads confined under a root after following symlinks, the state-dir layout, and locks
 * whose dead owner is taken over at once.
 */
export type { AtomicWriteOptions } from './atomic.js';
export { writeFileAtomic, fsyncDirectory } from './atomic.js';
export type { ReadConfinedOptions } from './confined.js';
export { resolveConfined, readConfined, isInside } from './confined.js';
export type { StateLayout } from './layout.js';
export { stateLayout } from './layout.js';
export type { ProcessIdentity } from './process-identity.js';
export { processStartTime, processAlive, currentProcessIdentity } from './process-identity.js';
export type { LockOptions, LockHandle } from './lock.js';
export { withLock, acquireLock } from './lock.js';
export type { StateDirProblem } from './state-dir.js';
export { stateDirProblem, assertStateDir, ensureStateDir } from './state-dir.js';
export type { DirHandle, DirEntryInfo, ConfinedDirsOptions } from './confined-dirs.js';
export { ConfinedDirs, ConfinedDirError, replaceProblem } from './confined-dirs.js';
export { readStateFile, readStateText, StateFileError } from './state-read.js';
