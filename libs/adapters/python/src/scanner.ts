/**
 * The hand-written Python scanner of the lexical strategy: splits source text into logical lines
 * of tokens (implicit joining inside brackets, backslash continuations), skipping comments and
 * string literals (single, triple-quoted and prefixed, f-strings with nested replacement fields).
 * No syntax tree and no WASM.
 */

/** One token of a logical line. Strings keep their raw text (prefix and quotes included). */
export interface PyToken {
  type: 'name' | 'string' | 'number' | 'op';
  /** Raw source text of the token. */
  value: string;
  /** Offset of the first character in the scanned text (UTF-16 code units). */
  start: number;
  /** Offset just after the last character. */
  end: number;
  /** 1-based line of the first character. */
  line: number;
  /** For strings: the prefix letters as written (`''`, `r`, `Rb`, `f`...). */
  prefix?: string;
  /** For strings: the quote (`'`, `"`, `'''` or `"""`). */
  quote?: string;
  /** For strings: whether the closing quote was found. */
  terminated?: boolean;
}

/** One logical line: the tokens of one or more physical lines joined by brackets or backslashes. */
export interface PyLogicalLine {
  /** Indentation width of its first physical line (tabs advance to the next multiple of 8). */
  indent: number;
  /** Non-empty, in source order. */
  tokens: PyToken[];
}

const STRING_PREFIXES = new Set(['r', 'u', 'b', 'f', 't', 'br', 'rb', 'fr', 'rf', 'tr', 'rt']);

/** Operators of two or three characters, longest first; everything else is one character. */
const LONG_OPS = ['**=', '//=', '>>=', '<<=', '==', '!=', '<=', '>=', '+=', '-=', '*=', '/=', '%=', '@=', '&=', '|=', '^=', '**', '//', '<<', '>>', '->', ':='];

/** Statements whose header ends in a `:` that may be followed by simple statements on the same line. */
export const COMPOUND = new Set(['if', 'elif', 'else', 'for', 'while', 'try', 'except', 'finally', 'with', 'def', 'class', 'async']);

/** A physical line starting with one of these inside unclosed brackets starts a new logical line (error recovery). */
const RECOVER_AT = new Set(['import', 'from', 'def', 'class']);

/** Python reserved words (never identifiers). */
export const KEYWORDS = new Set([
  'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else',
  'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise',
  'return', 'try', 'while', 'with', 'yield',
]);

/** f-strings nested deeper than this are scanned as plain strings (guards the recursion). */
const MAX_FSTRING_NESTING = 32;

function isLineBreak(code: number): boolean {
  return code === 10 || code === 13;
}

function isBlank(code: number): boolean {
  return code === 32 || code === 9 || code === 12 || code === 11 || code === 0xfeff || code === 0xa0;
}

function isIdStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || (code >= 0x80 && !isBlank(code) && code !== 0x2028 && code !== 0x2029);
}

