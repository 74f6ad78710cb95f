/**
 * Strategy `lexical` (DESIGN.md section 3, `[adapter] strategy = "lexical"`): module nodes and
 * module references WITHOUT any abstract syntax tree and without Logic. A small hand-written
 * scanner turns the text into a flat token stream (identifiers, string and no-substitution
 * template literals, punctuators), skipping comments, string and template contents and regular
 * expression literals; module references are then recognised by token patterns. No TypeScript
 * compiler API (not even its scanner) is used here.
 */
import { codeId, withContentHash } from '@docforge/core';
import type { CodeExtractInput, GraphNode } from '@docforge/core';
import { headerComment, moduleSummary, type TsExtractResult } from './module-node.js';
import { isEntrypointPath, isTestPath, languageOf } from './paths.js';
import type { TsImportRecord, TsLinkData } from './link-data.js';

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

const MAX_LOOKAHEAD = 400;

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

/**
 * Tokenizes JavaScript/TypeScript text without building any syntax tree. Comments (line, block,
 * a leading `#!` line) are skipped; string literals and templates become single tokens (a template
 * with `${}` substitutions becomes a `template` token and its substitutions are tokenized in
 * place); a `/` starts a regular expression when the previous token cannot end an expression.
 * Malformed input never throws: an unterminated string ends at the end of its line, an
 * unterminated comment or template at the end of the text.
 */
