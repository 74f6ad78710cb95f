/**
 * The fixed built-in renderer registry (issue 11 item 5; contract "Render boundary": previews and
 * declared output run only through it). A view names one of these by `renderer`; nothing else can
 * add, replace or select a renderer.
 */
import type { ViewRenderer } from '@docforge/project';
import { htmlDocument } from './html.js';
import { previewLegend } from './legend.js';
import { renderCatalog } from './renderers/catalog.js';
import { renderGraph } from './renderers/graph.js';
import { renderMatrix } from './renderers/matrix.js';
import { renderPage } from './renderers/page.js';
import type { RenderInput, Renderer } from './renderers/types.js';

/**
 * Version of the built-in renderers' output. Bump it whenever any renderer's output changes for the
 * same input: render receipts record it, so older outputs become stale. 3 (issue 34 item 7): graph
 * boxes sized to their text, relation labels and key, preview legends, `page` without a repeated
 * heading. 4 (issue 30): the DocForge generator marker line that proves a later render may replace
 * the file.
 */
export const RENDERER_VERSION = 4;

/** The registry, frozen. */
export const RENDERERS: Readonly<Record<ViewRenderer, Renderer>> = Object.freeze({
  catalog: renderCatalog,
  page: renderPage,
  matrix: renderMatrix,
  graph: renderGraph,
});

/**
 * Renders one declared view to a complete HTML document (UTF-8 text). Deterministic: the same graph
 * and view give the same bytes. A preview (`input.marks` given) starts with the legend of its marks.
 * @throws DocforgeError `render_failed` (e.g. a graph view's focus node does not exist)
 */
export async function renderViewHtml(input: RenderInput): Promise<string> {
  const renderer = RENDERERS[input.view.renderer];
  const body = await renderer(input);
  const legend = input.marks === undefined ? '' : `${previewLegend(input.marks, input.view.renderer === 'graph')}\n`;
  return htmlDocument(input.view.title, `<main class="view" data-view-id="${input.view.id}" data-renderer="${input.view.renderer}">\n${legend}${body}\n</main>`);
}
