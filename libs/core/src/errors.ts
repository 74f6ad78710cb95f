/**
 * The one registry of DocForge wire error codes (DESIGN.md section 5; contract: MCP boundary).
 * Codes are permanent snake_case strings; messages may change. Every code is documented in
 * docs/errors.md, and a test checks both directions.
 */

/** A registry entry: default message, message template and the remediation a client should follow. */
export interface ErrorSpec {
  /** Message when nothing more specific is known (no template parameters). */
  message: string;
  /**
   * Message template of the code's factory in {@link errors}: `{name}` inserts the parameter as
   * JSON (strings quoted, e.g. an id), `{name:raw}` inserts it as plain text.
   */
  template: string;
  /** Stable snake_case remediation keyword a client can act on. */
  remediation: string;
  /** Whether the failure reflects stale state (contract: staleness). */
  stale?: boolean;
}

/** Node languages whose built-in adapter builds function Logic (TypeScript/JavaScript and the tree-sitter family; not Python). */
export const LOGIC_LANGUAGES: readonly string[] = Object.freeze(['typescript', 'javascript', 'go', 'rust', 'java', 'csharp', 'c', 'ruby', 'php', 'cpp']);

/**
 * Why a node of `kind` in `language` (null: not code) has no stored Logic, one sentence: not a
 * function or method; a function of a language whose adapter builds no Logic (Python); or a
 * function of a Logic language whose body gave none (a declaration without a body, a file that did not parse).
 */
export function logicAbsenceReason(kind: string, language: string | null): string {
  if (kind !== 'function' && kind !== 'method') return 'Logic exists for functions and methods only.';
  if (language === null || !LOGIC_LANGUAGES.includes(language)) {
    return `the ${language ?? 'node\'s'} language adapter builds no Logic (Logic is built for functions and methods of ${LOGIC_LANGUAGES.join(', ')} code).`;
  }
  return 'its adapter stored none for it (a declaration without a body, or a file that did not parse).';
}

