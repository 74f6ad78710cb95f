// Linear scanners that return what a backtracking regex of an adapter matched (issue 30: ReDoS regexes run on
// project files; each rewrite keeps the old regex's matches, checked against it on random and real inputs). They
// live in core, beside the other text scanners, because the tree-sitter lib is at its 5,000-line cap.

/** `text` without its `<...>` runs (each `<` to the first `>` after it), as /<[^>]*>/g did, in linear time (issue 30). */
export function withoutAngles(text: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = text.indexOf('<', from);
    const close = open < 0 ? -1 : text.indexOf('>', open + 1);
    if (close < 0) return out + text.slice(from);
    out += text.slice(from, open);
    from = close + 1;
  }
}

const IMPORT_BODY = /[\w. \t]/;
const HSPACE = (c: string | undefined): boolean => c === ' ' || c === '\t';

/**
 * The Java `import` declarations of masked source, one per line start, with the matches of the former
 * /^[ \t]*import[ \t]+(static[ \t]+)?([\w. \t]+?)(\.[ \t]*\*)?[ \t]*;/gm (cubic on a long blank line: 34 s on
 * 3.3 KB, issue 30) found in linear time: `at` is the offset of `import`, `path` the dotted name without blanks.
 */
export function javaImportLines(masked: string): { at: number; isStatic: boolean; path: string; star: boolean }[] {
  const out: { at: number; isStatic: boolean; path: string; star: boolean }[] = [];
  for (let start = 0; start <= masked.length; ) {
    let end = start;
    while (end < masked.length && !'\n\r\u2028\u2029'.includes(masked[end] as string)) end++;
    const found = importOnLine(masked, start, end);
    if (found !== null) out.push(found);
    start = end + 1;
  }
  return out;
}

function importOnLine(s: string, start: number, end: number): { at: number; isStatic: boolean; path: string; star: boolean } | null {
  let p = start;
  while (p < end && HSPACE(s[p])) p++;
  if (!s.startsWith('import', p) || p + 6 > end || !HSPACE(s[p + 6])) return null;
  const q = p + 6;
  let r = q;
  while (r < end && HSPACE(s[r])) r++;
  let e = q + 1;
  while (e < end && IMPORT_BODY.test(s[e] as string)) e++;
  let limit = -1;
  if (e < end && s[e] === ';') limit = e;
  else if (e < end && s[e] === '*') {
    let k = e - 1;
    while (k > q && HSPACE(s[k])) k--;
    let after = e + 1;
    while (after < end && HSPACE(s[after])) after++;
    if (s[k] === '.' && after < end && s[after] === ';') limit = k;
  }
  if (limit < 0) return null;
  const starred = s[e] === '*';
  // Body starts tried in the regex's order: after `static` and its blanks (longest first), then after `import`'s blanks.
  const withStatic = s.startsWith('static', r) && r + 6 < end && HSPACE(s[r + 6]);
  let body = -1;
  let isStatic = false;
  if (withStatic) {
    let st = r + 6;
    while (st < end && HSPACE(s[st])) st++;
    if (limit > st) body = st;
    else if (limit > st - 1 && st - 1 > r + 6) body = st - 1;
    isStatic = body >= 0;
  }
  if (body < 0) body = limit > r ? r : limit > r - 1 && r - 1 > q ? r - 1 : -1;
  if (body < 0) return null;
  return { at: p, isStatic, path: s.slice(body, limit).replace(/[ \t]+/g, ''), star: starred };
}

const BLANK = /\s/;
const WORD = /\w/;
const MODIFIERS = ['async', 'const', 'unsafe'];
const DECLARATION_KEYWORDS = ['fn', 'struct', 'enum', 'trait', 'type', 'union'];

/** The end of the blank run at `at` (`at` itself when there is none). */
export function blanks(s: string, at: number): number {
  let end = at;
  while (end < s.length && BLANK.test(s[end] as string)) end++;
  return end;
}

/** The first index >= `from` of `ch` in `s` (-1: none), remembered per character in `memo` with the index searched from, so that mostly increasing `from`s cost linear time in all. */
export function nextOf(s: string, ch: string, from: number, memo: Map<string, { from: number; at: number }>): number {
  const known = memo.get(ch);
  if (known !== undefined && known.from <= from && (known.at >= from || known.at === -1)) return known.at;
  const at = s.indexOf(ch, from);
  memo.set(ch, { from, at });
  return at;
}

