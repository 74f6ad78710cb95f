import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { ChangesetStore, confineProposalPolicy, genericApplierOf, loadCanonicalApplier, recoverApplication, type CanonicalApplier, type ProposalPolicy } from '@docforge/changesets';
import { accessIdProblem, errors, readDocforgeConfig, toDocforgeError } from '@docforge/core';
import path from 'node:path';
import { IndexManager, resolveProjectRoot } from '@docforge/sync';
import { loadDescriptor } from '@docforge/project';
import { computeCapabilities, computeEffectivePolicy, serverInstructions, type CapabilityMode, type EffectivePolicy, type PolicyFactory } from '@docforge/policy';
import type { ContextProvider } from '@docforge/retrieval';
import { declaredOutputsReport } from '@docforge/render';
import { toolListing, type DeclaredOutputs, type ToolContext } from './define-tool.js';
import { OutputSchemaMismatch, runToolCall, type ToolCallEnvironment } from './lifecycle.js';
import { validateProjectService, type ProjectService } from './project-service.js';
import { implementedTools } from './registry.js';
import { SERVER_VERSION } from './version.js';
import type { ApplicationGate } from './application-gate.js';

/**
 * The SDK's `tools/call` request schema with `params.arguments` kept as sent (the object JSON.parse
 * made, unchecked here: the SDK's own schema still checks that it is an object, and the tool's input
 * validator checks its keys). The SDK's record schema rebuilds the object and drops an own `__proto__`
 * key without a word (issue 30, break-it), so `{"query":"x","__proto__":{}}` reached the tool as
 * `{"query":"x"}`; kept, that key is an unknown key like any other (`invalid_arguments` naming it,
 * the input schemas' `additionalProperties: false`).
 */
const CALL_TOOL_AS_SENT = CallToolRequestSchema.extend({
  params: CallToolRequestSchema.shape.params.extend({ arguments: CallToolRequestSchema.shape.params.shape.arguments.unwrap().valueType.optional() }),
});

/**
 * The proposal binding of an explicit project integration (contract: "An explicit project
 * integration may construct the full fixed surface only after supplying a confined proposal
 * policy and startup-bound writer").
 */
export interface ProjectProposals {
  /** The startup-bound writer id (the rules of `--proposal-writer`). */
  writer: string;
  /** Allowed operations and path globs; checked against the content roots at construction. */
  policy: ProposalPolicy;
}

/** Startup options of a project server (the command line maps onto these). */
export interface ProjectServerOptions {
  /** Absolute project root, bound once for the life of the process. */
  projectRoot: string;
  capabilityMode?: CapabilityMode | null;
  /**
   * The writer of the generic command (`--proposal-writer`; its policy comes from the descriptor's
   * `[proposals.writers.ID]`). {@link createProjectServer} refuses it without {@link proposals}.
   */
  proposalWriter?: string | null;
  /** Writer plus confined proposal policy of a project integration ({@link createProjectServer} only). */
  proposals?: ProjectProposals | null;
  /** `--canonical-applier WRITER_ID`: the second startup gate (issue 11). */
  canonicalApplier?: string | null;
  /**
   * The canonical applier the project supplies, resolved at start ({@link prepareCanonicalApplier});
   * when absent, the descriptor's `[adapter] canonical_applier = "generic"` is the only other way.
   */
  applier?: CanonicalApplier | null;
  /** The recovery gate of a `--canonical-applier` start (application-gate.ts), passed before every tool call. */
  gate?: ApplicationGate | null;
  /** Render status of declared outputs reported by `docforge_apply_changeset` (default: none). */
  declaredOutputs?: DeclaredOutputs | null;
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
  /**
   * Validate every response's structuredContent against the tool's own output schema and turn a
   * mismatch into a JSON-RPC internal error (tests). Default: env `DOCFORGE_VALIDATE_OUTPUT=1`.
   */
  validateOutput?: boolean;
}

/** A constructed server plus its cleanup. */
export interface ProjectServer {
  server: Server;
  policy: EffectivePolicy;
  manager: IndexManager;
  close(): Promise<void>;
}

/** The version of this package, reported in `initialize` (version.ts). */
export { SERVER_VERSION };

/**
 * Creates the ordinary project factory's server: the proposal surface is registered; proposal
 * mutation access is enabled only with `options.proposals` (a writer and a confined
 * {@link ProposalPolicy}), else every mutation tool answers `proposal_access_disabled`. The
 * descriptor's `[proposals.writers.ID]` and a project adapter's `proposalOperations` narrow the
 * policy further; nothing widens it.
 * @throws DocforgeError `policy_violation` when `proposalWriter` is given without a policy, when
 *   the descriptor cannot be loaded to confine the policy, or when the policy names an unknown
 *   operation or a glob outside the content roots; `invalid_arguments` for a writer or applier id
 *   outside the id grammar (@docforge/core `accessIdProblem`), before anything is constructed
 */
