/**
 * Everything a build worker keeps between builds, as one object its owner creates and passes to
 * every build (worker.ts creates one per worker thread, for the thread's lifetime; a test creates
 * its own). Nothing here is module state: two caches objects never share a parse, a link output, a
 * standby copy or a loaded project-owned adapter.
 *
 * The tiers (docs/architecture.md, issue 14): per-source parses (`sources`, bodies dropped after
 * writing), the graph last written (`written`, for delta writes), the link caches and incremental
 * resolver (build-graph.ts), the counters of link data read lazily from the parse cache
 * (lazy-link-data.ts), the standby copy of the last published file (standby-copy.ts), the loaded
 * project-owned adapter (project-adapter-load.ts) and the parse threads (parse-pool.ts).
 */
import type { StateLayout } from '@docforge/fs-safe';
import type { Descriptor } from '@docforge/project';
import { readLinkCaches, type ParseCacheStamp, type Publication } from '@docforge/store';
import { LinkCaches, type LinkedCode } from './build-graph.js';
import type { CachedSource, WrittenState } from './build-types.js';
import { LinkDataCounters } from './lazy-link-data.js';
import { ParsePool } from './parse-pool.js';
import { ProjectAdapterSlot } from './project-adapter-load.js';
import { StandbyCopy } from './standby-copy.js';
import { warmFromPublication, type WarmExpectation } from './warm.js';
import { ReviewBaselineCache } from './build-reviews.js';
import { ReviewLinkState } from './build-review-links.js';
import { CoverageState } from './build-coverage.js';

/** What the last build resolved from scratch, kept for idle-time priming of the incremental resolver (build-idle.ts). */
export interface LastResolved {
  root: string;
  descriptor: Descriptor;
  current: ReadonlyMap<string, CachedSource>;
  linked: LinkedCode;
}

/** The caches of one build worker (see the module comment). */
export class BuildCaches {
  /** Per source path, its last parse (bodies dropped once written). */
  readonly sources = new Map<string, CachedSource>();
  /** The graph of the last index file written (or warmed from), for delta writes; null when none. */
  written: WrittenState | null = null;
  /**
   * Whether `written` comes from a build with these caches (not from a warm start): then more builds
   * are likely (a long-lived process), and the incremental resolver is worth its first, fuller pass.
   * A one-shot CLI sync after a warm start resolves from scratch, as cheaply as before.
   */
  writtenByBuild = false;
  /** What the last build resolved from scratch, for idle-time priming (null once primed or reset). */
  lastResolved: LastResolved | null = null;
  /** Link outputs per adapter and the incremental resolver. */
  readonly link = new LinkCaches();
  /** The review baseline as last read or written (issue 32; build-reviews.ts). */
  readonly reviewBaseline = new ReviewBaselineCache();
  /** The link review findings per edge group of the last graph (issue 35; build-review-links.ts). */
  readonly reviewLinks = new ReviewLinkState();
  /** The coverage findings of the last graph (issue 35; build-coverage.ts). */
  readonly coverage = new CoverageState();
  /** Link data texts of warmed sources parsed, and found damaged, since last taken. */
  readonly linkData = new LinkDataCounters();
  /** The standby copy of the last published index file. */
  readonly standby = new StandbyCopy();
  /** The project-owned adapter module, loaded at most once. */
  readonly projectAdapter = new ProjectAdapterSlot();
  /** The parse threads of large builds. */
  readonly parsePool = new ParsePool();

  /** Whether nothing was parsed or written with these caches yet (a fresh worker). */
  empty(): boolean {
    return this.sources.size === 0 && this.written === null;
  }

  /** Drops the parses, the written graph, the link caches and the standby copy (descriptor or policy changed; tests). */
  reset(): void {
    this.standby.discard();
    this.sources.clear();
    this.forgetWritten();
    this.link.reset();
  }

  /** Forgets the written graph (after a failed build: the file it describes may not be the one published). */
  forgetWritten(): void {
    this.written = null;
    this.writtenByBuild = false;
    this.lastResolved = null;
    this.reviewLinks.clear();
    this.coverage.clear();
  }

  /**
   * Step 0 of a build with empty caches (no parses, nothing written): the previous publication's
   * persisted parses and, without a project-owned adapter, its stored link outputs
   * (link-cache-store.ts). Does nothing when the caches hold either. Never throws.
   * @returns whether the caches now start from that publication
   */
  warmStart(layout: StateLayout, previous: Publication, expected: WarmExpectation, projectAdapter: boolean): boolean {
    if (!this.empty()) return false;
    const warm = warmFromPublication(layout, previous, expected, this.linkData);
    if (warm === null) return false;
    for (const [p, source] of warm.sources) this.sources.set(p, source);
    this.written = warm.written;
    // With the link outputs stored for that publication, a one-file edit re-links only what it can affect.
    if (!projectAdapter) this.link.restore(expected.root, readLinkCaches(layout, stampOf(warm.written), previous.index_file), warm.sources);
    return true;
  }
}

/** The parse cache's stamp of a written state (what stored caches are bound to besides the index file). */
export function stampOf(state: WrittenState): ParseCacheStamp {
  return { root: state.root, descriptorHash: state.descriptorHash, logicAllowed: state.logicAllowed, adapterVersion: state.adapterVersion };
}
