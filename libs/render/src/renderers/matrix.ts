/**
 * `matrix` (issue 11 item 5): a traceability matrix. Rows and columns are the view's `rows` and
 * `columns` selectors; a cell is a hit when a relation named in `relations` joins the row node and
 * the column node in either direction. A row without any hit is `tr.uncovered`.
 * Structure: `table.matrix > thead th[data-column-id]`, `tbody tr[data-row-id].covered|.uncovered > td[data-column-id]`
 * (`td.hit[data-relations]` for a hit).
 */
import { escapeHtml, nodeAnchor } from '../html.js';
import { type RenderInput } from './types.js';
import { renderCoverageMatrix } from './coverage-matrix.js';

/** The matrix body (`mode = "coverage"`: {@link renderCoverageMatrix}). */
export function renderMatrix(input: RenderInput): string {
  if (input.view.mode === 'coverage') return renderCoverageMatrix(input);
  const { view, graph } = input;
  const rows = graph.select(view.rows ?? {});
  const columns = graph.select(view.columns ?? {});
  const relations = new Set(view.relations ?? []);
  const columnIds = new Set(columns.nodes.map((n) => n.id));
  const parts = [`<h1>${escapeHtml(view.title)}</h1>`];
  const body: string[] = [];
  let uncovered = 0;
  for (const row of rows.nodes) {
    const hits = new Map<string, Set<string>>();
    for (const e of [...graph.edges(row.id, 'outgoing'), ...graph.edges(row.id, 'incoming')]) {
      if (!relations.has(e.relation)) continue;
      const other = e.source_id === row.id ? e.target_id : e.source_id;
      if (columnIds.has(other)) (hits.get(other) ?? hits.set(other, new Set()).get(other)!).add(e.relation);
    }
    if (hits.size === 0) uncovered++;
    const cells = columns.nodes.map((c) => {
      const rel = hits.get(c.id);
      return rel === undefined
        ? `<td data-column-id="${escapeHtml(c.id)}"></td>`
        : `<td class="hit" data-column-id="${escapeHtml(c.id)}" data-relations="${escapeHtml([...rel].sort().join(' '))}" title="${escapeHtml([...rel].sort().join(', '))}">✓</td>`;
    });
    body.push(`<tr class="${hits.size === 0 ? 'uncovered' : 'covered'}" data-row-id="${escapeHtml(row.id)}" id="${nodeAnchor(row.id)}"><th scope="row">${escapeHtml(row.title)} <code>${escapeHtml(row.id)}</code></th>${cells.join('')}</tr>`);
  }
  parts.push(`<p class="meta">${rows.nodes.length} rows, ${columns.nodes.length} columns, ${uncovered} uncovered; relations: ${escapeHtml([...relations].join(', '))}</p>`);
  if (rows.truncated || columns.truncated) parts.push('<p class="truncated">The rows or columns were cut at the node limit.</p>');
  const head = columns.nodes.map((c) => `<th scope="col" data-column-id="${escapeHtml(c.id)}" title="${escapeHtml(c.title)}"><code>${escapeHtml(c.id)}</code></th>`).join('');
  parts.push(`<table class="matrix"><thead><tr><th></th>${head}</tr></thead><tbody>`, ...body, '</tbody></table>');
  return parts.join('\n');
}