function isIdPart(code: number): boolean {
  return isIdStart(code) || (code >= 48 && code <= 57);
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

class Scanner {
  pos = 0;
  line = 1;
  readonly n: number;

  constructor(readonly text: string) {
    this.n = text.length;
  }

  /** Consumes one line break at `pos` (`\r\n` counts once). */
  newline(): void {
    if (this.text.charCodeAt(this.pos) === 13 && this.text.charCodeAt(this.pos + 1) === 10) this.pos += 1;
    this.pos += 1;
    this.line += 1;
  }

  identifierEnd(from: number): number {
    let end = from;
    while (end < this.n && isIdPart(this.text.charCodeAt(end))) end += 1;
    return end;
  }

  /**
   * Scans a string literal whose opening quote is at `pos`; leaves `pos` after it. Backslashes
   * escape the next character (raw strings included, as Python's tokenizer does); an unterminated
   * single-quoted string ends before its line break, an unterminated triple-quoted one at the end
   * of the text. In f- and t-strings, replacement fields `{...}` are scanned as expressions, so
   * nested strings with the same quote (Python 3.12) do not end the literal.
   */
  scanString(prefix: string, nesting: number): { quote: string; terminated: boolean } {
    const q = this.text[this.pos] as string;
    const triple = this.text.startsWith(q + q + q, this.pos);
    const quote = triple ? q + q + q : q;
    const formatted = /[ftFT]/.test(prefix) && nesting < MAX_FSTRING_NESTING;
    this.pos += quote.length;
    while (this.pos < this.n) {
      const code = this.text.charCodeAt(this.pos);
      if (code === 92) {
        this.pos += 1;
        if (this.pos >= this.n) break;
        if (isLineBreak(this.text.charCodeAt(this.pos))) this.newline();
        else this.pos += 1;
        continue;
      }
      if (isLineBreak(code)) {
        if (!triple) return { quote, terminated: false };
        this.newline();
        continue;
      }
      if (this.text.startsWith(quote, this.pos)) {
        this.pos += quote.length;
        return { quote, terminated: true };
      }
      if (formatted && code === 123) {
        if (this.text.charCodeAt(this.pos + 1) === 123) {
          this.pos += 2;
          continue;
        }
        this.pos += 1;
        if (!this.scanReplacementField(triple, nesting)) return { quote, terminated: false };
        continue;
      }
      this.pos += 1;
    }
    return { quote, terminated: false };
  }

  /**
   * Scans an f-string replacement field after its `{` up to and including the matching `}`.
   * Returns false when a line break ends a single-quoted f-string first (left at `pos`).
   */
  scanReplacementField(triple: boolean, nesting: number): boolean {
    let depth = 1;
    while (this.pos < this.n) {
      const code = this.text.charCodeAt(this.pos);
      if (isLineBreak(code)) {
        if (!triple) return false;
        this.newline();
        continue;
      }
      if (code === 123 || code === 40 || code === 91) depth += 1;
      else if (code === 125 || code === 41 || code === 93) {
        depth -= 1;
        if (depth === 0) {
          this.pos += 1;
          return true;
        }
      } else if (code === 34 || code === 39) {
        this.scanString('', nesting + 1);
        continue;
      } else if (isIdStart(code)) {
        const end = this.identifierEnd(this.pos);
        const word = this.text.slice(this.pos, end);
        const next = this.text.charCodeAt(end);
        this.pos = end;
        if ((next === 34 || next === 39) && STRING_PREFIXES.has(word.toLowerCase())) this.scanString(word, nesting + 1);
        continue;
      }
      this.pos += 1;
    }
    return true;
  }

  /** Width of the indentation at `pos` (a physical line start), leaving `pos` on its first non-blank character. */
  indentation(): number {
    let width = 0;
    while (this.pos < this.n) {
      const code = this.text.charCodeAt(this.pos);
      if (code === 32) width += 1;
      else if (code === 9) width = (Math.floor(width / 8) + 1) * 8;
      else if (code === 12) width = 0;
      else if (code !== 11 && code !== 0xfeff) break;
      this.pos += 1;
    }
    return width;
  }
}

/**
 * Reads the token starting at `s.pos` (whose first character is `code`, neither blank, a line
 * break, a comment nor a backslash continuation): a string (prefixed or not), a name, a number or
 * an operator (longest match). Leaves `s.pos` just after it.
 */
function readToken(s: Scanner, code: number): PyToken {
  const text = s.text;
  const start = s.pos;
  const line = s.line;
  if (code === 34 || code === 39) {
    const { quote, terminated } = s.scanString('', 0);
    return { type: 'string', value: text.slice(start, s.pos), start, end: s.pos, line, prefix: '', quote, terminated };
  }
  if (isIdStart(code)) {
    const end = s.identifierEnd(s.pos);
    const word = text.slice(start, end);
    const next = text.charCodeAt(end);
    if ((next === 34 || next === 39) && STRING_PREFIXES.has(word.toLowerCase())) {
      s.pos = end;
      const { quote, terminated } = s.scanString(word, 0);
      return { type: 'string', value: text.slice(start, s.pos), start, end: s.pos, line, prefix: word, quote, terminated };
    }
    s.pos = end;
    return { type: 'name', value: word, start, end, line };
  }
  if (isDigit(code) || (code === 46 && isDigit(text.charCodeAt(s.pos + 1)))) {
    let end = s.pos + 1;
    while (end < s.n && (isIdPart(text.charCodeAt(end)) || text.charCodeAt(end) === 46)) end += 1;
    s.pos = end;
    return { type: 'number', value: text.slice(start, end), start, end, line };
  }
  let op = text[s.pos] as string;
  for (const long of LONG_OPS) {
    if (text.startsWith(long, s.pos)) {
      op = long;
      break;
    }
  }
  s.pos += op.length;
  return { type: 'op', value: op, start, end: s.pos, line };
}

/**
 * Splits Python source into logical lines of tokens without building any syntax tree. Comments
 * and blank lines produce nothing; a line break inside brackets or after a backslash joins
 * physical lines. Error recovery: a physical line starting with `import`, `from`, `def` or
 * `class` while brackets are still open starts a new logical line. Never throws.
 */
export function scanPythonLines(text: string): PyLogicalLine[] {
  const s = new Scanner(text);
  const lines: PyLogicalLine[] = [];
  let tokens: PyToken[] = [];
  let indent = 0;
  let depth = 0;
  /** Whether `pos` is at the start of a physical line that is not a continuation. */
  let lineStart = true;

  const flush = (): void => {
    if (tokens.length > 0) lines.push({ indent, tokens });
    tokens = [];
    depth = 0;
  };

  while (s.pos < s.n) {
    if (lineStart) {
      lineStart = false;
      const width = s.indentation();
      if (depth === 0 && tokens.length === 0) indent = width;
      else if (depth > 0) {
        const word = text.slice(s.pos, s.identifierEnd(s.pos));
        if (RECOVER_AT.has(word)) {
          flush();
          indent = width;
        }
      }
      continue;
    }
    const code = text.charCodeAt(s.pos);
    if (isLineBreak(code)) {
      s.newline();
      if (depth === 0) flush();
      lineStart = true;
      continue;
    }
    if (isBlank(code)) {
      s.pos += 1;
      continue;
    }
    if (code === 35) {
      while (s.pos < s.n && !isLineBreak(text.charCodeAt(s.pos))) s.pos += 1;
      continue;
    }
    if (code === 92 && isLineBreak(text.charCodeAt(s.pos + 1))) {
      // Explicit line joining: the next physical line continues this logical line.
      s.pos += 1;
      s.newline();
      continue;
    }
    const token = readToken(s, code);
    if (token.type === 'op') {
      const op = token.value;
      if (op === '(' || op === '[' || op === '{') depth += 1;
      else if ((op === ')' || op === ']' || op === '}') && depth > 0) depth -= 1;
    }
    tokens.push(token);
  }
  flush();
  return lines;
}
