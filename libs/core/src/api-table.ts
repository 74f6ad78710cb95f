/**
 * The public API table a code adapter's link step builds (LinkResult `api`, issue 31 item 3):
 * public names to the ids of the declarations they name, bounded, emitted sorted. Shared by the
 * built-in adapters so every adapter's table has the same shape and bound.
 */

/** Most public names one table holds (bounded work and storage); later new names are dropped. */
export const MAX_API_NAMES = 20000;

/** Collects `name → ids`; {@link ApiTable.toRecord} gives names and ids sorted, ids unique. */
export class ApiTable {
  private readonly table = new Map<string, Set<string>>();
  private refused = 0;

  /** Adds `id` under `name` (a new name is ignored, and counted in {@link dropped}, once {@link MAX_API_NAMES} names are held). */
  add(name: string, id: string): void {
    let ids = this.table.get(name);
    if (ids === undefined) {
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
    for (const name of [...this.table.keys()].sort()) out[name] = [...this.table.get(name)!].sort();
    return out;
  }
}
