// Linear scanners for single texts (a signature, a go.mod line, a module header, a mention, a code line, a module's
// source): each returns what a backtracking regex matched (issue 30: recheck found them polynomial, and 50 KB attack
// strings took 0.8-2.2 s), checked against that regex on generated and real inputs. Line-start scanners of adapter
// sources are in linear-scan-source.ts.
import { blanks } from './linear-scan.js';

const BLANK = /\s/;
const WORD = /\w/;
const LINE_BREAK = '\n\r\u2028\u2029';
const isBlank = (c: string | undefined): boolean => c !== undefined && BLANK.test(c);
const isWord = (c: string | undefined): boolean => c !== undefined && WORD.test(c);
const isHspace = (c: string | undefined): boolean => c === ' ' || c === '\t';

/**
 * `signature` without a trailing RDoc directive comment, as `.replace(/\s+#\s*:[a-z-]+:.*$/, '')` did (quadratic on
 * a long blank run: 1.2 s on 50 KB): cut at the blank run before the first `#` that has blanks before it, then
 * blanks, `:name:` and no line break after the second `:`.
 */
export function withoutTrailingDirective(signature: string): string {
  const s = signature;
  let lastBreak = s.length - 1;
  while (lastBreak >= 0 && !LINE_BREAK.includes(s[lastBreak] as string)) lastBreak--;
  for (let hash = s.indexOf('#'); hash >= 0; hash = s.indexOf('#', hash + 1)) {
    if (!isBlank(s[hash - 1])) continue;
    const colon = blanks(s, hash + 1);
    if (s[colon] !== ':') continue;
    let end = colon + 1;
    while (end < s.length && /[a-z-]/.test(s[end] as string)) end++;
    if (end === colon + 1 || s[end] !== ':' || lastBreak > end) continue;
    let start = hash;
    while (start > 0 && isBlank(s[start - 1])) start--;
    return s.slice(0, start);
  }
  return s;
}

/** Whether `s` ends at `at`, or at a CR that is its last character (`\r?$` without the `m` flag). */
function endsAt(s: string, at: number): boolean {
  return at === s.length || (s[at] === '\r' && at + 1 === s.length);
}

/** Whether the text from `at` reaches the end through `.*\r?$`: its first line break is the end or a final CR. */
function restOfLineEnds(s: string, at: number): boolean {
  let i = at;
  while (i < s.length && !LINE_BREAK.includes(s[i] as string)) i++;
  return endsAt(s, i);
}

/**
 * The module path of one go.mod line: group 2 of /^[ \t]*module[ \t]+("?)([^\s"]+)\1[ \t]*(?:\/\/.*)?\r?$/ (quadratic
 * on a long run of slashes: 1.5 s on 50 KB), or null. Unquoted, the path is the longest prefix of its run after which
 * only blanks and a `//` comment or the line's end follow.
 */
export function goModuleLinePath(line: string): string | null {
  const s = line;
  let p = 0;
  while (isHspace(s[p])) p++;
  if (!s.startsWith('module', p) || !isHspace(s[p + 6])) return null;
  let q = p + 6;
  while (isHspace(s[q])) q++;
  const quoted = s[q] === '"';
  const from = quoted ? q + 1 : q;
  let run = from;
  while (run < s.length && !isBlank(s[run]) && s[run] !== '"') run++;
  if (run === from) return null;
  const tailEnds = (at: number): boolean => {
    let u = at;
    while (isHspace(s[u])) u++;
    return (s.startsWith('//', u) && restOfLineEnds(s, u + 2)) || endsAt(s, u);
  };
  if (quoted) return s[run] === '"' && tailEnds(run + 1) ? s.slice(from, run) : null;
  if (tailEnds(run)) return s.slice(from, run);
  if (!restOfLineEnds(s, run)) return null;
  // A shorter path followed directly by a `//` comment: the last `//` inside the run.
  for (let cut = run - 2; cut > from; cut--) if (s[cut] === '/' && s[cut + 1] === '/') return s.slice(from, cut);
  return null;
}

/**
 * Whether a module's text after its leading comment starts like code, as
 * /^\s*(import\b|export\s+(\*|\{)|['"]use strict['"]|(const|let|var)\s+[\w{}\s,]+=\s*require\()/.test did (quadratic
 * on a long blank run after `const`: 1.5 s on 50 KB).
 */
export function startsLikeModuleCode(rest: string): boolean {
  const s = rest;
  const p = blanks(s, 0);
  if (s.startsWith('import', p) && !isWord(s[p + 6])) return true;
  if (s.startsWith('export', p)) {
    const q = blanks(s, p + 6);
    if (q > p + 6 && (s[q] === '*' || s[q] === '{')) return true;
  }
  if ((s[p] === '"' || s[p] === "'") && s.startsWith('use strict', p + 1) && (s[p + 11] === '"' || s[p + 11] === "'")) return true;
  const keyword = ['const', 'let', 'var'].find((word) => s.startsWith(word, p));
  if (keyword === undefined) return false;
  const c = p + keyword.length;
  if (!isBlank(s[c])) return false;
  // `\s+[\w{}\s,]+=`: blanks ⊂ the class, so the class run from c + 1 must end at `=` after at least one character.
  let end = c + 1;
  while (end < s.length && /[\w{}\s,]/.test(s[end] as string)) end++;
  return end >= c + 2 && s[end] === '=' && s.startsWith('require(', blanks(s, end + 1));
}

/**
 * A mention's text without leading punctuation and trailing non-name characters, as
 * `.replace(/^[^\w$./@-]+|[^\w$/]+$/g, '')` did (quadratic on a long run of dots: issue 30).
 */
