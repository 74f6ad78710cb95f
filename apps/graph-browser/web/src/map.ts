/**
 * The first screen (issue 34 item 1): the architecture map of /api/overview drawn as compound
 * nodes. Expanded groups (folders, a folder's files, a `rest` page) hold their children; leaves are
 * coloured as code or documentation; aggregated edges run from the group holding the stored edges'
 * sources to the group holding their targets (the relation's direction) and grow with their count.
 * The project root is not drawn: its children are the top level.
 */
import type { DrawEdge, DrawNode } from './graph.js';
import { pathLabels } from './labels.js';
import type { OverviewResponse } from './types.js';

/** The map of an overview answer. */
export type OverviewMap = OverviewResponse['map'];
/** One map group. */
export type MapGroup = OverviewMap['groups'][number];

/** The heaviest edges ELK lays out; lighter ones are drawn along. */
export const MAP_LAYOUT_EDGES = 150;

/** The drawable map: nodes (compound parents first), edges, and each group's display name. */
export interface ShapedMap {
  nodes: DrawNode[];
  edges: DrawEdge[];
  names: Map<string, string>;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** What a leaf group holds, on its second line. */
function summary(group: MapGroup): string {
  const docs = group.doc_nodes > group.code_nodes;
  if (group.kind === 'file') return `${docs ? 'document' : 'module'} · ${plural(group.nodes, 'node')}`;
  return `${plural(group.files, 'file')} · ${plural(group.nodes, 'node')}${docs ? ' · docs' : ''}`;
}

/** The canvas elements of a map. */
export function shapeMap(map: OverviewMap): ShapedMap {
  const root = map.groups.find((g) => g.kind === 'folder' && g.path === '' && g.parent === null);
  const groups = map.groups.filter((g) => g !== root);
  // Folders and files get their shortest distinguishing path; `files` and `rest` boxes name their folder already.
  const names = pathLabels(groups.filter((g) => g.kind === 'folder' || g.kind === 'file').map((g) => ({ key: g.id, path: g.path, label: g.label })));
  const heaviest = groups.filter((g) => !g.expanded).reduce<MapGroup | null>((best, g) => (best === null || g.nodes > best.nodes ? g : best), null);
  const nodes: DrawNode[] = groups.map((g) => {
    const name = names.get(g.id) ?? g.label;
    const classes = ['group', `group-${g.kind}`, g.doc_nodes > g.code_nodes ? 'group-docs' : 'group-code'];
    if (g === heaviest) classes.push('anchor');
    return {
      id: g.id,
      label: g.expanded ? name : `${name}\n${summary(g)}`,
      tooltip: `${g.path || './'} (${g.kind}): ${plural(g.files, 'file')}, ${g.code_nodes} code and ${g.doc_nodes} documentation nodes`,
      classes,
      ...(g.parent !== null && g.parent !== root?.id ? { parent: g.parent } : {}),
    };
  });
  const edges: DrawEdge[] = map.edges.map((e, index) => {
    const top = e.relations[0];
    return {
      id: `m${index}`, source: e.source, target: e.target, relation: top?.relation ?? 'depends_on', category: top?.category ?? 'dependency',
      label: `${e.count}: ${e.relations.map((r) => `${r.relation} ${r.count}`).join(', ')}`,
      weight: Math.min(9, 1.5 + 1.5 * Math.log2(e.count)), classes: ['aggregate'],
    };
  });
  return { nodes, edges, names };
}
