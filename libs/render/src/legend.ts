/**
 * The legend of a changeset preview (issue 34 item 7): which style marks an added, a changed and a
 * removed node or relation, with how many of each the preview holds. Every renderer's preview
 * carries it (`aside.legend > ul > li[data-mark]`), each swatch drawn with the very classes the
 * marked elements get, so the legend and the drawing cannot disagree. Removed nodes are drawn only
 * by the `graph` renderer; other renderers list their ids in the legend instead.
 */
import { escapeHtml } from './html.js';
import type { ChangeMark, ChangeMarks } from './renderers/types.js';

const MEANING: Readonly<Record<ChangeMark, string>> = Object.freeze({
  added: 'added by the changeset (green outline)',
  changed: 'changed by the changeset (orange outline)',
  removed: 'removed by the changeset (red dashed outline)',
});
const ORDER: readonly ChangeMark[] = ['added', 'changed', 'removed'];
const MAX_LISTED_REMOVED = 20;

function count(map: ReadonlyMap<string, ChangeMark>, mark: ChangeMark): number {
  let n = 0;
  for (const m of map.values()) if (m === mark) n += 1;
  return n;
}

/** A swatch: a small box (and for relations a line) with the mark's classes, as the graph draws them. */
function swatch(mark: ChangeMark): string {
  return `<svg class="swatch" width="44" height="16" viewBox="0 0 44 16" aria-hidden="true"><g class="node ${mark}"><rect x="1.5" y="1.5" width="18" height="13" rx="3" fill="#f6f8fa" stroke="#57606a"/></g>`
    + `<path class="edge ${mark}" d="M24,8L42,8" fill="none" stroke="#8c959f"/></svg>`;
}

/** Ids of removed nodes, for renderers that do not draw them. */
function removedList(marks: ChangeMarks): string {
  const ids = [...marks.nodes.entries()].filter(([, m]) => m === 'removed').map(([id]) => id).sort();
  if (ids.length === 0) return '';
  const listed = ids.slice(0, MAX_LISTED_REMOVED).map((id) => `<code>${escapeHtml(id)}</code>`).join(', ');
  const more = ids.length > MAX_LISTED_REMOVED ? ` and ${ids.length - MAX_LISTED_REMOVED} more` : '';
  return ` (not drawn by this renderer: ${listed}${more})`;
}

/**
 * The preview legend HTML.
 * @param marks the preview's marks
 * @param drawsRemoved whether the renderer draws removed nodes (only `graph` does)
 */
export function previewLegend(marks: ChangeMarks, drawsRemoved: boolean): string {
  const items = ORDER.map((mark) => {
    const nodes = count(marks.nodes, mark);
    const relations = count(marks.edges, mark);
    const extra = mark === 'removed' && !drawsRemoved ? removedList(marks) : '';
    return `<li data-mark="${mark}">${swatch(mark)} <strong>${mark}</strong>: ${MEANING[mark]}; ${nodes} node${nodes === 1 ? '' : 's'}, ${relations} relation${relations === 1 ? '' : 's'}${extra}</li>`;
  });
  return `<aside class="legend" aria-label="Preview legend"><p>Preview of a changeset: marked against the published graph.</p><ul>${items.join('')}</ul></aside>`;
}
