/**
 * The fixed built-in renderer registry (issue 11 item 5; contract "Render boundary": previews and
 * declared output run only through it). A view names one of these by `renderer`; nothing else can
 * add, replace or select a renderer.
 */
import type { ViewRenderer } from '@docforge/project';
import { htmlDocument } from './html.js';
import { renderCatalog } from './renderers/catalog.js';
import { renderGraph } from './renderers/graph.js';
import { renderMatrix } from './renderers/matrix.js';
import { renderPage } from './renderers/page.js';
import type { RenderInput, Renderer } from './renderers/types.js';

/**
 * Version of the built-in renderers' output. Bump it whenever any renderer's output changes for the
 * same input: render receipts record it, so older outputs become stale.
 */
export const RENDERER_VERSION = 2;

/** The registry, frozen. */
export const RENDERERS: Readonly<Record<ViewRenderer, Renderer>> = Object.freeze({
  catalog: renderCatalog,
  page: renderPage,
  matrix: renderMatrix,
  graph: renderGraph,
});

/**
 * Renders one declared view to a complete HTML document (UTF-8 text). Deterministic: the same graph
 * and view give the same bytes.
 * @throws DocforgeError `render_failed` (e.g. a graph view's focus node does not exist)
 */
export async function renderViewHtml(input: RenderInput): Promise<string> {
  const renderer = RENDERERS[input.view.renderer];
  const body = await renderer(input);
  return htmlDocument(input.view.title, `<main class="view" data-view-id="${input.view.id}" data-renderer="${input.view.renderer}">\n${body}\n</main>`);
}
