/**
 * The one paging algorithm of DocForge (issue 7 item 2): the largest prefix of a sequence that
 * fits a size budget, with an honest truncation record. Context and task-context pages, the
 * generation-diff page, Logic page shrinking and the server's final response trimming all cut
 * with {@link fitPrefix}; cutting a string (a node body) to the longest prefix that still fits uses
 * {@link longestFitting}. Sizes are in whatever unit the caller measures (characters of JSON here).
 */

/** Why a prefix stopped before the end of the sequence. */
export type PrefixStop = 'complete' | 'item_limit' | 'size_budget';

/** What {@link fitPrefix} kept and why it stopped. */
export interface PrefixTruncation {
  /** Items kept (from `start`). */
  kept: number;
  /** Items after the kept prefix that were offered but not kept. */
  dropped: number;
  /** `complete` when nothing was dropped. */
  reason: PrefixStop;
  /** Size of the kept items, separators included. */
  used_size: number;
  /** The budget the prefix was fitted to. */
  budget: number;
  /** Size of the first dropped item (without separator) when the budget stopped the prefix, else null. */
  blocking_size: number | null;
}

/** Options of {@link fitPrefix}. */
export interface FitPrefixOptions<T> {
  /** Largest total size of the kept items, separators included. */
  budget: number;
  /** Size of one item (called at most once per item, in order, and not past the first item that does not fit). */
  sizeOf: (item: T, index: number) => number;
  /** Size added between two kept items (1 for the comma of a JSON array). Default 0. */
  separator?: number;
  /** Most items to keep. Default: no limit. */
  maxItems?: number;
  /** Index of the first item offered. Default 0. */
  start?: number;
}

/**
 * The largest prefix of `items[start..]` that has at most `maxItems` items and whose sizes plus
 * separators add up to at most `budget`. Stops at the first item that does not fit (later smaller
 * items are not considered: a page never skips an item). An item exactly filling the budget fits.
 * @returns the kept items (a new array) and the truncation record
 */
export function fitPrefix<T>(items: readonly T[], options: FitPrefixOptions<T>): { items: T[]; truncation: PrefixTruncation } {
  const start = Math.max(0, options.start ?? 0);
  const separator = options.separator ?? 0;
  const maxItems = options.maxItems ?? Number.POSITIVE_INFINITY;
  const kept: T[] = [];
  let used = 0;
  let reason: PrefixStop = 'complete';
  let blocking: number | null = null;
  for (let i = start; i < items.length; i += 1) {
    if (kept.length >= maxItems) {
      reason = 'item_limit';
      break;
    }
    const size = options.sizeOf(items[i]!, i);
    const added = size + (kept.length > 0 ? separator : 0);
    if (used + added > options.budget) {
      reason = 'size_budget';
      blocking = size;
      break;
    }
    used += added;
    kept.push(items[i]!);
  }
  const offered = Math.max(0, items.length - start);
  return {
    items: kept,
    truncation: { kept: kept.length, dropped: offered - kept.length, reason, used_size: used, budget: options.budget, blocking_size: blocking },
  };
}

/**
 * The largest `n` in `0..max` for which `fits(n)` holds, for a predicate that is monotone (true up
 * to some point, false after). `fits(0)` is assumed true. Binary search: `O(log max)` calls.
 */
export function longestFitting(max: number, fits: (n: number) => boolean): number {
  let lo = 0;
  let hi = Math.max(0, Math.floor(max));
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
