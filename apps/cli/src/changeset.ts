/**
 * `docforge changeset list|show|diff|validate|rebase|abandon|apply` (issue 10, item 9; issue 11, item 4):
 * the review commands for people. Text by default (the diff colored on a terminal), `--json` for
 * the complete result. Reads never write the store; `abandon ID --writer W` is allowed only to the
 * changeset's own writer; `apply ID --sha256 H --canonical-applier W` is the same canonical
 * application as `docforge_apply_changeset`.
 */
import type { Logger } from 'pino';
import { IndexManager, type SyncReport } from '@docforge/sync';
import { declaredOutputsReport } from '@docforge/render';
import {
  abandonChangeset, applyChangeset, changeEntries, rebaseChangeset, evaluateStored, indexProjectView, loadCanonicalApplier, storeOf, summarize, type ChangeEntry, type ChangesetStore, type ProjectView,
} from '@docforge/changesets';
import { accessIdProblem, AUTHORED_NODE_FIELDS, toDocforgeError, type AuthoredNodeField, type TestFaults } from '@docforge/core';

import { errorLine, printLine as print, printRaw, terminalSafe } from './terminal.js';
import { refuseInput } from './cli-error.js';
import { checkToolArguments, USAGE_EXIT_CODE } from './tool-arguments.js';

/** Options of the changeset subcommands. */
export interface ChangesetCommandOptions {
  json: boolean;
  /** `--writer` (abandon). */
  writer: string | null;
  /** `--all`: list every status. */
  all: boolean;
  /** Color the diff (stdout is a terminal and NO_COLOR is unset). */
  color: boolean;
  /** `--sha256` (apply): the exact final changeset hash. */
  sha256?: string | null;
  /** `--canonical-applier` (apply): the applier id the project's proposal policy is checked against. */
  canonicalApplier?: string | null;
  /** `--no-ast`: the index refresh after apply runs under the preserved no-AST binding. */
  noAst?: boolean;
  /** Test-only fault points (`DOCFORGE_TEST_FAULT_POINT`), read once at start; absent: none armed. */
  testFaults?: TestFaults;
}

/** Runs `fn` with the synchronized project's proposal view and store (also `docforge review`), closing the index after. */
export async function withProposals<T>(root: string, logger: Logger, faults: TestFaults | undefined, fn: (view: ProjectView, store: ChangesetStore, sync: SyncReport, manager: IndexManager) => T | Promise<T>, noAst = false): Promise<T> {
  const manager = new IndexManager({ root, noAst, onWarning: (message, details) => logger.warn(details, message) });
  try {
    const sync = await manager.sync();
    return await fn(indexProjectView(manager, sync), storeOf(sync, faults), sync, manager);
  } finally {
    await manager.close();
  }
}

function colorDiff(text: string, color: boolean): string {
  if (!color) return text;
  return text.split('\n').map((line) => {
    if (line.startsWith('+++') || line.startsWith('---')) return `\x1b[1m${line}\x1b[0m`;
    if (line.startsWith('+')) return `\x1b[32m${line}\x1b[0m`;
    if (line.startsWith('-')) return `\x1b[31m${line}\x1b[0m`;
    if (line.startsWith('@@')) return `\x1b[36m${line}\x1b[0m`;
    return line;
  }).join('\n');
}

/** The node fields a text diff compares (the header line names the paths). */
const TEXT_FIELDS: readonly AuthoredNodeField[] = ['id', 'title', ...AUTHORED_NODE_FIELDS.filter((field) => field !== 'id' && field !== 'title')];

/**
 * Prints one change of `docforge changeset diff` as text: a header `[i] op node  before -> after`
 * (`(not projected: code: message)` when the operation changes nothing), `-field`/`+field` lines
 * of the changed fields, `-relation target`/`+relation target` lines of the removed and added
 * declared relations, then the unified diff of every source file it rewrites (the body's changes
 * are inside those; the complete entry with `body_diff` is `--json`).
 */