export const ERROR_CODES = {
  invalid_arguments: { message: 'The tool arguments do not match the tool input schema.', template: '{reason:raw}', remediation: 'fix_arguments' },
  node_not_found: { message: 'No node with that id exists in the current index generation.', template: 'No node with id {node_id} exists.{hint:raw}', remediation: 'search_for_node' },
  path_outside_root: { message: 'A path resolves outside the bound project root.', template: '{reason:raw}', remediation: 'fix_path' },
  lock_timeout: { message: 'The index publication lock could not be acquired in time.', template: 'The {lock:raw} lock could not be acquired in time.', remediation: 'retry_later' },
  index_unavailable: { message: 'No valid index publication is available.', template: '{reason:raw}', remediation: 'fix_sources_then_sync' },
  descriptor_invalid: { message: 'The project descriptor docforge.toml is invalid.', template: '{reason:raw}', remediation: 'fix_descriptor' },
  stale_cursor: { message: 'The cursor belongs to another generation, collection or request.', template: '{reason:raw}', remediation: 'restart_pagination', stale: true },
  invalid_cursor: { message: 'The cursor is malformed or corrupted.', template: '{reason:raw}', remediation: 'restart_pagination' },
  result_too_large: { message: 'The result cannot fit inside the configured response limit.', template: 'The result needs {needed_chars} characters; the limit is {max_output_chars}.', remediation: 'narrow_request' },
  proposal_access_disabled: { message: 'Proposal access was not enabled at startup (--proposal-writer).', template: '{tool} needs proposal access, which was not enabled at startup (--proposal-writer).', remediation: 'restart_with_proposal_writer' },
  adapter_restart_required: { message: 'The project-owned adapter changed after process start.', template: '{reason:raw}', remediation: 'restart_project_server', stale: true },
  adapter_policy_forbids_logic: { message: 'The effective policy forbids function Logic (--no-ast or lexical strategy).', template: 'The effective policy forbids function Logic ({reason:raw}).', remediation: 'use_graph_tools' },
  adapter_failed: { message: 'The project-owned adapter failed to load or run.', template: '{reason:raw}', remediation: 'fix_adapter_then_restart' },
  task_context_unavailable: { message: 'This server uses a custom context provider and exposes no task planner.', template: 'This server binds a custom context provider; version 1 exposes no custom task planner. Use docforge_get_context.', remediation: 'use_get_context' },
  logic_not_found: { message: 'No stored Logic projection exists for that owner node.', template: 'Node {node_id} (kind {kind:raw}) has no stored Logic; {reason:raw}', remediation: 'use_function_or_method_id' },
  policy_violation: { message: 'The index violates the effective process policy.', template: '{reason:raw}', remediation: 'restart_project_server' },
  project_root_invalid: { message: 'The project root does not exist, is not a directory or is not an absolute path.', template: 'Project root {root} {problem:raw}. Point --project-root (-C for docforge) at the absolute path of an existing project directory, the folder holding docforge.toml (a running docforge-mcp binds its root at start: restart that server after the fix).', remediation: 'fix_project_root' },
  invalid_encoding: { message: 'A source file is not valid UTF-8 text; it is not indexed.', template: '{path:raw}:{line}:{column}: {reason:raw}; the file is not indexed (convert it to UTF-8).', remediation: 'fix_file_encoding' },
  changeset_not_found: { message: 'No stored changeset has that id.', template: 'No stored changeset has id {changeset_id}.', remediation: 'list_changesets' },
  changeset_not_writable: { message: 'The changeset cannot be changed by this writer or in its current status.', template: '{reason:raw}', remediation: 'create_new_changeset' },
  changeset_invalid: { message: 'The changeset cannot be registered as given.', template: '{reason:raw}', remediation: 'fix_operations' },
  changeset_corrupt: { message: 'A stored changeset document is unreadable or fails its hash check.', template: 'Stored changeset {changeset_id} is unreadable: {reason:raw}', remediation: 'inspect_changeset_store' },
  rebase_refused: { message: 'The changeset cannot move to the current base: an invariant no longer holds.', template: 'Changeset {changeset_id} cannot be rebased: {reason:raw}', remediation: 'create_new_changeset' },
  internal_error: { message: 'An unexpected internal error occurred; nothing was changed.', template: '{reason:raw}', remediation: 'report_bug' },
  // Issue 12: viewer manager protocol v2 and graph-browser workers.
  protocol_version_unsupported: { message: 'The peer speaks no viewer protocol version this side supports.', template: 'Viewer protocol version {version:raw} is not supported; this side speaks version {supported:raw}.', remediation: 'upgrade_docforge' },
  viewer_protocol_error: { message: 'A viewer protocol frame is malformed or out of order.', template: '{reason:raw}', remediation: 'report_bug' },
  viewer_unavailable: { message: 'The per-user viewer manager could not be started or reached.', template: '{reason:raw}', remediation: 'check_viewer_log' },
  // issue 30 item 20
  viewer_runtime_unsafe: { message: 'The viewer runtime folder or socket is not owned by this user, or another user can write into it.', template: 'The viewer runtime {path:raw} is not safe: {problem:raw}. Nothing was sent to it. Use a runtime folder only you own (unset DOCFORGE_VIEWER_RUNTIME_DIR, or point it or XDG_RUNTIME_DIR at such a folder).', remediation: 'fix_viewer_runtime_dir' },
  worker_failed: { message: 'A graph-browser worker failed to start or died.', template: '{reason:raw}', remediation: 'check_viewer_log' },
  worker_not_found: { message: 'The viewer manager supervises no worker with that id.', template: 'The viewer manager supervises no worker {worker_id}.', remediation: 'call_visualize_again' },
  // issue 12 (graph-browser worker)
  snapshot_replaced: { message: 'The index file this viewer serves was replaced or altered; open the view again with docforge_visualize.', template: 'The index file {index_file} this viewer serves was replaced or altered ({reason:raw}); open the view again with docforge_visualize.', remediation: 'visualize_again', stale: true },
  viewer_access_denied: { message: 'The viewer refused the request.', template: '{reason:raw}', remediation: 'open_viewer_url' },
  // Issue 11 (H11b): rendering, render status and previews.
  view_not_found: { message: 'The project descriptor declares no view with that id.', template: 'No view with id {view_id} is declared in docforge.toml (declared: {declared:raw}).', remediation: 'use_declared_view' },
  render_failed: { message: 'A declared view cannot be rendered from the current graph.', template: 'View {view_id} cannot be rendered: {reason:raw}', remediation: 'fix_view_declaration' },
  // Issue 11 (canonical application).
  application_refused: { message: 'The changeset cannot be applied to the canonical files; nothing was changed.', template: 'Changeset {changeset_id} cannot be applied: {reason:raw}', remediation: 'review_changeset' },
  application_failed: { message: 'Canonical application failed; details.restored says whether every canonical file was restored.', template: 'Applying changeset {changeset_id} failed at {stage:raw}: {reason:raw}; {outcome:raw}', remediation: 'inspect_then_retry' },
  application_in_progress: { message: 'An interrupted canonical application is open; no index generation is published from its files.', template: 'Canonical application of changeset {changeset_id} is in progress or was interrupted; the last publication is served until a gated DocForge process recovers it.', remediation: 'start_gated_process_to_recover', stale: true },
  // Applier trial F1: recovery never overwrites a file edited (or removed) after the crash.
  application_recovery_conflict: { message: 'Recovery of an interrupted canonical application stopped: a file holds neither the bytes before nor after the change; nothing was changed.', template: 'Recovery of the interrupted application of changeset {changeset_id} changed nothing: {paths:raw} hold(s) neither the bytes before nor the bytes after the change (edited, created or removed since it began, or gone with their folder), and recovery never overwrites them. Resolve by hand (details.files gives each file\'s state, backup and remedy): either {steps:raw}, then start the gated process again (it then finishes the rollback); or keep the edits, copy back from {backup_dir:raw} the backups of the files in state "after" if you want the change undone, then delete the journal {journal:raw} and that backup directory.', remediation: 'resolve_changed_files_by_hand' },
  canonical_applier_unavailable: { message: 'The project supplies no canonical applier.', template: '{reason:raw}', remediation: 'declare_canonical_applier' },
  // Viewer hardening (issue 12 fix F2): the source endpoint refuses a file that is no longer the indexed one.
  source_changed: { message: 'The source file is no longer the file that was indexed; the viewer shows only indexed content.', template: 'The source file {path} is no longer the file that was indexed ({reason:raw}); nothing was read out. Run docforge sync, then open the view again with docforge_visualize.', remediation: 'sync_then_visualize_again', stale: true },
  // Fix wave (attacker trial): a write-ahead journal that fails its schema or its confinement.
  application_journal_invalid: { message: 'The canonical-application journal cannot be trusted; recovery changed nothing.', template: 'The canonical-application journal {journal:raw} is refused and nothing was changed: {reason:raw}. Repair by hand: check the files it lists against {backup_dir:raw} (restore any half-written one), then delete the journal and that backup directory.', remediation: 'repair_journal_by_hand' },
  render_output_invalid: { message: 'A render output path cannot be written safely; nothing was written.', template: 'The output {output} of view {view_id} cannot be written: {reason:raw}. Nothing was written.', remediation: 'fix_view_output' },
  render_output_foreign: { message: 'A render output path holds a file DocForge did not write; nothing was written.', template: 'The output {output} of view {view_id} holds a file DocForge did not write: {reason:raw}. Nothing was written; move the file or choose another output.', remediation: 'move_file_or_change_output' },
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

  /**
   * Rebuilds an error that already crossed a boundary in wire form (e.g. from the build worker),
   * keeping its code, message and details as they are; new errors use the {@link errors} factories.
   */
  static fromWire(wire: WireError, options?: { cause?: unknown }): DocforgeError {
    return new DocforgeError(wire.code, wire.message, wire.details, options);
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

/** Options every factory accepts: extra JSON details merged after the factory's own, and the wrapped cause. */
export interface ErrorOptions {
  details?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * Fills a registry template: `{name}` becomes the JSON of `params[name]` (strings quoted),
 * `{name:raw}` its plain text. A missing parameter leaves the registry's default message.
 */
export function formatErrorMessage(code: ErrorCode, params: Record<string, unknown>): string {
  const spec: ErrorSpec = ERROR_CODES[code];
  let missing = false;
  const text = spec.template.replace(/\{([a-z_]+)(:raw)?\}/g, (_match, name: string, raw: string | undefined) => {
    const value = params[name];
    if (value === undefined) {
      missing = true;
      return '';
    }
    return raw ? String(value) : JSON.stringify(value);
  });
  return missing ? spec.message : text;
}

/**
 * The by-hand step of one file of an `application_recovery_conflict` that brings it back to its
 * before state, from its `remedy` (journal.ts `FileCheck`): copy its backup back, re-create its
 * folder first, or delete a file the change created (it has no backup).
 */
function recoveryStep(file: { path: string; backup: string | null; remedy: string | null }, backupDir: string): string {
  const backup = `${backupDir}/${file.backup ?? ''}`;
  if (file.remedy === 'delete_created_file' || file.backup === null) return `delete ${file.path} (the change created it, so it has no backup; keeping it means keeping the edits, the other way)`;
  const folder = file.path.includes('/') ? file.path.slice(0, file.path.lastIndexOf('/')) : '.';
  if (file.remedy === 'recreate_folder_and_copy_backup_back') return `re-create the folder ${folder} and copy the backup ${backup} back to ${file.path}`;
  return `copy the backup ${backup} back over ${file.path}`;
}

function build(code: ErrorCode, params: Record<string, unknown>, details: Record<string, unknown>, options: ErrorOptions = {}): DocforgeError {
  return new DocforgeError(code, formatErrorMessage(code, params), { ...details, ...options.details }, options.cause === undefined ? undefined : { cause: options.cause });
}

/**
 * One factory per registered code (fastify's `lib/errors.js` pattern): the message comes from the
 * code's template in {@link ERROR_CODES}, the details from the factory's parameters. Codes whose
 * cause is free-form (`invalid_arguments`, `index_unavailable`, ...) take a `reason` sentence; pass
 * undefined to get the registry's default message.
 */
export const errors = Object.freeze({
  /** `invalid_arguments`: `reason` says which argument and why; `details.argument` names it when one does. */
  invalidArguments(reason: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('invalid_arguments', { reason }, details, options);
  },
  /**
   * `node_not_found` for an exact node id (`details.node_id`). `didYouMean` names an existing id the
   * caller probably meant (`code:lib/proto.js` for `lib/proto.js`): the message asks, and
   * `details.did_you_mean` carries it. `alsoMeant`: other nodes the same source file defines when
   * the id was a source path (named in the message only).
   */
  nodeNotFound(nodeId: string, options?: ErrorOptions, didYouMean: string | null = null, alsoMeant: readonly string[] = []): DocforgeError {
    const also = alsoMeant.length === 0 ? '' : ` (that file also defines ${alsoMeant.map((id) => JSON.stringify(id)).join(', ')})`;
    const hint = didYouMean === null ? '' : ` Did you mean ${JSON.stringify(didYouMean)}${also}?`;
    return build('node_not_found', { node_id: nodeId, hint }, { node_id: nodeId, ...(didYouMean === null ? {} : { did_you_mean: didYouMean }) }, options);
  },
  /** `path_outside_root`: `details.path` is project-relative. */
  pathOutsideRoot(reason: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('path_outside_root', { reason }, details, options);
  },
  /** `lock_timeout` for the named lock (`details.lock`, e.g. `index_publication`). */
  lockTimeout(lock: string, options?: ErrorOptions): DocforgeError {
    return build('lock_timeout', { lock: lock.replace(/_/g, ' ') }, { lock }, options);
  },
  /** `index_unavailable`; without a reason, the registry message. */
  indexUnavailable(reason?: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('index_unavailable', { reason }, details, options);
  },
  /** `descriptor_invalid`: `details` names `path`, `line` and `key`. */
  descriptorInvalid(reason: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('descriptor_invalid', { reason }, details, options);
  },
  /** `stale_cursor`: `details.reason` says which binding no longer holds. */
  staleCursor(reason: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('stale_cursor', { reason }, details, options);
  },
  /** `invalid_cursor`: `reasonCode` becomes `details.reason` (e.g. `checksum_mismatch`). */
  invalidCursor(reasonCode: string, message: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('invalid_cursor', { reason: message }, { reason: reasonCode, ...details }, options);
  },
  /** `result_too_large` for a response of `neededChars` against a limit of `maxOutputChars`. */
  resultTooLarge(neededChars: number, maxOutputChars: number, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('result_too_large', { needed_chars: neededChars, max_output_chars: maxOutputChars }, { max_output_chars: maxOutputChars, needed_chars: neededChars, ...details }, options);
  },
  /** `proposal_access_disabled` for a mutation tool called without `--proposal-writer`. */
  proposalAccessDisabled(tool: string, options?: ErrorOptions): DocforgeError {
    return build('proposal_access_disabled', { tool }, { tool }, options);
  },
  /** `adapter_restart_required`: `details.reason` is e.g. `fingerprint_mismatch`. */
  adapterRestartRequired(reason: string | undefined, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('adapter_restart_required', { reason }, details, options);
  },
  /** `adapter_policy_forbids_logic`: `no_ast_policy` or `lexical_adapter_strategy`. */
  adapterPolicyForbidsLogic(reason: 'no_ast_policy' | 'lexical_adapter_strategy', details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('adapter_policy_forbids_logic', { reason: reason === 'no_ast_policy' ? '--no-ast' : 'adapter strategy lexical' }, { ...details, reason }, options);
  },
  /** `adapter_failed` with the adapter's own failure text. */
  adapterFailed(reason?: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('adapter_failed', { reason }, details, options);
  },
  /** `task_context_unavailable` for a server bound to a custom context provider. */
  taskContextUnavailable(tool: string, options?: ErrorOptions): DocforgeError {
    return build('task_context_unavailable', {}, { tool }, options);
  },
  /**
   * `logic_not_found` for an existing node of `kind` (code `language`, null or absent for a
   * document) without stored Logic; the message says why ({@link logicAbsenceReason}).
   */
  logicNotFound(nodeId: string, kind: string, language?: string | null, options?: ErrorOptions): DocforgeError {
    return build('logic_not_found', { node_id: nodeId, kind, reason: logicAbsenceReason(kind, language ?? null) }, { node_id: nodeId, kind, language: language ?? null }, options);
  },
  /** `policy_violation`: the index would violate the effective process policy. */
  policyViolation(reason: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('policy_violation', { reason }, details, options);
  },
  /**
   * `project_root_invalid`: the bound root (`details.root`, as given) is missing, not a directory
   * or relative; `problem` completes the sentence "Project root R …" (e.g. `does not exist`).
   */
  projectRootInvalid(root: string, problem: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('project_root_invalid', { root, problem }, { root, argument: 'project_root', ...details }, options);
  },
  /**
   * `invalid_encoding`: the bytes of the source at `path` (project-relative) are not UTF-8 text
   * from `line`:`column` (1-based; column in bytes). Reported as a validation finding of that
   * code with this message (the file is not indexed); no tool call fails with it.
   */
  invalidEncoding(path: string, line: number, column: number, reason: string, options?: ErrorOptions): DocforgeError {
    return build('invalid_encoding', { path, line, column, reason }, { path, line, column }, options);
  },
  /** `changeset_not_found` for an exact changeset id (`details.changeset_id`). */
  changesetNotFound(changesetId: string, options?: ErrorOptions): DocforgeError {
    return build('changeset_not_found', { changeset_id: changesetId }, { changeset_id: changesetId }, options);
  },
  /** `changeset_not_writable`: another writer's changeset, or one already applied or abandoned. */
  changesetNotWritable(reason: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('changeset_not_writable', { reason }, details, options);
  },
  /** `changeset_invalid`: operations that cannot be stored at all (e.g. a path outside the content roots is `path_outside_root` instead). */
  changesetInvalid(reason: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('changeset_invalid', { reason }, details, options);
  },
  /** `changeset_corrupt`: a stored document fails to parse, its schema or its hash. */
  changesetCorrupt(changesetId: string, reason: string, options?: ErrorOptions): DocforgeError {
    return build('changeset_corrupt', { changeset_id: changesetId, reason }, { changeset_id: changesetId, reason }, options);
  },
  /** `rebase_refused`: `details.invariant` names the invariant that failed. */
  rebaseRefused(changesetId: string, reason: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('rebase_refused', { changeset_id: changesetId, reason }, { changeset_id: changesetId, ...details }, options);
  },
  /** `internal_error`: an unexpected failure; nothing was changed. */
  internalError(reason?: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('internal_error', { reason }, details, options);
  },
  // Issue 12: viewer manager protocol v2 and graph-browser workers.
  /** `protocol_version_unsupported`: a viewer protocol peer offered `version` (e.g. `1` or `1, 3`); this side speaks `supported`. */
  protocolVersionUnsupported(version: string, supported: string, options?: ErrorOptions): DocforgeError {
    return build('protocol_version_unsupported', { version, supported }, { offered: version, supported }, options);
  },
  /** `viewer_protocol_error`: a frame that is not JSON, fails its schema, is too long or comes before `hello`. */
  viewerProtocolError(reason: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('viewer_protocol_error', { reason }, details, options);
  },
  /**
   * `viewer_runtime_unsafe` (issue 30 item 20): the viewer runtime folder, one of its ancestors or
   * the manager's socket at `path` is owned by another user or writable by others; nothing was sent.
   */
  viewerRuntimeUnsafe(path: string, problem: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('viewer_runtime_unsafe', { path, problem }, { path, ...details }, options);
  },
  /** `viewer_unavailable`: the viewer manager could not be spawned or did not answer on its socket. */
  viewerUnavailable(reason: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('viewer_unavailable', { reason }, details, options);
  },
  /** `worker_failed`: a graph-browser worker reported a fatal error, exited before ready, or died. */
  workerFailed(reason: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('worker_failed', { reason }, details, options);
  },
  /** `worker_not_found` for a manager-assigned worker id (`details.worker_id`). */
  workerNotFound(workerId: string, options?: ErrorOptions): DocforgeError {
    return build('worker_not_found', { worker_id: workerId }, { worker_id: workerId }, options);
  },
  // issue 12 (graph-browser worker)
  /** `snapshot_replaced`: the served index file no longer has the identity it had at start; `details` names the file and what changed. */
  snapshotReplaced(indexFile: string, reason: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('snapshot_replaced', { index_file: indexFile, reason }, { index_file: indexFile, reason, ...details }, options);
  },
  /** `viewer_access_denied`: a graph-browser request without a valid session, from a foreign Host or Origin, or with a method other than GET/HEAD; `details.check` names the failed check. */
  viewerAccessDenied(check: string, reason: string, options?: ErrorOptions): DocforgeError {
    return build('viewer_access_denied', { reason }, { check }, options);
  },
  /** `view_not_found` (issue 11): `viewId` is not among the descriptor's `[[views]]` ids (`declared`). */
  viewNotFound(viewId: string, declared: readonly string[], options?: ErrorOptions): DocforgeError {
    return build('view_not_found', { view_id: viewId, declared: declared.length === 0 ? 'none' : declared.join(', ') }, { view_id: viewId, declared: [...declared] }, options);
  },
  /** `render_failed` (issue 11): the view cannot be rendered (e.g. its graph focus node does not exist); nothing was written. */
  renderFailed(viewId: string, reason: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('render_failed', { view_id: viewId, reason }, { view_id: viewId, ...details }, options);
  },
  // Issue 11 (canonical application).
  /** `application_refused`: `details.reason_code` names the check that refused (`hash_mismatch`, `stale_base`, `writer_not_allowed`, `not_ready`, `invalid`). */
  applicationRefused(changesetId: string, reason: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('application_refused', { changeset_id: changesetId, reason }, { changeset_id: changesetId, ...details }, options);
  },
  /**
   * `application_failed`: writing or verification failed at `stage`. By default every canonical
   * file was restored (`details.restored = true`); pass `restored: false` with `journal` and
   * `rollback_error` when the rollback could not complete (the journal stays open for recovery).
   */
  applicationFailed(changesetId: string, stage: string, reason: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    const files = Array.isArray(details['files']) ? (details['files'] as { path: string; state: string }[]) : null;
    const off = files?.filter((f) => f.state !== 'before') ?? null;
    const holds = off === null ? 'so canonical files may hold part of the change' : off.length === 0 ? 'every canonical file still holds its before bytes' : `not at their before bytes: ${off.map((f) => `${f.path} (${f.state})`).join(', ')}`;
    const outcome = details['restored'] === false
      ? `the rollback could not complete (${String(details['rollback_error'])}); ${holds}; the journal ${String(details['journal'])} stays open until a gated DocForge process recovers it (or refuses it for repair by hand).`
      : typeof details['rewritten'] === 'number' ? `every canonical file holds its before bytes (${details['rewritten']} rewritten from the backups, the others were never changed).` : 'every canonical file was restored.';
    return build('application_failed', { changeset_id: changesetId, stage, reason, outcome }, { changeset_id: changesetId, stage, restored: true, ...details }, options);
  },
  /** `application_in_progress`: the write-ahead journal of `changesetId` is open. */
  applicationInProgress(changesetId: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('application_in_progress', { changeset_id: changesetId }, { changeset_id: changesetId, ...details }, options);
  },
  /**
   * `application_recovery_conflict` (applier trial F1): recovery of `changesetId`'s journal found
   * files at neither recorded state (`details.files`: every journal file's `path`, `state`
   * before/after/neither, `sha256`, `backup`) and wrote nothing; the journal and backups stay.
   */
  applicationRecoveryConflict(changesetId: string, journal: string, backupDir: string, files: readonly { path: string; state: string; backup: string | null; remedy: string | null }[], options?: ErrorOptions): DocforgeError {
    const conflicting = files.filter((f) => f.state === 'neither');
    const paths = conflicting.map((f) => f.path);
    const steps = conflicting.map((f) => recoveryStep(f, backupDir)).join('; ');
    return build('application_recovery_conflict', { changeset_id: changesetId, paths: paths.join(', '), steps, journal, backup_dir: backupDir }, { changeset_id: changesetId, journal, backup_dir: backupDir, paths, files: [...files] }, options);
  },
  /** `canonical_applier_unavailable`: `--canonical-applier` without an applier the project supplies. */
  canonicalApplierUnavailable(reason: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('canonical_applier_unavailable', { reason }, details, options);
  },
  /** `source_changed` (issue 12 fix F2): the node's source file no longer has the indexed content (`details.path`, `details.reason`); the viewer refuses to show it. */
  sourceChanged(path: string, reason: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('source_changed', { path, reason }, { path, reason, ...details }, options);
  },
  // Fix wave (attacker trial).
  /** `application_journal_invalid`: the journal `journal` fails its schema or confinement (`reason`); recovery touched nothing. */
  applicationJournalInvalid(journal: string, backupDir: string, reason: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('application_journal_invalid', { journal, backup_dir: backupDir, reason }, { journal, backup_dir: backupDir, ...details }, options);
  },
  /** `render_output_invalid`: the output (or preview) path of `viewId` is a link, a directory, under a non-directory or on a source (`details.reason_code`); nothing written. */
  renderOutputInvalid(viewId: string, output: string, reason: string, details: Record<string, unknown> = {}, options?: ErrorOptions): DocforgeError {
    return build('render_output_invalid', { view_id: viewId, output, reason }, { view_id: viewId, output, ...details }, options);
  },
  /** `render_output_foreign` (issue 30): the existing file at the output of `viewId` is not DocForge's (no receipt or generator marker proves it) or was changed since; nothing written. */
  renderOutputForeign(viewId: string, output: string, reason: string, options?: ErrorOptions): DocforgeError {
    return build('render_output_foreign', { view_id: viewId, output, reason }, { view_id: viewId, output }, options);
  },
});

/** The factory names of {@link errors}, one per registered code (checked by a test). */
export type ErrorFactoryName = keyof typeof errors;

/**
 * The same error in the words of the step that met it: `prefix: ` before the message and
 * `details` merged into its details; code and remediation unchanged, the original as `cause`
 * (e.g. a path refusal naming the changeset operation, libs/changesets projection.ts).
 */
export function errorInContext(error: DocforgeError, prefix: string, details: Record<string, unknown> = {}): DocforgeError {
  return new DocforgeError(error.code, `${prefix}: ${error.message}`, { ...error.details, ...details }, { cause: error });
}
