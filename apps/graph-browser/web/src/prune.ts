/**
 * Client-side hide and restore (contract, Visualization boundary): pure functions over the loaded
 * bounded graph, no request. In Flow and Web a hidden node also prunes the branches it disconnected
 * from the focus; everything that still leads to the focus (or is reached from it) stays.
 */

/** A directed edge between two node ids. */
export interface Link {
  source: string;
  target: string;
}

/**
 * The ids that stay visible once `hidden` are removed. With `prune` false (Nodes) that is every
 * node but the hidden ones; with `prune` true (Flow, Web) it is only the nodes that still have a
 * directed path to the focus or from it through visible nodes. The focus itself is never hidden.
 */
export function visibleIds(ids: readonly string[], links: readonly Link[], focus: string, hidden: ReadonlySet<string>, prune: boolean): Set<string> {
  const alive = new Set(ids.filter((id) => id === focus || !hidden.has(id)));
  if (!prune || !alive.has(focus)) return alive;
  const forward = new Map<string, string[]>();
  const backward = new Map<string, string[]>();
  for (const link of links) {
    if (!alive.has(link.source) || !alive.has(link.target)) continue;
    push(forward, link.source, link.target);
    push(backward, link.target, link.source);
  }
  const kept = new Set<string>([focus]);
  for (const adjacency of [backward, forward]) {
    const seen = new Set<string>([focus]);
    const stack = [focus];
    while (stack.length > 0) {
      const at = stack.pop()!;
      for (const next of adjacency.get(at) ?? []) {
        if (seen.has(next)) continue;
        seen.add(next);
        kept.add(next);
        stack.push(next);
      }
    }
  }
  return kept;
}

/** An edge drawn in place of hidden Logic steps: from a retained predecessor to a retained successor. */
export interface BridgeLink extends Link {
  /** The hidden steps the bridge stands for, in path order. */
  omitted: string[];
}

/**
 * Logic hide: the retained links plus one bridge per (retained predecessor, retained successor)
 * pair joined only through hidden steps, so that no control path silently disappears.
 */
export function bridgeHidden(links: readonly Link[], hidden: ReadonlySet<string>): { kept: Link[]; bridges: BridgeLink[] } {
  const kept = links.filter((l) => !hidden.has(l.source) && !hidden.has(l.target));
  const out = new Map<string, string[]>();
  for (const link of links) push(out, link.source, link.target);
  const bridges = new Map<string, BridgeLink>();
  const starts = new Set(links.filter((l) => !hidden.has(l.source) && hidden.has(l.target)).map((l) => l.source));
  for (const start of starts) {
    const stack: { at: string; path: string[] }[] = (out.get(start) ?? []).filter((n) => hidden.has(n)).map((n) => ({ at: n, path: [n] }));
    const seen = new Set<string>();
    while (stack.length > 0) {
      const { at, path } = stack.pop()!;
      if (seen.has(at)) continue;
      seen.add(at);
      for (const next of out.get(at) ?? []) {
        if (hidden.has(next)) stack.push({ at: next, path: [...path, next] });
        else if (!bridges.has(`${start}\u0000${next}`)) bridges.set(`${start}\u0000${next}`, { source: start, target: next, omitted: path });
      }
    }
  }
  return { kept, bridges: [...bridges.values()] };
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
