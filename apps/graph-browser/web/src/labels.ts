/**
 * Labels told apart by their shortest distinguishing path (issue 34 item 3): where two shown
 * items would read the same (`transport.js` twice), each gets the fewest trailing path segments
 * that make it unique (`lib/transport.js`, `examples/transport.js`). Used for every label the page
 * shows: canvas nodes, map groups, lists, cards and the inspector.
 */
import type { GraphNode } from './types.js';

/** One item to label: a stable key and its path segments, outermost first (the last is the plain label). */
export interface LabelItem {
  key: string;
  segments: readonly string[];
}

/**
 * For each item, how many trailing segments its label needs: 1 when its last segment is unique
 * among `items`, else the fewest that tell it from every other item with the same last segment
 * (all of them when even the full path is shared).
 */
export function distinguishingDepths(items: readonly LabelItem[]): Map<string, number> {
  const depth = new Map<string, number>(items.map((i) => [i.key, 1]));
  const suffix = (item: LabelItem, k: number): string => item.segments.slice(Math.max(0, item.segments.length - k)).join('\u0000');
  for (let round = 0; round < 64; round++) {
    const groups = new Map<string, LabelItem[]>();
    for (const item of items) {
      const text = suffix(item, depth.get(item.key)!);
      groups.set(text, [...(groups.get(text) ?? []), item]);
    }
    let changed = false;
    for (const members of groups.values()) {
      if (members.length < 2) continue;
      for (const item of members) {
        const k = depth.get(item.key)!;
        if (k < item.segments.length) {
          depth.set(item.key, k + 1);
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return depth;
}

/** The path segments of a node: its file's folders and name, then its qualified name's parts (code), or its leaf (documents). */
export function nodeSegments(node: Pick<GraphNode, 'id' | 'leaf' | 'source_path'>): string[] {
  const hash = node.id.startsWith('code:') ? node.id.indexOf('#') : -1;
  const file = node.source_path ?? (node.id.startsWith('code:') ? node.id.slice(5, hash > 0 ? hash : undefined) : '');
  const folders = file.split('/').filter((s) => s.length > 0);
  if (node.id.startsWith('code:')) {
    if (hash < 0) return folders;
    return [...folders, ...node.id.slice(hash + 1).split('.')];
  }
  return [...folders, node.leaf];
}

/** Joins trailing segments of a node back into a label: folders with `/`, a code member after the file with ` › ` and its owners with `.`. */
function joinNode(node: Pick<GraphNode, 'id'>, segments: readonly string[], depth: number): string {
  const hash = node.id.startsWith('code:') ? node.id.indexOf('#') : -1;
  const memberParts = hash > 0 ? node.id.slice(hash + 1).split('.').length : node.id.startsWith('code:') ? 0 : 1;
  const tail = segments.slice(Math.max(0, segments.length - depth));
  const member = tail.slice(Math.max(0, tail.length - memberParts));
  const path = tail.slice(0, Math.max(0, tail.length - memberParts));
  const memberText = member.join(node.id.startsWith('code:') ? '.' : '');
  if (path.length === 0) return memberText;
  return memberText.length > 0 ? `${path.join('/')} › ${memberText}` : path.join('/');
}

/**
 * The label of each node among `nodes`: its leaf when no other shown node has the same leaf,
 * else its shortest distinguishing path (`lib/transport.js`, `Ledger.refund`, `guides/intro.md › Intro`).
 */
export function nodeLabels(nodes: readonly Pick<GraphNode, 'id' | 'leaf' | 'source_path'>[]): Map<string, string> {
  const unique = new Map(nodes.map((n) => [n.id, n]));
  const items = [...unique.values()].map((n) => {
    const segments = nodeSegments(n);
    // The plain label is the leaf itself, so the first segment compared is the leaf.
    return { key: n.id, segments: segments.length > 0 ? [...segments.slice(0, -1), n.leaf] : [n.leaf] };
  });
  const depths = distinguishingDepths(items);
  const out = new Map<string, string>();
  for (const item of items) {
    const depth = depths.get(item.key)!;
    const node = unique.get(item.key)!;
    out.set(item.key, depth <= 1 ? node.leaf : joinNode(node, item.segments, depth));
  }
  return out;
}

/** The label of each map group path (folders end with `/`): the last segment, or the shortest distinguishing path. */
export function pathLabels(paths: readonly { key: string; path: string; label: string }[]): Map<string, string> {
  const items = paths.map((p) => {
    const folder = p.path.endsWith('/');
    const parts = p.path.split('/').filter((s) => s.length > 0);
    if (folder && parts.length > 0) parts[parts.length - 1] = `${parts[parts.length - 1]}/`;
    return { key: p.key, segments: parts.length > 0 ? parts : [p.label], label: p.label };
  });
  const depths = distinguishingDepths(items.filter((i) => i.segments[i.segments.length - 1] === i.label));
  return new Map(items.map((i) => {
    const depth = depths.get(i.key) ?? 1;
    return [i.key, depth <= 1 ? i.label : i.segments.slice(i.segments.length - depth).join('/').replace(/\/\//g, '/')];
  }));
}