export function createProjectServer(options: ProjectServerOptions): ProjectServer {
  checkAccessIds({ proposalWriter: options.proposals?.writer ?? options.proposalWriter, canonicalApplier: options.canonicalApplier });
  if (options.proposals == null) {
    if (options.proposalWriter != null) {
      throw errors.policyViolation('a project integration binds a proposal writer only together with a confined proposal policy: pass proposals: { writer, policy }', { argument: 'proposalWriter' });
    }
    return buildServer({ ...options, proposalWriter: null }, 'project');
  }
  return buildServer({ ...options, proposalWriter: options.proposals.writer }, 'project', null, options.proposals.policy);
}

/**
 * Creates the server of the generic `docforge-mcp` command: the ordinary project factory's surface,
 * reported with `effective_policy.factory = "generic"`.
 * @throws DocforgeError `invalid_arguments` for a writer or applier id outside the id grammar, before anything is constructed
 */
export function createGenericServer(options: ProjectServerOptions): ProjectServer {
  checkAccessIds({ proposalWriter: options.proposalWriter, canonicalApplier: options.canonicalApplier });
  return buildServer(options, 'generic');
}

/** Process options of the read-only integration form (the project comes from the {@link ProjectService}). */
export type ReadOnlyIntegrationOptions = Pick<ProjectServerOptions, 'logger' | 'capabilityMode' | 'diagnostics' | 'validateOutput'>;

/**
 * Creates the read-only server: the read surface only, never proposal tools (contract: "This form
 * cannot register proposal tools"). Two forms: the options object, or the explicit integration
 * form from a validated {@link ProjectService} and a project-owned context provider (null: the
 * core packer). The service's noAst binding carries over.
 * @throws DocforgeError `invalid_arguments` for a service DocForge cannot validate or a widening mode
 */
export function createReadOnlyServer(options: ProjectServerOptions): ProjectServer;
export function createReadOnlyServer(service: ProjectService, contextProvider: ContextProvider | null, options: ReadOnlyIntegrationOptions): ProjectServer;
export function createReadOnlyServer(first: ProjectServerOptions | ProjectService, contextProvider?: ContextProvider | null, options?: ReadOnlyIntegrationOptions): ProjectServer {
  if ('manager' in first) {
    const service = validateProjectService(first);
    if (options === undefined) throw errors.invalidArguments('createReadOnlyServer(service, contextProvider, options) needs options with a logger');
    return buildServer({ ...options, projectRoot: service.root, noAst: service.noAst, contextProvider: contextProvider ?? null, proposalWriter: null, canonicalApplier: null }, 'read_only', service.manager);
  }
  return buildServer({ ...first, proposalWriter: null, canonicalApplier: null }, 'read_only');
}

/**
 * Refuses a writer or applier id outside the id grammar (@docforge/core `accessIdProblem`) before
 * anything is constructed or recovered.
 * @throws DocforgeError `invalid_arguments` naming the argument
 */
function checkAccessIds(ids: { proposalWriter?: string | null | undefined; canonicalApplier?: string | null | undefined }): void {
  for (const [argument, value] of Object.entries(ids)) {
    if (value == null) continue;
    const problem = accessIdProblem(argument, value);
    if (problem !== null) throw errors.invalidArguments(problem, { argument });
  }
}