export function printChange(c: ChangeEntry, color: boolean): void {
  const target = c.projected ? (c.after_path ?? '(deleted)') : `(not projected: ${c.refusal?.code ?? 'refused'}: ${c.refusal?.message ?? ''})`;
  print(`[${c.index}] ${c.op} ${c.node_id ?? ''}  ${c.before_path ?? '(new)'} -> ${target}`);
  if (!c.projected) return;
  const lines: string[] = [];
  if (c.after !== null || c.op === 'node_delete') {
    for (const key of TEXT_FIELDS) {
      const before = c.before ? JSON.stringify(c.before[key]) : null;
      const after = c.after ? JSON.stringify(c.after[key]) : null;
      if (before === after) continue;
      // A created or deleted node lists only the fields it holds.
      const only = before ?? after;
      if ((c.before === null || c.after === null) && (only === 'null' || only === '[]')) continue;
      if (before !== null) lines.push(`-${key}: ${before}`);
      if (after !== null) lines.push(`+${key}: ${after}`);
    }
  }
  for (const r of c.relations_removed) lines.push(`-${r.relation} ${r.target_id}`);
  for (const r of c.relations_added) lines.push(`+${r.relation} ${r.target_id}`);
  for (const f of c.file_diffs) lines.push(...f.diff.trimEnd().split('\n'));
  if (lines.length > 0) printRaw(colorDiff(lines.map(terminalSafe).join('\n'), color));
}

/** The subcommands of `docforge changeset`. */
const CHANGESET_SUBCOMMANDS = ['list', 'show', 'diff', 'validate', 'rebase', 'abandon', 'apply'];

/**
 * The MCP tool each subcommand with a changeset ID mirrors: its input schema checks the ID (and
 * apply's hash), so a malformed ID is the same usage error as in MCP (`invalid_arguments`, exit 2),
 * never a store lookup answered `changeset_not_found` (break-it trial 48).
 */
const SUBCOMMAND_TOOLS = {
  show: 'docforge_get_changeset',
  diff: 'docforge_get_changeset_diff',
  validate: 'docforge_validate_changeset',
  rebase: 'docforge_rebase_changeset',
  abandon: 'docforge_abandon_changeset',
  apply: 'docforge_apply_changeset',
} as const;

/**
 * Checks a subcommand's changeset ID with its MCP tool's input schema (see {@link SUBCOMMAND_TOOLS});
 * prints the refusal as every usage error is printed and resolves to false when it fails.
 */
function checkChangesetId(sub: keyof typeof SUBCOMMAND_TOOLS, id: string, options: ChangesetCommandOptions): Promise<boolean> {
  const args: Record<string, unknown> = { changeset_id: id };
  if (sub === 'apply') args['changeset_sha256'] = options.sha256;
  return checkToolArguments(SUBCOMMAND_TOOLS[sub], args, options.json);
}

/** Prints why a changeset command line is refused and returns true, or returns false when it is well formed. */
function changesetUsageProblem(sub: string | undefined, args: readonly string[], options: ChangesetCommandOptions): string | null {
  if (sub === undefined || !CHANGESET_SUBCOMMANDS.includes(sub)) {
    return sub === undefined ? `changeset needs a subcommand (${CHANGESET_SUBCOMMANDS.join(', ')})` : `unknown changeset subcommand ${JSON.stringify(sub)} (${CHANGESET_SUBCOMMANDS.join(', ')})`;
  }
  // `list` takes no argument, every other subcommand exactly one changeset ID: nothing is ignored.
  if (args.length !== (sub === 'list' ? 0 : 1)) {
    const id = args[0];
    return sub === 'list' ? `changeset list takes no arguments (got ${JSON.stringify(args[0])})`
      : id === undefined ? `changeset ${sub} needs a changeset ID` : `changeset ${sub} takes one changeset ID (got ${args.length} arguments)`;
  }
  // The id grammar of every writer and applier id (@docforge/core accessIdProblem), as docforge-mcp.
  for (const [option, value] of [['--writer', options.writer], ['--canonical-applier', options.canonicalApplier ?? null]] as const) {
    const problem = value === null ? null : accessIdProblem(option, value);
    if (problem !== null) return problem;
  }
  if (sub === 'abandon' && options.writer === null) return 'changeset abandon needs --writer W (only the changeset\'s own writer may abandon it)';
  if (sub === 'rebase' && options.writer === null) return 'changeset rebase needs --writer W (only the changeset\'s own writer may rebase it)';
  if (sub === 'apply' && (!options.sha256 || !options.canonicalApplier)) return 'changeset apply needs --sha256 H (the exact final changeset hash) and --canonical-applier W';
  return null;
}

