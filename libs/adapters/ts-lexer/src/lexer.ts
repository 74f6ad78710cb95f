/**
 * The hand-written JavaScript/TypeScript tokenizer of strategy `lexical` (lexical.ts): a flat
 * token stream (identifiers, string and no-substitution template literals, punctuators), skipping
 * comments, string and template contents and regular expression literals. No syntax tree and no
 * TypeScript compiler API (not even its scanner).
 */

/** One lexical token. `str` covers string literals and templates without substitutions (value decoded). */
export interface LexToken {
  type: 'id' | 'str' | 'punct' | 'num' | 'template' | 'regex';
  value: string;
  /** 1-based line of the token's first character. */
  line: number;
}

/** Keywords after which a `/` starts a regular expression rather than a division. */
const REGEX_AFTER_KEYWORDS = new Set([
  'return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await', 'extends',
]);

function isIdStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 36 || code === 95 || code === 92
    || (code >= 0x80 && !isLineBreak(code) && !isSpace(code));
}

function isIdPart(code: number): boolean {
  return isIdStart(code) || (code >= 48 && code <= 57);
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isLineBreak(code: number): boolean {
  return code === 10 || code === 13 || code === 0x2028 || code === 0x2029;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 11 || code === 12 || code === 0xa0 || code === 0xfeff || (code >= 0x2000 && code <= 0x200b) || code === 0x3000 || code === 0x1680 || code === 0x202f || code === 0x205f;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', v: '\v', '0': '\0' };

/** One tokenization in progress: the position and line in the text, the tokens so far and the open braces. */
class Lexer {
  readonly tokens: LexToken[] = [];
  private readonly n: number;
  private pos = 0;
  private line = 1;
  /** Open `{` braces; `true` marks the brace of a template substitution `${`. */
  private readonly braces: boolean[] = [];

  constructor(private readonly text: string) {
    this.n = text.length;
  }

  /** Tokenizes the whole text (see {@link lexTokens}). */
  run(): LexToken[] {
    const text = this.text;
    const n = this.n;
    if (text.startsWith('#!')) {
      while (this.pos < n && !isLineBreak(text.charCodeAt(this.pos))) this.pos += 1;
    }
    while (this.pos < n) {
      const code = text.charCodeAt(this.pos);
      if (isLineBreak(code)) {
        this.newline(code);
        this.pos += 1;
        continue;
      }
      if (isSpace(code)) {
        this.pos += 1;
        continue;
      }
      const startLine = this.line;
      if (code === 47) this.slash(startLine);
      else if (code === 39 || code === 34) this.quoted(code, startLine);
      else if (code === 96) {
        this.pos += 1;
        this.template(startLine, true);
      } else if (code === 125 && this.braces.length > 0 && this.braces[this.braces.length - 1] === true) {
        // End of a template substitution: continue the template.
        this.braces.pop();
        this.pos += 1;
        this.template(startLine, false);
      } else if (isIdStart(code) || code === 35) this.identifier(startLine);
      else if (isDigit(code) || (code === 46 && isDigit(text.charCodeAt(this.pos + 1)))) this.numeric(startLine);
      else this.punctuator(code, startLine);
    }
    return this.tokens;
  }

  /** Counts a line break at `pos`; \r\n counts once: the \r is counted when followed by \n only through the \n. */
  private newline(code: number): void {
    if (code === 13 && this.text.charCodeAt(this.pos + 1) === 10) return;
    this.line += 1;
  }

  private regexAllowed(): boolean {
    const prev = this.tokens[this.tokens.length - 1];
    if (prev === undefined) return true;
    if (prev.type === 'punct') return prev.value !== ')' && prev.value !== ']' && prev.value !== '++' && prev.value !== '--';
    if (prev.type === 'id') return REGEX_AFTER_KEYWORDS.has(prev.value);
    return false;
  }

  /** At a `/`: a line or block comment (skipped), a regular expression literal, or `/` / `/=`. */
  private slash(startLine: number): void {
    const text = this.text;
    const n = this.n;
    const next = text.charCodeAt(this.pos + 1);
    if (next === 47) {
      this.pos += 2;
      while (this.pos < n && !isLineBreak(text.charCodeAt(this.pos))) this.pos += 1;
      return;
    }
    if (next === 42) {
      this.pos += 2;
      while (this.pos < n && !(text.charCodeAt(this.pos) === 42 && text.charCodeAt(this.pos + 1) === 47)) {
        const c = text.charCodeAt(this.pos);
        if (isLineBreak(c)) this.newline(c);
        this.pos += 1;
      }
      this.pos = Math.min(n, this.pos + 2);
      return;
    }
    if (this.regexAllowed() && this.regex(startLine)) return;
    this.tokens.push({ type: 'punct', value: text[this.pos + 1] === '=' ? '/=' : '/', line: startLine });
    this.pos += text[this.pos + 1] === '=' ? 2 : 1;
  }

  /**
   * A regular expression literal at `pos`, pushed with its flags; false (nothing consumed) when
   * none closes on this line. It cannot span lines; a class `[...]` may contain `/`.
   */
  private regex(startLine: number): boolean {
    const text = this.text;
    const n = this.n;
    let p = this.pos + 1;
    let inClass = false;
    let closed = false;
    while (p < n) {
      const c = text.charCodeAt(p);
      if (isLineBreak(c)) break;
      if (c === 92) {
        p += 2;
        continue;
      }
      if (c === 91) inClass = true;
      else if (c === 93) inClass = false;
      else if (c === 47 && !inClass) {
        closed = true;
        p += 1;
        break;
      }
      p += 1;
    }
    if (!closed) return false;
    while (p < n && isIdPart(text.charCodeAt(p))) p += 1;
    this.tokens.push({ type: 'regex', value: text.slice(this.pos, p), line: startLine });
    this.pos = p;
    return true;
  }

  /** A string literal opened by `quote` at `pos`, its value decoded; unterminated, it ends at the end of its line. */
  private quoted(quote: number, startLine: number): void {
    const text = this.text;
    const n = this.n;
    this.pos += 1;
    // Fast path: no escape before the closing quote on this line.
    let end = this.pos;
    while (end < n) {
      const c = text.charCodeAt(end);
      if (c === quote || c === 92 || c === 10 || c === 13) break;
      end += 1;
    }
    if (text.charCodeAt(end) === quote) {
      this.tokens.push({ type: 'str', value: text.slice(this.pos, end), line: startLine });
      this.pos = end + 1;
      return;
    }
    let value = '';
    while (this.pos < n) {
      const c = text.charCodeAt(this.pos);
      if (c === quote) {
        this.pos += 1;
        break;
      }
      if (c === 10 || c === 13) break; // unterminated: recover at the end of the line
      if (c === 92) {
        value += this.escape();
        continue;
      }
      value += text[this.pos];
      this.pos += 1;
    }
    this.tokens.push({ type: 'str', value, line: startLine });
  }

  /** The escape sequence at `pos` (a backslash) inside a string literal: its decoded text ('' for a line continuation); moves past it. */
  private escape(): string {
    const text = this.text;
    const pos = this.pos;
    const next = text[pos + 1] ?? '';
    const nextCode = text.charCodeAt(pos + 1);
    if (nextCode === 13 || nextCode === 10) {
      // Line continuation.
      this.pos += nextCode === 13 && text.charCodeAt(pos + 2) === 10 ? 3 : 2;
      this.line += 1;
      return '';
    }
    if (next === 'x' && /^[0-9a-fA-F]{2}$/.test(text.slice(pos + 2, pos + 4))) {
      this.pos += 4;
      return String.fromCharCode(parseInt(text.slice(pos + 2, pos + 4), 16));
    }
    if (next === 'u') {
      const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(text.slice(pos + 2, pos + 10));
      const plain = /^[0-9a-fA-F]{4}/.exec(text.slice(pos + 2, pos + 6));
      if (braced) {
        this.pos += 2 + braced[0].length;
        return String.fromCodePoint(Math.min(0x10ffff, parseInt(braced[1]!, 16)));
      }
      if (plain) {
        this.pos += 6;
        return String.fromCharCode(parseInt(plain[0], 16));
      }
    }
    this.pos += 2;
    return SIMPLE_ESCAPES[next] ?? next;
  }

  /** Scans template characters from `pos` (just after a backtick or a closing substitution brace). */
  private template(startLine: number, head: boolean): void {
    const text = this.text;
    const n = this.n;
    let value = '';
    while (this.pos < n) {
      const code = text.charCodeAt(this.pos);
      if (code === 96) {
        this.pos += 1;
        this.tokens.push({ type: head ? 'str' : 'template', value, line: startLine });
        return;
      }
      if (code === 36 && text.charCodeAt(this.pos + 1) === 123) {
        this.pos += 2;
        this.tokens.push({ type: 'template', value, line: startLine });
        this.braces.push(true);
        return;
      }
      if (code === 92) {
        const nextCode = text.charCodeAt(this.pos + 1);
        if (isLineBreak(nextCode)) {
          // Line continuation inside the template.
          this.pos += 1;
          this.newline(nextCode);
          this.pos += 1;
          continue;
        }
        const next = text[this.pos + 1] ?? '';
        value += SIMPLE_ESCAPES[next] ?? next;
        this.pos += 2;
        continue;
      }
      if (isLineBreak(code)) this.newline(code);
      // Copy the run of plain characters up to the next special one at once.
      let end = this.pos + 1;
      while (end < n) {
        const c = text.charCodeAt(end);
        if (c === 96 || c === 36 || c === 92 || isLineBreak(c)) break;
        end += 1;
      }
      value += text.slice(this.pos, end);
      this.pos = end;
    }
    this.tokens.push({ type: 'template', value, line: startLine });
  }

  /** An identifier or keyword (or a `#private` name) at `pos`. */
  private identifier(startLine: number): void {
    let p = this.pos + 1;
    while (p < this.n && isIdPart(this.text.charCodeAt(p))) p += 1;
    this.tokens.push({ type: 'id', value: this.text.slice(this.pos, p), line: startLine });
    this.pos = p;
  }

  /** A numeric literal at `pos` (digits, `.`, exponent signs, suffixes and separators taken loosely). */
  private numeric(startLine: number): void {
    const text = this.text;
    const start = this.pos;
    let p = start + 1;
    while (p < this.n) {
      const c = text.charCodeAt(p);
      if (isIdPart(c) || c === 46) p += 1;
      else if ((c === 43 || c === 45) && /[eE]/.test(text[p - 1] ?? '') && !/^0[xX]/.test(text.slice(start, p))) p += 1;
      else break;
    }
    this.tokens.push({ type: 'num', value: text.slice(start, p), line: startLine });
    this.pos = p;
  }

  /** Punctuators: only the multi-character ones that matter for member access and regex context. */
  private punctuator(code: number, startLine: number): void {
    const text = this.text;
    const next = text.charCodeAt(this.pos + 1);
    let value: string;
    if (code === 46 && next === 46 && text.charCodeAt(this.pos + 2) === 46) value = '...';
    else if (code === 63 && next === 46 && !isDigit(text.charCodeAt(this.pos + 2))) value = '?.';
    else if ((code === 43 || code === 45) && next === code) value = code === 43 ? '++' : '--';
    else if (code === 61 && next === 62) value = '=>';
    else value = text[this.pos]!;
    if (value === '{') this.braces.push(false);
    else if (value === '}') this.braces.pop();
    this.tokens.push({ type: 'punct', value, line: startLine });
    this.pos += value.length;
  }
}

/**
 * Tokenizes JavaScript/TypeScript text without building any syntax tree. Comments (line, block,
 * a leading `#!` line) are skipped; string literals and templates become single tokens (a template
 * with `${}` substitutions becomes a `template` token and its substitutions are tokenized in
 * place); a `/` starts a regular expression when the previous token cannot end an expression.
 * Malformed input never throws: an unterminated string ends at the end of its line, an
 * unterminated comment or template at the end of the text.
 */
export function lexTokens(text: string): LexToken[] {
  return new Lexer(text).run();
}
