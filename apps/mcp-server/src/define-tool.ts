/**
 * One definition per tool (STYLE.md; the MCP SDK's `registerTool` keeps everything about a tool in
 * one place): `defineTool()` binds a contract tool's protocol record (description, annotations,
 * input and output schemas and their precompiled validators, loaded by {@link loadProtocolTool}),
 * its kind, its fit strategy ({@link FIT_STRATEGIES}) and a handler typed with the generated
 * input type that returns a typed {@link ToolOutcome}. Every tool lives in `tools/<tool>.ts`;
 * `tools/index.ts` lists them.
 */
import type { CanonicalApplier, ProposalPolicy } from '@docforge/changesets';
import type { SyncReport, IndexManager } from '@docforge/sync';
import type { Capabilities, DiagnosticsCollector, EffectivePolicy, ToolName } from '@docforge/policy';
import { argumentsError, type TestFaults } from '@docforge/core';
import { publishedTool, TOOL_VALIDATORS, type SchemaToolName, type SchemaValidator, type ToolAnnotations, type ToolInputs } from '@docforge/protocol';
import type { ContextProvider } from '@docforge/retrieval';
import type { ProjectBlock } from './envelope.js';
import type { ApplicationGate } from './application-gate.js';
import { isFitStrategy, type AnyToolOutcome, type FitStrategy, type StatusOutcome, type ToolOutcome } from './outcome.js';
import { withNormalIds } from './argument-ids.js';

export type { ToolResult, StatusOutcome, ToolOutcome } from './outcome.js';

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
  /** The recovery gate of a `--canonical-applier` start (application-gate.ts): passed before every tool call; absent: none. */
  gate?: ApplicationGate | null;
}

/**
 * The seam through which the composition root reports declared outputs in an application result
 * (issue 11, item 4: "the result reports their render status, now stale, and the CLI command
 * that renders them"); libs/render supplies it. Absent: no outputs are reported.
 */
export type DeclaredOutputs = () => { outputs: { view_id: string; output: string; status: string }[]; command: string | null };

/** A contract tool name (policy's fixed list) that also has schemas in protocol/. */
export type DefinableToolName = ToolName & SchemaToolName;

/**
 * Everything protocol/ says about one tool, loaded from `protocol/schemas/v1/tools/`: the
 * description and annotations of `<name>.tool.json`, the input and output JSON Schemas of
 * `<name>.input.schema.json` and `<name>.output.schema.json`, and their precompiled (ajv
 * standalone) validators.
 */
export interface ProtocolTool<N extends DefinableToolName> {
  readonly name: N;
  readonly description: string;
  readonly annotations: ToolAnnotations;
  /** The raw JSON Schemas published by `tools/list`. */
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema: Record<string, unknown>;
  readonly validateInput: SchemaValidator<ToolInputs[N]>;
  /** Validator of the whole response envelope (output schema). */
  readonly validateOutput: SchemaValidator<unknown>;
}

/**
 * Loads what protocol/ says about tool `name` (see {@link ProtocolTool}); every `tools/<tool>.ts`
 * calls it in its `defineTool()` so that the file names where its description, annotations and
 * schemas come from. The published schemas are the ones generated from protocol/schemas
 * (`publishedTool`, issue 29 item 7), equal to what `loadToolSchema` computes.
 * @throws Error when the tool has no published schemas (a packaging defect)
 */
export function loadProtocolTool<N extends DefinableToolName>(name: N): ProtocolTool<N> {
  const schema = publishedTool(name);
  return Object.freeze({
    name,
    description: schema.description,
    annotations: schema.annotations,
    inputSchema: schema.input,
    outputSchema: schema.output,
    validateInput: TOOL_VALIDATORS[name].input as unknown as SchemaValidator<ToolInputs[N]>,
    validateOutput: TOOL_VALIDATORS[name].output as SchemaValidator<unknown>,
  });
}

/** Fields every tool spec shares. */
interface ToolSpecBase<N extends DefinableToolName, F extends FitStrategy> {
  /** Description, annotations, schemas and validators: `loadProtocolTool('<name>')`. */
  protocol: ProtocolTool<N>;
  /** How a result too large for `[limits].max_output_chars` is fitted (see {@link FIT_STRATEGIES}). */
  fit: F;
  /**
   * A check after argument validation and BEFORE synchronization or any index read (e.g. a policy
   * refusal); it throws a DocforgeError to refuse the call.
   */
  precheck?: (ctx: ToolContext, args: ToolInputs[N]) => void;
}

/** A tool that runs after the index is synchronized (the normal case). */
export interface SyncToolSpec<N extends DefinableToolName, F extends FitStrategy> extends ToolSpecBase<N, F> {
  kind: 'sync';
  handler: (ctx: ToolContext, sync: SyncReport, args: ToolInputs[N], diagnostics: DiagnosticsCollector | null) => ToolOutcome<F> | Promise<ToolOutcome<F>>;
}

/**
 * A status tool runs WITHOUT synchronization (contract: status boundaries are non-repairing: they
 * never open SQLite, parse, sync, build or write).
 */
export interface StatusToolSpec<N extends DefinableToolName, F extends FitStrategy> extends ToolSpecBase<N, F> {
  kind: 'status';
  handler: (ctx: ToolContext, args: ToolInputs[N], diagnostics: DiagnosticsCollector | null) => StatusOutcome<F> | Promise<StatusOutcome<F>>;
}

/** A tool spec as written in `tools/<tool>.ts`. */
export type ToolSpec<N extends DefinableToolName, F extends FitStrategy> = SyncToolSpec<N, F> | StatusToolSpec<N, F>;

