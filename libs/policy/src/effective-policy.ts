/**
 * The versioned effective process policy (contract: MCP boundary, capability-mode paragraph, and
 * "Preserved no-AST bindings"; DESIGN.md section 5 "Policy"). It is computed once from the startup
 * options, deep-frozen, and never changes for the life of the process: changing it means starting
 * a new MCP process.
 */
import { accessIdProblem, errors, hashJson, MAX_ACCESS_ID_LENGTH, type DocforgeError } from '@docforge/core';
import type { AdapterStrategy } from '@docforge/core';

/** The `--capability-mode` values, from least to most privileged. */
export type CapabilityMode = 'read' | 'proposal' | 'application' | 'operator';

/** Every capability mode, in privilege order. */
export const CAPABILITY_MODES: readonly CapabilityMode[] = Object.freeze(['read', 'proposal', 'application', 'operator']);

/**
 * How the server was constructed: `generic` is the `docforge-mcp` command (it follows the ordinary
 * project factory), `read_only` is the read-only project-integration factory (it can never register
 * proposal tools), `project` is the full project-integration factory.
 */
export type PolicyFactory = 'generic' | 'read_only' | 'project';

/** Startup options the policy is computed from (already parsed from the command line or factory call). */
export interface PolicyOptions {
  /** `--capability-mode`; null selects the factory default. */
  capabilityMode: CapabilityMode | null;
  factory: PolicyFactory;
  /** `--proposal-writer WRITER_ID`, or null when proposal access is not enabled. */
  proposalWriter: string | null;
  /** `--canonical-applier WRITER_ID`, or null when the canonical application gate is closed. */
  canonicalApplier: string | null;
  /** `--no-ast`. */
  noAst: boolean;
  /** `--diagnostics`. */
  diagnostics: boolean;
  /** The adapter extraction strategy from the project descriptor; `--no-ast` preserves it. */
  adapterStrategy: AdapterStrategy;
  /**
   * Module specifier of a project-owned adapter, or null for the built-in adapters. Only whether
   * one is bound enters the policy: the specifier is machine-specific and stays out of responses.
   */
  projectAdapterModule: string | null;
}

/**
 * Operation categories the normal server never exposes (contract: "Excluded tools"), sorted.
 * `canonical_application` joins them without the applier gate; `adapter_ast_upgrade` and
 * `function_logic_extraction` join them under `--no-ast`.
 */
export const ALWAYS_EXCLUDED_OPERATIONS: readonly string[] = Object.freeze([
  'arbitrary_file_read',
  'arbitrary_file_write',
  'arbitrary_renderer_execution',
  'cross_project_retrieval',
  'deployment',
  'external_http_binding',
  'git_mutation',
  'global_project_selection',
  'project_build',
  'publication',
  'shell_execution',
]);

/** Operations excluded under `--no-ast` (contract: "Preserved no-AST bindings"). */
export const NO_AST_EXCLUDED_OPERATIONS: readonly string[] = Object.freeze(['adapter_ast_upgrade', 'function_logic_extraction']);

/** Maximum length of a writer or applier ID (the grammar lives in @docforge/core `accessIdProblem`). */
export { MAX_ACCESS_ID_LENGTH };

/**
 * Effective process policy, schema version 1, as reported by `docforge_bootstrap` and
 * `docforge_get_contract` under `effective_policy`. Deep-frozen.
 */
export interface EffectivePolicy {
  readonly schema_version: 1;
  /** The resolved mode (the factory default when `--capability-mode` was omitted). */
  readonly capability_mode: CapabilityMode;
  /** Whether the mode came from `--capability-mode` (`option`) or the factory default. */
  readonly capability_mode_source: 'option' | 'factory_default';
  readonly factory: PolicyFactory;
  /** Proposal access: enabled only with a bound proposal writer and a mode exposing proposal tools. */
  readonly proposal: { readonly enabled: boolean; readonly writer_id: string | null };
  /**
   * Canonical application: enabled only with a bound canonical applier and mode `application`
   * (or `operator`, which includes the application surface). Always exact-hash bound.
   */
  readonly application: { readonly enabled: boolean; readonly applier_id: string | null; readonly exact_hash_required: true };
  /** AST policy: `logic_allowed` is `!no_ast && adapter_strategy === 'ast'`. */
  readonly ast: { readonly no_ast: boolean; readonly adapter_strategy: AdapterStrategy; readonly logic_allowed: boolean };
  /** Whether a project-owned adapter module is bound (its specifier is not reported). */
  readonly adapter: { readonly project_owned: boolean };
  /** Sorted excluded operation categories. */
  readonly excluded_operations: readonly string[];
  readonly diagnostics: { readonly enabled: boolean };
  /** SHA-256 hex of the canonical JSON of every other field ({@link hashJson}). */
  readonly policy_hash: string;
}