/**
 * Top-level Rust declarations at line starts: what /^(?:pub(?:\([^)]*\))?\s+)?(?:(?:async|const|unsafe|extern\s+"[^"]*")\s+)*
 * (fn|struct|enum|trait|type|union)\s+([A-Za-z_]\w*)/gm matched (9 s on 50 KB: issue 30), in linear time. That regex
 * has one way to match at a line start; the modifier chain's outcome is remembered per position, where chains from
 * later line starts join it.
 */
export function rustDeclarations(s: string): { keyword: string; name: string }[] {
  const out: { keyword: string; name: string }[] = [];
  const memo = new Map<string, { from: number; at: number }>();
  const chains = new Map<number, { keyword: string; name: string; end: number } | null>();
  for (let start = 0; start <= s.length; ) {
    const found = declarationAt(s, start, memo, chains);
    if (found !== null) out.push({ keyword: found.keyword, name: found.name });
    let next = found === null ? start : found.end;
    while (next < s.length && !'\n\r\u2028\u2029'.includes(s[next] as string)) next++;
    start = next + 1;
  }
  return out;
}

function declarationAt(s: string, start: number, memo: Map<string, { from: number; at: number }>, chains: Map<number, { keyword: string; name: string; end: number } | null>): { keyword: string; name: string; end: number } | null {
  let at = start;
  if (s.startsWith('pub', at)) {
    at += 3;
    if (s[at] === '(') {
      const close = nextOf(s, ')', at + 1, memo);
      if (close < 0) return null;
      at = close + 1;
    }
    const after = blanks(s, at);
    if (after === at) return null;
    at = after;
  }
  const visited: number[] = [];
  let result: { keyword: string; name: string; end: number } | null | undefined;
  for (;;) {
    result = chains.get(at);
    if (result !== undefined) break;
    visited.push(at);
    const next = modifierEnd(s, at, memo);
    if (next < 0) {
      result = keywordAt(s, at);
      break;
    }
    at = next;
  }
  for (const position of visited) chains.set(position, result);
  return result;
}

/** The end of `async|const|unsafe|extern "..."` and its blanks at `at`, or -1. */
function modifierEnd(s: string, at: number, memo: Map<string, { from: number; at: number }>): number {
  let end = -1;
  for (const word of MODIFIERS) if (s.startsWith(word, at)) end = at + word.length;
  if (end < 0 && s.startsWith('extern', at)) {
    const quote = blanks(s, at + 6);
    if (quote === at + 6 || s[quote] !== '"') return -1;
    const close = nextOf(s, '"', quote + 1, memo);
    if (close < 0) return -1;
    end = close + 1;
  }
  if (end < 0) return -1;
  const after = blanks(s, end);
  return after === end ? -1 : after;
}

function keywordAt(s: string, at: number): { keyword: string; name: string; end: number } | null {
  const keyword = DECLARATION_KEYWORDS.find((word) => s.startsWith(word, at));
  if (keyword === undefined) return null;
  const name = blanks(s, at + keyword.length);
  if (name === at + keyword.length || !/[A-Za-z_]/.test(s[name] ?? '')) return null;
  let end = name + 1;
  while (end < s.length && WORD.test(s[end] as string)) end++;
  return { keyword, name: s.slice(name, end), end };
}

/** `specifier` without its query or fragment: cut at the first `?` or `#` of its last line, as /[?#].*$/ did, in linear time. */
export function withoutQuery(specifier: string): string {
  let lastLine = specifier.length;
  while (lastLine > 0 && !'\n\r\u2028\u2029'.includes(specifier[lastLine - 1] as string)) lastLine--;
  for (let i = lastLine; i < specifier.length; i++) if (specifier[i] === '?' || specifier[i] === '#') return specifier.slice(0, i);
  return specifier;
}

/** The text inside the first `{` and the first `}` after it, and `text` without them, as /\{([^}]*)\}/ found them, in linear time; null: none. */
export function firstBraced(text: string): { inner: string; without: string } | null {
  const open = text.indexOf('{');
  const close = open < 0 ? -1 : text.indexOf('}', open + 1);
  return close < 0 ? null : { inner: text.slice(open + 1, close), without: text.slice(0, open) + text.slice(close + 1) };
}

/** `text` without its trailing run of the characters in `chars` (/\/+$/-style trims, quadratic as regexes: issue 30). */
export function trimTrailing(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1] as string)) end--;
  return text.slice(0, end);
}