/**
 * Arguments that passed one tool's input validator (lifecycle stage `validate`): the only form
 * the later stages accept, so a call's arguments are validated exactly once.
 */
export interface CheckedArguments {
  /** The tool whose input schema accepted them. */
  readonly tool: DefinableToolName;
  readonly value: unknown;
}

/**
 * A complete tool definition as the server holds it: the spec's name, kind and fit strategy,
 * everything protocol/ says about the tool, and its stages with the argument type erased.
 */
export interface ToolDefinition {
  readonly name: DefinableToolName;
  readonly kind: 'sync' | 'status';
  /** The declared fit strategy, one of {@link FIT_STRATEGIES}. */
  readonly fit: FitStrategy;
  readonly description: string;
  readonly annotations: ToolAnnotations;
  /** The raw JSON Schemas published by `tools/list`. */
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema: Record<string, unknown>;
  /** Precompiled (ajv standalone) validator of the whole response envelope (output schema). */
  readonly validateOutput: SchemaValidator<unknown>;
  /** Lifecycle stage "validate", the only validation of a call's arguments. @throws DocforgeError `invalid_arguments` naming each failing path (enum errors list the allowed values) */
  checkArguments(args: unknown): CheckedArguments;
  /** Lifecycle stage "precheck" (before sync; a no-op for most tools). @throws DocforgeError to refuse the call */
  precheck(ctx: ToolContext, args: CheckedArguments): void;
  /** Lifecycle stage "handler" of a sync tool. @throws Error when called on a status tool or with another tool's arguments */
  runSync(ctx: ToolContext, sync: SyncReport, args: CheckedArguments, diagnostics: DiagnosticsCollector | null): Promise<AnyToolOutcome>;
  /** Lifecycle stage "handler" of a status tool (no sync). @throws Error when called on a sync tool or with another tool's arguments */
  runStatus(ctx: ToolContext, args: CheckedArguments, diagnostics: DiagnosticsCollector | null): Promise<AnyToolOutcome & { project: ProjectBlock | null }>;
}

/** The shared `invalid_arguments` error of a schema mismatch (moved to @docforge/core so the CLI reports the same). */
export { argumentsError };

/**
 * Defines one tool from its protocol record ({@link loadProtocolTool}), kind, fit strategy,
 * optional precheck and handler. The precheck and handler receive arguments of the generated
 * input type, checked once by the precompiled validator in stage `validate`.
 * @throws Error when the fit strategy is not one of {@link FIT_STRATEGIES}
 */
export function defineTool<N extends DefinableToolName, F extends FitStrategy>(spec: ToolSpec<N, F>): ToolDefinition {
  const protocol = spec.protocol;
  if (!isFitStrategy(spec.fit)) throw new Error(`${protocol.name}: unknown fit strategy ${String(spec.fit)}`);
  const inputsOf = (args: CheckedArguments): ToolInputs[N] => {
    // The validator of THIS tool accepted them (checkArguments below is the only maker).
    if (args.tool !== protocol.name) throw new Error(`${protocol.name} was given arguments checked for ${args.tool}`);
    return args.value as ToolInputs[N];
  };
  return Object.freeze({
    name: protocol.name,
    kind: spec.kind,
    fit: spec.fit,
    description: protocol.description,
    annotations: protocol.annotations,
    inputSchema: protocol.inputSchema,
    outputSchema: protocol.outputSchema,
    validateOutput: protocol.validateOutput,
    checkArguments(args: unknown): CheckedArguments {
      if (!protocol.validateInput(args)) throw argumentsError(protocol.name, protocol.validateInput.errors, protocol.inputSchema, args);
      return Object.freeze({ tool: protocol.name, value: withNormalIds(args) });
    },
    precheck(ctx: ToolContext, args: CheckedArguments): void {
      spec.precheck?.(ctx, inputsOf(args));
    },
    async runSync(ctx: ToolContext, sync: SyncReport, args: CheckedArguments, diagnostics: DiagnosticsCollector | null): Promise<AnyToolOutcome> {
      if (spec.kind !== 'sync') throw new Error(`${protocol.name} is a status tool`);
      return spec.handler(ctx, sync, inputsOf(args), diagnostics);
    },
    async runStatus(ctx: ToolContext, args: CheckedArguments, diagnostics: DiagnosticsCollector | null): Promise<AnyToolOutcome & { project: ProjectBlock | null }> {
      if (spec.kind !== 'status') throw new Error(`${protocol.name} is a sync tool`);
      return spec.handler(ctx, inputsOf(args), diagnostics);
    },
  });
}

/**
 * The `tools/list` entries of registered tools, in registration order: name, description, the raw
 * input and output JSON Schemas from protocol/ and the annotations (DESIGN.md section 8: the
 * low-level SDK `Server` publishes the schemas as they are).
 */
export function toolListing(tools: Iterable<ToolDefinition>): { tools: { name: string; description: string; inputSchema: { type: 'object' }; outputSchema: { type: 'object' }; annotations: Partial<ToolAnnotations> }[] } {
  return {
    tools: [...tools].map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema as { type: 'object' },
      outputSchema: t.outputSchema as { type: 'object' },
      annotations: listedAnnotations(t),
    })),
  };
}

/** The annotations as listed: a `title` that only repeats the tool's name is left out (issue 30 item 13; MCP makes it optional). */
function listedAnnotations(t: ToolDefinition): Partial<ToolAnnotations> {
  const { title, ...hints } = t.annotations;
  return title === t.name ? hints : t.annotations;
}
