/**
 * One definition per tool (STYLE.md; the MCP SDK's `registerTool` keeps everything about a tool in
 * one place): `defineTool()` binds a contract tool name to its input and output schemas and
 * annotations from protocol/, its precompiled validators, and a handler typed with the generated
 * input type. Every tool lives in `tools/<tool>.ts`; `tools/index.ts` lists them.
 */
import type { CanonicalApplier, ProposalPolicy } from '@docforge/changesets';
import type { SyncReport, IndexManager } from '@docforge/sync';
import type { Capabilities, DiagnosticsCollector, EffectivePolicy, ToolName } from '@docforge/policy';
import { argumentsError, type TestFaults } from '@docforge/core';
import { loadToolSchema, TOOL_VALIDATORS, type SchemaToolName, type SchemaValidator, type ToolAnnotations, type ToolInputs } from '@docforge/protocol';
import type { ContextProvider } from '@docforge/retrieval';
import type { ProjectBlock } from './envelope.js';

/** Everything a tool handler may use; fixed for the life of the process except the index manager's state. */
export interface ToolContext {
  manager: IndexManager;
  policy: EffectivePolicy;
  capabilities: Capabilities;
  /** ISO time the process bound the project root. */
  boundAt: string;
  /** Tool names and descriptions in registration order. */
  toolList: readonly { name: string; description: string; readOnly: boolean }[];
  /** A project-owned custom context provider (read-only integrations only); null or absent for the core packer. */
  contextProvider?: ContextProvider | null;
  /** The confined proposal policy of a project integration (createProjectServer); null or absent otherwise. */
  proposalPolicy?: ProposalPolicy | null;
  /** The canonical applier bound at start (issue 11); null or absent when application is disabled. */
  applier?: CanonicalApplier | null;
  /** Render status of the declared outputs after a canonical change (see {@link DeclaredOutputs}). */
  declaredOutputs?: DeclaredOutputs | null;
  /** Test-only fault points read at start (`DOCFORGE_TEST_FAULT_POINT`); absent: none armed. */
  testFaults?: TestFaults;
}

/**
 * The seam through which the composition root reports declared outputs in an application result
 * (issue 11, item 4: "the result reports their render status, now stale, and the CLI command
 * that renders them"); libs/render supplies it. Absent: no outputs are reported.
 */
export type DeclaredOutputs = () => { outputs: { view_id: string; output: string; status: string }[]; command: string | null };

/** A contract tool name (policy's fixed list) that also has schemas in protocol/. */
export type DefinableToolName = ToolName & SchemaToolName;

/** The `result` object of a success envelope. */
export type ToolResult = Record<string, unknown>;

/** What a status handler returns: the result and the project block it can prove from cheap identities (null: none). */
export interface StatusOutcome {
  result: ToolResult;
  project: ProjectBlock | null;
}

/** Fields every tool spec shares. */
interface ToolSpecBase<N extends DefinableToolName> {
  name: N;
  /**
   * A check after argument validation and BEFORE synchronization or any index read (e.g. a policy
   * refusal); it throws a DocforgeError to refuse the call.
   */
  precheck?: (ctx: ToolContext, args: ToolInputs[N]) => void;
}

/** A tool that runs after the index is synchronized (the normal case). */
export interface SyncToolSpec<N extends DefinableToolName> extends ToolSpecBase<N> {
  kind: 'sync';
  handler: (ctx: ToolContext, sync: SyncReport, args: ToolInputs[N], diagnostics: DiagnosticsCollector | null) => ToolResult | Promise<ToolResult>;
}

/**
 * A status tool runs WITHOUT synchronization (contract: status boundaries are non-repairing: they
 * never open SQLite, parse, sync, build or write).
 */
export interface StatusToolSpec<N extends DefinableToolName> extends ToolSpecBase<N> {
  kind: 'status';
  handler: (ctx: ToolContext, args: ToolInputs[N], diagnostics: DiagnosticsCollector | null) => StatusOutcome | Promise<StatusOutcome>;
}

/** A tool spec as written in `tools/<tool>.ts`. */
export type ToolSpec<N extends DefinableToolName> = SyncToolSpec<N> | StatusToolSpec<N>;

