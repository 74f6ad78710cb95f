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
 * node but the hidden ones. With `prune` true (Flow, Web) a node is also pruned when hiding cut it
 * off from the focus: it had a directed path to or from the focus, or any path at all, in the
 * loaded graph and has none through the remaining nodes. Nodes that still lead to the focus stay.
 * The focus itself is never hidden.
 */
export function visibleIds(ids: readonly string[], links: readonly Link[], focus: string, hidden: ReadonlySet<string>, prune: boolean): Set<string> {
  const alive = new Set(ids.filter((id) => id === focus || !hidden.has(id)));
  if (!prune || hidden.size === 0 || !alive.has(focus)) return alive;
  const remaining = links.filter((l) => alive.has(l.source) && alive.has(l.target));
  const before = { directed: connected(links, focus, true), any: connected(links, focus, false) };
  const after = { directed: connected(remaining, focus, true), any: connected(remaining, focus, false) };
  for (const id of [...alive]) {
    if ((before.directed.has(id) && !after.directed.has(id)) || (before.any.has(id) && !after.any.has(id))) alive.delete(id);
  }
  return alive;
}

/**
 * The nodes joined to `focus` by `links`: with `directed`, those with a directed path to the focus
 * or from it; otherwise those with any path, ignoring direction.
 */
function connected(links: readonly Link[], focus: string, directed: boolean): Set<string> {
  const forward = new Map<string, string[]>();
  const backward = new Map<string, string[]>();
  for (const link of links) {
    push(forward, link.source, link.target);
    push(backward, link.target, link.source);
  }
  const kept = new Set<string>([focus]);
  const walk = (next: (at: string) => readonly string[]): void => {
    const seen = new Set<string>([focus]);
    const stack = [focus];
    while (stack.length > 0) {
      for (const n of next(stack.pop()!)) {
        if (seen.has(n)) continue;
        seen.add(n);
        kept.add(n);
        stack.push(n);
      }
    }
  };
  if (directed) {
    walk((at) => backward.get(at) ?? []);
    walk((at) => forward.get(at) ?? []);
  } else {
    walk((at) => [...(backward.get(at) ?? []), ...(forward.get(at) ?? [])]);
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