export function lexTokens(text: string): LexToken[] {
  const tokens: LexToken[] = [];
  const n = text.length;
  let pos = 0;
  let line = 1;
  /** Open `{` braces; `true` marks the brace of a template substitution `${`. */
  const braces: boolean[] = [];

  const newline = (code: number): void => {
    // \r\n counts once: the \r is counted when followed by \n only through the \n.
    if (code === 13 && text.charCodeAt(pos + 1) === 10) return;
    line += 1;
  };

  if (text.startsWith('#!')) {
    while (pos < n && !isLineBreak(text.charCodeAt(pos))) pos += 1;
  }

  const regexAllowed = (): boolean => {
    const prev = tokens[tokens.length - 1];
    if (prev === undefined) return true;
    if (prev.type === 'punct') return prev.value !== ')' && prev.value !== ']' && prev.value !== '++' && prev.value !== '--';
    if (prev.type === 'id') return REGEX_AFTER_KEYWORDS.has(prev.value);
    return false;
  };

  /** Scans template characters from `pos` (just after a backtick or a closing substitution brace). */
  const scanTemplate = (startLine: number, head: boolean): void => {
    let value = '';
    while (pos < n) {
      const code = text.charCodeAt(pos);
      if (code === 96) {
        pos += 1;
        tokens.push({ type: head ? 'str' : 'template', value, line: startLine });
        return;
      }
      if (code === 36 && text.charCodeAt(pos + 1) === 123) {
        pos += 2;
        tokens.push({ type: 'template', value, line: startLine });
        braces.push(true);
        return;
      }
      if (code === 92) {
        const nextCode = text.charCodeAt(pos + 1);
        if (isLineBreak(nextCode)) {
          // Line continuation inside the template.
          pos += 1;
          newline(nextCode);
          pos += 1;
          continue;
        }
        const next = text[pos + 1] ?? '';
        value += SIMPLE_ESCAPES[next] ?? next;
        pos += 2;
        continue;
      }
      if (isLineBreak(code)) newline(code);
      // Copy the run of plain characters up to the next special one at once.
      let end = pos + 1;
      while (end < n) {
        const c = text.charCodeAt(end);
        if (c === 96 || c === 36 || c === 92 || isLineBreak(c)) break;
        end += 1;
      }
      value += text.slice(pos, end);
      pos = end;
    }
    tokens.push({ type: 'template', value, line: startLine });
  };

  while (pos < n) {
    const code = text.charCodeAt(pos);
    if (isLineBreak(code)) {
      newline(code);
      pos += 1;
      continue;
    }
    if (isSpace(code)) {
      pos += 1;
      continue;
    }
    const startLine = line;
    if (code === 47) {
      const next = text.charCodeAt(pos + 1);
      if (next === 47) {
        pos += 2;
        while (pos < n && !isLineBreak(text.charCodeAt(pos))) pos += 1;
        continue;
      }
      if (next === 42) {
        pos += 2;
        while (pos < n && !(text.charCodeAt(pos) === 42 && text.charCodeAt(pos + 1) === 47)) {
          const c = text.charCodeAt(pos);
          if (isLineBreak(c)) newline(c);
          pos += 1;
        }
        pos = Math.min(n, pos + 2);
        continue;
      }
      if (regexAllowed()) {
        // Regular expression literal: it cannot span lines; a class `[...]` may contain `/`.
        let p = pos + 1;
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
        if (closed) {
          while (p < n && isIdPart(text.charCodeAt(p))) p += 1;
          tokens.push({ type: 'regex', value: text.slice(pos, p), line: startLine });
          pos = p;
          continue;
        }
      }
      tokens.push({ type: 'punct', value: text[pos + 1] === '=' ? '/=' : '/', line: startLine });
      pos += text[pos + 1] === '=' ? 2 : 1;
      continue;
    }
    if (code === 39 || code === 34) {
      let value = '';
      pos += 1;
      // Fast path: no escape before the closing quote on this line.
      let end = pos;
      while (end < n) {
        const c = text.charCodeAt(end);
        if (c === code || c === 92 || c === 10 || c === 13) break;
        end += 1;
      }
      if (text.charCodeAt(end) === code) {
        tokens.push({ type: 'str', value: text.slice(pos, end), line: startLine });
        pos = end + 1;
        continue;
      }
      while (pos < n) {
        const c = text.charCodeAt(pos);
        if (c === code) {
          pos += 1;
          break;
        }
        if (c === 10 || c === 13) break; // unterminated: recover at the end of the line
        if (c === 92) {
          const next = text[pos + 1] ?? '';
          const nextCode = text.charCodeAt(pos + 1);
          if (nextCode === 13 || nextCode === 10) {
            // Line continuation.
            pos += nextCode === 13 && text.charCodeAt(pos + 2) === 10 ? 3 : 2;
            line += 1;
            continue;
          }
          if (next === 'x' && /^[0-9a-fA-F]{2}$/.test(text.slice(pos + 2, pos + 4))) {
            value += String.fromCharCode(parseInt(text.slice(pos + 2, pos + 4), 16));
            pos += 4;
            continue;
          }
          if (next === 'u') {
            const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(text.slice(pos + 2, pos + 10));
            const plain = /^[0-9a-fA-F]{4}/.exec(text.slice(pos + 2, pos + 6));
            if (braced) {
              value += String.fromCodePoint(Math.min(0x10ffff, parseInt(braced[1]!, 16)));
              pos += 2 + braced[0].length;
              continue;
            }
            if (plain) {
              value += String.fromCharCode(parseInt(plain[0], 16));
              pos += 6;
              continue;
            }
          }
          value += SIMPLE_ESCAPES[next] ?? next;
          pos += 2;
          continue;
        }
        value += text[pos];
        pos += 1;
      }
      tokens.push({ type: 'str', value, line: startLine });
      continue;
    }
    if (code === 96) {
      pos += 1;
      scanTemplate(startLine, true);
      continue;
    }
    if (code === 125 && braces.length > 0 && braces[braces.length - 1] === true) {
      // End of a template substitution: continue the template.
      braces.pop();
      pos += 1;
      scanTemplate(startLine, false);
      continue;
    }
    if (isIdStart(code) || code === 35) {
      let p = pos + 1;
      while (p < n && isIdPart(text.charCodeAt(p))) p += 1;
      tokens.push({ type: 'id', value: text.slice(pos, p), line: startLine });
      pos = p;
      continue;
    }
    if (isDigit(code) || (code === 46 && isDigit(text.charCodeAt(pos + 1)))) {
      let p = pos + 1;
      while (p < n) {
        const c = text.charCodeAt(p);
        if (isIdPart(c) || c === 46) p += 1;
        else if ((c === 43 || c === 45) && /[eE]/.test(text[p - 1] ?? '') && !/^0[xX]/.test(text.slice(pos, p))) p += 1;
        else break;
      }
      tokens.push({ type: 'num', value: text.slice(pos, p), line: startLine });
      pos = p;
      continue;
    }
    // Punctuators: only the multi-character ones that matter for member access and regex context.
    const next = text.charCodeAt(pos + 1);
    let value: string;
    if (code === 46 && next === 46 && text.charCodeAt(pos + 2) === 46) value = '...';
    else if (code === 63 && next === 46 && !isDigit(text.charCodeAt(pos + 2))) value = '?.';
    else if ((code === 43 || code === 45) && next === code) value = code === 43 ? '++' : '--';
    else if (code === 61 && next === 62) value = '=>';
    else value = text[pos]!;
    if (value === '{') braces.push(false);
    else if (value === '}') braces.pop();
    tokens.push({ type: 'punct', value, line: startLine });
    pos += value.length;
  }
  return tokens;
}

