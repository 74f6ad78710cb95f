/**
 * C/C++ parse errors that come from preprocessor constructs the adapter does not expand (issue 33,
 * new-user trial 48 F4). DocForge never runs the preprocessor, so tree-sitter sees macro calls and
 * conditionals as written; the errors this gives on code that compiles are reported as the `info`
 * finding `unexpanded_preprocessor`, not as the user's `syntax_error` warnings. The shapes, each
 * checked on the error node or the source line where its statement starts:
 * - a missing `#endif` (or other `#` directive) inside a brace block whose owner sits directly in a
 *   conditional: the `#ifdef __cplusplus` / `extern "C" {` / `#endif` guard, whose `{` and `}` lie in
 *   two conditionals;
 * - a missing or stray argument (`ADVANCE_MAP(a, )`, `array_search_sorted_by(a, .field, b)`): an empty
 *   argument or a `.name` argument is no C/C++ expression, so the call is a macro's;
 * - a line that starts with an ALL_CAPS call (`NODE_API_MODULE(x, Init)`, `LOG("skip", c)`), or a
 *   declaration head with an ALL_CAPS word before a name or at the line's end (`TS_PUBLIC const
 *   TSLanguage *f(void)`, `inline _GLIBCXX14_CONSTEXPR void`);
 * - an ERROR that starts with an ALL_CAPS word (`_GLIBCXX_NOEXCEPT`) or is one directive line (an
 *   `#include` inside an initializer);
 * - an ALL_CAPS word right after a `)` (or `) const`) that ends the line or comes before `{`, `;` or
 *   `=` (`f() const _GLIBCXX_USE_NOEXCEPT`), on one of the first four lines of the statement;
 * - a call-shaped type (`typedef Array(TSRange) TSRangeArray;`, `Array(Entry) stack;`): no C/C++
 *   declaration reads `name(...) name`;
 * - three or more names that are no keywords before a declarator's `(` (`forceinline StackAction
 *   f(...)`): one of them is an attribute macro.
 * Anything else (a missing brace in plain code, an unterminated string) stays a `syntax_error`.
 * Scans are hand-written over one line (no regular expression).
 */
import type { Node as SyntaxNode } from 'web-tree-sitter';

/** Node types whose children are statements or declarations: where a statement starts. */
const CONTAINERS = new Set(['translation_unit', 'declaration_list', 'compound_statement', 'field_declaration_list', 'case_statement',
  'preproc_if', 'preproc_ifdef', 'preproc_else', 'preproc_elif', 'preproc_elifdef', 'linkage_specification', 'ERROR']);
/** Preprocessor conditionals. */
const CONDITIONALS = new Set(['preproc_if', 'preproc_ifdef', 'preproc_else', 'preproc_elif', 'preproc_elifdef']);
/** Brace blocks. */
const BLOCKS = new Set(['declaration_list', 'compound_statement', 'field_declaration_list', 'enumerator_list', 'initializer_list']);
/** Keywords and built-in type words that may lead or fill a declaration (never counted as a macro's place). */
const SPECIFIERS = new Set([
  'auto', 'break', 'case', 'char', 'const', 'continue', 'default', 'do', 'double', 'else', 'enum', 'extern', 'float', 'for', 'goto', 'if',
  'inline', 'int', 'long', 'register', 'restrict', 'return', 'short', 'signed', 'sizeof', 'static', 'struct', 'switch', 'typedef', 'union',
  'unsigned', 'void', 'volatile', 'while', 'bool', 'class', 'constexpr', 'consteval', 'constinit', 'delete', 'explicit', 'friend', 'mutable',
  'new', 'operator', 'template', 'throw', 'typename', 'using', 'virtual', 'thread_local', 'co_return', 'co_await', 'co_yield', 'namespace',
  '_Bool', '_Noreturn', '_Atomic', '_Thread_local', '__inline', '__inline__', '__restrict', '__restrict__', 'wchar_t', 'char8_t', 'char16_t',
  'char32_t', 'decltype', 'final', 'override', 'noexcept', 'export', 'public', 'private', 'protected',
]);
/** Lines of a statement, from its start, read for a trailing attribute macro (a declaration's head and parameter lines). */
const HEAD_LINES = 4;
/** Tokens that end the declaration head the line scan reads. */
const HEAD_END = new Set(['(', '=', ';', '[', ',', '<', '{', ':', ')', '}']);

/**
 * True when the error node `node` (an ERROR or MISSING node of a C/C++ tree) comes from an
 * unexpanded preprocessor construct (the shapes listed in this module's doc); `lineAt(row)` is the
 * text of the 0-based source line `row`.
 */
export function isUnexpandedPreprocessor(node: SyntaxNode, lineAt: (row: number) => string): boolean {
  if (node.isMissing && node.type.startsWith('#')) return inSplitBlock(node);
  if (node.parent?.type === 'argument_list' && (node.isMissing || node.text.startsWith('.') || node.text.startsWith(','))) return true;
  if (node.isError && strayMacro(node)) return true;
  const statement = statementOf(node);
  const first = statement.startPosition.row;
  if (macroShaped(lineAt(first))) return true;
  if (first !== node.startPosition.row && macroShaped(lineAt(node.startPosition.row))) return true;
  const last = Math.min(node.endPosition.row, first + HEAD_LINES - 1);
  for (let row = Math.min(first, node.startPosition.row); row <= last; row += 1) if (trailingCaps(lineTokens(lineAt(row)))) return true;
  return false;
}

