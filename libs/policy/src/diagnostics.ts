/**
 * The request-local `--diagnostics` aggregate (contract: MCP boundary, `--diagnostics` paragraph).
 * A bounded version-1 record of fixed stage timings and fixed counters. It holds numbers only, so
 * it can never carry content, paths, queries, node IDs or SQL.
 */

/** Fixed stage names, in output order. */
export const DIAGNOSTIC_STAGES = Object.freeze(['source_parsing', 'adapter_extraction', 'index_work', 'rendering', 'viewer_manager'] as const);

/** Fixed counter names, in output order. */
export const DIAGNOSTIC_COUNTERS = Object.freeze([
  'files_parsed',
  'files_reused',
  'cache_hits',
  'cache_misses',
  'nodes_indexed',
  'edges_indexed',
  'rows_read',
  'edges_examined',
  'viewer_requests',
] as const);

/** A diagnostics stage name. */
export type DiagnosticStage = (typeof DIAGNOSTIC_STAGES)[number];
/** A diagnostics counter name. */
export type DiagnosticCounter = (typeof DIAGNOSTIC_COUNTERS)[number];

/** Accumulated time (milliseconds, rounded to 0.001) and number of timed operations of one stage. */
export interface StageTiming {
  ms: number;
  count: number;
}

/** The wire `diagnostics` object, schema version 1. Every leaf is a number. */
export interface DiagnosticsRecord {
  schema_version: 1;
  /** Milliseconds since the collector was created, rounded to 0.001. */
  total_ms: number;
  stages: Record<DiagnosticStage, StageTiming>;
  counters: Record<DiagnosticCounter, number>;
}

const STAGE_SET: ReadonlySet<string> = new Set(DIAGNOSTIC_STAGES);
const COUNTER_SET: ReadonlySet<string> = new Set(DIAGNOSTIC_COUNTERS);

function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function checkCount(name: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new TypeError(`diagnostics ${name} must be a non-negative integer`);
}

/**
 * Collects one request's diagnostics. Create one per tool call when `--diagnostics` is enabled.
 * Stage and counter names are closed sets: an unknown name throws TypeError, so the record stays
 * bounded and fixed-shape.
 */
export class DiagnosticsCollector {
  private readonly now: () => number;
  private readonly startedAt: number;
  private readonly stageMs = new Map<DiagnosticStage, number>();
  private readonly stageCount = new Map<DiagnosticStage, number>();
  private readonly counterValues = new Map<DiagnosticCounter, number>();

  /** @param now monotonic clock in milliseconds; defaults to `performance.now()` (injectable for tests). */
  constructor(now: () => number = () => performance.now()) {
    this.now = now;
    this.startedAt = now();
    for (const stage of DIAGNOSTIC_STAGES) {
      this.stageMs.set(stage, 0);
      this.stageCount.set(stage, 0);
    }
    for (const counter of DIAGNOSTIC_COUNTERS) this.counterValues.set(counter, 0);
  }

  /**
   * Runs a synchronous function and adds its elapsed time (also when it throws) to a stage, with
   * count 1. For functions returning a promise use {@link timeAsync}.
   * @throws TypeError for an unknown stage (before running `fn`); rethrows whatever `fn` throws
   */
  time<T>(stage: DiagnosticStage, fn: () => T): T {
    this.checkStage(stage);
    const start = this.now();
    try {
      return fn();
    } finally {
      this.add(stage, this.now() - start);
    }
  }

  /**
   * Awaits an asynchronous function and adds its elapsed time (also when it rejects) to a stage.
   * @throws TypeError for an unknown stage (before running `fn`); rethrows whatever `fn` rejects with
   */
  async timeAsync<T>(stage: DiagnosticStage, fn: () => Promise<T>): Promise<T> {
    this.checkStage(stage);
    const start = this.now();
    try {
      return await fn();
    } finally {
      this.add(stage, this.now() - start);
    }
  }

  /**
   * Adds externally measured time (e.g. reported by a worker thread) to a stage.
   * @param ms non-negative finite milliseconds
   * @param count operations the time covers (default 1)
   * @throws TypeError for an unknown stage, a negative or non-finite `ms`, or a bad count
   */
  add(stage: DiagnosticStage, ms: number, count = 1): void {
    this.checkStage(stage);
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) throw new TypeError('diagnostics ms must be a non-negative finite number');
    checkCount('count', count);
    this.stageMs.set(stage, (this.stageMs.get(stage) ?? 0) + ms);
    this.stageCount.set(stage, (this.stageCount.get(stage) ?? 0) + count);
  }

  /**
   * Increments a fixed counter.
   * @throws TypeError for an unknown counter or a negative/non-integer `n`
   */
  count(counter: DiagnosticCounter, n = 1): void {
    if (!COUNTER_SET.has(counter)) throw new TypeError(`unknown diagnostics counter ${JSON.stringify(String(counter)).slice(0, 40)}`);
    checkCount('counter increment', n);
    this.counterValues.set(counter, (this.counterValues.get(counter) ?? 0) + n);
  }

  /** The version-1 record with fixed keys in fixed order; times rounded to 0.001 ms. */
  toJSON(): DiagnosticsRecord {
    const stages = {} as Record<DiagnosticStage, StageTiming>;
    for (const stage of DIAGNOSTIC_STAGES) {
      stages[stage] = { ms: roundMs(this.stageMs.get(stage) ?? 0), count: this.stageCount.get(stage) ?? 0 };
    }
    const counters = {} as Record<DiagnosticCounter, number>;
    for (const counter of DIAGNOSTIC_COUNTERS) counters[counter] = this.counterValues.get(counter) ?? 0;
    return { schema_version: 1, total_ms: roundMs(Math.max(0, this.now() - this.startedAt)), stages, counters };
  }

  private checkStage(stage: string): void {
    if (!STAGE_SET.has(stage)) throw new TypeError(`unknown diagnostics stage ${JSON.stringify(String(stage)).slice(0, 40)}`);
  }
}
