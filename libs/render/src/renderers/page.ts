/**
 * `page` (issue 11 item 5): the full text of the selected nodes in one document. Each node is a
 * `section.node` whose id is its {@link nodeAnchor}; its body goes through markdown-it (raw HTML
 * off); its outgoing relations are listed as links (`ul.relations > li[data-relation]`), in-page
 * when the target is on the page. No heading repeats the one above it (issue 34 item 7): a node
 * whose title equals the view title (by {@link headingKey}) has no `h2` of its own, a body's leading
 * heading equal to the node or view title is dropped (its anchor kept), and a page of one node has
 * no table of contents.
 */
import { escapeHtml, nodeAnchor } from '../html.js';
import { headingKey, renderMarkdown } from '../markdown.js';
import { edgeKey, linkTables, markClass, type RenderInput } from './types.js';

/** The page body. */
export function renderPage(input: RenderInput): string {
  const selection = input.graph.select(input.view.select);
  const { present, nodeByPath } = linkTables(selection.nodes);
  const parts = [`<h1>${escapeHtml(input.view.title)}</h1>`];
  if (selection.nodes.length > 1) {
    parts.push('<nav class="toc"><ol>');
    for (const n of selection.nodes) parts.push(`<li><a href="#${nodeAnchor(n.id)}">${escapeHtml(n.title)}</a></li>`);
    parts.push('</ol></nav>');
  }
  const viewKey = headingKey(input.view.title);
  if (selection.truncated) parts.push('<p class="truncated">The selection was cut at the node limit.</p>');
  for (const node of selection.nodes) {
    const meta = [node.kind, node.status, node.family].filter((v): v is string => v !== null).map(escapeHtml).join(' · ');
    const tags = node.tags.map((t) => `<span class="tag">${escapeHtml(t)}</span>`).join('');
    parts.push(`<section class="node${markClass(input.marks, node.id)}" id="${nodeAnchor(node.id)}" data-node-id="${escapeHtml(node.id)}">`);
    if (viewKey === '' || headingKey(node.title) !== viewKey) parts.push(`<h2>${escapeHtml(node.title)}</h2>`);
    parts.push(`<p class="meta"><code>${escapeHtml(node.id)}</code> · ${meta} ${tags}</p>`);
    parts.push(`<div class="body">${renderMarkdown(node.body, { nodeId: node.id, sourcePath: node.source_path, present, nodeByPath, shownHeadings: [input.view.title, node.title] })}</div>`);
    const edges = input.graph.edges(node.id, 'outgoing');
    if (edges.length > 0) {
      parts.push('<ul class="relations">');
      for (const e of edges) {
        const mark = input.marks?.edges.get(edgeKey(e));
        const target = present.has(e.target_id)
          ? `<a href="#${nodeAnchor(e.target_id)}">${escapeHtml(e.target_id)}</a>`
          : `<span class="unresolved-link">${escapeHtml(e.target_id)}</span>`;
        parts.push(`<li data-relation="${escapeHtml(e.relation)}"${mark ? ` class="${mark}"` : ''}>${escapeHtml(e.relation)} ${target}</li>`);
      }
      parts.push('</ul>');
    }
    parts.push('</section>');
  }
  return parts.join('\n');
}