/** `docforge changeset list [--all]`: draft and ready changesets (every status with `--all`). */
function listChangesets(root: string, options: ChangesetCommandOptions, logger: Logger): Promise<number> {
  return withProposals(root, logger, options.testFaults, (view, store) => {
    const listing = store.list();
    const all = listing.documents.map((d) => summarize(d, view));
    const items = all.filter((s) => options.all || s.status === 'draft' || s.status === 'ready');
    const stale = options.all ? 0 : all.filter((s) => s.status === 'stale').length;
    if (options.json) printRaw(JSON.stringify({ items, unreadable: listing.unreadable }, null, 2));
    else {
      for (const s of items) print(`${s.id}  ${s.status.padEnd(9)} ${s.writer}  ${s.operation_count} op(s)  ${s.changeset_sha256.slice(0, 12)}${s.stale ? `  (${s.stale.reason})` : ''}`);
      if (items.length === 0) print(options.all ? 'no changesets' : 'no draft or ready changesets (--all lists every status)');
      // Stale changesets need a rebase before review or application: never let them vanish silently.
      if (stale > 0) print(`${stale} stale changeset(s) not listed: their base changed; see them with --all, then docforge changeset rebase ID --writer W`);
      for (const bad of listing.unreadable) print(`unreadable: ${bad}`);
    }
    return 0;
  });
}

/** `docforge changeset show ID`: hash, base, operations and receipts of one changeset. */
function showChangeset(root: string, id: string, options: ChangesetCommandOptions, logger: Logger): Promise<number> {
  return withProposals(root, logger, options.testFaults, (view, store) => {
    const doc = store.get(id);
    const summary = summarize(doc, view);
    if (options.json) printRaw(JSON.stringify({ changeset: summary, operations: doc.operations, receipts: doc.receipts, findings: doc.findings }, null, 2));
    else {
      print(`${doc.id}  ${summary.status}${summary.stale ? ` (${summary.stale.reason})` : ''}  writer ${doc.writer}`);
      print(`  sha256 ${doc.changeset_sha256}`);
      print(`  base   ${doc.base}`);
      doc.operations.forEach((op, i) => print(`  [${i}] ${op.op} ${op.op === 'node_create' ? `${op.node.id} -> ${op.path}` : op.op === 'relationship_update' || op.op === 'link_review' ? op.source_id : op.op === 'node_move' ? `${op.node_id} -> ${op.new_path}` : op.node_id}`));
      for (const r of doc.receipts) print(`  ${r.at} ${r.event} by ${r.writer}`);
    }
    return 0;
  });
}

/** `docforge changeset diff ID`: each operation's changes (see {@link printChange}). */
function diffChangeset(root: string, id: string, options: ChangesetCommandOptions, logger: Logger): Promise<number> {
  return withProposals(root, logger, options.testFaults, (view, store) => {
    const doc = store.get(id);
    const changes = changeEntries(evaluateStored(view, store, doc).projection.outcomes);
    if (options.json) printRaw(JSON.stringify({ changeset: summarize(doc, view), operations: doc.operations, changes }, null, 2));
    else {
      for (const c of changes) printChange(c, options.color);
    }
    return 0;
  });
}