function buildServer(options: ProjectServerOptions, factory: PolicyFactory, boundManager: IndexManager | null = null, integrationPolicy: ProposalPolicy | null = null): ProjectServer {
  const logger = options.logger;
  const manager = boundManager ?? new IndexManager({
    root: options.projectRoot,
    noAst: options.noAst === true,
    onWarning: (message, details) => logger.warn(details, message),
    // A long-lived process: an unchanged, watched source tree skips the identity walk (issue 14).
    watchSources: true,
  });
  // A confined policy needs the content roots now: an unloadable descriptor refuses construction.
  const proposalPolicy = integrationPolicy === null ? null : confineProposalPolicy(integrationPolicy, manager.descriptor());
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
  // The second startup gate fails closed: application needs an applier the project supplies.
  const applier = policy.application.enabled ? bindApplier(manager, options.applier ?? null) : null;
  const tools = implementedTools();
  const capabilities = computeCapabilities(policy, new Set(tools.keys()));
  const registered = new Map(capabilities.tools.map((name) => [name, tools.get(name)!]));
  const toolList = [...registered.values()].map((t) => ({ name: t.name, description: t.description, readOnly: t.annotations.readOnlyHint }));
  const config = readDocforgeConfig();
  const ctx: ToolContext = { manager, policy, capabilities, boundAt: new Date().toISOString(), toolList, contextProvider: factory === 'read_only' ? options.contextProvider ?? null : null, proposalPolicy, applier, declaredOutputs: options.declaredOutputs ?? declaredOutputsOf(manager), testFaults: config.testFaults, gate: options.gate ?? null };
  const validateOutput = options.validateOutput ?? config.validateOutput;

  const server = new Server(
    { name: 'docforge-mcp', version: SERVER_VERSION },
    { capabilities: { tools: {} }, instructions: serverInstructions(policy, capabilities) },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => toolListing(registered.values()));

  server.setRequestHandler(CALL_TOOL_AS_SENT, async (request, extra) => {
    const tool = registered.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const progressToken = request.params._meta?.progressToken;
    let progressCount = 0;
    const onProgress = progressToken === undefined ? undefined : (p: { stage: string; done: number; total: number }): void => {
      progressCount += 1;
      void extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress: progressCount, message: `index ${p.stage}: ${p.done}/${p.total} files` },
      }).catch(() => undefined);
    };
    const env: ToolCallEnvironment = { ctx, logger, diagnosticsEnabled: policy.diagnostics.enabled, validateOutput };
    if (onProgress) env.onProgress = onProgress;
    try {
      return await runToolCall(tool, request.params.arguments ?? {}, env);
    } catch (error) {
      if (!(error instanceof OutputSchemaMismatch)) throw error;
      logger.error({ tool: tool.name, err: error.message }, 'output schema mismatch');
      throw new McpError(ErrorCode.InternalError, error.message);
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

/**
 * The canonical applier of an application-enabled server: the one resolved at start, else the
 * descriptor's generic opt-in.
 * @throws DocforgeError `canonical_applier_unavailable` (nothing is constructed)
 */
function bindApplier(manager: IndexManager, given: CanonicalApplier | null): CanonicalApplier {
  if (given !== null) return given;
  let descriptor;
  try {
    descriptor = manager.descriptor();
  } catch (error) {
    throw errors.canonicalApplierUnavailable(`--canonical-applier needs a loadable docforge.toml to find the project's canonical applier: ${toDocforgeError(error).message}`, {}, { cause: error });
  }
  const generic = genericApplierOf(descriptor);
  if (generic !== null) return generic;
  throw errors.canonicalApplierUnavailable(
    descriptor.adapter.module === null
      ? '--canonical-applier needs a canonical applier the project supplies: add [adapter] canonical_applier = "generic" to docforge.toml, or export canonicalApplier from the project-owned adapter module ([adapter] module). Canonical application stays disabled.'
      : `--canonical-applier: the project-owned adapter module ${descriptor.adapter.module} must be loaded at start to find its canonicalApplier (use createApplicationServer or prepareCanonicalApplier).`,
    { descriptor: descriptor.path },
  );
}

/**
 * Start-time half of the application gate (the generic command and {@link createApplicationServer}):
 * resolves the canonical applier the project supplies (the generic opt-in, or the project-owned
 * adapter module's `canonicalApplier`) and recovers an interrupted application of the project to
 * the exact before or after state its journal proves.
 * @param projectRoot absolute project root
 * @returns the applier and what recovery did (null: no journal was open)
 * @throws DocforgeError `canonical_applier_unavailable`, `descriptor_invalid`, `project_root_invalid`,
 *   `application_journal_invalid` (a journal failing its schema or confinement; nothing changed)
 */
export async function prepareCanonicalApplier(projectRoot: string): Promise<{ applier: CanonicalApplier; recovered: Awaited<ReturnType<typeof recoverApplication>> }> {
  const root = resolveProjectRoot(projectRoot);
  const descriptor = loadDescriptor(root);
  const applier = await loadCanonicalApplier(descriptor);
  const recovered = await recoverApplication(new ChangesetStore(path.join(root, descriptor.state.dir), root, { faults: readDocforgeConfig().testFaults }), descriptor);
  return { applier, recovered };
}

/**
 * The application-enabled factory (contract: "an application-enabled factory adds exact-hash
 * application"): the ordinary project factory's surface plus `docforge_apply_changeset`, after the
 * start-time gate ({@link prepareCanonicalApplier}). Fails closed.
 * @throws DocforgeError `invalid_arguments` for a writer or applier id outside the id grammar
 *   (before the gate runs); `canonical_applier_unavailable`; the errors of {@link createProjectServer}
 */
export async function createApplicationServer(options: ProjectServerOptions & { canonicalApplier: string }): Promise<ProjectServer> {
  checkAccessIds({ proposalWriter: options.proposals?.writer ?? options.proposalWriter, canonicalApplier: options.canonicalApplier });
  const { applier } = await prepareCanonicalApplier(options.projectRoot);
  const withApplier = { ...options, applier, capabilityMode: options.capabilityMode ?? 'application' };
  if (options.proposals == null) {
    if (options.proposalWriter != null) {
      throw errors.policyViolation('a project integration binds a proposal writer only together with a confined proposal policy: pass proposals: { writer, policy }', { argument: 'proposalWriter' });
    }
    return buildServer({ ...withApplier, proposalWriter: null }, 'project');
  }
  return buildServer({ ...withApplier, proposalWriter: options.proposals.writer }, 'project', null, options.proposals.policy);
}

/**
 * The default {@link DeclaredOutputs} of a bound server: the cheap render status of every declared
 * view (`[[views]]`) through @docforge/render (receipts, the cheap source identity and one lstat per
 * output; contract "Render boundary"). After a canonical application these are normally `stale`;
 * declared outputs are re-rendered only by the local CLI (`docforge render`), never over MCP.
 */
function declaredOutputsOf(manager: IndexManager): DeclaredOutputs {
  return () => declaredOutputsReport(manager.descriptor(), manager.cheapIdentity());
}
