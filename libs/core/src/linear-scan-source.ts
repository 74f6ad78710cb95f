// Linear scanners of masked adapter sources (comments and strings blanked, same length), one per former multiline
// regex of the tree-sitter adapter's lexical strategy (issue 30: recheck found them polynomial; 50 KB attack strings
// took 0.2-1.6 s). Each returns that regex's matches in order (`^` after any line terminator; the search resumes
// after each match), checked against it on generated and real inputs. Single-text scanners are in linear-scan-text.ts.
import { blanks, nextOf } from './linear-scan.js';
import { nextLineStart } from './linear-scan-cpp.js';

const WORD = /\w/;
const LINE_BREAK = '\n\r\u2028\u2029';
const isHspace = (c: string | undefined): boolean => c === ' ' || c === '\t';
const isWord = (c: string | undefined): boolean => c !== undefined && WORD.test(c);
const isBlank = (c: string | undefined): boolean => c !== undefined && /\s/.test(c);

function hspaces(s: string, at: number): number {
  let i = at;
  while (isHspace(s[i])) i++;
  return i;
}

function wordEnd(s: string, at: number): number {
  let i = at;
  while (isWord(s[i])) i++;
  return i;
}

/**
 * C/C++ type and namespace definitions at line starts: keyword and name of each match of
 * /^(?:typedef[ \t]+)?(class|struct|namespace)[ \t]+(\w+)[^;\n]*\{/gm (quadratic in a long name: 1.2 s on 50 KB). A
 * match runs to the last `{` before the next `;` or newline (lone CRs inside it hide the line starts they begin).
 */
export function cppTypeDefinitions(s: string): { keyword: string; name: string }[] {
  const n = s.length;
  // stop[i]: first index >= i holding ';' or '\n' (n: none); lastBrace[i]: last index < i holding '{' (-1: none).
  const stop = new Int32Array(n + 1);
  const lastBrace = new Int32Array(n + 1);
  stop[n] = n;
  for (let i = n - 1; i >= 0; i--) stop[i] = s[i] === ';' || s[i] === '\n' ? i : (stop[i + 1] as number);
  lastBrace[0] = -1;
  for (let i = 1; i <= n; i++) lastBrace[i] = s[i - 1] === '{' ? i - 1 : (lastBrace[i - 1] as number);
  const out: { keyword: string; name: string }[] = [];
  for (let p = 0; p <= n; ) {
    let at = p;
    if (s.startsWith('typedef', p) && isHspace(s[p + 7])) at = hspaces(s, p + 7);
    const keyword = ['class', 'struct', 'namespace'].find((word) => s.startsWith(word, at));
    let end = p;
    if (keyword !== undefined && isHspace(s[at + keyword.length])) {
      const name = hspaces(s, at + keyword.length);
      const nameEnd = wordEnd(s, name);
      const brace = lastBrace[stop[nameEnd] as number] as number;
      if (nameEnd > name && brace >= nameEnd) {
        out.push({ keyword, name: s.slice(name, nameEnd) });
        end = brace + 1;
      }
    }
    p = nextLineStart(s, end);
  }
  return out;
}

/**
 * Ruby `require`/`require_relative` of a (masked) string literal at line starts: for each match of
 * /^[ \t]*(require_relative|require)[ \t]*\(?[ \t]*(["'])( *)\2/gm (quadratic in the blanks around an absent `(`), its
 * `index`, the `keyword`, and where the literal's body starts and how long it is.
 */
export function rubyRequireLines(s: string): { index: number; keyword: string; bodyStart: number; bodyLength: number }[] {
  const out: { index: number; keyword: string; bodyStart: number; bodyLength: number }[] = [];
  for (let p = 0; p <= s.length; ) {
    const at = hspaces(s, p);
    const keyword = s.startsWith('require_relative', at) ? 'require_relative' : s.startsWith('require', at) ? 'require' : null;
    let end = p;
    if (keyword !== null) {
      let quote = hspaces(s, at + keyword.length);
      if (s[quote] === '(') quote = hspaces(s, quote + 1);
      const q = s[quote];
      if (q === '"' || q === "'") {
        let close = quote + 1;
        while (s[close] === ' ') close++;
        if (s[close] === q) {
          out.push({ index: p, keyword, bodyStart: quote + 1, bodyLength: close - quote - 1 });
          end = close + 1;
        }
      }
    }
    p = nextLineStart(s, end);
  }
  return out;
}

/**
 * Rust `use` trees and `mod x;` declarations at line starts: each match of
 * /^(?:pub(?:\([^)]*\))?\s+)?(use\s+([^;]{1,65536});|mod\s+([A-Za-z_]\w*)\s*;)/gm (quadratic over lines of `pub(` or
 * `use`, each scanning to the same far `)` or `;`): `index`, and the use tree or the module name.
 */