export function trimMentionPunctuation(text: string): string {
  let lead = 0;
  while (lead < text.length && !/[\w$./@-]/.test(text[lead] as string)) lead++;
  let tail = text.length;
  while (tail > 0 && !/[\w$/]/.test(text[tail - 1] as string)) tail--;
  return text.slice(lead, Math.max(tail, lead));
}

/**
 * The bodies of the quoted strings of `text` (`"…"`, `'…'`, `` `…` ``, backslash escapes skipped), the group 2 of each
 * match of /(["'`])((?:\\.|(?!\1)[^\\])*)\1/g in order (quadratic on `\"` repeated: 2.2 s on 50 KB). From an opening
 * quote the body runs to the first unescaped same quote; a backslash before a line break or at the end stops it
 * unmatched, and the search goes on one character later. Where a body scan ends is remembered per quote and position,
 * so scans from later quotes that join an earlier path stop at once.
 */
export function quotedStringBodies(text: string): string[] {
  const out: string[] = [];
  const ends = new Map<string, Int32Array>();
  for (let i = 0; i < text.length; ) {
    const quote = text[i] as string;
    if (quote !== '"' && quote !== "'" && quote !== '`') {
      i++;
      continue;
    }
    let known = ends.get(quote);
    if (known === undefined) ends.set(quote, (known = new Int32Array(text.length + 1).fill(-2)));
    const close = closingQuote(text, quote, i + 1, known);
    if (close < 0) i++;
    else {
      out.push(text.slice(i + 1, close));
      i = close + 1;
    }
  }
  return out;
}

/** The index of the closing `quote` of a body starting at `from` (-1: none), recording it for every position walked. */
function closingQuote(s: string, quote: string, from: number, known: Int32Array): number {
  const walked: number[] = [];
  let p = from;
  let result: number;
  for (;;) {
    if (p >= s.length) {
      result = -1;
      break;
    }
    if ((known[p] as number) !== -2) {
      result = known[p] as number;
      break;
    }
    walked.push(p);
    const c = s[p] as string;
    if (c === quote) {
      result = p;
      break;
    }
    if (c !== '\\') p += 1;
    else if (p + 1 < s.length && !LINE_BREAK.includes(s[p + 1] as string)) p += 2;
    else {
      result = -1;
      break;
    }
  }
  for (const at of walked) known[at] = result;
  return result;
}

/** Relative specifier at a quote: `"./…"` or `'../…'` up to the next quote (either kind) before a newline. */
function quotedRelative(s: string, g: number): { spec: string; end: number } | null {
  if (s[g] !== '"' && s[g] !== "'") return null;
  if (!s.startsWith('./', g + 1) && !s.startsWith('../', g + 1)) return null;
  let r = g + 1;
  while (r < s.length && s[r] !== '"' && s[r] !== "'" && s[r] !== '\n') r++;
  return r < s.length && s[r] !== '\n' ? { spec: s.slice(g + 1, r), end: r + 1 } : null;
}

/**
 * The relative specifiers of static imports and re-exports in module text: group 1 of each match of
 * /\b(?:import|export)\s*(?:type\s+)?(?:[\w$*{}\s,]*?\bfrom\s*)?["'](\.{1,2}\/[^"'\n]*)["']/g in order (cubic on
 * `import` and a long blank run: 0.8 s on 50 KB). After the keyword (and `type`), the first `from` inside the run of
 * clause characters that is followed by a relative quoted specifier wins, else a specifier right there. Which `from`s
 * work does not depend on the keyword, so they are found once, from the end.
 */
export function staticImportSpecifiers(text: string): string[] {
  const s = text;
  const n = s.length;
  // runEnd[i]: first index >= i outside [\w$*{}\s,]; nextFrom[i]: first working `from` >= i (n: none).
  const runEnd = new Int32Array(n + 1);
  const nextFrom = new Int32Array(n + 1);
  runEnd[n] = n;
  nextFrom[n] = n;
  for (let i = n - 1; i >= 0; i--) {
    runEnd[i] = /[\w$*{}\s,]/.test(s[i] as string) ? (runEnd[i + 1] as number) : i;
    const works = s.startsWith('from', i) && !isWord(s[i - 1]) && quotedRelative(s, blanks(s, i + 4)) !== null;
    nextFrom[i] = works ? i : (nextFrom[i + 1] as number);
  }
  const out: string[] = [];
  const seen = { import: -2, export: -2 };
  for (let k = 0; k < n; ) {
    const next = keywordAt(s, k, seen);
    if (next < 0) break;
    const w = blanks(s, next + 6);
    let t = w;
    if (s.startsWith('type', w)) {
      const after = blanks(s, w + 4);
      if (after > w + 4) t = after;
    }
    const from = nextFrom[t] as number;
    const found = from < (runEnd[t] as number) ? quotedRelative(s, blanks(s, from + 4)) : quotedRelative(s, t);
    if (found === null) k = next + 1;
    else {
      out.push(found.spec);
      k = found.end;
    }
  }
  return out;
}

/** The first `import` or `export` at or after `k` with a word boundary before it, or -1; `seen` keeps each word's last find, so increasing `k`s cost linear time. */
function keywordAt(s: string, k: number, seen: Record<'import' | 'export', number>): number {
  for (let at = k; ; ) {
    for (const word of ['import', 'export'] as const) if (seen[word] !== -1 && seen[word] < at) seen[word] = s.indexOf(word, at);
    const { import: i, export: e } = seen;
    const first = i < 0 ? e : e < 0 ? i : Math.min(i, e);
    if (first < 0) return -1;
    if (!isWord(s[first - 1])) return first;
    at = first + 1;
  }
}