/**
 * A complete tool definition as the server holds it: the spec's name and kind, everything protocol/
 * says about the tool, and its stages with the argument type erased. Each stage re-checks the
 * arguments against the tool's own input schema (a type guard), so a handler only ever sees
 * arguments of its generated input type.
 */
export interface ToolDefinition {
  readonly name: DefinableToolName;
  readonly kind: 'sync' | 'status';
  readonly description: string;
  readonly annotations: ToolAnnotations;
  /** The raw JSON Schemas published by `tools/list`. */
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema: Record<string, unknown>;
  /** Precompiled (ajv standalone) validator of the whole response envelope (output schema). */
  readonly validateOutput: SchemaValidator<unknown>;
  /** Lifecycle stage "validate". @throws DocforgeError `invalid_arguments` naming each failing path (enum errors list the allowed values). */
  checkArguments(args: unknown): void;
  /** Lifecycle stage "precheck" (before sync; a no-op for most tools). @throws DocforgeError to refuse the call */
  precheck(ctx: ToolContext, args: unknown): void;
  /** Lifecycle stage "handler" of a sync tool. @throws Error when called on a status tool */
  runSync(ctx: ToolContext, sync: SyncReport, args: unknown, diagnostics: DiagnosticsCollector | null): Promise<ToolResult>;
  /** Lifecycle stage "handler" of a status tool (no sync). @throws Error when called on a sync tool */
  runStatus(ctx: ToolContext, args: unknown, diagnostics: DiagnosticsCollector | null): Promise<StatusOutcome>;
}

/** The shared `invalid_arguments` error of a schema mismatch (moved to @docforge/core so the CLI reports the same). */
export { argumentsError };

/**
 * Defines one tool. The name must be a contract tool (from @docforge/policy) with schemas in
 * protocol/schemas/v1/tools; the handler and precheck receive arguments of the generated input
 * type, checked by the precompiled validator.
 * @throws Error when the tool's schema files are missing (a packaging defect)
 */
export function defineTool<N extends DefinableToolName>(spec: ToolSpec<N>): ToolDefinition {
  const schema = loadToolSchema(spec.name);
  const validateInput = TOOL_VALIDATORS[spec.name].input as unknown as SchemaValidator<ToolInputs[N]>;
  const typed = (args: unknown): ToolInputs[N] => {
    if (!validateInput(args)) throw argumentsError(spec.name, validateInput.errors, schema.input);
    return args;
  };
  return Object.freeze({
    name: spec.name,
    kind: spec.kind,
    description: schema.description,
    annotations: schema.annotations,
    inputSchema: schema.input,
    outputSchema: schema.output,
    validateOutput: TOOL_VALIDATORS[spec.name].output as SchemaValidator<unknown>,
    checkArguments(args: unknown): void {
      typed(args);
    },
    precheck(ctx: ToolContext, args: unknown): void {
      spec.precheck?.(ctx, typed(args));
    },
    async runSync(ctx: ToolContext, sync: SyncReport, args: unknown, diagnostics: DiagnosticsCollector | null): Promise<ToolResult> {
      if (spec.kind !== 'sync') throw new Error(`${spec.name} is a status tool`);
      return spec.handler(ctx, sync, typed(args), diagnostics);
    },
    async runStatus(ctx: ToolContext, args: unknown, diagnostics: DiagnosticsCollector | null): Promise<StatusOutcome> {
      if (spec.kind !== 'status') throw new Error(`${spec.name} is a sync tool`);
      return spec.handler(ctx, typed(args), diagnostics);
    },
  });
}

/**
 * The `tools/list` entries of registered tools, in registration order: name, description, the raw
 * input and output JSON Schemas from protocol/ and the annotations (DESIGN.md section 8: the
 * low-level SDK `Server` publishes the schemas as they are).
 */
export function toolListing(tools: Iterable<ToolDefinition>): { tools: { name: string; description: string; inputSchema: { type: 'object' }; outputSchema: { type: 'object' }; annotations: ToolDefinition['annotations'] }[] } {
  return {
    tools: [...tools].map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema as { type: 'object' },
      outputSchema: t.outputSchema as { type: 'object' },
      annotations: t.annotations,
    })),
  };
}
