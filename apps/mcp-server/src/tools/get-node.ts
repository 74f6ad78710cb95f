/** `docforge_get_node` (contract: read tools): one exact node, its edges, an optional section and a body window. */
import { errors } from '@docforge/core';
import { nodeEdges } from '@docforge/retrieval';
import { defineTool } from '../define-tool.js';

/** The `docforge_get_node` definition. @throws DocforgeError `node_not_found`; `invalid_arguments` for an unknown section slug. */
export const getNodeTool = defineTool({
  name: 'docforge_get_node',
  kind: 'sync',
  handler(ctx, _sync, args) {
    const reader = ctx.manager.reader();
    const id = args.node_id;
    const node = reader.getNode(id);
    if (!node) throw errors.nodeNotFound(id);
    let body = node.body;
    let section: Record<string, unknown> | null = null;
    if (typeof args.section === 'string') {
      const anchor = node.anchors.find((a) => a.slug === args.section);
      if (!anchor) throw errors.invalidArguments(`Node ${JSON.stringify(id)} has no section ${JSON.stringify(args.section)}; see node.anchors for its slugs.`, { argument: 'section', anchors: node.anchors.slice(0, 50).map((a) => a.slug) });
      body = sectionText(body, anchor.title, anchor.level);
      section = { slug: anchor.slug, title: anchor.title, level: anchor.level, line: anchor.line };
    }
    const total = body.length;
    const offset = Math.min(args.body_offset ?? 0, total);
    const max = args.max_body_chars ?? total;
    node.body = args.include_body === false ? '' : body.slice(offset, offset + max);
    const end = offset + node.body.length;
    return {
      node,
      edges: nodeEdges(reader, id, 50),
      section,
      body_total_chars: total,
      body_offset: offset,
      next_body_offset: args.include_body !== false && end < total ? end : null,
      body_truncated: args.include_body !== false && end < total,
    };
  },
});

/**
 * The Markdown of one section: from the heading line whose text is `title` to the next heading of
 * the same or a higher level (ATX headings; fenced code blocks are skipped).
 */
export function sectionText(body: string, title: string, level: number): string {
  const lines = body.split('\n');
  let start = -1;
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (fence === null) fence = f[1]![0]!;
      else if (f[1]![0] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    if (start < 0) {
      if (h[1]!.length === level && h[2]!.trim() === title.trim()) start = i;
    } else if (h[1]!.length <= level) {
      return lines.slice(start, i).join('\n');
    }
  }
  return start < 0 ? '' : lines.slice(start).join('\n');
}
