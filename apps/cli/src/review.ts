/**
 * `docforge review NODE_ID --writer W --canonical-applier A [--target T] [--relations R1,R2] [--yes]`
 * (issue 32 item 1): stamps the relations of one document with their targets' current review hashes
 * through a changeset. It registers one `link_review` changeset as writer W (the writer's proposal
 * policy applies), prints its diff and hash, and applies exactly that hash with applier A only
 * after confirmation (a `y` line on standard input) or `--yes`; a declined, not-ready or refused changeset is abandoned (the applier is checked before anything is registered). Without a target, the relations
 * that are not reviewed (suspect or unreviewed) are stamped; a mention-derived `documents` edge
 * gets one stamp per section that names the target.
 */
import { createInterface } from 'node:readline';
import type { Logger } from 'pino';
import { abandonChangeset, applyChangeset, changeEntries, loadCanonicalApplier, registerChangeset, type LinkReviewOp, type ReviewRef } from '@docforge/changesets';
import { accessIdProblem, errors, toDocforgeError } from '@docforge/core';
import type { IndexReader } from '@docforge/store';
import { printChange, withProposals } from './changeset.js';
import { errorLine, printLine as print, printRaw, terminalSafe } from './terminal.js';
import { refuseInput } from './cli-error.js';
import { checkToolArguments, USAGE_EXIT_CODE } from './tool-arguments.js';

/** Options of `docforge review`. */
export interface ReviewCommandOptions {
  json: boolean;
  color: boolean;
  writer: string | null;
  canonicalApplier: string | null;
  /** Only the relations to this target. */
  target: string | null;
  /** Only these relations (comma-separated on the command line). */
  relations: string[] | null;
  yes: boolean;
}

/** Most relations one review stamps (the operation's `reviews` bound). */
const MAX_REVIEWS = 1000;

/** A relation to stamp and the section it is stamped for (null: the whole relation). */
type Selected = ReviewRef & { section: string | null };

/** The reviews of `nodeId`'s outgoing relations the options select: not yet reviewed, or every one to `--target`. */
function reviewsOf(reader: IndexReader, nodeId: string, options: ReviewCommandOptions): Selected[] {
  const reviews: Selected[] = [];
  // A plain page's link is stamped in the section that holds it (its stamp comment covers that section).
  const node = reader.getNode(nodeId);
  const sectionAt = (line: number): string | null => {
    if (node?.origin !== 'markdown') return null;
    let slug: string | null = null;
    for (const anchor of node.anchors) if (anchor.line <= line) slug = anchor.slug;
    return slug;
  };
  for (const edge of reader.edges(nodeId, 'outgoing', options.relations, MAX_REVIEWS + 1)) {
    if (options.target !== null && edge.target_id !== options.target) continue;
    const review = reader.edgeReview(edge.source_id, edge.relation, edge.target_id);
    if (review === null || (options.target === null && review.state === 'reviewed')) continue;
    const sections = edge.relation === 'documents' ? reader.edgeMention(edge.source_id, edge.relation, edge.target_id) : null;
    const slugs = sections?.map((s) => s.slug).filter((s): s is string => s !== null) ?? [];
    if (slugs.length === 0) reviews.push({ relation: edge.relation, target_id: edge.target_id, section: sectionAt(edge.line) });
    for (const section of slugs) reviews.push({ relation: edge.relation, target_id: edge.target_id, section });
  }
  return reviews.slice(0, MAX_REVIEWS);
}

/** One `link_review` operation per section (the operation's `section`), in first-seen order. */
function operationsOf(nodeId: string, selected: readonly Selected[]): LinkReviewOp[] {
  const bySection = new Map<string | null, ReviewRef[]>();
  for (const { section, ...link } of selected) bySection.set(section, [...(bySection.get(section) ?? []), link]);
  return [...bySection].map(([section, links]) => ({ op: 'link_review', source_id: nodeId, ...(section === null ? {} : { section }), links }));
}

/** Asks on the terminal (or reads one line of piped input) whether to apply; true only for `y` or `yes`. */
async function confirmed(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await new Promise<string>((resolve) => {
      rl.question(question, resolve);
      rl.once('close', () => resolve(''));
    });
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    rl.close();
  }
}

/** The usage problem of a review command line, or null. */
function usageProblem(args: readonly string[], options: ReviewCommandOptions): string | null {
  if (args.length !== 1) return args.length === 0 ? 'review needs the NODE_ID of the document whose links are reviewed' : `review takes one NODE_ID (got ${args.length} arguments)`;
  if (options.writer === null || options.canonicalApplier === null) return 'review needs --writer W (who proposes the stamps) and --canonical-applier A (who applies them)';
  for (const [option, value] of [['--writer', options.writer], ['--canonical-applier', options.canonicalApplier]] as const) {
    const problem = accessIdProblem(option, value);
    if (problem !== null) return problem;
  }
  return null;
}

