/**
 * Shapes shared by the build steps (session, parse, index writer, publish, warm start): the task
 * sent to the build worker, its outcome, and the per-source cache the worker keeps between builds.
 */
import type { GraphEdge, GraphNode, LogicFlow, LogicStep, NodeCodeText, NodeReviewHash, ReviewStamp, SourceIssue, WireError } from '@docforge/core';
import type { LinkRef, SourceEntry, StatIdentity } from '@docforge/project';
import type { MessagePort } from 'node:worker_threads';
import type { Publication } from '@docforge/store';
import type { PublicationRead, ReceiptSide } from '@docforge/store';
import type { ProjectAdapterReport, ProjectAdapterTask } from './project-adapter.js';

/** Progress of a long index build, forwarded as MCP progress notifications. */
export interface BuildProgress {
  stage: string;
  done: number;
  total: number;
}

/** One build request, sent from the main thread to the build worker. */
export interface BuildTask {
  root: string;
  stateDir: string;
  entries: SourceEntry[];
  walkIssues: SourceIssue[];
  sourceIdentity: string;
  /** Whether Logic may be extracted (policy: not --no-ast and strategy `ast`). */
  logicAllowed: boolean;
  /** Lowest generation number to publish (the caller's last seen generation + 1). */
  minGeneration: number;
  /**
   * The caller's read of `current.json` (see `readPublicationOnce`), carried through every step of
   * the build so the file is read once; absent: the build reads it itself, once.
   */
  prior?: PublicationRead;
  /** Stat identities besides the sources that entered `sourceIdentity` (descriptor, adapter fingerprint). */
  identityExtra?: StatIdentity[];
  /** False when the caller could not trust the cheap identity (project-owned adapter without declared inputs). */
  identityKnown?: boolean;
  /** Project-owned adapter bound at process start, or null/absent. */
  projectAdapter?: ProjectAdapterTask | null;
  /**
   * Store the worker's link caches right after publishing (link-cache-store.ts): a one-shot process
   * (the CLI), whose worker ends with it. A long-lived one stores them in idle time (`prime`).
   */
  storeLinkCache?: boolean;
  /** Ignore caches and the previous index file (it was found damaged): parse and write everything. */
  forceFull?: boolean;
  /** The canonical application epoch read before the sources were walked (issue 11; application-guard.ts). */
  applicationEpoch?: string;
  /** Optional port receiving `{ stage, done, total }` progress messages. */
  progressPort?: MessagePort;
}

/** Idle-time work sent to the build worker after a build of a long-lived process (worker.ts `prime`). */
export interface PrimeTask {
  /** The project root of the build just finished. */
  root: string;
  /** Its state directory (absolute), where the standby copy of the new index file is made (standby-copy.ts). */
  stateDir: string;
}

/** Sent to a build worker started before its build (worker.ts `prepare`; build-idle.ts prepareBuild). */
export interface PrepareTask {
  /** The project root (absolute, real path). */
  root: string;
  /** Its state directory (absolute). */
  stateDir: string;
  /** The Logic policy the build will have. */
  logicAllowed: boolean;
  /**
   * The code adapters whose files the no-change check found new or changed (no-change.ts): the
   * worker loads these whole and only the linking halves of the others, so an edit of
   * documentation loads no TypeScript compiler. Absent: every adapter of the sources.
   */
  parseAdapters?: string[];
}

/** Counters and timings (milliseconds) of one build. */
export interface BuildStats {
  mode: 'full' | 'delta';
  files: number;
  parsed: number;
  reused: number;
  nodes: number;
  edges: number;
  issues: number;
  logic_steps: number;
  parse_ms: number;
  link_ms: number;
  /** Code files linked again in this build (the others kept their previous link outputs). */
  linked_files?: number;
  /** Link data texts of the parse cache this build parsed on first read (lazy-link-data.ts; the others were not needed). */
  link_data_parsed?: number;
  /**
   * Code adapters loaded whole (with their parser) in the build worker when the build finished
   * (adapter-registry.ts `loadedParsers`); one only linked with is not listed, so a build that
   * parsed no code in a new worker lists none (issue 14: no TypeScript compiler for an edit of
   * documentation).
   */
  parsers_loaded?: string[];
  resolve_ms: number;
  /** How the graph was resolved: `scratch` (every source) or `incremental` (only what a change reaches, relative to the last graph). */
  resolve_mode: 'scratch' | 'incremental';
  /** Edge groups (one per source id) whose review findings this build computed; the others were kept from the last build (issue 35). */
  review_groups_computed?: number;
  write_ms: number;
  /**
   * Delta builds only: where the private copy of the previous index file came from, `standby`
   * (made in idle time, standby-copy.ts) or `copy` (copied during this build), and the time in ms
   * that took (part of `write_ms`).
   */
  delta_base?: 'standby' | 'copy';
  copy_ms?: number;
  publish_ms: number;
  total_ms: number;
}

