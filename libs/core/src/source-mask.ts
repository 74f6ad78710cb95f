/**
 * Same-length masks of source text (offsets and lines kept): {@link maskSource} blanks comments and string contents for the
 * lexical scanners (linear-scan*.ts) and the tree-sitter family's lexical strategy; {@link blankDeclarationMacros} blanks the
 * C/C++ macros that, parsed as written, turn the declarations around them into one syntax error.
 */

/** The comment and string syntax of a language, for {@link maskSource}. */
export interface MaskSyntax {
  /** Line comment openers (`//`, `#`). */
  line: readonly string[];
  /** Whether `/* *\/` comments exist, and whether they nest (Rust). */
  block: boolean;
  nestedBlock?: boolean;
  /** Quote characters of strings with backslash escapes. */
  quotes: readonly string[];
  /** Quote characters of raw strings without escapes that may span lines (Go backquotes). */
  raw?: readonly string[];
}

/**
 * The text with every comment replaced by spaces and every string's content replaced by spaces
 * (quotes kept), line breaks kept: same length, so offsets and lines match the source. Rust
 * lifetimes (`'a`) and char literals are left as they are when no closing quote follows on the line.
 * Never throws.
 */
export function maskSource(text: string, syntax: MaskSyntax): string {
  const out = text.split('');
  const blank = (from: number, to: number): void => {
    for (let i = from; i < to; i += 1) if (out[i] !== '\n' && out[i] !== '\r') out[i] = ' ';
  };
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i] as string;
    const opener = syntax.line.find((open) => text.startsWith(open, i));
    if (opener !== undefined) {
      let end = text.indexOf('\n', i);
      if (end < 0) end = n;
      blank(i, end);
      i = end;
    } else if (syntax.block && text.startsWith('/*', i)) {
      let depth = 1;
      let j = i + 2;
      while (j < n && depth > 0) {
        if (syntax.nestedBlock === true && text.startsWith('/*', j)) { depth += 1; j += 2; } else if (text.startsWith('*/', j)) { depth -= 1; j += 2; } else j += 1;
      }
      blank(i, j);
      i = j;
    } else if (syntax.raw?.includes(ch) === true) {
      let end = text.indexOf(ch, i + 1);
      if (end < 0) end = n - 1;
      blank(i + 1, end);
      i = end + 1;
    } else if (syntax.quotes.includes(ch)) {
      let j = i + 1;
      while (j < n && text[j] !== ch && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      if (j < n && text[j] === ch) {
        blank(i + 1, j);
        i = j + 1;
      } else i += 1;
    } else i += 1;
  }
  return out.join('');
}

/** 1-based line of an offset. */
export function lineAtOffset(text: string, offset: number): number {
  let count = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) count += 1;
  return count;
}

