/**
 * The tool-call lifecycle, named in one place (STYLE.md; fastify names its request lifecycle the
 * same way). Every `tools/call` runs these stages in order, and any stage may end the call in the
 * error stage:
 *
 * 1. `adapter_check`: a bound project-owned adapter still has its process-start fingerprint
 *    (contract: adapter-backed servers validate it before every tool);
 * 2. `validate`: the arguments match the tool's input schema (precompiled validator); the only
 *    validation of a call's arguments: later stages take its {@link CheckedArguments};
 * 3. `precheck`: refusals that must precede any index read (e.g. `adapter_policy_forbids_logic`);
 * 4. `sync`: synchronize the index (sync tools only; status tools skip it: non-repairing);
 * 5. `handler`: the tool's own work, with typed arguments; it returns a typed outcome (the result
 *    plus, per the tool's fit strategy, its page, body window, compact form or receipt);
 * 6. `fit_to_size`: serialize within `[limits].max_output_chars` by the tool's declared fit
 *    strategy ({@link respond});
 * 7. `error`: any DocforgeError (or wrapped foreign error) becomes an `ok: false` envelope that
 *    still carries the project block.
 */
import type { Logger } from 'pino';
import { toDocforgeError } from '@docforge/core';
import { rowsReadTotal } from '@docforge/store';
import { type IndexManager, type SyncReport } from '@docforge/sync';
import { DiagnosticsCollector } from '@docforge/policy';
import { describeValidationErrors } from '@docforge/protocol';
import type { CheckedArguments, ToolContext, ToolDefinition } from './define-tool.js';
import { CONTENT_NOTICE, preSyncProject, projectBlock, type Envelope, type ProjectBlock, type ToolResponse } from './envelope.js';
import { fittingOf, NO_FITTING, type AnyToolOutcome } from './outcome.js';
import { respond, statusLimit } from './respond.js';

/** The stages of one tool call, in order (see the module comment). */
export const TOOL_CALL_STAGES = Object.freeze(['adapter_check', 'validate', 'precheck', 'sync', 'handler', 'fit_to_size', 'error'] as const);

/** One stage name of {@link TOOL_CALL_STAGES}. */
export type ToolCallStage = (typeof TOOL_CALL_STAGES)[number];

/** What a call needs besides the tool and its arguments. */
export interface ToolCallEnvironment {
  ctx: ToolContext;
  logger: Logger;
  diagnosticsEnabled: boolean;
  /** Progress sink of the sync stage (absent when the client sent no progress token). */
  onProgress?: (progress: { stage: string; done: number; total: number }) => void;
  /** Validate every response against the tool's output schema and throw on a mismatch (tests). */
  validateOutput: boolean;
}

/** Raised when a response does not match the tool's own output schema (only with output validation on). */
export class OutputSchemaMismatch extends Error {
  constructor(tool: string, details: { path: string; message: string }[]) {
    super(`${tool}: structuredContent does not match its output schema: ${JSON.stringify(details)}`);
    this.name = 'OutputSchemaMismatch';
  }
}

/**
 * Runs one tool call through every stage and returns the MCP tool result; never throws a tool
 * failure (those become `ok: false` envelopes).
 * @throws OutputSchemaMismatch only when output validation is on and a response does not conform
 */
export async function runToolCall(tool: ToolDefinition, args: unknown, env: ToolCallEnvironment): Promise<ToolResponse> {
  const response = await runStages(tool, args, env);
  if (env.validateOutput && !tool.validateOutput(response.structuredContent)) {
    throw new OutputSchemaMismatch(tool.name, describeValidationErrors(tool.validateOutput.errors));
  }
  return response;
}

async function runStages(tool: ToolDefinition, args: unknown, env: ToolCallEnvironment): Promise<ToolResponse> {
  const manager = env.ctx.manager;
  const diagnostics = env.diagnosticsEnabled ? new DiagnosticsCollector() : null;
  // The publication the call is served from so far (null before the sync stage): the error stage reports it.
  const served: { sync: SyncReport | null } = { sync: null };
  // rows_read: rows the process's index readers returned while this call ran (calls run their reads synchronously).
  const rowsAtStart = rowsReadTotal();
  try {
    // The recovery gate of a --canonical-applier start, retried until it passes (application-gate.ts).
    if (env.ctx.gate) await env.ctx.gate.pass();
    manager.checkProjectAdapter(); // adapter_check
    const checked = tool.checkArguments(args); // validate (the only validation of the arguments)
    tool.precheck(env.ctx, checked); // precheck
    if (tool.kind === 'status') {
      const status = await tool.runStatus(env.ctx, checked, diagnostics); // handler (no sync)
      diagnostics?.count('rows_read', rowsReadTotal() - rowsAtStart);
      return fitStage(tool, status, status.project ?? preSyncProject(manager), diagnostics, statusLimit(manager));
    }
    const synced = await syncStage(manager, diagnostics, env.onProgress);
    served.sync = synced;
    const outcome = await handlerStage(tool, checked, synced, (rebuilt) => (served.sync = rebuilt), diagnostics, env);
    diagnostics?.count('rows_read', rowsReadTotal() - rowsAtStart);
    const from = outcome.servedFrom ?? served.sync ?? synced;
    served.sync = from;
    return fitStage(tool, outcome, projectBlock(manager, from), diagnostics, from.descriptor.limits.max_output_chars);
  } catch (error) {
    return errorStage(error, tool.name, manager, env.logger, served.sync, diagnostics);
  }
}

