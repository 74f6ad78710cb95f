/**
 * The server `docforge-mcp` runs when its start cannot be honoured for the project (issue 8 item 6,
 * issue 30 item 4): the `--project-root` cannot be bound (missing, not a directory, relative), or
 * the project cannot honour a valid option (`--canonical-applier` without an applier the project
 * supplies: `canonical_applier_unavailable`; an adapter or journal that cannot be loaded). It still
 * answers `initialize` and `tools/list`, and answers every tool call with the start error (its code,
 * message and remediation), so MCP clients show the cause instead of "Connection closed". Nothing
 * is read or written.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { readDocforgeConfig, type WireError } from '@docforge/core';
import { computeCapabilities, computeEffectivePolicy, serverInstructions, type CapabilityMode } from '@docforge/policy';
import { describeValidationErrors } from '@docforge/protocol';
import { CONTENT_NOTICE, toToolResponse, type Envelope } from './envelope.js';
import { toolListing } from './define-tool.js';
import { OutputSchemaMismatch } from './lifecycle.js';
import { implementedTools } from './registry.js';
import { SERVER_VERSION } from './server.js';

/** Startup options of an unbound server. */
export interface UnboundServerOptions {
  /** The `--project-root` value exactly as given (reported in every project block). */
  projectRoot: string;
  /** Why the project cannot be served; the `error` of every tool call. */
  error: WireError;
  capabilityMode?: CapabilityMode | null;
  proposalWriter?: string | null;
  canonicalApplier?: string | null;
  noAst?: boolean;
  logger: Logger;
  /** Validate every response against the tool's output schema (tests). Default: env `DOCFORGE_VALIDATE_OUTPUT=1`. */
  validateOutput?: boolean;
}

/**
 * Creates the unbound server. The tool list is the one the same options would register for a
 * project without a descriptor (so clients see the usual tools), and every call of a listed tool
 * returns `ok: false` with `options.error` and the pre-sync project block (`id: null`,
 * `revision: 0`, `source_hash: null`, `staleness: "unknown"`). An unlisted tool is a JSON-RPC
 * error, as on a bound server.
 * @throws DocforgeError when the policy options themselves are invalid (as a bound server would)
 */
export function createUnboundServer(options: UnboundServerOptions): { server: Server; close(): Promise<void> } {
  const policy = computeEffectivePolicy({
    capabilityMode: options.capabilityMode ?? null,
    factory: 'generic',
    proposalWriter: options.proposalWriter ?? null,
    canonicalApplier: options.canonicalApplier ?? null,
    noAst: options.noAst === true,
    diagnostics: false,
    adapterStrategy: 'ast',
    projectAdapterModule: null,
  });
  const tools = implementedTools();
  const capabilities = computeCapabilities(policy, new Set(tools.keys()));
  const registered = new Map(capabilities.tools.map((name) => [name, tools.get(name)!]));
  const validateOutput = options.validateOutput ?? readDocforgeConfig().validateOutput;
  const server = new Server(
    { name: 'docforge-mcp', version: SERVER_VERSION },
    { capabilities: { tools: {} }, instructions: `${serverInstructions(policy, capabilities)}\n\nThis server cannot serve its project (${options.error.code}; every tool call answers it): ${options.error.message}` },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => toolListing(registered.values()));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const tool = registered.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const envelope: Envelope = {
      schema_version: 1,
      ok: false,
      notice: CONTENT_NOTICE,
      project: { id: null, root: options.projectRoot, revision: 0, source_hash: null, adapter_version: null, staleness: 'unknown' },
      error: options.error,
    };
    const response = toToolResponse(envelope);
    if (validateOutput && !tool.validateOutput(response.structuredContent)) {
      const mismatch = new OutputSchemaMismatch(tool.name, describeValidationErrors(tool.validateOutput.errors));
      options.logger.error({ tool: tool.name, err: mismatch.message }, 'output schema mismatch');
      throw new McpError(ErrorCode.InternalError, mismatch.message);
    }
    return response;
  });
  return {
    server,
    async close() {
      await server.close().catch(() => undefined);
    },
  };
}