/** An ALL_CAPS word with an underscore: a macro's name (`_GLIBCXX_NOEXCEPT`, `TS_PUBLIC`). */
const isMacro = (word: string | undefined): boolean => word !== undefined && /^_*[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(word);
/** Words that may come before a leading declaration macro. */
const LEADING = new Set(['inline', 'static', 'constexpr', 'virtual', 'explicit', 'friend']);
/** Keywords whose parenthesized operand may be followed by a cast's operand, so their `(...)` is no parameter list. */
const NOT_CALLEES = new Set(['return', 'sizeof', 'alignof', 'decltype', 'noexcept', 'case', 'throw', 'if', 'while', 'for', 'switch', 'co_return', 'co_yield']);
/** Whether the `)` at `close` of one line's tokens ends a parameter or argument list: its `(` follows a name or a `)`, not an operator. */
function paramList(words: readonly string[], close: number): boolean {
  for (let depth = 0, m = close; m >= 0; m -= 1) {
    if (words[m] === ')') depth += 1;
    else if (words[m] === '(' && (depth -= 1) === 0) {
      const head = words[m - 1] ?? '';
      return head === ')' || ((head[0] === '_' || (head[0] ?? '').toLowerCase() !== (head[0] ?? '').toUpperCase()) && !NOT_CALLEES.has(head));
    }
  }
  return false;
}
/** Whether the last line before a place ends a declaration or a block (or is a directive, or there is none). */
const ended = (line: string): boolean => line === '' || line.startsWith('#') || /[{};]$/.test(line);

/**
 * The text tree-sitter parses for a C/C++ file: `text` with the macros blanked that, as written, turn the declarations
 * around them into one ERROR (libstdc++'s `cow_string.h` lost `basic_string` so). Blanked: an attribute macro call after a
 * namespace's name (`namespace std _GLIBCXX_VISIBILITY(default)`); a macro word alone on its line after a line that ends a
 * declaration (`_GLIBCXX_BEGIN_NAMESPACE_VERSION` before a `template`), or between a `)` and a `{`, `:`, `;` or `=`; a
 * reserved macro word (`_X...`, never a cast's operand in a program) after `)` or `) const` before `{`, `;`, `=` or the
 * line's end (`_GLIBCXX_NOEXCEPT`), or before `>` or `,` after a function type's parameter list in a template argument
 * (`_Res(*)(_ArgTypes...) _GLIBCXX_NOEXCEPT_QUAL>`), or leading a declaration (`_GLIBCXX20_CONSTEXPR void f()`); and conditionals that split a declaration
 * ({@link joinSplitConditionals}). Comments and strings are read as blank. Same length and lines, so every offset holds.
 */
export function blankDeclarationMacros(text: string): string {
  const lines = maskSource(text, { line: ['//'], block: true, quotes: ['"', "'"] }).split('\n');
  const out = text.split('\n');
  const near = (from: number, step: number, code = false): string => {
    for (let i = from; i >= 0 && i < lines.length; i += step) if ((lines[i] as string).trim() !== '' && !(code && (lines[i] as string).trimStart().startsWith('#'))) return (lines[i] as string).trim();
    return '';
  };
  const blank = (i: number, from: number, to: number): void => {
    out[i] = `${(out[i] as string).slice(0, from)}${' '.repeat(to - from)}${(out[i] as string).slice(to)}`;
  };
  lines.forEach((line, i) => {
    const tokens = [...line.matchAll(/[A-Za-z_]\w*|\S/g)].map((m) => ({ text: m[0], at: m.index }));
    const words = tokens.map((t) => t.text);
    if (words.length === 1 && isMacro(words[0])) {
      const [before, after] = [near(i - 1, -1), near(i + 1, 1)];
      if ((ended(before) && /^[A-Za-z_~#]/.test(after)) || (/(?:\)|\bconst)$/.test(near(i - 1, -1, true)) && /^[{:;=]/.test(after))) blank(i, 0, line.length);
      return;
    }
    let k = words[0] === 'inline' ? 1 : 0;
    if (words[k] === 'namespace' && isMacro(words[k + 2]) && words[k + 3] === '(') {
      const close = words.indexOf(')', k + 4);
      if (close > 0) blank(i, (tokens[k + 2] as { at: number }).at, (tokens[close] as { at: number }).at + 1);
      return;
    }
    for (k = 0; LEADING.has(words[k] ?? ''); k += 1);
    if (/^_[A-Z]/.test(words[k] ?? '') && isMacro(words[k]) && /^[A-Za-z_~]/.test(words[k + 1] ?? '')) blank(i, (tokens[k] as { at: number }).at, (tokens[k] as { at: number }).at + (words[k] as string).length);
    words.forEach((word, j) => {
      const after = words[j + 1];
      const closed = words[j - 1] === ')' || (words[j - 1] === 'const' && words[j - 2] === ')');
      // In a template argument, after a function type's parameter list (`<R(*)(A...) _GLIBCXX_NOEXCEPT_QUAL>`): no cast.
      const typed = words[j - 1] === ')' && (after === '>' || after === ',') && paramList(words, j - 1);
      if ((closed || typed) && word.startsWith('_') && isMacro(word) && (typed || after === undefined || after === '{' || after === ';' || after === '=')) blank(i, (tokens[j] as { at: number }).at, (tokens[j] as { at: number }).at + word.length);
    });
  });
  joinSplitConditionals(lines, out, near);
  return out.join('\n');
}

/**
 * Conditionals that split a declaration (`basic_string()` / `#if A` / `noexcept : init` / `#else` / `: other` / `#endif` /
 * `{ }`, or `#if A` / `template<...>` / `#endif` / the declaration): the line before the `#if`, or the first branch's last
 * line, ends inside a declaration. The first branch is kept as code; the directive lines and the other branches are
 * blanked, so one configuration reads as one declaration. Other conditionals stay as written.
 */
function joinSplitConditionals(lines: readonly string[], out: string[], near: (from: number, step: number) => string): void {
  const blank = (from: number, to: number): void => {
    for (let i = from; i <= to; i += 1) out[i] = ' '.repeat((out[i] as string).length);
  };
  const stack: { start: number; branches: number[] }[] = [];
  lines.forEach((line, i) => {
    const word = line.trimStart().startsWith('#') ? /\w+/.exec(line)?.[0] : undefined;
    if (word === 'if' || word === 'ifdef' || word === 'ifndef') stack.push({ start: i, branches: [] });
    else if (word === 'else' || word === 'elif' || word === 'elifdef' || word === 'elifndef') stack[stack.length - 1]?.branches.push(i);
    else if (word === 'endif') {
      const cond = stack.pop();
      if (cond === undefined) return;
      const firstEnd = cond.branches[0] ?? i;
      const last = lines.slice(cond.start + 1, firstEnd).map((l) => l.trim()).filter((l) => l !== '').pop();
      if (last === undefined || (ended(near(cond.start - 1, -1)) && ended(last))) return;
      blank(cond.start, cond.start);
      blank(firstEnd, i);
    }
  });
}