/** Recursively freezes a plain JSON value (objects and arrays) and returns it. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}

function invalid(message: string, details: Record<string, unknown>): DocforgeError {
  return errors.invalidArguments(message, details);
}

function checkAccessId(option: string, value: unknown): string | null {
  if (value === null) return null;
  // One grammar for every id (@docforge/core access-id.ts): ids land in changesets, receipts, logs and instructions.
  const problem = accessIdProblem(option, value);
  if (problem !== null) throw invalid(problem, { option });
  return value as string;
}

function resolveMode(options: PolicyOptions): { mode: CapabilityMode; source: 'option' | 'factory_default' } {
  if (options.capabilityMode === null) {
    if (options.factory === 'read_only') return { mode: 'read', source: 'factory_default' };
    // The ordinary project factory (and the generic command, which follows it) exposes the proposal
    // surface; with the canonical applier gate open it is the application-enabled factory.
    return { mode: options.canonicalApplier === null ? 'proposal' : 'application', source: 'factory_default' };
  }
  return { mode: options.capabilityMode, source: 'option' };
}

/**
 * Computes the effective process policy once at startup.
 *
 * Mode defaults: `read_only` factory → `read`; `generic` and `project` → `proposal`, or
 * `application` when a canonical applier is bound. Proposal access needs a writer and a mode other
 * than `read`; application needs an applier and mode `application` or `operator`.
 *
 * @returns a deep-frozen {@link EffectivePolicy}
 * @throws DocforgeError `invalid_arguments` (fail closed) when mode `application` has no
 *   `--canonical-applier`, when the read-only factory is asked for a wider mode, or when an option
 *   value is outside its closed set or an ID does not match the id grammar (@docforge/core
 *   `accessIdProblem`: 1 to 256 letters, digits, `.`, `_` or `-`, starting with a letter or digit).
 */
export function computeEffectivePolicy(options: PolicyOptions): EffectivePolicy {
  if (options.capabilityMode !== null && !CAPABILITY_MODES.includes(options.capabilityMode)) {
    throw invalid('--capability-mode must be one of read, proposal, application, operator.', { option: '--capability-mode' });
  }
  if (!['generic', 'read_only', 'project'].includes(options.factory)) {
    throw invalid('Unknown server factory.', { option: 'factory' });
  }
  if (options.adapterStrategy !== 'ast' && options.adapterStrategy !== 'lexical') {
    throw invalid('Adapter strategy must be ast or lexical.', { option: 'adapter_strategy' });
  }
  if (typeof options.noAst !== 'boolean' || typeof options.diagnostics !== 'boolean') {
    throw invalid('--no-ast and --diagnostics are boolean flags.', { option: typeof options.noAst !== 'boolean' ? '--no-ast' : '--diagnostics' });
  }
  const writer = checkAccessId('--proposal-writer', options.proposalWriter);
  const applier = checkAccessId('--canonical-applier', options.canonicalApplier);
  const { mode, source } = resolveMode(options);

  if (options.factory === 'read_only' && mode !== 'read') {
    throw invalid(`The read-only server factory cannot register proposal tools; capability mode ${mode} is unavailable.`, {
      option: '--capability-mode',
      capability_mode: mode,
    });
  }
  if (mode === 'application' && applier === null) {
    throw invalid('Capability mode application requires --canonical-applier WRITER_ID; canonical application stays disabled.', {
      option: '--capability-mode',
      capability_mode: mode,
    });
  }

  const proposalEnabled = writer !== null && mode !== 'read';
  const applicationEnabled = applier !== null && (mode === 'application' || mode === 'operator');
  const excluded = [...ALWAYS_EXCLUDED_OPERATIONS];
  if (!applicationEnabled) excluded.push('canonical_application');
  if (options.noAst) excluded.push(...NO_AST_EXCLUDED_OPERATIONS);
  excluded.sort();

  const body = {
    schema_version: 1 as const,
    capability_mode: mode,
    capability_mode_source: source,
    factory: options.factory,
    proposal: { enabled: proposalEnabled, writer_id: proposalEnabled ? writer : null },
    application: { enabled: applicationEnabled, applier_id: applicationEnabled ? applier : null, exact_hash_required: true as const },
    ast: {
      no_ast: options.noAst,
      adapter_strategy: options.adapterStrategy,
      logic_allowed: !options.noAst && options.adapterStrategy === 'ast',
    },
    adapter: { project_owned: options.projectAdapterModule !== null },
    excluded_operations: excluded,
    diagnostics: { enabled: options.diagnostics },
  };
  return deepFreeze({ ...body, policy_hash: hashJson(body) });
}

/**
 * The legacy `adapter_policy` object (contract: "Preserved no-AST bindings", last paragraph).
 * Key order is fixed so `JSON.stringify` output stays byte-compatible.
 */
export interface LegacyAdapterPolicy {
  readonly adapter_evolution: 'allowed' | 'forbidden';
  readonly ast_analysis: 'allowed' | 'forbidden';
  readonly logic_indexing: 'allowed' | 'forbidden';
  readonly no_ast: boolean;
}

/**
 * Projects the effective policy onto the legacy `adapter_policy` object. `--no-ast` restrictively
 * sets adapter evolution, AST analysis and Logic indexing to `forbidden` and widens nothing; the
 * legacy object depended on `--no-ast` alone, so the descriptor's adapter strategy does not enter
 * it (it is reported in `effective_policy.ast` instead).
 * @returns a frozen object whose `JSON.stringify` is
 *   `{"adapter_evolution":"allowed","ast_analysis":"allowed","logic_indexing":"allowed","no_ast":false}`
 *   by default and `{"adapter_evolution":"forbidden","ast_analysis":"forbidden","logic_indexing":"forbidden","no_ast":true}`
 *   under `--no-ast`.
 */
export function legacyAdapterPolicy(policy: EffectivePolicy): LegacyAdapterPolicy {
  const permission = policy.ast.no_ast ? 'forbidden' : 'allowed';
  // Literal construction (not a spread) pins the key order the legacy bytes depend on.
  return Object.freeze({
    adapter_evolution: permission,
    ast_analysis: permission,
    logic_indexing: permission,
    no_ast: policy.ast.no_ast,
  });
}