/**
 * Result of a build task: the new publication, or a structured error (errors do not survive thread
 * boundaries as classes). `unchanged` means nothing was published because the previous publication
 * was verified to hold exactly the graph the sources give; `adapter` reports the project-owned adapter.
 * `adapter_failure` (`adapter_failed`): the project-owned adapter could not load or its extract
 * failed, and there was no earlier publication, so this one was published without the adapter's
 * nodes (an `adapter_failed` issue in it); the sync reports it `stale` with this error (break-it trial of stop 45).
 */
export type BuildOutcome =
  | { ok: true; publication: Publication; stats: BuildStats; adapter?: ProjectAdapterReport | null; unchanged?: boolean; adapter_failure?: WireError }
  | { ok: false; error: WireError; adapter?: ProjectAdapterReport | null };

/** What one source contributed, kept in the worker between builds for incremental re-parse. */
export interface CachedSource {
  entry: SourceEntry;
  content_hash: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
  links: LinkRef[];
  issues: SourceIssue[];
  logic_steps: LogicStep[];
  logic_flows: LogicFlow[];
  link_data: unknown;
  /** Code text of the source's nodes (issue 31 item 1); emptied with the bodies once written (the rows stay in the index). */
  code_text?: NodeCodeText[];
  adapter: string | null;
  /** Review hash of each node (issue 32 item 1): kept when the bodies are dropped; from the index's nodes on a warm start. */
  review_hashes?: NodeReviewHash[];
  /** Review stamps the source declares (content sources; issue 32 item 1), persisted with the parse. */
  reviews?: ReviewStamp[];
  /** Whether `nodes[].body` and `code_text` were dropped after writing, to bound worker memory. */
  stripped: boolean;
  /** Logic steps of the source when `logic_steps` was not loaded (a warm start); the rows stay in the index. */
  logic_count?: number;
}

/** Resolved graph of the last build written by this worker, for delta writes. */
export interface WrittenState {
  root: string;
  indexFile: string;
  indexIno: string;
  indexSize: number;
  logicAllowed: boolean;
  descriptorHash: string;
  /** The adapter version the file was built with (the parse cache's stamp). */
  adapterVersion: string;
  /** Node id → content hash. */
  nodes: Map<string, string>;
  /** Edge identity key (`edgeIdentityKey`) → `source_path\0line`. */
  edges: Map<string, string>;
  /** Source rows as written: path → `size:mtime_ns:ctime_ns:ino:content_hash`. */
  sources: Map<string, string>;
  /** Hash of the issue list as written (verification of unchanged builds). */
  issuesHash?: string;
  /** Whether an edge written carries review stamps (issue 32): the written edge map is then never reused as is. */
  reviewed?: boolean;
  /** The incremental resolver's token of the graph written (`ResolveDelta.token`), when it came from one. */
  graphToken?: object | null;
  /** Hash of the `unresolved_calls` rows as written (a delta rewrites them only when it differs). */
  unresolvedHash?: string;
  /** The node and edge hashes of the receipt this build committed with the file (`publishIndex`), so the next receipt need not rehash them. */
  receiptSide?: ReceiptSide | null;
}

/**
 * One source's parse before graph resolution as the parse cache stores it (parse-cache.ts; bodies
 * live in `nodes`). Version 2: the link data is stored beside it, in its own column. Version 3:
 * `lost_nodes` also holds the source's own form of every node the build extended after parsing
 * (link capabilities), so a warm start restores what the parse produced (a version 2 row is parsed
 * again).
 */
export interface PersistedParse {
  v: 3;
  node_ids: string[];
  /** The source's own nodes whose row in the nodes table differs (another source won the id, or the build extended it), bodies emptied. */
  lost_nodes: GraphNode[];
  edges: GraphEdge[];
  links: LinkRef[];
  issues: SourceIssue[];
  adapter: string | null;
  /** Review stamps the source declares (issue 32 item 1); absent when none. */
  reviews?: ReviewStamp[];
  /** Logic steps the source had (the rows themselves live in logic_steps). */
  logic_steps: number;
}

/** The last key computed per cached source, valid while its entry object and content hash stay the same. */
const sourceKeyMemo = new WeakMap<CachedSource, { entry: SourceEntry; hash: string; key: string }>();

/**
 * Identity of a written source row: `size:mtime_ns:ctime_ns:ino:content_hash`. Remembered per source object
 * (entry objects are replaced, never mutated), so a build over 10k unchanged sources builds no strings.
 */
/**
 * The key of the message worker.ts posts on its parent port once its module graph has loaded
 * (`{ [BUILD_WORKER_LOADED]: true }`, a piscina pool 'message' event): until one arrives, a task
 * that fails may mean the thread cannot start at all (build-pool.ts `runOnPool`).
 */
export const BUILD_WORKER_LOADED = 'docforgeBuildWorkerLoaded';

export function sourceKey(source: CachedSource): string {
  const memo = sourceKeyMemo.get(source);
  if (memo !== undefined && memo.entry === source.entry && memo.hash === source.content_hash) return memo.key;
  const key = `${source.entry.size}:${source.entry.mtime_ns}:${source.entry.ctime_ns}:${source.entry.ino}:${source.content_hash}`;
  sourceKeyMemo.set(source, { entry: source.entry, hash: source.content_hash, key });
  return key;
}
