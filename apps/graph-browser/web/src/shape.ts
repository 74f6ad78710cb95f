/**
 * Turns API answers into what the canvas draws: graph responses (neighborhood, Flow, Web) with
 * their semantic direction and hidden/pruned nodes removed, the semantic-card contributors, and
 * Logic projections with hidden steps bridged by explicit omitted paths and their static paths.
 */
import type { DrawEdge, DrawNode } from './graph.js';
import { bridgeHidden, visibleIds } from './prune.js';
import type { GraphNode, GraphResponse, LogicResponse } from './types.js';
import type { Contributor } from './panels.js';
import { nodeLabels } from './labels.js';
import { inverseLabel } from './relations.js';

/** The label of a node: its readable name (`name`: the leaf, or its shortest distinguishing path) and kind, never truncated. */
export function nodeLabel(node: GraphNode, name: string = node.leaf): string {
  return `${name}\n${node.kind}`;
}

/** A drawable graph view plus what the side panels need. */
export interface ShapedGraph {
  nodes: DrawNode[];
  edges: DrawEdge[];
  /** Nodes removed by pruning (not hidden themselves). */
  pruned: number;
  contributors: Contributor[];
}

/**
 * The visible part of a graph response. Edges are drawn in their semantic direction: a `reversed`
 * edge runs from target to source and is labelled with the inverse wording (`imported by`), so an
 * arrow never reads against its label (issue 34 item 2). With `prune` (Flow, Web) hidden nodes also
 * drop what they disconnected. Equal names get their shortest distinguishing path (item 3).
 */
export function shapeGraph(graph: GraphResponse, hidden: ReadonlySet<string>, prune: boolean): ShapedGraph {
  const links = graph.edges.map((e) => (e.reversed ? { source: e.target, target: e.source } : { source: e.source, target: e.target }));
  const visible = visibleIds(graph.nodes.map((n) => n.id), links, graph.focus, hidden, prune);
  const pruned = graph.nodes.filter((n) => !visible.has(n.id) && !hidden.has(n.id)).length;
  const shown = graph.nodes.filter((n) => visible.has(n.id));
  const names = nodeLabels(shown);
  const nodes = shown.map((n) => ({
    id: n.id, label: nodeLabel(n, names.get(n.id)), tooltip: `${n.id}\n${n.title}`, classes: n.id === graph.focus ? ['focus'] : [],
  }));
  const edges: DrawEdge[] = [];
  graph.edges.forEach((e, index) => {
    const link = links[index]!;
    if (!visible.has(link.source) || !visible.has(link.target)) return;
    const reversed = e.reversed === true;
    edges.push({ id: `e${index}`, source: link.source, target: link.target, relation: e.relation, category: e.category, reversed, label: reversed ? inverseLabel(e.relation) : e.relation });
  });
  return { nodes, edges, pruned, contributors: contributorsOf(graph, visible) };
}

/**
 * Each visible non-focus node with the category of the edge that ties it to the focus (a direct
 * edge when there is one, else its first visible edge), in response order.
 */
function contributorsOf(graph: GraphResponse, visible: ReadonlySet<string>): Contributor[] {
  const direct = new Map<string, { relation: string; category: string }>();
  const any = new Map<string, { relation: string; category: string }>();
  for (const e of graph.edges) {
    if (!visible.has(e.source) || !visible.has(e.target)) continue;
    const info = { relation: e.relation, category: e.category };
    if (e.source === graph.focus && !direct.has(e.target)) direct.set(e.target, info);
    if (e.target === graph.focus && !direct.has(e.source)) direct.set(e.source, info);
    if (!any.has(e.source)) any.set(e.source, info);
    if (!any.has(e.target)) any.set(e.target, info);
  }
  const out: Contributor[] = [];
  for (const node of graph.nodes) {
    if (node.id === graph.focus || !visible.has(node.id)) continue;
    const info = direct.get(node.id) ?? any.get(node.id) ?? { relation: 'unrelated', category: 'unclassified' };
    out.push({ node, ...info });
  }
  return out;
}