export function rustUseLines(s: string): ({ index: number; use: string } | { index: number; mod: string })[] {
  const out: ({ index: number; use: string } | { index: number; mod: string })[] = [];
  const memo = new Map<string, { from: number; at: number }>();
  for (let p = 0; p <= s.length; ) {
    let body = p;
    if (s.startsWith('pub', p)) {
      let a = p + 3;
      if (s[a] === '(') {
        const close = nextOf(s, ')', a + 1, memo);
        a = close < 0 ? -1 : close + 1;
      }
      const b = a < 0 ? a : blanks(s, a);
      body = b > a ? b : -1;
    }
    let end = p;
    if (body >= 0 && s.startsWith('use', body) && isBlank(s[body + 3])) {
      const c = blanks(s, body + 3);
      const semi = nextOf(s, ';', c, memo);
      // `\s+` gives back one blank when the tree would be empty (`use  ;` reads the tree " ").
      const from = semi === c && c - (body + 3) >= 2 ? c - 1 : c;
      if (semi > from && semi - from <= 65536) {
        out.push({ index: p, use: s.slice(from, semi) });
        end = semi + 1;
      }
    } else if (body >= 0 && s.startsWith('mod', body) && isBlank(s[body + 3])) {
      const name = blanks(s, body + 3);
      const nameEnd = /[A-Za-z_]/.test(s[name] ?? '') ? wordEnd(s, name + 1) : name;
      const semi = blanks(s, nameEnd);
      if (nameEnd > name && s[semi] === ';') {
        out.push({ index: p, mod: s.slice(name, nameEnd) });
        end = semi + 1;
      }
    }
    p = nextLineStart(s, end);
  }
  return out;
}

/** One PHP `use` declaration: the former regex's groups (see {@link phpUseLines}). */
export interface PhpUse {
  index: number;
  /** `function ` or `const ` with its blanks, as written; undefined when absent. */
  kind?: string;
  name: string;
  /** The text inside `\{…}` of a group use. */
  group?: string;
  alias?: string;
}

/**
 * PHP `use` declarations at line starts: the groups of each match of
 * /^use\s+(function\s+|const\s+)?\\?([\w\\]+?)(?:\\\{([^}]*)\}|\s+as\s+(\w+))?\s*;/gm (quadratic over `use a\{` lines
 * that all scan to the same far `}`).
 */
export function phpUseLines(s: string): PhpUse[] {
  const out: PhpUse[] = [];
  const memo: PhpMemo = { next: new Map(), afterClose: new Map() };
  for (let p = 0; p <= s.length; ) {
    let found: { use: PhpUse; end: number } | null = null;
    if (s.startsWith('use', p) && isBlank(s[p + 3])) {
      const b = blanks(s, p + 3);
      const kind = ['function', 'const'].find((word) => s.startsWith(word, b) && isBlank(s[b + word.length]));
      if (kind !== undefined) {
        const c = blanks(s, b + kind.length);
        found = phpUseRest(s, p, c, memo, s.slice(b, c));
      }
      found ??= phpUseRest(s, p, b, memo, undefined);
    }
    if (found !== null) out.push(found.use);
    p = nextLineStart(s, found === null ? p : found.end);
  }
  return out;
}

/** Remembered searches of one {@link phpUseLines} scan: next `}` (see nextOf), and the match end after each `}` (-1: none). */
interface PhpMemo {
  next: Map<string, { from: number; at: number }>;
  afterClose: Map<number, number>;
}

/** `\\?([\w\\]+?)(…)?\s*;` at `c`: the optional backslash taken first, then given to the name. */
function phpUseRest(s: string, index: number, c: number, memo: PhpMemo, kind: string | undefined): { use: PhpUse; end: number } | null {
  const starts = s[c] === '\\' ? [c + 1, c] : [c];
  for (const d of starts) {
    const found = phpUseName(s, d, memo);
    if (found !== null) return { use: { index, ...(kind === undefined ? {} : { kind }), ...found.use }, end: found.end };
  }
  return null;
}

/**
 * The lazy name run at `d` and what follows it. A name can end only where its run of [\w\\] ends (the blanks, `;` and
 * `{` that may follow are outside it), or one before, at a `\` followed by `{`.
 */