/** `docforge changeset validate ID`: the findings; exit 1 when the changeset is invalid. */
function validateChangeset(root: string, id: string, options: ChangesetCommandOptions, logger: Logger): Promise<number> {
  return withProposals(root, logger, options.testFaults, (view, store) => {
    const doc = store.get(id);
    const evaluation = evaluateStored(view, store, doc);
    if (options.json) printRaw(JSON.stringify({ changeset: summarize(doc, view), valid: evaluation.valid, findings: evaluation.findings }, null, 2));
    else {
      for (const f of evaluation.findings) print(`${f.severity.padEnd(7)} [${f.operation_index ?? '-'}] ${f.code}: ${f.message} (${f.remediation})`);
      print(`${evaluation.findings.length} finding(s); ${evaluation.valid ? 'valid' : 'invalid'}`);
    }
    return evaluation.valid ? 0 : 1;
  });
}

/** `docforge changeset abandon ID --writer W`: only the changeset's own writer may abandon it. */
async function abandonCommand(root: string, id: string, options: ChangesetCommandOptions, logger: Logger): Promise<number> {
  if (options.writer === null) {
    process.stderr.write('docforge: changeset abandon needs --writer W (only the changeset\'s own writer may abandon it)\n');
    return 2;
  }
  return withProposals(root, logger, options.testFaults, async (view, store) => {
    const outcome = await abandonChangeset(store, options.writer!, id, null);
    if (options.json) printRaw(JSON.stringify({ changeset: summarize(outcome.doc, view), receipt: outcome.doc.receipts[outcome.doc.receipts.length - 1] }, null, 2));
    else print(`abandoned ${outcome.doc.id} (${outcome.doc.changeset_sha256}); the changeset and its receipts are kept`);
    return 0;
  });
}

/**
 * `docforge changeset rebase ID --writer W`: moves a stale changeset of writer W to the current base
 * when every invariant holds, as `docforge_rebase_changeset` (the same lib call,
 * @docforge/changesets `rebaseChangeset`). `--json` prints the fields of that tool's result:
 * `outcome` (`rebased`), `changeset_id`, `changeset_sha256`, `status`, `changeset`, `valid`,
 * `findings` and the `receipt` (with `previous_sha256` and `previous_base`).
 * @throws DocforgeError `changeset_not_found`, `changeset_not_writable` (another writer's, or not
 *   rebasable in its status), `rebase_refused` (an invariant no longer holds; nothing is written)
 */
function rebaseCommand(root: string, id: string, options: ChangesetCommandOptions, logger: Logger): Promise<number> {
  return withProposals(root, logger, options.testFaults, async (view, store) => {
    const outcome = await rebaseChangeset(store, view, options.writer!, id);
    const summary = summarize(outcome.doc, view);
    const findings = outcome.evaluation?.findings ?? outcome.doc.findings;
    const receipt = outcome.doc.receipts[outcome.doc.receipts.length - 1];
    if (options.json) {
      printRaw(JSON.stringify({
        outcome: outcome.outcome, changeset_id: outcome.doc.id, changeset_sha256: outcome.doc.changeset_sha256, status: summary.status, changeset: summary,
        valid: !findings.some((f) => f.severity === 'error'), findings, receipt,
      }, null, 2));
    } else {
      print(`rebased ${outcome.doc.id} onto base ${outcome.doc.base}: now ${summary.status}, sha256 ${outcome.doc.changeset_sha256}`);
      for (const f of findings) print(`  ${f.severity} ${f.code}: ${f.message}`);
    }
    return 0;
  });
}

/**
 * Runs one changeset subcommand. The direct CLI returns complete results (no pagination).
 * @returns the exit code: 0 success, 1 a failure or an invalid changeset (validate), 2 bad usage
 */