/** The canvas id of a Logic step. */
export function stepId(step: number): string {
  return `step:${step}`;
}

/** One static path: its step ids and its text (step labels; hidden stretches named as omitted). */
export interface StaticPath {
  ids: string[];
  text: string;
}

/** A Logic drawing: visible steps, kept flows plus omitted-path bridges, and the static paths. */
export interface ShapedLogic {
  nodes: DrawNode[];
  edges: DrawEdge[];
  paths: StaticPath[];
}

/** At most this many static paths are listed. */
export const MAX_PATHS = 50;

/** The visible Logic of one owner with `hidden` steps bridged by explicit omitted paths. */
export function shapeLogic(logic: LogicResponse, hidden: ReadonlySet<string>): ShapedLogic {
  const steps = new Map(logic.steps.map((s) => [stepId(s.step), s]));
  const flows = logic.flows.filter((f) => steps.has(stepId(f.from_step)) && steps.has(stepId(f.to_step)));
  const links = flows.map((f) => ({ source: stepId(f.from_step), target: stepId(f.to_step), flow: f }));
  const { kept, bridges } = bridgeHidden(links, hidden);
  const nodes: DrawNode[] = logic.steps.filter((s) => !hidden.has(stepId(s.step))).map((s) => ({
    id: stepId(s.step),
    label: `${s.label}\n${s.kind} · line ${s.start_line === s.end_line ? s.start_line : `${s.start_line}-${s.end_line}`}`,
    tooltip: `${logic.owner.id} step ${s.step} (${s.kind}, lines ${s.start_line}-${s.end_line})`,
    classes: ['step'],
  }));
  const edges: DrawEdge[] = [];
  kept.forEach((link, index) => {
    const flow = (link as (typeof links)[number]).flow;
    edges.push({ id: `f${index}`, source: link.source, target: link.target, relation: flow.kind, category: 'control', label: flow.label || flow.kind, classes: ['control'] });
  });
  bridges.forEach((bridge, index) => {
    const omitted = bridge.omitted.map((id) => steps.get(id)?.label ?? id).join(' → ');
    edges.push({ id: `b${index}`, source: bridge.source, target: bridge.target, relation: 'omitted path', category: 'omitted', label: `omitted: ${omitted}`, omitted: true });
  });
  const label = (id: string): string => steps.get(id)?.label ?? id;
  const omittedBetween = new Map(bridges.map((b) => [`${b.source}\u0000${b.target}`, b.omitted.map(label).join(' → ')]));
  const keptPairs = new Set(kept.map((l) => `${l.source}\u0000${l.target}`));
  const paths = staticPaths(nodes.map((n) => n.id), edges).map((ids) => ({
    ids,
    text: ids.map((id, i) => {
      const pair = i > 0 ? `${ids[i - 1]}\u0000${id}` : '';
      const omitted = i > 0 && !keptPairs.has(pair) ? omittedBetween.get(pair) : undefined;
      return omitted !== undefined ? `[omitted: ${omitted}] → ${label(id)}` : label(id);
    }).join(' → '),
  }));
  return { nodes, edges, paths };
}

/** Every simple path from an entry (no predecessor) to an exit (no successor), at most MAX_PATHS. */
function staticPaths(ids: readonly string[], edges: readonly DrawEdge[]): string[][] {
  const out = new Map<string, string[]>();
  const hasIn = new Set<string>();
  for (const e of edges) {
    out.set(e.source, [...(out.get(e.source) ?? []), e.target]);
    hasIn.add(e.target);
  }
  const entries = ids.filter((id) => !hasIn.has(id));
  const paths: string[][] = [];
  const walk = (at: string, path: string[]): void => {
    if (paths.length >= MAX_PATHS) return;
    const next = (out.get(at) ?? []).filter((n) => !path.includes(n));
    if (next.length === 0) {
      paths.push(path);
      return;
    }
    for (const n of next) walk(n, [...path, n]);
  };
  for (const entry of entries.length > 0 ? entries : ids.slice(0, 1)) walk(entry, [entry]);
  return paths;
}
