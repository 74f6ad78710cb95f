/**
 * Query coverage of the ranking (issue 31 item 2): how much of a question a node holds anywhere,
 * in its own text (name, doc comment, summary, body of a page) or in its code text (the words of
 * its function body, `code_fts`). A question asked the way a developer asks it ("how does decoding
 * check that the audience claim matches the expected audience") is rarely held whole by one node,
 * so the all-terms signal is almost never true for it; the share of its words (idf-weighted) that a
 * node holds separates the function whose body checks `audience` against the `aud` claim from the
 * many nodes that only share one frequent word with the question. It counts every project the same
 * way: no word list, no rule keyed to one question set.
 *
 * A long body holds many words somewhere: the words a node holds only in its code text count when
 * they sit together, within one region of {@link REGION_LINES} source lines (the region holding the
 * most of them), so a 300-line function that says the question's words in five far-apart places
 * does not hold the question as a short function that says them in one place does.
 */
import type { IndexReader } from '@docforge/store';
import { identifierWords } from '@docforge/store';
import { wordStem } from './query.js';

/** Source lines of one region of a body: words a node holds only in its code text count when they sit within one such region. */
export const REGION_LINES = 30;
/** Most characters of a node's kept lines read to place its words (the kept lines' own bound). */
const REGION_SCAN_CHARS = 65_536;

/**
 * For each candidate rowid, the idf-weighted share (0..1) of the query's word groups it holds in
 * its own text or its code text. `groups` maps a query word group to its FTS phrases (the word, its
 * expansions and stem forms: any one counts); `weightOf[g]` is group g's weight (its idf) and
 * `total` their sum. Rowids holding none are left out. Cost: two rowid-bounded FTS5 match reads per
 * group over the given candidates (the candidate window, at most a few hundred rowids), one on the
 * node text and one on the code text, and one read of the kept lines (at most 64 KB) of each candidate
 * in `long` (rowids whose extent spans at least {@link REGION_LINES} lines; a shorter node's words
 * are always in one region) whose code text alone holds some group.
 */
export function queryCoverage(reader: IndexReader, groups: ReadonlyMap<number, readonly string[]>, weightOf: readonly number[], total: number, rowids: readonly number[], long: ReadonlySet<number> = new Set()): Map<number, number> {
  const share = new Map<number, number>();
  if (total <= 0 || rowids.length === 0) return share;
  const codeOnly = new Map<number, number[]>();
  for (const [group, phrases] of groups) {
    const weight = weightOf[group] ?? 0;
    if (weight <= 0 || phrases.length === 0) continue;
    const match = { mode: 'all' as const, groups: [[...phrases]] };
    const own = new Set(reader.ftsMatchingRowids(match, rowids));
    for (const rowid of own) share.set(rowid, (share.get(rowid) ?? 0) + weight / total);
    for (const rowid of reader.ftsMatchingRowids(match, rowids, true)) if (!own.has(rowid)) codeOnly.set(rowid, [...(codeOnly.get(rowid) ?? []), group]);
  }
  const lines = reader.codeLines([...codeOnly.keys()].filter((rowid) => long.has(rowid)), REGION_SCAN_CHARS);
  for (const [rowid, held] of codeOnly) {
    const weight = regionWeight(lines.get(rowid), held, groups, weightOf);
    share.set(rowid, (share.get(rowid) ?? 0) + weight / total);
  }
  return share;
}

/**
 * The weight of the `held` groups a node's code text holds, counted by region: a group none of whose
 * phrases is placed on a kept line (a word the code text gained from a documented name or constant,
 * or one the word-form stem does not place) counts whole; the placed groups count when they sit in
 * the region of {@link REGION_LINES} lines holding the most weight. A node without lines read, or
 * whose kept lines span fewer than that many lines, counts every group.
 */
function regionWeight(text: string | undefined, held: readonly number[], groups: ReadonlyMap<number, readonly string[]>, weightOf: readonly number[]): number {
  const all = held.reduce((s, g) => s + (weightOf[g] ?? 0), 0);
  if (text === undefined) return all;
  const rows: { line: number; stems: Set<string> }[] = [];
  for (const row of text.split('\n')) {
    const tab = row.indexOf('\t');
    const line = tab > 0 ? Number(row.slice(0, tab)) : NaN;
    if (Number.isFinite(line)) rows.push({ line, stems: new Set(identifierWords(row.slice(tab + 1)).map((w) => wordStem(w))) });
  }
  if (rows.length === 0 || rows[rows.length - 1]!.line - rows[0]!.line < REGION_LINES) return all;
  let unplaced = 0;
  const placed: { group: number; lines: number[] }[] = [];
  for (const group of held) {
    const stems = (groups.get(group) ?? []).map((p) => p.split(' ').filter((w) => w !== '').map((w) => wordStem(w)));
    const at = rows.filter((r) => stems.some((s) => s.length > 0 && s.every((w) => r.stems.has(w)))).map((r) => r.line);
    if (at.length === 0) unplaced += weightOf[group] ?? 0;
    else placed.push({ group, lines: at });
  }
  let best = 0;
  for (const start of new Set(placed.flatMap((p) => p.lines))) {
    let inRegion = 0;
    for (const p of placed) if (firstAtOrAfter(p.lines, start) < start + REGION_LINES) inRegion += weightOf[p.group] ?? 0;
    best = Math.max(best, inRegion);
  }
  return unplaced + best;
}

/** The first of the ascending `lines` at or after `line` (Infinity when none): a binary search. */
function firstAtOrAfter(lines: readonly number[], line: number): number {
  let lo = 0;
  let hi = lines.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (lines[mid]! < line) lo = mid + 1;
    else hi = mid;
  }
  return lo < lines.length ? lines[lo]! : Infinity;
}
