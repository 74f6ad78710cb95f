/** The shapes of the IndexManager's options and sync reports (manager.ts). */
import type { WireError } from '@docforge/core';
import type { Descriptor } from '@docforge/project';
import type { BuildStats } from '@docforge/builder';
import type { Publication } from '@docforge/store';
import type { BuildPools } from './build-pools.js';

/**
 * Freshness of what a response is served from (contract: staleness state). `unknown`: a canonical
 * application's journal is open, so the sources were not compared (issue 11).
 */
export type Staleness = 'current' | 'stale' | 'unknown';

/** What one synchronization found and did. */
export interface SyncReport {
  publication: Publication;
  descriptor: Descriptor;
  staleness: Staleness;
  /** Whether this call published a new generation. */
  rebuilt: boolean;
  stats: BuildStats | null;
  /** Why the sources could not be published, when the last good publication is served instead. */
  sync_error: WireError | null;
  /** Milliseconds spent walking and hashing file identities. */
  identity_ms: number;
  /**
   * Whether the project has a cheap source identity. False while a project-owned adapter is bound
   * that declares no `inputs` (or before the build worker has loaded it): every sync then runs the
   * build worker, which re-derives the graph and publishes only when its content changed.
   */
  identity_known: boolean;
  /** True when the source watcher stood in for the identity walk (nothing changed since the last trusted walk). */
  watched?: true;
  /**
   * How the sources were checked: `watched` (no walk, see {@link watched}), `partial` (only the
   * paths the watcher named were lstat'ed again; partial-walk.ts) or `full`. Absent when no walk
   * ran (descriptor error, open application).
   */
  walk?: 'full' | 'partial' | 'watched';
}

/** Options of an {@link IndexManager}. */
export interface IndexManagerOptions {
  /** Absolute project root (resolved with realpath once at construction). */
  root: string;
  /** `--no-ast`: Logic is never extracted and an index holding Logic is rejected before any read. */
  noAst: boolean;
  /** Project-relative files whose stat joins the cheap identity (a project-owned adapter's inputs). */
  extraIdentityFiles?: readonly string[];
  /** Receives warnings (e.g. a failed build); never stdout. */
  onWarning?: (message: string, details: Record<string, unknown>) => void;
  /**
   * Long-lived processes (the MCP server): watch the walked directories, so a sync with no change
   * since the last trusted walk skips the walk (source-watch.ts; issue 14 item 5). Default false.
   */
  watchSources?: boolean;
  /**
   * Where the build pools come from: the process's settings and the pool a command prestarted
   * (build-pools.ts; the CLI passes the one its fast path started). Default: `new BuildPools()`,
   * the settings of this process's config, nothing prestarted.
   */
  buildPools?: BuildPools;
  /**
   * The longest wait, in milliseconds, for another process's build of this project before this
   * manager builds anyway (build-turn.ts). Default `BUILD_TURN_WAIT_MS` (ten minutes); 0 never
   * waits (a test stands in for a process that builds without the lock).
   */
  buildTurnWaitMs?: number;
}
