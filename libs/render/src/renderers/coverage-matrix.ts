/**
 * The `coverage` mode of the `matrix` renderer (issue 32 item 4): each row node (the view's
 * `rows`, typically requirements) against the code and the tests it reaches. From a row, edges
 * named in `relations` are followed in either direction, through any node, for at most
 * {@link COVERAGE_DEPTH} steps; the reached nodes selected by `columns` fill two cells: code
 * (`code:` ids) and tests (the others, e.g. kind `test`). A row is `covered` with both, `partial`
 * with one, `uncovered` with none. Bounded: at most {@link MAX_VISITED} nodes visited per row and
 * {@link MAX_LISTED} listed per cell (the rest counted).
 * Structure: `table.matrix.coverage > tbody tr[data-row-id].covered|.partial|.uncovered > td.code, td.tests`
 * (each listed node an `a[data-node-id]`).
 */
import { escapeHtml, nodeAnchor } from '../html.js';
import { type RenderInput } from './types.js';

const COVERAGE_DEPTH = 3;
const MAX_VISITED = 500;
const MAX_LISTED = 12;

/** The nodes of `columns` reachable from `start` through `relations`, split into code and tests. */
function reached(input: RenderInput, start: string, columnIds: ReadonlySet<string>, relations: ReadonlySet<string>): { code: string[]; tests: string[] } {
  const { graph } = input;
  const seen = new Set([start]);
  const found = { code: [] as string[], tests: [] as string[] };
  let frontier = [start];
  for (let depth = 0; depth < COVERAGE_DEPTH && frontier.length > 0 && seen.size < MAX_VISITED; depth += 1) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const e of [...graph.edges(id, 'outgoing'), ...graph.edges(id, 'incoming')]) {
        if (!relations.has(e.relation)) continue;
        const other = e.source_id === id ? e.target_id : e.source_id;
        if (seen.has(other) || seen.size >= MAX_VISITED) continue;
        seen.add(other);
        next.push(other);
        if (columnIds.has(other)) (other.startsWith('code:') ? found.code : found.tests).push(other);
      }
    }
    frontier = next;
  }
  found.code.sort();
  found.tests.sort();
  return found;
}

function cell(kind: 'code' | 'tests', ids: readonly string[]): string {
  const listed = ids.slice(0, MAX_LISTED).map((id) => `<a href="#${nodeAnchor(id)}" data-node-id="${escapeHtml(id)}"><code>${escapeHtml(id)}</code></a>`);
  if (ids.length > MAX_LISTED) listed.push(`<span class="more">+${ids.length - MAX_LISTED} more</span>`);
  return `<td class="${kind}" data-count="${ids.length}">${listed.join('<br>')}</td>`;
}

/** The coverage matrix body. */
export function renderCoverageMatrix(input: RenderInput): string {
  const { view, graph } = input;
  const rows = graph.select(view.rows ?? {});
  const columns = graph.select(view.columns ?? {});
  const columnIds = new Set(columns.nodes.map((n) => n.id));
  const relations = new Set(view.relations ?? []);
  const counts = { covered: 0, partial: 0, uncovered: 0 };
  const body: string[] = [];
  for (const row of rows.nodes) {
    const { code, tests } = reached(input, row.id, columnIds, relations);
    const state = code.length > 0 && tests.length > 0 ? 'covered' : code.length > 0 || tests.length > 0 ? 'partial' : 'uncovered';
    counts[state] += 1;
    body.push(`<tr class="${state}" data-row-id="${escapeHtml(row.id)}" id="${nodeAnchor(row.id)}"><th scope="row">${escapeHtml(row.title)} <code>${escapeHtml(row.id)}</code></th>${cell('code', code)}${cell('tests', tests)}</tr>`);
  }
  const parts = [`<h1>${escapeHtml(view.title)}</h1>`];
  parts.push(`<p class="meta">${rows.nodes.length} rows: ${counts.covered} covered (code and tests), ${counts.partial} partial, ${counts.uncovered} uncovered; relations: ${escapeHtml([...relations].join(', '))}</p>`);
  if (rows.truncated || columns.truncated) parts.push('<p class="truncated">The rows or columns were cut at the node limit.</p>');
  parts.push('<table class="matrix coverage"><thead><tr><th></th><th scope="col">Code</th><th scope="col">Tests</th></tr></thead><tbody>', ...body, '</tbody></table>');
  return parts.join('\n');
}
