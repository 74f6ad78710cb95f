// Linear scanners of masked C/C++ source for the tree-sitter adapter's lexical strategy (issue 30): they return what two regexes of lang/cpp.ts matched, without
// their backtracking (the function-definition regex took 11 s on 5 KB; the include regex was quadratic on lines
// split by lone CRs).

const WORD = /\w/;
const IDENT_START = /[A-Za-z_]/;
const PREFIX = /[\w:<>*&\s]/;
const LINE_BREAK = '\n\r\u2028\u2029';

/** Index of the next line start after `at` (one past the next line break), or `s.length + 1` when there is none. */
export function nextLineStart(s: string, at: number): number {
  let i = at;
  while (i < s.length && !LINE_BREAK.includes(s[i] as string)) i++;
  return i + 1;
}

/**
 * The function definitions at line starts of masked C/C++: the names the former
 * /^(?:[A-Za-z_][\w:<>*&\s]*?[\s*&])?([A-Za-z_]\w*)[ \t]*\([^;{]*\)[^;{]*\{/gm matched, in order. At a line start `p`
 * that regex takes the first identifier start `n` (after `p + 1`, preceded by a blank, `*` or `&`, inside the run of
 * prefix characters from `p + 1`) whose name is followed by `(`, a `)` and then `{` before any `;`, else the name at
 * `p` itself; the next match starts after that `{`. Whether `n` works does not depend on `p`, so one forward pointer
 * serves every line start.
 */
export function cppFunctionDefinitions(s: string): string[] {
  const n = s.length;
  // nextStop[i]: first index >= i holding ';' or '{' (-1: none); lastClose[i]: last index <= i holding ')' (-1: none).
  const nextStop = new Int32Array(n + 1);
  nextStop[n] = -1;
  for (let i = n - 1; i >= 0; i--) nextStop[i] = s[i] === ';' || s[i] === '{' ? i : (nextStop[i + 1] as number);
  const lastClose = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) lastClose[i] = s[i] === ')' ? i : i > 0 ? (lastClose[i - 1] as number) : -1;
  /** The end of the `{` after the name starting at `at`, or -1. */
  const tail = (at: number): number => {
    let i = at + 1;
    while (i < n && WORD.test(s[i] as string)) i++;
    while (i < n && (s[i] === ' ' || s[i] === '\t')) i++;
    if (s[i] !== '(') return -1;
    const stop = nextStop[i + 1] as number;
    return stop >= 0 && s[stop] === '{' && (lastClose[stop - 1] as number) > i ? stop + 1 : -1;
  };
  const good = (at: number): boolean => IDENT_START.test(s[at] as string) && /[\s*&]/.test(s[at - 1] as string) && tail(at) >= 0;
  const out: string[] = [];
  let goodFrom = -1;
  let goodAt = -1;
  let runFrom = -1;
  let runEnd = -1;
  for (let p = 0; p <= n; ) {
    if (!IDENT_START.test(s[p] ?? '')) {
      p = nextLineStart(s, p);
      continue;
    }
    if (!(runFrom >= 0 && runFrom <= p + 1 && p + 1 <= runEnd)) {
      runFrom = p + 1;
      runEnd = p + 1;
      while (runEnd < n && PREFIX.test(s[runEnd] as string)) runEnd++;
    }
    const from = p + 2;
    if (!(goodFrom >= 0 && goodFrom <= from && (goodAt >= from || goodAt === -1))) {
      goodFrom = from;
      goodAt = -1;
      for (let i = from; i < n; i++) {
        if (good(i)) {
          goodAt = i;
          break;
        }
      }
    }
    const name = goodAt >= 0 && goodAt < runEnd ? goodAt : tail(p) >= 0 ? p : -1;
    if (name < 0) {
      p = nextLineStart(s, p);
      continue;
    }
    let end = name + 1;
    while (end < n && WORD.test(s[end] as string)) end++;
    out.push(s.slice(name, end));
    p = nextLineStart(s, tail(name) - 1);
  }
  return out;
}

/** One `#include`: the line start `at`, and either the `<...>` spec or the offset and length of the blanked quoted one. */
export type IncludeLine = { at: number; angle: string } | { at: number; quoteStart: number; quoteLength: number };

/**
 * The `#include` lines of masked C/C++: the matches of the former /^[ \t]*#[ \t]*include[ \t]*(?:"( *)"|(<[^>\n]*>))/gm,
 * in order, in linear time (`<[^>\n]*>` runs on across lone CRs, so every `#include <` of a CR-split line rescanned it).
 */
export function cppIncludeLines(s: string): IncludeLine[] {
  const out: IncludeLine[] = [];
  let stopFrom = -1;
  let stopAt = -1;
  const hspace = (i: number): number => {
    let j = i;
    while (s[j] === ' ' || s[j] === '\t') j++;
    return j;
  };
  for (let p = 0; p <= s.length; ) {
    let i = hspace(p);
    let found: IncludeLine | null = null;
    let end = p;
    if (s[i] === '#') {
      i = hspace(i + 1);
      if (s.startsWith('include', i)) {
        i = hspace(i + 7);
        if (s[i] === '"') {
          let k = i + 1;
          while (s[k] === ' ') k++;
          if (s[k] === '"') {
            found = { at: p, quoteStart: i + 1, quoteLength: k - i - 1 };
            end = k + 1;
          }
        } else if (s[i] === '<') {
          if (!(stopFrom >= 0 && stopFrom <= i + 1 && (stopAt >= i + 1 || stopAt === -1))) {
            stopFrom = i + 1;
            stopAt = -1;
            for (let j = i + 1; j < s.length; j++) {
              if (s[j] === '>' || s[j] === '\n') {
                stopAt = j;
                break;
              }
            }
          }
          if (stopAt >= 0 && s[stopAt] === '>') {
            found = { at: p, angle: s.slice(i, stopAt + 1) };
            end = stopAt + 1;
          }
        }
      }
    }
    if (found !== null) out.push(found);
    p = nextLineStart(s, end);
  }
  return out;
}
