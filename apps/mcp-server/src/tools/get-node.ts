/** `docforge_get_node` (contract: read tools): one exact node, its edges, an optional section and a body window. */
import { errors } from '@docforge/core';
import { boundTitle, findSection, missingNode, NODE_LIST_CAP, NODE_TITLE_CAP, nodeEdges } from '@docforge/retrieval';
import { defineTool, loadProtocolTool } from '../define-tool.js';
import type { CuttableList } from '../outcome.js';

/** The `docforge_get_node` definition. @throws DocforgeError `node_not_found`; `invalid_arguments` for a section no slug or heading text names (`details.did_you_mean`: the nearest slugs). */
export const getNodeTool = defineTool({
  protocol: loadProtocolTool('docforge_get_node'),
  kind: 'sync',
  fit: 'node_body',
  handler(ctx, sync, args) {
    const reader = ctx.manager.reader();
    const id = args.node_id;
    const node = reader.getNode(id);
    if (!node) throw missingNode(reader, id);
    let body = node.body;
    let section: Record<string, unknown> | null = null;
    if (typeof args.section === 'string') {
      // A slug, else the heading's text (issue 30); a miss names the nearest slugs.
      const lookup = findSection(node, args.section);
      const found = lookup.found;
      if (found === null) {
        const near = 'did_you_mean' in lookup ? lookup.did_you_mean : [];
        const hint = near.length > 0 ? ` Did you mean ${near.map((slug) => JSON.stringify(slug)).join(' or ')}?` : '';
        throw errors.invalidArguments(`Node ${JSON.stringify(id)} has no section ${JSON.stringify(args.section)} (by slug or heading text).${hint} node.anchors lists its ${node.anchors.length} slugs; the text form of docforge node shows them with their headings.`, { argument: 'section', did_you_mean: near, anchors: node.anchors.slice(0, 50).map((a) => a.slug) });
      }
      const anchor = found.anchor;
      body = found.text;
      section = { slug: anchor.slug, title: anchor.title, level: anchor.level, line: anchor.line, end_line: anchor.end_line };
    }
    const total = body.length;
    const offset = Math.min(args.body_offset ?? 0, total);
    // No body window longer than the whole response may be: a bigger one could only be cut again
    // by the size fitting, after serializing it whole (linear in the node size, issue 8 item 1).
    const max = Math.min(args.max_body_chars ?? total, sync.descriptor.limits.max_output_chars);
    node.body = args.include_body === false ? '' : body.slice(offset, offset + max);
    const end = offset + node.body.length;
    // Lists that grow with one node are bounded (the section lookup above used the full list).
    const anchorsTotal = node.anchors.length;
    const tagsTotal = node.tags.length;
    node.anchors = node.anchors.slice(0, NODE_LIST_CAP);
    node.tags = node.tags.slice(0, NODE_LIST_CAP);
    const titleTruncated = node.title.length > NODE_TITLE_CAP;
    // "Who does this call": the calls edges are the proven targets; these call sites have none.
    const unresolved = node.origin === 'code' ? { unresolved_calls: reader.unresolvedCalls(id) } : {};
    node.title = boundTitle(node.title, NODE_TITLE_CAP);
    const edges = nodeEdges(reader, id, 50);
    const result = {
      node,
      title_truncated: titleTruncated,
      anchors_total: anchorsTotal,
      anchors_truncated: anchorsTotal > NODE_LIST_CAP,
      tags_total: tagsTotal,
      tags_truncated: tagsTotal > NODE_LIST_CAP,
      edges,
      ...unresolved,
      section,
      body_total_chars: total,
      body_offset: offset,
      next_body_offset: args.include_body !== false && end < total ? end : null,
      body_truncated: args.include_body !== false && end < total,
    };
    // The final fitting may cut the window further (then `next_body_offset` continues after the cut).
    // At the smallest limit the edge lists, then anchors and tags, are cut to fit (each marked truncated).
    const lists = [
      { holder: edges, key: 'incoming', flags: edges, flag: 'incoming_truncated' },
      { holder: edges, key: 'outgoing', flags: edges, flag: 'outgoing_truncated' },
      { holder: node, key: 'anchors', flags: result, flag: 'anchors_truncated' },
      { holder: node, key: 'tags', flags: result, flag: 'tags_truncated' },
    ] as unknown as CuttableList[];
    return { result, body: { node, offset, lists } };
  },
});
