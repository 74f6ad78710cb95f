/**
 * What `export * from` re-exports (issue 31, break-it trial F1/F6): one walk of the star graph per
 * lookup, depth first in star order and each module once (the order Node's own recursion visits),
 * instead of one recursive resolution per (module, name) pair. A package whose thousands of modules
 * re-export each other in cycles is then walked in time linear in its modules and star edges, and a
 * cycle is a visited module, not a cut that poisons later answers (an alias `export { x as y } from`
 * reached through a cycle resolves as Node resolves it).
 */

/** What a star walk reads of a module: its path (identity) and the names of its own export records. */
export interface StarModule {
  readonly path: string;
  readonly exports: { keys(): Iterable<string>; readonly size: number };
}

/** What a star walk needs from the linker. */
export interface StarWalk<M extends StarModule, T> {
  /** The modules the `export *` records of `mod` name, in record order (unresolved ones left out). */
  starTargets(mod: M): readonly M[];
  /** `name` as `mod`'s own export records give it (no `export *` followed), or null. */
  ownExport(mod: M, name: string): T | null;
}

/** What {@link starExport} reads and writes of the linker's per-(module, name) export memo. */
export interface StarMemo<M extends StarModule, T> {
  /** The settled answer for (module, name): a target, null (proven none), or undefined when not settled (unknown, being resolved, or cut). */
  settled(mod: M, name: string): T | null | undefined;
  /** Records that `name` is exported by none of these modules (each one's whole star closure was walked). */
  settleNone(mods: readonly M[], name: string): void;
  /** How many resolutions so far were cut by a cycle or the depth limit (a walk during which it grows settles nothing). */
  cuts(): number;
}

/**
 * A {@link StarMemo} over a linker's export memo: `values` by `<path>\u0000<name>` (null while a
 * key is `pending`: not settled), `none` the keys proven to export nothing, `cuts` its cut counter.
 */
export function memoView<M extends StarModule, T>(values: ReadonlyMap<string, T | null>, pending: ReadonlySet<string>, none: Set<string>, cuts: () => number): StarMemo<M, T> {
  return {
    settled: (mod, name) => {
      const key = `${mod.path}\u0000${name}`;
      if (none.has(key)) return null;
      return pending.has(key) || !values.has(key) ? undefined : values.get(key)!;
    },
    settleNone: (mods, name) => {
      for (const mod of mods) none.add(`${mod.path}\u0000${name}`);
    },
    cuts,
  };
}

/**
 * The first declaration of `name` (never `default` or `=`) that the `export *` records of `mod`
 * reach: each reached module's own export records first, then its own star targets in order. A
 * module already settled in `memo` answers for its whole closure. When nothing is found and no
 * resolution on the way was cut, every walked module is settled as exporting no `name`.
 */
export function starExport<M extends StarModule, T>(walk: StarWalk<M, T>, memo: StarMemo<M, T>, mod: M, name: string): T | null {
  const cutsBefore = memo.cuts();
  const visited = new Set<string>([mod.path]);
  const walked: M[] = [];
  const stack = [...walk.starTargets(mod)].reverse();
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (visited.has(current.path)) continue;
    visited.add(current.path);
    const known = memo.settled(current, name);
    if (known !== undefined) {
      if (known !== null) return known;
      continue;
    }
    const found = walk.ownExport(current, name);
    if (found !== null) return found;
    walked.push(current);
    pushReversed(stack, walk.starTargets(current), visited);
  }
  if (memo.cuts() === cutsBefore) memo.settleNone(walked, name);
  return null;
}

/** A budget of walk steps (one per module, own export name and star edge): bounded work for a package's public API. */
export class WalkBudget {
  private spent = 0;

  /** @param limit the most steps this budget allows */
  constructor(readonly limit: number) {}

  /** Spends `steps`; false once the total exceeds the limit (and from then on). */
  spend(steps: number): boolean {
    this.spent += steps;
    return this.spent <= this.limit;
  }

  /** Steps spent so far. */
  get used(): number {
    return this.spent;
  }
}

/**
 * Every name `mod` exports (never `default` or `=`) with its target: its own export records, then
 * what its `export *` records reach, in the same walk order as {@link starExport} (so each name gets
 * the target {@link starExport} gives it). Null when `budget` runs out first.
 */
export function exportTable<M extends StarModule, T>(walk: StarWalk<M, T>, mod: M, budget: WalkBudget): Map<string, T> | null {
  const table = new Map<string, T>();
  const visited = new Set<string>();
  const stack: M[] = [mod];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (visited.has(current.path)) continue;
    visited.add(current.path);
    const targets = walk.starTargets(current);
    if (!budget.spend(1 + current.exports.size + targets.length)) return null;
    for (const name of current.exports.keys()) {
      if (name === '=' || name === 'default' || table.has(name)) continue;
      const target = walk.ownExport(current, name);
      if (target !== null) table.set(name, target);
    }
    pushReversed(stack, targets, visited);
  }
  return table;
}

/** Pushes the unvisited `targets` so that the first one is popped first. */
function pushReversed<M extends StarModule>(stack: M[], targets: readonly M[], visited: ReadonlySet<string>): void {
  for (let i = targets.length - 1; i >= 0; i -= 1) {
    const target = targets[i]!;
    if (!visited.has(target.path)) stack.push(target);
  }
}
