/**
 * Defined constants carried to the code that reads them (issue 31 item 2): a module's top-level
 * constant whose value is a literal states what its name means (`const BAD_PROTO_RE =
 * /^(vbscript|javascript|file|data):/`, `const RECODE_HOSTNAME_FOR = ['http:', 'https:']`), and
 * every function of the same file whose code text holds that name gets the literals' words as
 * searchable code text: a function that only tests `BAD_PROTO_RE.test(str)` is then found by
 * "javascript" and "data". The comment above a constant is not carried: an explanation's words are
 * mostly the file's common vocabulary (on find-my-way they spread "route", "handler" and "lookup"
 * to every reader of a marker constant, and two questions moved down). Like documented names
 * (documented-names.ts) the bridge is the file's own statement and stays inside one file.
 *
 * A declaration is a line that starts at column 0 with `const`, `let` or `var` (optionally after
 * `export`) and assigns one name. Its value is read up to where its brackets close (at most
 * {@link MAX_VALUE_LINES} lines); a value that holds no string, template or regex literal, or that
 * holds `function`, `=>`, `class`, `require` or `import` outside its literals (code, not a stated
 * value), is left out. Only the literals' words are carried, not the value's identifiers.
 */

/** `const NAME =` at column 0 (optionally `export`); group 1 the name, group 2 the value's first line. */
const DECLARATION = /^(?:export )?(?:const|let|var) ([A-Za-z_$][\w$]*) ?= ?(.*)$/;
/** A word of a literal (as code text's words: letters, digits and `_`). */
const WORD = /[\p{L}\p{M}\p{N}_]+/gu;
/** Words outside literals that make a value code rather than a stated value. */
const CODE_WORDS: ReadonlySet<string> = new Set(['function', 'class', 'require', 'import']);

/** Most lines of one constant's value read. */
export const MAX_VALUE_LINES = 12;
/** Shortest constant name carried (as documented names: a two-letter name is too common). */
const MIN_NAME_CHARS = 3;
/** Most words carried for one constant. */
const MAX_CONSTANT_WORDS = 24;

/** The scan of one value: the literals' text, whether it reads as code, and whether its brackets closed. */
interface ValueScan {
  literals: string[];
  code: boolean;
  depth: number;
}

/**
 * Scans `text` (one line of a value) for string, template and regex literals, continuing `scan`.
 * A `/` starts a regex where an operand is expected (after `=`, `(`, `[`, `,`, `:`, `!`, `&`, `|`,
 * `?` or at the start); `//` outside a literal ends the line. Linear in the line.
 */
function scanLine(text: string, scan: ValueScan, atStart: boolean): void {
  let operand = atStart;
  let word = '';
  const endWord = (): void => {
    if (CODE_WORDS.has(word)) scan.code = true;
    word = '';
  };
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === '`' || (c === '/' && operand && text[i + 1] !== '/' && text[i + 1] !== '*')) {
      endWord();
      let j = i + 1;
      let inClass = false;
      while (j < text.length) {
        const d = text[j]!;
        if (d === '\\') j += 2;
        else if (c === '/' && d === '[') { inClass = true; j += 1; }
        else if (c === '/' && d === ']') { inClass = false; j += 1; }
        else if (d === c && !inClass) break;
        else j += 1;
      }
      scan.literals.push(text.slice(i + 1, Math.min(j, text.length)));
      i = j;
      operand = false;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') break;
    if (/[\w$]/.test(c)) {
      word += c;
      operand = false;
      continue;
    }
    endWord();
    if (c === '=' && text[i + 1] === '>') scan.code = true;
    if (c === '(' || c === '[' || c === '{') scan.depth += 1;
    else if (c === ')' || c === ']' || c === '}') scan.depth -= 1;
    if (c !== ' ' && c !== '\t') operand = '=([,:!&|?{;'.includes(c);
  }
  endWord();
}

/**
 * The words each top-level literal constant of `text` states (its literals' words), by the constant's name, at most {@link MAX_CONSTANT_WORDS} each. Words
 * are kept as code text keeps them: two characters or more, a number only with three digits or more.
 * Linear in the text.
 */
export function definedConstants(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const lines = text.split(/\r\n|\r|\n/);
  for (let at = 0; at < lines.length; at += 1) {
    const head = lines[at]!;
    if (!(head.startsWith('const ') || head.startsWith('let ') || head.startsWith('var ') || head.startsWith('export '))) continue;
    const declared = DECLARATION.exec(head);
    if (declared === null || declared[1]!.length < MIN_NAME_CHARS) continue;
    const scan: ValueScan = { literals: [], code: false, depth: 0 };
    scanLine(declared[2]!, scan, true);
    for (let next = at + 1; scan.depth > 0 && next < lines.length && next < at + MAX_VALUE_LINES; next += 1) scanLine(lines[next]!, scan, false);
    if (scan.code || scan.literals.length === 0) continue;
    const words: string[] = [];
    for (const source of scan.literals) {
      for (const w of source.match(WORD) ?? []) {
        if (words.length >= MAX_CONSTANT_WORDS) break;
        if ((w.length >= 3 || (w.length === 2 && !/^\p{N}+$/u.test(w))) && !words.includes(w)) words.push(w);
      }
    }
    if (words.length > 0) out.set(declared[1]!, words);
  }
  return out;
}
