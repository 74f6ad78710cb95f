/**
 * The public API table a code adapter's link step builds (LinkResult `api`, issue 31 item 3):
 * public names to the ids of the declarations they name, bounded, emitted sorted. Shared by the
 * built-in adapters so every adapter's table has the same shape and bound.
 */

import { setOwn } from './own-keys.js';

/** Most public names one table holds (bounded work and storage); later new names are dropped. */
export const MAX_API_NAMES = 20000;

/** Collects `name → ids`; {@link ApiTable.toRecord} gives names and ids sorted, ids unique. */
export class ApiTable {
  private readonly table = new Map<string, Set<string>>();
  /** The round in which each name was first added ({@link beginRound}). */
  private readonly roundOf = new Map<string, number>();
  private round = 0;
  private refused = 0;

  /**
   * Starts a new round of additions: from now on a name first added in an earlier round gets no
   * more ids (the first entry point of a package that names it wins: a dual build's second copy
   * adds no second id, and the name stays linkable), while new names are added as usual.
   */
  beginRound(): void {
    this.round += 1;
  }

  /** Adds `id` under `name` (a new name is ignored, and counted in {@link dropped}, once {@link MAX_API_NAMES} names are held; a name of an earlier round is kept as it is). */
  add(name: string, id: string): void {
    let ids = this.table.get(name);
    if (ids !== undefined && this.roundOf.get(name) !== this.round) return;
    if (ids === undefined) {
      this.roundOf.set(name, this.round);
      if (this.table.size >= MAX_API_NAMES) {
        this.refused += 1;
        return;
      }
      this.table.set(name, (ids = new Set()));
    }
    ids.add(id);
  }

  /** How many additions of a new name were ignored because the table was full (a caller reports them; never silent). */
  get dropped(): number {
    return this.refused;
  }

  /** The table as LinkResult `api`: names sorted, each with its ids sorted. */
  toRecord(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const name of [...this.table.keys()].sort()) setOwn(out, name, [...this.table.get(name)!].sort());
    return out;
  }
}