function phpUseName(s: string, d: number, memo: PhpMemo): { use: Omit<PhpUse, 'index' | 'kind'>; end: number } | null {
  const inName = (c: string | undefined): boolean => c !== undefined && /[\w\\]/.test(c);
  if (!inName(s[d])) return null;
  let runEnd = d + 1;
  while (inName(s[runEnd])) runEnd++;
  const semiAfter = (at: number): number => {
    const semi = blanks(s, at);
    return s[semi] === ';' ? semi + 1 : -1;
  };
  if (runEnd - 1 > d && s[runEnd - 1] === '\\' && s[runEnd] === '{') {
    const close = nextOf(s, '}', runEnd + 1, memo.next);
    // Many lines may reach the same `}`: what follows it is read once.
    let end = close < 0 ? -1 : memo.afterClose.get(close);
    if (end === undefined) memo.afterClose.set(close, (end = semiAfter(close + 1)));
    if (end >= 0) return { use: { name: s.slice(d, runEnd - 1), group: s.slice(runEnd + 1, close) }, end };
  }
  const name = s.slice(d, runEnd);
  if (isBlank(s[runEnd])) {
    const as = blanks(s, runEnd);
    const alias = blanks(s, as + 2);
    const aliasEnd = wordEnd(s, alias);
    if (s.startsWith('as', as) && alias > as + 2 && aliasEnd > alias) {
      const end = semiAfter(aliasEnd);
      if (end >= 0) return { use: { name, alias: s.slice(alias, aliasEnd) }, end };
    }
  }
  const end = semiAfter(runEnd);
  return end >= 0 ? { use: { name }, end } : null;
}

/**
 * Go import specs: for each match of /^import\s*(\([^)]{0,65536}\)|[^\n;]*)/gm (a block or a single spec; quadratic
 * over `import(` lines scanning to one far `)`), each match in it of
 * /(?:([\p{L}_][\p{L}\p{N}_]*|\.)\s+)?(["`])([^"`\n]*)\2/gu (quadratic in a long identifier: 1.6 s on 50 KB): `alias`
 * (group 1), and where the quoted text starts and how long it is.
 */
export function goImportSpecs(s: string): { alias: string | null; textStart: number; textLength: number }[] {
  const out: { alias: string | null; textStart: number; textLength: number }[] = [];
  const memo = new Map<string, { from: number; at: number }>();
  for (let p = 0; p <= s.length; ) {
    let end = p;
    if (s.startsWith('import', p)) {
      const q = blanks(s, p + 6);
      const close = s[q] === '(' ? nextOf(s, ')', q + 1, memo) : -1;
      if (close >= 0 && close - q - 1 <= 65536) end = close + 1;
      else {
        end = q;
        while (end < s.length && s[end] !== '\n' && s[end] !== ';') end++;
      }
      goSpecsIn(s, p, end, out);
      // The next match may start where this one ended when that is a line start (after a CR the run kept).
      if (end > 0 && LINE_BREAK.includes(s[end - 1] as string)) {
        p = end;
        continue;
      }
    }
    p = nextLineStart(s, end);
  }
  return out;
}

const IDENT_START = /[\p{L}_]/u;
const IDENT_PART = /[\p{L}\p{N}_]/u;

/** The spec matches inside `s[from, to)`, by code points (the `u` flag). */
function goSpecsIn(s: string, from: number, to: number, out: { alias: string | null; textStart: number; textLength: number }[]): void {
  const at = (i: number): string => String.fromCodePoint(s.codePointAt(i) as number);
  const quotedAt = (quote: number): number => {
    if (quote >= to || (s[quote] !== '"' && s[quote] !== '`')) return -1;
    let close = quote + 1;
    while (close < to && s[close] !== '"' && s[close] !== '`' && s[close] !== '\n') close++;
    return close < to && s[close] === s[quote] ? close : -1;
  };
  for (let i = from; i < to; ) {
    const c = at(i);
    let aliasEnd = -1;
    if (IDENT_START.test(c)) {
      aliasEnd = i + c.length;
      while (aliasEnd < to && IDENT_PART.test(at(aliasEnd))) aliasEnd += at(aliasEnd).length;
    } else if (c === '.') aliasEnd = i + 1;
    if (aliasEnd >= 0) {
      let quote = aliasEnd;
      while (quote < to && /\s/.test(s[quote] as string)) quote++;
      const close = quote > aliasEnd ? quotedAt(quote) : -1;
      if (close >= 0) {
        out.push({ alias: s.slice(i, aliasEnd), textStart: quote + 1, textLength: close - quote - 1 });
        i = close + 1;
        continue;
      }
    }
    const close = quotedAt(i);
    if (close >= 0) {
      out.push({ alias: null, textStart: i + 1, textLength: close - i - 1 });
      i = close + 1;
    } else if (aliasEnd >= 0 && c !== '.') i = aliasEnd; // every start inside this identifier fails the same way
    else i += c.length;
  }
}
