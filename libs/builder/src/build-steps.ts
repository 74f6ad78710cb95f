/**
 * What the steps of one build session (build-session.ts) hand each other, and the retry causes a
 * step returns instead of failing for good.
 */
import type { SourceIssue } from '@docforge/core';
import type { StateLayout } from '@docforge/fs-safe';
import type { DependencyRecorder } from '@docforge/identity';
import type { Descriptor, ResolvedGraph, StatIdentity } from '@docforge/project';
import type { ParseRow, Publication, PublicationRead } from '@docforge/store';
import type { BuildCaches } from './build-caches.js';
import type { LinkedCode } from './build-graph.js';
import type { Progress } from './build-progress.js';
import type { BuildStats, BuildTask, CachedSource } from './build-types.js';
import type { ProjectAdapterOutput } from './project-adapter.js';
import type { ReviewBaseline } from './build-reviews.js';
import type { ProjectAdapterHandle } from './project-adapter-load.js';

/**
 * Why a failed build runs once more from the sources alone (`forceFull`):
 * - `damaged_link_data`: link data read lazily from the parse cache was damaged (lazy-link-data.ts);
 *   the retry reads no cached link data and rewrites the whole cache;
 * - `adapter_unavailable_late`: a code adapter whose linking half loaded could not load whole once a
 *   file needed its parser (adapter-registry.ts `ensureLinkers`); the retry builds with it
 *   unavailable from the start, as a build that never loaded it.
 */
export type RetryCause = 'damaged_link_data' | 'adapter_unavailable_late';

/** A step's answer that the build must start over from the sources (see {@link RetryCause}). */
export interface Retry {
  retry: RetryCause;
  /** The error message the failed attempt reports (`internal_error`). */
  message: string;
}

/** Whether a step's answer is a {@link Retry}. */
export function isRetry<T extends object>(value: T | Retry): value is Retry {
  return 'retry' in value && typeof (value as Retry).retry === 'string';
}

/** What the first step of a session settles for the whole build. */
export interface BuildSetup {
  descriptor: Descriptor;
  /** The code adapters of the walked sources (adapter-registry.ts `adaptersFor`). */
  adapterIds: string[];
  /** The project-owned adapter, when the task binds one. */
  projectAdapter: ProjectAdapterHandle | null;
  /** The adapter's declared input files (stat identities), or null when it declares none or there is no adapter. */
  inputFiles: readonly StatIdentity[] | null;
  /** SHA-256 of docforge.toml as loaded. */
  descriptorHash: string;
  /** The adapter version the build starts with (code adapters plus the project-owned adapter's suffix). */
  adapterVersion: string;
  /** The build's one read of current.json. */
  prior: PublicationRead;
  /** `prior.publication`. */
  previous: Publication | null;
}

/** The resolve step's answer: the graph (extended), every issue, the adapter's output and the Logic step count. */
export interface Resolved {
  graph: ResolvedGraph;
  issues: SourceIssue[];
  adapterOutput: ProjectAdapterOutput | null;
  logicSteps: number;
  /** What the linkers read and resolution probed (build-dependencies.ts). */
  dependencies: DependencyRecorder;
  /** The review baseline to record once published (build-reviews.ts; null: unchanged). */
  reviewBaseline?: ReviewBaseline | null;
}

/** The write step's answer: the new file, its parse rows for the parse cache, and the maps written. */
export interface WrittenFile {
  file: string;
  /** The graph written: the resolved one, or resolved again after sources were parsed again for a full write. */
  graph: ResolvedGraph;
  parses: ParseRow[];
  nodeMap: Map<string, string>;
  edgeMap: Map<string, string>;
  meta: Record<string, string>;
}

/** What every step of one session reads: the task, the caches, and the build's own running state. */
export interface SessionContext {
  readonly task: BuildTask;
  readonly caches: BuildCaches;
  readonly layout: StateLayout;
  readonly stats: BuildStats;
  readonly progress: Progress;
  /** When the build started (`performance.now()`). */
  readonly started: number;
  /** Takes ownership of `file` (removed if the build fails before publishing it), or gives it up (null). */
  own(file: string | null): void;
  /** A retry when an adapter turned out unavailable after the build started (see {@link RetryCause}); else null. */
  adaptersAsStarted(setup: BuildSetup): Retry | null;
}

/** The sources of a build in the walk's order, as parsed or reused. */
export type CurrentSources = Map<string, CachedSource>;