/** What {@link scanModuleReferences} found in one file. */
export interface LexicalScan {
  imports: TsImportRecord[];
  /** Whether the text checks `require.main` or `import.meta.main` (an entrypoint marker). */
  mainCheck: boolean;
}

function isMemberAccess(token: LexToken | undefined): boolean {
  return token !== undefined && token.type === 'punct' && (token.value === '.' || token.value === '?.');
}

function isPunct(token: LexToken | undefined, value: string): boolean {
  return token !== undefined && token.type === 'punct' && token.value === value;
}

function isId(token: LexToken | undefined, value: string): boolean {
  return token !== undefined && token.type === 'id' && token.value === value;
}

/**
 * Recognises module references in a token stream: `import 'x'`, `import … from 'x'`,
 * `export * [as n] from 'x'`, `export [type] { … } from 'x'`, `import x = require('x')`,
 * `require('x')` and `import('x')` (not when preceded by `.`). Records are in source order with
 * the line of their `import` / `export` / `require` keyword, like the AST extractor.
 */
export function scanModuleReferences(text: string): LexicalScan {
  const tokens = lexTokens(text);
  const imports: TsImportRecord[] = [];
  let mainCheck = false;
  const isStatementEnd = (t: LexToken | undefined): boolean => t === undefined || isPunct(t, ';') || isId(t, 'import') || isId(t, 'export');

  /** Index of the string after `from` at or after `start`, within the statement; -1 when absent. */
  const findFrom = (start: number): number => {
    for (let j = start; j < tokens.length && j < start + MAX_LOOKAHEAD; j += 1) {
      const t = tokens[j]!;
      if (isId(t, 'from') && !isMemberAccess(tokens[j - 1]) && tokens[j + 1]?.type === 'str') return j + 1;
      if (j > start && isStatementEnd(t)) return -1;
    }
    return -1;
  };

  for (let i = 0; i < tokens.length; i += 1) {
    const t = tokens[i]!;
    if (t.type !== 'id' || isMemberAccess(tokens[i - 1])) continue;
    const next = tokens[i + 1];
    if (t.value === 'require') {
      if (isPunct(next, '(') && tokens[i + 2]?.type === 'str' && (isPunct(tokens[i + 3], ')') || isPunct(tokens[i + 3], ','))) {
        imports.push({ specifier: tokens[i + 2]!.value, line: t.line, kind: 'require' });
      } else if (isMemberAccess(next) && isId(tokens[i + 2], 'main')) {
        mainCheck = true;
      }
      continue;
    }
    if (t.value === 'import') {
      if (isPunct(next, '(')) {
        if (tokens[i + 2]?.type === 'str' && (isPunct(tokens[i + 3], ')') || isPunct(tokens[i + 3], ','))) {
          imports.push({ specifier: tokens[i + 2]!.value, line: t.line, kind: 'dynamic' });
        }
        continue;
      }
      if (isMemberAccess(next)) {
        if (isId(tokens[i + 2], 'meta') && isMemberAccess(tokens[i + 3]) && isId(tokens[i + 4], 'main')) mainCheck = true;
        continue;
      }
      if (next?.type === 'str') {
        imports.push({ specifier: next.value, line: t.line, kind: 'import' });
        continue;
      }
      // `import x = require('y')` is recorded by the `require` rule (kind `require`, like the AST extractor).
      const afterType = isId(next, 'type') && tokens[i + 2]?.type === 'id' ? i + 2 : i + 1;
      if (tokens[afterType]?.type === 'id' && isPunct(tokens[afterType + 1], '=')) continue;
      const str = findFrom(i + 1);
      if (str >= 0) imports.push({ specifier: tokens[str]!.value, line: t.line, kind: 'import' });
      continue;
    }
    if (t.value === 'export') {
      let j = i + 1;
      if (isId(tokens[j], 'type')) j += 1;
      if (isPunct(tokens[j], '*')) {
        const str = findFrom(j);
        if (str >= 0) imports.push({ specifier: tokens[str]!.value, line: t.line, kind: 'export' });
      } else if (isPunct(tokens[j], '{')) {
        let depth = 0;
        let k = j;
        for (; k < tokens.length && k < j + MAX_LOOKAHEAD; k += 1) {
          if (isPunct(tokens[k], '{')) depth += 1;
          else if (isPunct(tokens[k], '}')) {
            depth -= 1;
            if (depth === 0) break;
          }
        }
        if (isId(tokens[k + 1], 'from') && tokens[k + 2]?.type === 'str') {
          imports.push({ specifier: tokens[k + 2]!.value, line: t.line, kind: 'export' });
        }
      }
    }
  }
  return { imports, mainCheck };
}

