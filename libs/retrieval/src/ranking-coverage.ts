/**
 * Query coverage of the ranking (issue 31 item 2): how much of a question a node holds anywhere,
 * in its own text (name, doc comment, summary, body of a page) or in its code text (the words of
 * its function body, `code_fts`). A question asked the way a developer asks it ("how does decoding
 * check that the audience claim matches the expected audience") is rarely held whole by one node,
 * so the all-terms signal is almost never true for it; the share of its words (idf-weighted) that a
 * node holds separates the function whose body checks `audience` against the `aud` claim from the
 * many nodes that only share one frequent word with the question. It counts every project the same
 * way: no word list, no rule keyed to one question set.
 */
import type { IndexReader } from '@docforge/store';

/**
 * For each candidate rowid, the idf-weighted share (0..1) of the query's word groups it holds in
 * its own text or its code text. `groups` maps a query word group to its FTS phrases (the word, its
 * expansions and stem forms: any one counts); `weightOf[g]` is group g's weight (its idf) and
 * `total` their sum. Rowids holding none are left out. Cost: two rowid-bounded FTS5 match reads per
 * group over the given candidates (the candidate window, at most a few hundred rowids), one on the
 * node text and one on the code text.
 */
export function queryCoverage(reader: IndexReader, groups: ReadonlyMap<number, readonly string[]>, weightOf: readonly number[], total: number, rowids: readonly number[]): Map<number, number> {
  const share = new Map<number, number>();
  if (total <= 0 || rowids.length === 0) return share;
  for (const [group, phrases] of groups) {
    const weight = weightOf[group] ?? 0;
    if (weight <= 0 || phrases.length === 0) continue;
    const match = { mode: 'all' as const, groups: [[...phrases]] };
    const holding = new Set([...reader.ftsMatchingRowids(match, rowids), ...reader.ftsMatchingRowids(match, rowids, true)]);
    for (const rowid of holding) share.set(rowid, (share.get(rowid) ?? 0) + weight / total);
  }
  return share;
}
