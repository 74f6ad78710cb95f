/**
 * A module below its own declarations (issue 31 item 2): a code module's node holds its file's
 * top level (imports, constants, a file comment) and names the file, while the question asks for
 * the place that does the thing. When one of the module's own declarations (`code:<path>#…`) is a
 * candidate too, the module ranks just below the best of them, so the specific answer comes
 * first and the container follows it. A module whose own name holds the whole question ("the retry
 * module") keeps its score. Read from ids only; no constant to tune.
 */
import type { RankedNode } from './ranked-node.js';

/** Score step that puts a module just below its best declaration (scores are rounded to 1e-6). */
const BELOW = 1e-6;

/**
 * `ranked` with each code module scored at most just below its best-scoring own declaration
 * among the candidates; a module in `named` (its own name holds the whole question) and a module
 * with no declaration among the candidates keep theirs. Pure; linear in the candidates.
 */
export function modulesBelowMembers(ranked: readonly RankedNode[], named: ReadonlySet<string>): RankedNode[] {
  const bestMember = new Map<string, number>();
  for (const r of ranked) {
    const id = r.row.id;
    const hash = id.startsWith('code:') ? id.indexOf('#') : -1;
    if (hash < 0) continue;
    const owner = id.slice(0, hash);
    bestMember.set(owner, Math.max(bestMember.get(owner) ?? 0, r.score));
  }
  return ranked.map((r) => {
    if (r.row.kind !== 'module' || !r.row.id.startsWith('code:') || named.has(r.row.id)) return r;
    const best = bestMember.get(r.row.id);
    if (best === undefined || best <= 0 || r.score < best) return r;
    return { ...r, score: Math.max(0, Math.round((best - BELOW) * 1e6) / 1e6) };
  });
}