function lineCount(text: string): number {
  let lines = 1;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 0x2028 || c === 0x2029 || (c === 13 && text.charCodeAt(i + 1) !== 10)) lines += 1;
  }
  return lines;
}

/**
 * Lexical extraction of one file: exactly one module node (the same id, kind, title, span,
 * language and capabilities as the AST extractor gives it), no intra-file edges, no Logic, and
 * link data holding only module references, so linking yields `imports` edges and nothing that
 * needs an AST (no `calls`, `inherits`, `implements`, `tested_by`). Never throws.
 */
export function extractLexical(input: CodeExtractInput): TsExtractResult {
  const scan = scanModuleReferences(input.content);
  const isTest = isTestPath(input.path);
  const entry = input.content.startsWith('#!') || isEntrypointPath(input.path) || scan.mainCheck;
  const capabilities: string[] = [];
  if (entry) capabilities.push('entrypoint');
  if (isTest) capabilities.push('test');
  const header = headerComment(input.content);
  const node: Omit<GraphNode, 'content_hash'> = {
    id: codeId(input.path),
    kind: 'module',
    title: input.path,
    family: null,
    authority: null,
    status: null,
    tags: [],
    summary: moduleSummary(input.path, header),
    body: header,
    source_path: input.path,
    start_line: 1,
    end_line: lineCount(input.content),
    anchors: [],
    language: languageOf(input.path),
    capabilities,
    origin: 'code',
  };
  const linkData: TsLinkData = {
    format: 'docforge-ts-link/2',
    module_id: node.id,
    is_test: isTest,
    imports: scan.imports,
    bindings: [],
    exports: [],
    decls: [],
    shadows: {},
    calls: [],
    heritage: [],
    locals: {},
    fields: {},
    assigned: {},
    type_params: {},
    consts: [],
  };
  return { nodes: [withContentHash(node)], edges: [], issues: [], logic_steps: [], logic_flows: [], link_data: linkData };
}