export async function runChangeset(root: string, sub: string | undefined, args: readonly string[], options: ChangesetCommandOptions, logger: Logger): Promise<number> {
  const problem = changesetUsageProblem(sub, args, options);
  if (problem !== null) return refuseInput(options.json, problem, 'changeset');
  const id = args[0];
  if (id !== undefined && sub !== undefined && sub in SUBCOMMAND_TOOLS && !(await checkChangesetId(sub as keyof typeof SUBCOMMAND_TOOLS, id, options))) return USAGE_EXIT_CODE;
  switch (sub) {
    case 'list':
      return listChangesets(root, options, logger);
    case 'show':
      return showChangeset(root, id!, options, logger);
    case 'diff':
      return diffChangeset(root, id!, options, logger);
    case 'validate':
      return validateChangeset(root, id!, options, logger);
    case 'rebase':
      return rebaseCommand(root, id!, options, logger);
    case 'abandon':
      return abandonCommand(root, id!, options, logger);
    case 'apply':
      return runApply(root, id!, options, logger);
    default:
      return refuseInput(options.json, `unknown changeset subcommand ${JSON.stringify(sub ?? '')} (${CHANGESET_SUBCOMMANDS.join(', ')})`, 'changeset');
  }
}

/**
 * `docforge changeset apply ID --sha256 H --canonical-applier W`: canonical application with the
 * project's applier, then the index refresh under the same policy (`--no-ast` included). A refresh
 * failure still reports the committed application (exit 0) with a degraded refresh.
 * @returns 0 applied, 1 refused or failed (nothing changed), 2 bad usage
 */
async function runApply(root: string, id: string, options: ChangesetCommandOptions, logger: Logger): Promise<number> {
  if (!options.sha256 || !options.canonicalApplier) {
    process.stderr.write('docforge: changeset apply needs --sha256 H (the exact final changeset hash) and --canonical-applier W\n');
    return 2;
  }
  return withProposals(root, logger, options.testFaults, async (view, store, _sync, manager) => {
    const applier = await loadCanonicalApplier(view.descriptor);
    const outcome = await applyChangeset(store, view, id, options.sha256!, { applierId: options.canonicalApplier!, applier });
    let refresh: Record<string, unknown>;
    try {
      const report = await manager.sync();
      refresh = report.sync_error === null
        ? { status: 'refreshed', revision: report.publication.generation, source_hash: report.publication.source_hash }
        : { status: 'degraded', revision: report.publication.generation, error: report.sync_error };
    } catch (error) {
      refresh = { status: 'degraded', error: toDocforgeError(error).toWire() };
    }
    // Declared outputs are never rendered here (contract "Render boundary"): report them, now stale, with the command.
    const render = declaredOutputsReport(manager.descriptor(), manager.cheapIdentity());
    if (options.json) printRaw(JSON.stringify({ outcome: 'applied', changeset: summarize(outcome.doc, view), receipt: outcome.receipt, files: outcome.files, derived_refresh: refresh, render, recovered: outcome.recovered }, null, 2));
    else {
      if (outcome.recovered !== null) print(`recovered an interrupted application of ${outcome.recovered.changeset_id} (${outcome.recovered.action})`);
      print(`applied ${outcome.doc.id} (${outcome.doc.changeset_sha256}) by ${options.canonicalApplier}`);
      for (const f of outcome.files) print(`  ${f.action.padEnd(8)} ${terminalSafe(f.path)}`);
      print(refresh['status'] === 'refreshed' ? `index refreshed: revision ${String(refresh['revision'])}` : 'index refresh degraded: the files are applied; do NOT apply again; fix the reported problem and run docforge sync');
      const notCurrent = render.outputs.filter((v) => v.status !== 'current');
      if (notCurrent.length > 0) print(`declared outputs not current: ${notCurrent.map((v) => `${terminalSafe(v.output)} (${v.status})`).join(', ')}; run docforge render to update them`);
    }
    return 0;
  }, options.noAst === true);
}