/**
 * Stage `handler` of a sync tool. A published file altered in place (same inode and size) is
 * dropped and rebuilt once; `onResync` learns the rebuilt publication before the retry.
 */
async function handlerStage(tool: ToolDefinition, args: CheckedArguments, sync: SyncReport, onResync: (rebuilt: SyncReport) => void, diagnostics: DiagnosticsCollector | null, env: ToolCallEnvironment): Promise<AnyToolOutcome> {
  try {
    return await tool.runSync(env.ctx, sync, args, diagnostics);
  } catch (error) {
    if (!isIndexDamage(error)) throw error;
    env.logger.warn({ tool: tool.name }, 'index file damaged; rebuilding');
    env.ctx.manager.invalidate();
    const rebuilt = await env.ctx.manager.sync({ onProgress: env.onProgress });
    onResync(rebuilt);
    return tool.runSync(env.ctx, rebuilt, args, diagnostics);
  }
}

/** Stage `fit_to_size`: the success envelope fitted by the tool's declared strategy ({@link respond}). */
function fitStage(tool: ToolDefinition, outcome: AnyToolOutcome, project: ProjectBlock, diagnostics: DiagnosticsCollector | null, max: number): ToolResponse {
  const envelope: Envelope = { schema_version: 1, ok: true, notice: CONTENT_NOTICE, project, result: outcome.result };
  return respond(envelope, fittingOf(tool.fit, outcome), diagnostics, max);
}

/** Stage `sync`: synchronizes and records the sync diagnostics. */
async function syncStage(manager: IndexManager, diagnostics: DiagnosticsCollector | null, onProgress: ToolCallEnvironment['onProgress']): Promise<SyncReport> {
  const syncStart = performance.now();
  const sync = await manager.sync({ onProgress });
  diagnostics?.add('index_work', performance.now() - syncStart);
  if (diagnostics) recordSyncDiagnostics(diagnostics, sync);
  return sync;
}

/** Stage `error`: the failure envelope, with the synchronized project block or the pre-sync one. */
function errorStage(error: unknown, tool: string, manager: IndexManager, logger: Logger, sync: SyncReport | null, diagnostics: DiagnosticsCollector | null): ToolResponse {
  const wire = toDocforgeError(error).toWire();
  // A changed project-owned adapter is stale but not synchronizable: report the last served generation as stale.
  if (!sync && wire.code === 'adapter_restart_required') sync = manager.staleSnapshot(wire);
  if (wire.code === 'internal_error') logger.error({ err: error, tool }, 'tool failed');
  const envelope: Envelope = { schema_version: 1, ok: false, notice: CONTENT_NOTICE, project: sync ? projectBlock(manager, sync) : preSyncProject(manager), error: wire };
  return respond(envelope, NO_FITTING, diagnostics, sync ? sync.descriptor.limits.max_output_chars : statusLimit(manager));
}

/** Adds the fixed-stage figures of one synchronization (numbers only: no paths, queries or ids). */
function recordSyncDiagnostics(diagnostics: DiagnosticsCollector, sync: SyncReport): void {
  if (!sync.stats) {
    diagnostics.count('cache_hits');
    return;
  }
  diagnostics.count('cache_misses');
  diagnostics.add('source_parsing', sync.stats.parse_ms, sync.stats.parsed);
  diagnostics.add('adapter_extraction', sync.stats.link_ms);
  diagnostics.count('files_parsed', sync.stats.parsed);
  diagnostics.count('files_reused', sync.stats.reused);
  diagnostics.count('nodes_indexed', sync.stats.nodes);
  diagnostics.count('edges_indexed', sync.stats.edges);
}

/** Whether an error is SQLite reporting a damaged or foreign database file. */
function isIndexDamage(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'));
}
