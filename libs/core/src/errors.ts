/**
 * The one registry of DocForge wire error codes (DESIGN.md section 5; contract: MCP boundary).
 * Codes are permanent snake_case strings; messages may change. Every code is documented in
 * docs/errors.md, and a test checks both directions.
 */

/** A registry entry: default message and the remediation a client should follow. */
export interface ErrorSpec {
  message: string;
  /** Stable snake_case remediation keyword a client can act on. */
  remediation: string;
  /** Whether the failure reflects stale state (contract: staleness). */
  stale?: boolean;
}

export const ERROR_CODES = {
  invalid_arguments: { message: 'The tool arguments do not match the tool input schema.', remediation: 'fix_arguments' },
  node_not_found: { message: 'No node with that id exists in the current index generation.', remediation: 'search_for_node' },
  path_outside_root: { message: 'A path resolves outside the bound project root.', remediation: 'fix_path' },
  lock_timeout: { message: 'The index publication lock could not be acquired in time.', remediation: 'retry_later' },
  index_unavailable: { message: 'No valid index publication is available.', remediation: 'fix_sources_then_sync' },
  descriptor_invalid: { message: 'The project descriptor docforge.toml is invalid.', remediation: 'fix_descriptor' },
  stale_cursor: { message: 'The cursor belongs to another generation, collection or request.', remediation: 'restart_pagination', stale: true },
  invalid_cursor: { message: 'The cursor is malformed or corrupted.', remediation: 'restart_pagination' },
  result_too_large: { message: 'The result cannot fit inside the configured response limit.', remediation: 'narrow_request' },
  proposal_access_disabled: { message: 'Proposal access was not enabled at startup (--proposal-writer).', remediation: 'restart_with_proposal_writer' },
  adapter_restart_required: { message: 'The project-owned adapter changed after process start.', remediation: 'restart_project_server', stale: true },
  adapter_policy_forbids_logic: { message: 'The effective policy forbids function Logic (--no-ast or lexical strategy).', remediation: 'use_graph_tools' },
  adapter_failed: { message: 'The project-owned adapter failed to load or run.', remediation: 'fix_adapter_then_restart' },
  task_context_unavailable: { message: 'This server uses a custom context provider and exposes no task planner.', remediation: 'use_get_context' },
  logic_not_found: { message: 'No stored Logic projection exists for that owner node.', remediation: 'use_function_or_method_id' },
  policy_violation: { message: 'The index violates the effective process policy.', remediation: 'restart_project_server' },
  internal_error: { message: 'An unexpected internal error occurred; nothing was changed.', remediation: 'report_bug' },
} as const satisfies Record<string, ErrorSpec>;

/** Every registered wire error code. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** Structured error payload as it appears on the wire: `error: { code, message, remediation, details }`. */
export interface WireError {
  code: ErrorCode;
  message: string;
  remediation: string;
  details: Record<string, unknown>;
}

/**
 * The one error type libs throw for expected failures. Foreign errors are wrapped with the
 * original as `cause` and never reach the wire raw.
 */
export class DocforgeError extends Error {
  readonly code: ErrorCode;
  readonly remediation: string;
  readonly details: Record<string, unknown>;

  /**
   * @param code a registered code from {@link ERROR_CODES}
   * @param message overrides the registry message when given
   * @param details JSON-serializable specifics (never document content)
   */
  constructor(code: ErrorCode, message?: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(message ?? ERROR_CODES[code].message, options);
    this.name = 'DocforgeError';
    this.code = code;
    this.remediation = ERROR_CODES[code].remediation;
    this.details = details;
  }

  /** The wire shape of this error. */
  toWire(): WireError {
    return { code: this.code, message: this.message, remediation: this.remediation, details: this.details };
  }
}

/** Wraps any thrown value as a DocforgeError (`internal_error` unless it already is one). */
export function toDocforgeError(error: unknown, fallback: ErrorCode = 'internal_error'): DocforgeError {
  if (error instanceof DocforgeError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new DocforgeError(fallback, `${ERROR_CODES[fallback].message} (${message})`, {}, { cause: error });
}

/** Whether a string is a registered error code. */
export function isErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_CODES, code);
}