/**
 * Runs `docforge review`.
 * @returns 0 applied (or nothing to review), 1 refused, declined or failed (nothing applied), 2 bad usage
 */
export async function runReview(root: string, args: readonly string[], options: ReviewCommandOptions, logger: Logger): Promise<number> {
  const problem = usageProblem(args, options);
  if (problem !== null) return refuseInput(options.json, problem, 'review');
  const nodeId = args[0]!;
  // The node ID is checked as MCP checks the `source_id` of the link_review operation review registers
  // (docforge_register_changes' schema): a malformed one is a usage error (exit 2), never "no node"
  // (break-it trial 48).
  if (!(await checkToolArguments('docforge_register_changes', { operations: [{ op: 'link_review', source_id: nodeId, links: [] }] }, options.json))) return USAGE_EXIT_CODE;
  return withProposals(root, logger, undefined, async (view, store, _sync, manager) => {
    const reader = manager.reader();
    // Thrown, so the CLI prints it as every tool error (with --json: the error object on stdout, exit 1).
    if (!reader.hasNode(nodeId)) throw errors.nodeNotFound(nodeId);
    const reviews = reviewsOf(reader, nodeId, options);
    if (reviews.length === 0) {
      print(`${terminalSafe(nodeId)}: no relation to review${options.target === null ? ' (every one is reviewed)' : ` to ${terminalSafe(options.target)}`}`);
      return 0;
    }
    // The applier is checked before anything is registered: a project without one refuses the
    // review with its remedy and leaves no changeset behind to block the next review as a conflict.
    const applier = await loadCanonicalApplier(view.descriptor);
    const registered = await registerChangeset(store, view, options.writer!, operationsOf(nodeId, reviews), 'registered');
    const doc = registered.doc;
    const changes = changeEntries(registered.evaluation?.projection.outcomes ?? []);
    if (options.json) printRaw(JSON.stringify({ changeset_id: doc.id, changeset_sha256: doc.changeset_sha256, status: doc.status, operations: doc.operations, changes, findings: doc.findings }, null, 2));
    else {
      for (const c of changes) printChange(c, options.color);
      print(`changeset ${doc.id} (${doc.status}) sha256 ${doc.changeset_sha256}`);
      for (const f of doc.findings) print(`  ${f.severity} ${f.code}: ${terminalSafe(f.message)}`);
    }
    if (doc.status !== 'ready') {
      await abandonChangeset(store, options.writer!, doc.id, 'not ready at docforge review');
      errorLine(`docforge: the review changeset is not ready (see its findings); nothing applied; changeset ${doc.id} abandoned`);
      return 1;
    }
    if (!options.yes && !(await confirmed(`apply changeset ${doc.id} with sha256 ${doc.changeset_sha256}? [y/N] `))) {
      // A declined review is abandoned (with its audit receipt), so it never blocks a later one as a conflict.
      await abandonChangeset(store, options.writer!, doc.id, 'declined at docforge review');
      errorLine(`docforge: not applied; changeset ${doc.id} abandoned`);
      return 1;
    }
    let outcome: Awaited<ReturnType<typeof applyChangeset>>;
    try {
      outcome = await applyChangeset(store, view, doc.id, doc.changeset_sha256, { applierId: options.canonicalApplier!, applier });
    } catch (error) {
      // A refused application leaves the files as they were: abandon the review's changeset (an
      // application that did happen, or is journaled, makes the abandon refuse, which is kept quiet).
      await abandonChangeset(store, options.writer!, doc.id, `application refused at docforge review: ${toDocforgeError(error).code}`).catch(() => undefined);
      throw error;
    }
    let refreshed: string;
    try {
      const report = await manager.sync();
      refreshed = report.sync_error === null ? `index refreshed: revision ${report.publication.generation}` : `index refresh degraded: ${report.sync_error.message}`;
    } catch (error) {
      refreshed = `index refresh degraded: ${toDocforgeError(error).message}; do NOT apply again; run docforge sync`;
    }
    if (!options.json) {
      print(`applied ${outcome.doc.id} (${outcome.doc.changeset_sha256}) by ${options.canonicalApplier}`);
      for (const f of outcome.files) print(`  ${f.action.padEnd(8)} ${terminalSafe(f.path)}`);
      print(refreshed);
    }
    return 0;
  });
}
