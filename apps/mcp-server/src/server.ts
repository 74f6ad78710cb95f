import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Logger } from 'pino';
import { DocforgeError, toDocforgeError } from '@docforge/core';
import { IndexManager, type SyncReport } from '@docforge/index';
import { loadToolSchemas } from '@docforge/protocol';
import { computeCapabilities, computeEffectivePolicy, serverInstructions, DiagnosticsCollector, type CapabilityMode, type EffectivePolicy, type PolicyFactory } from '@docforge/policy';
import { CONTENT_NOTICE, CURSOR_AFTER, projectBlock, toToolResponse, type Envelope, type ToolResponse } from './envelope.js';
import { implementedTools } from './registry.js';
import type { ToolContext } from './tools.js';
import { fitPrefix, longestFitting, type ContextProvider } from '@docforge/retrieval';

/** Startup options of a project server (the command line maps onto these). */
export interface ProjectServerOptions {
  /** Absolute project root, bound once for the life of the process. */
  projectRoot: string;
  capabilityMode?: CapabilityMode | null;
  proposalWriter?: string | null;
  canonicalApplier?: string | null;
  /** Contract: "Preserved no-AST bindings". */
  noAst?: boolean;
  diagnostics?: boolean;
  logger: Logger;
  /**
   * Project-owned custom context provider for `docforge_get_context` (contract: the unchanged
   * three-argument provider contract). Honoured by {@link createReadOnlyServer} only; with it,
   * `docforge_get_task_context` answers `task_context_unavailable` without synchronizing.
   */
  contextProvider?: ContextProvider | null;
}

/** A constructed server plus its cleanup. */
export interface ProjectServer {
  server: Server;
  policy: EffectivePolicy;
  manager: IndexManager;
  close(): Promise<void>;
}

const SERVER_VERSION = '0.1.0';

/** Creates the generic project server (proposal surface by default; contract: capability modes). */
export function createProjectServer(options: ProjectServerOptions): ProjectServer {
  return buildServer(options, 'project');
}

/**
 * Creates the server of the generic `docforge-mcp` command: the ordinary project factory's surface,
 * reported with `effective_policy.factory = "generic"`.
 */
export function createGenericServer(options: ProjectServerOptions): ProjectServer {
  return buildServer(options, 'generic');
}

/** Creates the read-only server: the read surface only, never proposal tools. */
export function createReadOnlyServer(options: ProjectServerOptions): ProjectServer {
  return buildServer({ ...options, proposalWriter: null, canonicalApplier: null }, 'read_only');
}

function formatAjvErrors(errors: ErrorObject[] | null | undefined): { path: string; message: string }[] {
  return (errors ?? []).slice(0, 20).map((e) => ({ path: e.instancePath || '/', message: `${e.message ?? 'invalid'}${e.params && 'additionalProperty' in e.params ? `: ${String(e.params.additionalProperty)}` : ''}` }));
}