/**
 * A line with an ALL_CAPS word right after a `)` (or `) const`), then the line's end, `{`, `;` or `=`: a function attribute macro
 * (`f() const _GLIBCXX_USE_NOEXCEPT`, `operator==(...) _GLIBCXX_NOEXCEPT {`).
 */
function trailingCaps(tokens: readonly string[]): boolean {
  for (let i = 1; i < tokens.length; i += 1) {
    if (!isCapsName(tokens[i])) continue;
    const before = tokens[i - 1] === 'const' ? tokens[i - 2] : tokens[i - 1];
    const after = tokens[i + 1];
    if (before === ')' && (after === undefined || after === '{' || after === ';' || after === '=')) return true;
  }
  return false;
}

/** An ERROR that starts with an ALL_CAPS word (`_GLIBCXX_NOEXCEPT`, `_GLIBCXX_VISIBILITY(default)`) or is one directive line (`#include` in an initializer). */
function strayMacro(node: SyntaxNode): boolean {
  const text = node.text;
  if (text.startsWith('#')) return node.startPosition.row === node.endPosition.row;
  return isCapsName(lineTokens(text.slice(0, 200))[0]);
}

/** A brace block among the ancestors whose owner (`extern "C"`, a function) sits directly in a preprocessor conditional. */
function inSplitBlock(node: SyntaxNode): boolean {
  for (let at = node.parent; at !== null; at = at.parent) {
    const owner = at.parent;
    if (BLOCKS.has(at.type) && owner !== null && owner.parent !== null && CONDITIONALS.has(owner.parent.type)) return true;
  }
  return false;
}

/** The outermost ancestor-or-self of `node` below a container: the statement or declaration it lies in. */
function statementOf(node: SyntaxNode): SyntaxNode {
  let at = node;
  while (at.parent !== null && !CONTAINERS.has(at.parent.type)) at = at.parent;
  return at;
}

/** The tokens of one line: names (letters, digits, `_`) and single punctuation characters; stops at `//` or `/*`. */
export function lineTokens(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 13) {
      i += 1;
    } else if (isNameChar(c)) {
      const start = i;
      while (i < text.length && isNameChar(text.charCodeAt(i))) i += 1;
      out.push(text.slice(start, i));
    } else if (c === 47 && (text[i + 1] === '/' || text[i + 1] === '*')) {
      break;
    } else {
      out.push(text[i] as string);
      i += 1;
    }
  }
  return out;
}

/** A letter, digit or `_`. */
function isNameChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** A name starting with a letter or `_` (not a number). */
function isName(token: string | undefined): token is string {
  if (token === undefined || token === '') return false;
  const c = token.charCodeAt(0);
  return isNameChar(c) && !(c >= 48 && c <= 57);
}

/** An ALL_CAPS name of at least two characters with a letter (`LOG`, `TS_PUBLIC`; not `X`, not `__`). */
export function isCapsName(token: string | undefined): boolean {
  if (!isName(token) || token.length < 2) return false;
  let letter = false;
  for (let i = 0; i < token.length; i += 1) {
    const c = token.charCodeAt(i);
    if (c >= 97 && c <= 122) return false;
    if (c >= 65 && c <= 90) letter = true;
  }
  return letter;
}

/** One source line that reads as a macro's use (see the module doc): an ALL_CAPS call or word, a call-shaped type, an extra leading name. */
export function macroShaped(text: string): boolean {
  const tokens = lineTokens(text);
  const [first, second, third] = tokens;
  if (first === undefined || first === '#') return false;
  if (isCapsName(first) && second === '(') return true;
  return callShapedType(tokens) || capsInHead(tokens) || extraLeadingName(tokens);
}

/**
 * A declaration head (names, `*`, `&` up to `(`, `=`, `;`, ... or the line's end) with an ALL_CAPS word followed by a name or
 * ending the line: an attribute macro (`TS_PUBLIC const T *f`, `inline _GLIBCXX14_CONSTEXPR void`, `_GLIBCXX_ALWAYS_INLINE bool`).
 */
function capsInHead(tokens: readonly string[]): boolean {
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i] as string;
    if (HEAD_END.has(token)) return false;
    if (!isName(token)) {
      if (token !== '*' && token !== '&') return false;
    } else if (isCapsName(token) && (i + 1 === tokens.length || isName(tokens[i + 1]))) {
      return true;
    }
  }
  return false;
}

/** `[typedef|static|const ...] name ( ... ) name`: a macro that expands to a type. */
function callShapedType(tokens: readonly string[]): boolean {
  let i = 0;
  while (SPECIFIERS.has(tokens[i] ?? '')) i += 1;
  if (!isName(tokens[i]) || tokens[i + 1] !== '(') return false;
  let depth = 0;
  for (let j = i + 1; j < tokens.length; j += 1) {
    if (tokens[j] === '(') depth += 1;
    else if (tokens[j] === ')') depth -= 1;
    if (depth === 0) return isName(tokens[j + 1]) && !SPECIFIERS.has(tokens[j + 1] as string);
  }
  return false;
}

/** At least three names that are no keywords, only `*` and `&` between them, then `(`: one name too many for a declaration. */
function extraLeadingName(tokens: readonly string[]): boolean {
  let names = 0;
  for (const token of tokens) {
    if (HEAD_END.has(token)) return token === '(' && names >= 3;
    if (isName(token)) {
      if (!SPECIFIERS.has(token)) names += 1;
    } else if (token !== '*' && token !== '&') {
      return false;
    }
  }
  return false;
}
