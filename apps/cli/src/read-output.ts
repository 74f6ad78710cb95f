/**
 * The text form of the read commands (read-tools.ts): a summary of one tool's result for a
 * person in a terminal; `--json` prints the whole result instead. Lines go through the caller's
 * terminal-safe printer (ids, titles and bodies come from project files).
 */
import { unresolvedCallsLine } from './not-followed.js';

/** The read tools that have a CLI command. */
export type ReadTool = 'docforge_get_node' | 'docforge_backlinks' | 'docforge_dependencies' | 'docforge_impact' | 'docforge_get_context' | 'docforge_get_task_context' | 'docforge_visualize';

type Item = Record<string, unknown>;
type Print = (text?: string) => void;

/** Items of a result's `items` list (empty when absent). */
function itemsOf(result: Item): Item[] {
  return Array.isArray(result.items) ? (result.items as Item[]) : [];
}

/** One line of text: whitespace folded, at most `max` characters. */
function oneLine(text: unknown, max = 120): string {
  const s = String(text ?? '').replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** The relations of a traversal item (`relations`, else the single `relation`). */
function relationsOf(item: Item): string {
  return Array.isArray(item.relations) && item.relations.length > 0 ? (item.relations as string[]).join(', ') : String(item.relation);
}

/** `  [suspect]` after a relation with a review state (issue 32), else nothing. */
function reviewMark(item: Item): string {
  return typeof item.review_state === 'string' ? `  [${item.review_state}]` : '';
}

/** The read commands whose results can be truncated, by what they print after a page. */
type Paged = 'backlinks' | 'context' | 'traversal';

/**
 * Why a result stopped short and what to change, naming only options of the command that printed
 * it (`backlinks`: --limit, --relations; `context`: --budget, --node; `deps`/`impact`: --limit,
 * --relations, --depth), one entry per cause the result reports (result limit, token budget,
 * response size, edge work budget).
 */
export function truncationHints(command: Paged, result: Item): string[] {
  const causes = new Set<string>();
  if (typeof result.truncation_reason === 'string') causes.add(result.truncation_reason);
  const selection = result.selection as Item | null | undefined;
  if (selection && typeof selection.truncation_reason === 'string') causes.add(selection.truncation_reason);
  for (const gap of Array.isArray(result.gaps) ? (result.gaps as Item[]) : []) if (typeof gap.cause === 'string') causes.add(gap.cause);
  // Omission reasons: `token budget` / `response size limit` (docforge_get_context), `token_limit` / `response_limit` (task context).
  const omissionCause: Record<string, string> = { 'token budget': 'token_limit', token_limit: 'token_limit', 'response size limit': 'response_limit', response_limit: 'response_limit' };
  for (const item of itemsOf(result)) if (item.type === 'omission' && typeof item.reason === 'string' && omissionCause[item.reason]) causes.add(omissionCause[item.reason]!);
  const plan = result.plan as Item | undefined;
  const budget = typeof result.budget === 'number' ? result.budget : typeof plan?.token_budget === 'number' ? plan.token_budget : null;
  if (command === 'backlinks') causes.add('result_limit');
  const hints: string[] = [];
  if (causes.has('token_limit')) hints.push(`token budget: raise --budget${budget === null ? '' : ` (was ${budget})`}`);
  if (causes.has('result_limit')) {
    hints.push(command === 'context' ? 'result bound: the selection reached its node bound; name the node with --node ID' : command === 'backlinks' ? 'result limit: raise --limit or narrow --relations' : 'result limit: raise --limit, narrow --relations or lower --depth');
  }
  if (causes.has('response_limit')) hints.push('response size: read an omitted node with docforge node ID');
  if (causes.has('edge_budget')) hints.push(command === 'traversal' ? 'edge work budget: narrow --relations or lower --depth' : 'edge work budget: name the node with --node ID');
  if (causes.has('work_limit')) hints.push('work limit: a search or traversal ceiling was reached; name the node with --node ID or narrow the task text');
  return hints;
}

/** What follows a page: the cursor for the next one, then why the result stopped short and what to change. */
function pageEnd(result: Item, print: Print, more: string, command: Paged): void {
  const omitted = Array.isArray(result.oversized_items) ? result.oversized_items.length : 0;
  if (omitted > 0) print(`(${omitted} items too large for the response limit were skipped; see --json)`);
  const cursor = typeof result.next_cursor === 'string' ? result.next_cursor : typeof (result.page as Item | undefined)?.next_cursor === 'string' ? String((result.page as Item).next_cursor) : null;
  if (cursor !== null) print(`(more: ${more} --cursor ${cursor})`);
  // A backlinks page is truncated exactly when another page exists; context's `truncated` is about
  // the evidence left out (token budget, response size, selection bounds), whatever the page.
  if (result.truncated === true && (cursor === null || command === 'context')) print(`(truncated by ${truncationHints(command, result).join('; ') || 'a bound of the result'})`);
}

/**
 * The node's sections (issue 30): each anchor's slug, what `--section` takes, beside its heading
 * text and line, indented by heading level; then how many more the response left out.
 */
function printSections(result: Item, node: Item, print: Print): void {
  const anchors = Array.isArray(node.anchors) ? (node.anchors as Item[]) : [];
  if (anchors.length === 0) return;
  print(`  sections (--section SLUG or its heading text):`);
  const top = Math.min(...anchors.map((a) => (typeof a.level === 'number' ? a.level : 1)));
  for (const a of anchors) {
    const indent = '  '.repeat(Math.max(0, (typeof a.level === 'number' ? a.level : top) - top));
    print(`    ${indent}${String(a.slug)}  (${oneLine(a.title, 80)})  line ${String(a.line)}`);
  }
  const total = typeof result.anchors_total === 'number' ? result.anchors_total : anchors.length;
  if (total > anchors.length) print(`    (${total - anchors.length} more not shown)`);
}

function printNode(result: Item, print: Print): void {
  const node = (result.node ?? {}) as Item;
  print(`${String(node.id)}  [${String(node.kind)}]  ${String(node.title)}`);
  print(`  ${String(node.source_path)}:${String(node.start_line)}-${String(node.end_line)}${node.status ? `  status ${String(node.status)}` : ''}`);
  const edges = (result.edges ?? { outgoing: [], incoming: [] }) as { outgoing?: Item[]; incoming?: Item[] };
  for (const edge of edges.outgoing ?? []) print(`  --${String(edge.relation)}--> ${String(edge.target_id)}${reviewMark(edge)}`);
  for (const edge of edges.incoming ?? []) print(`  <--${String(edge.relation)}-- ${String(edge.source_id)}${reviewMark(edge)}`);
  const section = result.section as Item | null;
  if (section) print(`  section ${String(section.slug)} (${String(section.title)}), lines ${String(section.line)}-${String(section.end_line)}`);
  else printSections(result, node, print);
  const unresolved = unresolvedCallsLine(result.unresolved_calls, String(node.id));
  if (unresolved !== null) print(`  ${unresolved}`);
  if (typeof node.body === 'string' && node.body !== '') {
    print();
    for (const line of node.body.split('\n')) print(line);
  }
  if (typeof result.next_body_offset === 'number') print(`(body continues: --body-offset ${result.next_body_offset} of ${String(result.body_total_chars)} characters)`);
}

function printBacklinks(result: Item, print: Print): void {
  const items = itemsOf(result);
  for (const item of items) print(`${String(item.id)}  --${String(item.relation)}-->  ${String(result.node_id)}${item.title ? `  (${oneLine(item.title, 80)})` : ''}${reviewMark(item)}`);
  if (items.length === 0) print('no backlinks');
  printUnmatched(result, print);
  pageEnd(result, print, 'docforge backlinks ID', 'backlinks');
}

/** One line per filter value no node or edge holds (`unmatched_filters`), with its suggestion. */
function printUnmatched(result: Item, print: Print): void {
  const unmatched = Array.isArray(result.unmatched_filters) ? (result.unmatched_filters as Item[]) : [];
  for (const u of unmatched) print(`(no ${String(u.filter)} value ${JSON.stringify(u.value)} in this index${typeof u.did_you_mean === 'string' ? `; did you mean ${JSON.stringify(u.did_you_mean)}?` : ''})`);
}

function printTraversal(result: Item, print: Print, arrow: (item: Item) => string): void {
  const items = itemsOf(result);
  for (const item of items) print(`depth ${String(item.depth)}: ${arrow(item)}`);
  if (items.length === 0) print('no related nodes');
  printUnmatched(result, print);
  // Any traversal whose result counts its start node's unresolved call sites (docforge_dependencies
  // of a code node) says so: "no related nodes" alone would hide them.
  const unresolved = unresolvedCallsLine(result.unresolved_calls, String(result.node_id));
  if (unresolved !== null) print(unresolved);
  print(`(examined ${String(result.examined_edges)} edges${result.truncated === true ? `; truncated by ${truncationHints('traversal', result).join('; ')}` : ''})`);
  printPartial(result, print);
}

/** Most nodes the text form names as partly expanded (`partially_expanded`; `--json` has them all). */
const PARTIAL_SHOWN = 10;

/** One line per node whose next-depth neighbours the result limit cut (`partially_expanded`). */
function printPartial(result: Item, print: Print): void {
  const partial = Array.isArray(result.partially_expanded) ? (result.partially_expanded as Item[]) : [];
  if (partial.length === 0) return;
  const shown = partial.slice(0, PARTIAL_SHOWN).map((p) => `${String(p.id)} (${String(p.listed)} listed, ${String(p.omitted)} left out)`);
  const total = typeof result.omitted_total === 'number' ? `; ${String(result.omitted_total)} distinct neighbours left out in all (one reached from several nodes counts under each)` : '';
  print(`(neighbours cut by the limit, shared round-robin: ${shown.join(', ')}${partial.length > PARTIAL_SHOWN ? ` and ${partial.length - PARTIAL_SHOWN} more; see --json` : ''}${total})`);
}

/** Most lines and characters of an evidence excerpt the text form of `docforge context` shows. */
const EXCERPT_LINES = 6;
const EXCERPT_CHARS = 480;

/** The evidence item's excerpt, indented, at most {@link EXCERPT_LINES} non-blank lines; `…` marks a cut. */
function printExcerpt(item: Item, print: Print): void {
  if (typeof item.excerpt !== 'string' || item.excerpt.trim() === '') return;
  const text = item.excerpt.length > EXCERPT_CHARS ? `${item.excerpt.slice(0, EXCERPT_CHARS)}\u2026` : item.excerpt;
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  for (const line of lines.slice(0, EXCERPT_LINES)) print(`    ${line.trimEnd()}`);
  if (lines.length > EXCERPT_LINES || item.excerpt_truncated === true) print('    \u2026');
}

/**
 * How a context item was reached (issue 30): `-calls-> ` when the node it was reached from holds
 * the edge (outgoing), `<-calls- ` when this item holds it (incoming), with `(via ID)` when that
 * node is not the focus (a depth-2 item); empty for a focus or search item.
 */
function reachedBy(item: Item, focus: string | null): string {
  const step = item.relation as Item | null | undefined;
  if (step === null || typeof step !== 'object' || typeof step.relation !== 'string') return '';
  const arrow = step.direction === 'incoming' ? `<-${step.relation}- ` : `-${step.relation}-> `;
  return typeof step.via === 'string' && step.via !== focus ? `(via ${step.via}) ${arrow}` : arrow;
}

/** What a task context is about: the exact focus node, else the focus items of the page (the first three), else "the focus". */
function subjectOf(plan: Item | undefined, items: readonly Item[]): string {
  const focus = plan !== undefined && typeof plan.focus === 'object' && plan.focus !== null ? (plan.focus as Item).node_id : undefined;
  if (typeof focus === 'string') return focus;
  const ids = items.filter((item) => item.selected_by === 'focus').map((item) => String(item.id));
  return ids.length === 0 ? 'the focus' : `${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', ...' : ''}`;
}

function printContext(result: Item, print: Print): void {
  const items = itemsOf(result);
  const plan = result.plan as Item | undefined;
  if (plan && typeof plan === 'object' && plan.focus && typeof plan.focus === 'object') print(`task ${String(result.task_kind)}, focus ${String((plan.focus as Item).mode)}`);
  const focus = items.find((item) => item.selected_by === 'focus')?.id;
  for (const item of items) {
    if (item.type === 'omission') print(`(omitted ${String(item.id)}: ${String(item.reason)})`);
    else {
      const where = typeof item.start_line === 'number' ? `${String(item.source_path ?? '')}:${item.start_line}` : String(item.source_path ?? '');
      print(`${reachedBy(item, typeof focus === 'string' ? focus : null)}${String(item.id)}  [${String(item.kind)}]  ${oneLine(item.title, 80)}  ${where}${typeof item.depth === 'number' ? `  depth ${item.depth}` : ''}`);
      printExcerpt(item, print);
    }
  }
  if (items.length === 0) print('no evidence');
  const gaps = Array.isArray(result.gaps) ? (result.gaps as Item[]) : [];
  for (const gap of gaps) {
    const category = typeof gap.category === 'string' ? `, category ${gap.category}${Array.isArray(gap.relations) ? ` (none through ${gap.relations.join(', ')})` : ''}` : '';
    // A test task's missing tests, said in words (issue 30): the gap alone read as a detail.
    if (gap.kind === 'no_selected_evidence' && gap.task_kind === 'test' && Array.isArray(gap.relations)) print(`no tests found for ${subjectOf(plan, items)}: nothing reached it through ${gap.relations.join(', ')}`);
    print(`gap: ${String(gap.kind)}${gap.cause ? `, cause ${String(gap.cause)}` : ''}${category}`);
  }
  print(`(used ${String(result.used_tokens)} tokens${typeof result.capsule_hash === 'string' ? `; capsule ${result.capsule_hash.slice(0, 16)}…` : ''})`);
  pageEnd(result, print, 'the same docforge context command with', 'context');
}

/** `docforge viewer open`: the graph browser's one-time URL, what it shows and which worker serves it. */
function printVisualize(result: Item, print: Print): void {
  const mode = String(result.mode);
  const what = mode === 'focus' ? `focus ${String(result.focus_node_id)}` : mode === 'search' ? `search ${JSON.stringify(result.query)}` : 'the architecture map';
  const worker = (result.worker ?? {}) as Item;
  const snapshot = (result.snapshot ?? {}) as Item;
  print(String(result.url));
  print(`graph browser (${String(result.template)}): ${what}; generation ${String(snapshot.generation)}; worker ${String(worker.worker_id)}${worker.reused === true ? ' (reused)' : ''}`);
  print('open the URL in a browser on this machine: its token works once and sets a session cookie; `docforge viewer stop` stops the worker');
}

/** Prints the text form of one read tool's result. */
export function printReadResult(tool: ReadTool, result: Item, print: Print): void {
  switch (tool) {
    case 'docforge_get_node':
      return printNode(result, print);
    case 'docforge_backlinks':
      return printBacklinks(result, print);
    case 'docforge_dependencies':
      return printTraversal(result, print, (item) => `${String(item.via)} --${relationsOf(item)}--> ${String(item.id)}${reviewMark(item)}`);
    case 'docforge_impact':
      return printTraversal(result, print, (item) => `${String(item.id)} --${relationsOf(item)}--> ${String(item.via)}`);
    case 'docforge_visualize':
      return printVisualize(result, print);
    default:
      return printContext(result, print);
  }
}