function buildServer(options: ProjectServerOptions, factory: PolicyFactory): ProjectServer {
  const logger = options.logger;
  const manager = new IndexManager({
    root: options.projectRoot,
    noAst: options.noAst === true,
    onWarning: (message, details) => logger.warn(details, message),
  });
  let strategy: 'ast' | 'lexical' = 'ast';
  let moduleSpecifier: string | null = null;
  try {
    const descriptor = manager.descriptor();
    strategy = descriptor.adapter.strategy;
    moduleSpecifier = descriptor.adapter.module;
  } catch (error) {
    logger.warn({ err: toDocforgeError(error).toWire() }, 'descriptor not loadable at start; tools will report it');
  }
  const policy = computeEffectivePolicy({
    capabilityMode: options.capabilityMode ?? null,
    factory,
    proposalWriter: options.proposalWriter ?? null,
    canonicalApplier: options.canonicalApplier ?? null,
    noAst: options.noAst === true,
    diagnostics: options.diagnostics === true,
    adapterStrategy: strategy,
    projectAdapterModule: moduleSpecifier,
  });
  const schemas = loadToolSchemas();
  const handlers = implementedTools();
  const implemented = new Set([...handlers.keys()].filter((name) => schemas.has(name)));
  const capabilities = computeCapabilities(policy, implemented);
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validators = new Map<string, ValidateFunction>();
  for (const name of capabilities.tools) validators.set(name, ajv.compile(schemas.get(name)!.input));
  const toolList = capabilities.tools.map((name) => ({ name, description: schemas.get(name)!.description, readOnly: schemas.get(name)!.annotations.readOnlyHint }));
  const ctx: ToolContext = { manager, policy, capabilities, boundAt: new Date().toISOString(), toolList, contextProvider: factory === 'read_only' ? options.contextProvider ?? null : null };

  const server = new Server(
    { name: 'docforge-mcp', version: SERVER_VERSION },
    { capabilities: { tools: {} }, instructions: serverInstructions(policy) },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: capabilities.tools.map((name) => {
      const s = schemas.get(name)!;
      return { name, description: s.description, inputSchema: s.input as { type: 'object' }, outputSchema: s.output as { type: 'object' }, annotations: s.annotations };
    }),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    const tool = handlers.get(name);
    const validate = validators.get(name);
    if (!tool || !validate) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const diagnostics = policy.diagnostics.enabled ? new DiagnosticsCollector() : null;
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    let sync: SyncReport | null = null;
    try {
      // Contract: adapter-backed servers validate their process-start implementation fingerprint before every tool.
      manager.checkProjectAdapter();
      if (!validate(args)) {
        throw new DocforgeError('invalid_arguments', `Arguments of ${name} do not match its input schema.`, { errors: formatAjvErrors(validate.errors) });
      }
      // Refusals that must precede any index read (e.g. adapter_policy_forbids_logic).
      if (tool.kind === 'sync') tool.precheck?.(ctx, args);
      if (tool.kind === 'status') {
        const status = await tool.run(ctx, args, diagnostics);
        const envelope: Envelope = { schema_version: 1, ok: true, notice: CONTENT_NOTICE, result: status.result };
        if (status.project) envelope.project = status.project;
        return respond(envelope, null, diagnostics, statusLimit(manager));
      }
      const progressToken = request.params._meta?.progressToken;
      let progressCount = 0;
      const onProgress = progressToken === undefined ? undefined : (p: { stage: string; done: number; total: number }): void => {
        progressCount += 1;
        void extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress: progressCount, message: `index ${p.stage}: ${p.done}/${p.total} files` },
        }).catch(() => undefined);
      };
      const syncStart = performance.now();
      sync = await manager.sync({ onProgress });
      diagnostics?.add('index_work', performance.now() - syncStart);
      if (diagnostics) recordSyncDiagnostics(diagnostics, sync);
      let result: Record<string, unknown>;
      try {
        result = await tool.run(ctx, sync, args, diagnostics);
      } catch (error) {
        if (!isIndexDamage(error)) throw error;
        // The published file was altered in place (same inode and size): drop it and rebuild once.
        logger.warn({ tool: name }, 'index file damaged; rebuilding');
        manager.invalidate();
        sync = await manager.sync({ onProgress });
        result = await tool.run(ctx, sync, args, diagnostics);
      }
      return respond({ schema_version: 1, ok: true, notice: CONTENT_NOTICE, project: projectBlock(manager, sync), result }, sync, diagnostics);
    } catch (error) {
      const wire = toDocforgeError(error).toWire();
      // A changed project-owned adapter is stale but not synchronizable: report the last served generation as stale.
      if (!sync && wire.code === 'adapter_restart_required') sync = manager.staleSnapshot(wire);
      if (wire.code === 'internal_error') logger.error({ err: error, tool: name }, 'tool failed');
      const envelope: Envelope = { schema_version: 1, ok: false, notice: CONTENT_NOTICE, error: wire };
      if (sync) envelope.project = projectBlock(manager, sync);
      return respond(envelope, sync, diagnostics, sync ? undefined : statusLimit(manager));
    }
  });

  return {
    server,
    policy,
    manager,
    async close() {
      await server.close().catch(() => undefined);
      await manager.close();
    },
  };
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

/** The response limit without a sync: from the cached descriptor when it loads, else the default. */
function statusLimit(manager: IndexManager): number {
  try {
    return manager.descriptor().limits.max_output_chars;
  } catch {
    return FALLBACK_MAX_OUTPUT_CHARS;
  }
}

const FALLBACK_MAX_OUTPUT_CHARS = 60_000;

/**
 * Serializes an envelope within the configured response limit (`[limits].max_output_chars`):
 * diagnostics are dropped first (contract: `--diagnostics`), then collection items are trimmed
 * with `truncated = true`, then an over-long node body is cut with `body_truncated = true`;
 * what still cannot fit becomes `result_too_large`.
 */
export function respond(envelope: Envelope, sync: SyncReport | null, diagnostics: DiagnosticsCollector | null, limit?: number): ToolResponse {
  const max = sync?.descriptor.limits.max_output_chars ?? limit ?? FALLBACK_MAX_OUTPUT_CHARS;
  if (diagnostics) envelope.diagnostics = diagnostics.toJSON() as unknown as Record<string, unknown>;
  let text = JSON.stringify(envelope);
  if (text.length <= max) return toToolResponse(envelope, text);
  if (envelope.diagnostics) {
    delete envelope.diagnostics;
    text = JSON.stringify(envelope);
    if (text.length <= max) return toToolResponse(envelope, text);
  }
  const result = envelope.result;
  if (result && Array.isArray(result.items)) {
    // Keep the largest prefix of items that fits (fitPrefix), then point the cursor after the last
    // one kept; the cursor's own length can vary, so re-fit with the measured excess as slack.
    const all = result.items as unknown[];
    const after = (result as { [CURSOR_AFTER]?: (last: unknown) => string | null })[CURSOR_AFTER];
    const sizes = all.map((item) => JSON.stringify(item).length);
    let slack = 0;
    for (let attempt = 0; attempt < 4; attempt += 1) {
      result.items = [];
      const skeleton = JSON.stringify(envelope).length;
      const fit = fitPrefix(all, { budget: max - skeleton - slack, separator: 1, sizeOf: (_item, i) => sizes[i]! });
      if (fit.truncation.dropped === 0) {
        result.items = all;
        break;
      }
      result.items = fit.items;
      result.truncated = true;
      if ('truncation_reason' in result && result.truncation_reason === null) result.truncation_reason = 'result_limit';
      // A handler may say how to continue after the last item kept (see CURSOR_AFTER).
      if ('next_cursor' in result) result.next_cursor = after && fit.items.length > 0 ? after(fit.items[fit.items.length - 1]) : null;
      text = JSON.stringify(envelope);
      if (text.length <= max || fit.items.length === 0) break;
      slack += text.length - max;
    }
    text = JSON.stringify(envelope);
    if (text.length <= max) return toToolResponse(envelope, text);
  }
  if (result && typeof result.node === 'object' && result.node !== null) {
    const node = result.node as { body: string };
    const full = node.body;
    // JSON escaping makes the serialized body longer than the string: the longest prefix that fits.
    const kept = longestFitting(Math.min(full.length, max), (n) => {
      node.body = full.slice(0, n);
      result.body_truncated = true;
      return JSON.stringify(envelope).length + 32 <= max;
    });
    node.body = full.slice(0, kept);
    result.body_truncated = true;
    if (typeof result.body_offset === 'number') result.next_body_offset = result.body_offset + kept;
    text = JSON.stringify(envelope);
    if (text.length <= max) return toToolResponse(envelope, text);
  }
  const failure: Envelope = {
    schema_version: 1,
    ok: false,
    notice: CONTENT_NOTICE,
    error: new DocforgeError('result_too_large', `The result needs ${text.length} characters; the limit is ${max}.`, { max_output_chars: max, needed_chars: text.length }).toWire(),
  };
  if (envelope.project) failure.project = envelope.project;
  return toToolResponse(failure);
}
