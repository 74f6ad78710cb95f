/**
 * Strategy `lexical` for Python (DESIGN.md section 3, `[adapter] strategy = "lexical"`): the module
 * node and the import statements of a file WITHOUT any syntax tree and without Logic. The scanner
 * (scanner.ts) splits the text into logical lines of tokens; import statements are then recognised by
 * token patterns at any indentation, including after a block header on the same line
 * (`try: import x`). Nothing of web-tree-sitter is used here, so no WASM is loaded.
 */
import { codeId, withContentHash } from '@docforge/core';
import type { CodeExtractInput, GraphNode } from '@docforge/core';
import { cleanDoc, countLines, firstParagraph, isMainGuardText, isPythonTestPath, PYTHON_LANGUAGE, type ExtractResult } from './module-facts.js';
import { PYTHON_LINK_DATA_VERSION } from './link-data.js';
import type { PythonDef, PythonImport, PythonLinkData } from './link-data.js';
import { COMPOUND, KEYWORDS, scanPythonLines, type PyToken } from './scanner.js';

/** What the lexical scan finds in one file. */
export interface PythonLexicalScan {
  /** Import statements, shaped exactly like the AST extractor's link data (`__future__` imports excluded). */
  imports: PythonImport[];
  /** Names of a literal module-level `__all__` list or tuple, or null when there is none. */
  all: string[] | null;
  /** Module-level `def`/`class` names (outside any def or class, at any block depth), first occurrence only. */
  defs: PythonDef[];
  /** The module docstring (cleaned as `inspect.cleandoc` does), or `''`. */
  docstring: string;
  /** Whether a top-level `if __name__ == "__main__":` occurs. */
  mainGuard: boolean;
}

function isOp(token: PyToken | undefined, value: string): boolean {
  return token !== undefined && token.type === 'op' && token.value === value;
}

function isWord(token: PyToken | undefined, value: string): boolean {
  return token !== undefined && token.type === 'name' && token.value === value;
}

function isIdentifier(token: PyToken | undefined): token is PyToken {
  return token !== undefined && token.type === 'name' && !KEYWORDS.has(token.value);
}

/** Splits tokens into simple statements at top-level `;`. */
function splitStatements(tokens: readonly PyToken[]): PyToken[][] {
  const out: PyToken[][] = [];
  let current: PyToken[] = [];
  let depth = 0;
  for (const token of tokens) {
    if (token.type === 'op') {
      if (token.value === '(' || token.value === '[' || token.value === '{') depth += 1;
      else if ((token.value === ')' || token.value === ']' || token.value === '}') && depth > 0) depth -= 1;
      else if (token.value === ';' && depth === 0) {
        if (current.length > 0) out.push(current);
        current = [];
        continue;
      }
    }
    current.push(token);
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Index of the `:` ending a compound statement header (top level, not a lambda's), or -1. */
function headerColon(tokens: readonly PyToken[]): number {
  let depth = 0;
  let lambdas = 0;
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i] as PyToken;
    if (token.type === 'name' && token.value === 'lambda' && depth === 0) lambdas += 1;
    if (token.type !== 'op') continue;
    if (token.value === '(' || token.value === '[' || token.value === '{') depth += 1;
    else if ((token.value === ')' || token.value === ']' || token.value === '}') && depth > 0) depth -= 1;
    else if (token.value === ':' && depth === 0) {
      if (lambdas > 0) lambdas -= 1;
      else return i;
    }
  }
  return -1;
}

/** Reads `name(.name)*` from `i`; returns the dotted text and the next index, or null. */
function dotted(tokens: readonly PyToken[], i: number): { text: string; next: number } | null {
  const first = tokens[i];
  if (!isIdentifier(first)) return null;
  let text = first.value;
  let next = i + 1;
  while (isOp(tokens[next], '.') && isIdentifier(tokens[next + 1])) {
    text += `.${(tokens[next + 1] as PyToken).value}`;
    next += 2;
  }
  return { text, next };
}

/** Reads an optional `as name` at `i`. `undefined` marks a malformed alias. */
function alias(tokens: readonly PyToken[], i: number): { alias: string | null; next: number } | undefined {
  if (!isWord(tokens[i], 'as')) return { alias: null, next: i };
  const name = tokens[i + 1];
  return isIdentifier(name) ? { alias: name.value, next: i + 2 } : undefined;
}

/** `import a.b [as c], d`: one PythonImport per name, as the AST extractor records them. */
function parseImport(tokens: readonly PyToken[], scope: string, out: PythonImport[]): void {
  const line = (tokens[0] as PyToken).line;
  let i = 1;
  for (;;) {
    const name = dotted(tokens, i);
    if (name === null) return;
    const as = alias(tokens, name.next);
    if (as === undefined) return;
    out.push({ line, scope, level: 0, module: name.text, alias: as.alias, names: null, wildcard: false });
    i = as.next;
    if (!isOp(tokens[i], ',')) return;
    i += 1;
  }
}

/** `from <dots><module> import names | (names) | *`; `from __future__` is not an import binding. */
function parseFromImport(tokens: readonly PyToken[], scope: string, out: PythonImport[]): void {
  const line = (tokens[0] as PyToken).line;
  let i = 1;
  let level = 0;
  while (isOp(tokens[i], '.')) {
    level += 1;
    i += 1;
  }
  let module = '';
  const name = dotted(tokens, i);
  if (name !== null) {
    module = name.text;
    i = name.next;
  }
  if ((level === 0 && module === '') || !isWord(tokens[i], 'import')) return;
  if (level === 0 && module === '__future__') return;
  i += 1;
  if (isOp(tokens[i], '*')) {
    out.push({ line, scope, level, module, alias: null, names: [], wildcard: true });
    return;
  }
  const parenthesized = isOp(tokens[i], '(');
  if (parenthesized) i += 1;
  const names: { name: string; alias: string | null }[] = [];
  for (;;) {
    if (parenthesized && isOp(tokens[i], ')')) break;
    const entry = dotted(tokens, i);
    if (entry === null) break;
    const as = alias(tokens, entry.next);
    if (as === undefined) break;
    names.push({ name: entry.text, alias: as.alias });
    i = as.next;
    if (!isOp(tokens[i], ',')) break;
    i += 1;
  }
  if (names.length > 0) out.push({ line, scope, level, module, alias: null, names, wildcard: false });
}

/** The raw text between the quotes of a terminated non-formatted string token, or null (as the AST's `stringValue`). */
function plainStringValue(token: PyToken | undefined): string | null {
  if (token?.type !== 'string' || token.terminated !== true || !/^[rRuUbB]*$/.test(token.prefix ?? '')) return null;
  const quote = token.quote ?? '';
  return token.value.slice((token.prefix ?? '').length + quote.length, token.value.length - quote.length);
}

/**
 * The names of a module-level `__all__ = [...]`, `__all__: T = (...)` or `__all__ += [...]`
 * statement whose value is a literal list or tuple, or undefined when the statement is not one
 * (non-string elements are skipped, as the AST extractor does).
 */
function allAssignment(tokens: readonly PyToken[]): { names: string[]; append: boolean } | undefined {
  if (!isWord(tokens[0], '__all__')) return undefined;
  let i = 1;
  let append = false;
  if (isOp(tokens[i], '+=')) append = true;
  else if (isOp(tokens[i], ':')) {
    let depth = 0;
    for (i += 1; i < tokens.length; i += 1) {
      const token = tokens[i] as PyToken;
      if (token.type !== 'op') continue;
      if ('([{'.includes(token.value)) depth += 1;
      else if (')]}'.includes(token.value)) depth -= 1;
      else if (token.value === '=' && depth === 0) break;
    }
    if (!isOp(tokens[i], '=')) return undefined;
  } else if (!isOp(tokens[i], '=')) return undefined;
  const value = tokens.slice(i + 1);
  const open = value[0];
  const close = value[value.length - 1];
  if (open === undefined || close === undefined || value.length < 2) return undefined;
  if (!((isOp(open, '[') && isOp(close, ']')) || (isOp(open, '(') && isOp(close, ')')))) return undefined;
  const elements: PyToken[][] = [[]];
  let depth = 0;
  let commas = 0;
  for (const token of value.slice(1, -1)) {
    if (token.type === 'op') {
      if ('([{'.includes(token.value)) depth += 1;
      else if (')]}'.includes(token.value)) {
        depth -= 1;
        if (depth < 0) return undefined; // `[...] + [...]`: not one literal
      } else if (depth === 0 && token.value === ',') {
        commas += 1;
        elements.push([]);
        continue;
      } else if (depth === 0 && (token.value === '=' || token.value === ':=')) return undefined;
    }
    if (depth === 0 && isWord(token, 'for')) return undefined; // a comprehension
    (elements[elements.length - 1] as PyToken[]).push(token);
  }
  // `( x )` is a parenthesized expression, not a tuple.
  if (isOp(open, '(') && commas === 0 && (elements[0] as PyToken[]).length > 0) return undefined;
  const names: string[] = [];
  for (const element of elements) {
    const text = element.length === 1 ? plainStringValue(element[0]) : null;
    if (text !== null) names.push(text);
  }
  return { names, append };
}

/**
 * Scans Python source for import statements, a literal `__all__`, the module docstring and a
 * top-level `__main__` guard, without any syntax tree. Imports are found at any indentation and
 * after a block header on the same line; each records the qualified name of the enclosing
 * `def`/`class` (tracked by indentation) as its scope, like the AST extractor. Never throws.
 */
export function scanPythonSource(text: string): PythonLexicalScan {
  const imports: PythonImport[] = [];
  const defs: PythonDef[] = [];
  const defined = new Set<string>();
  let all: string[] | null = null;
  let docstring = '';
  let mainGuard = false;
  const scopes: { indent: number; qname: string }[] = [];
  let first = true;
  for (const logical of scanPythonLines(text)) {
    while (scopes.length > 0 && (scopes[scopes.length - 1] as { indent: number }).indent >= logical.indent) scopes.pop();
    let scope = scopes.length > 0 ? (scopes[scopes.length - 1] as { qname: string }).qname : '';
    const tokens = logical.tokens;
    let simple: PyToken[][];
    const head = tokens[0] as PyToken;
    if (head.type === 'name' && COMPOUND.has(head.value)) {
      const colon = headerColon(tokens);
      const keyword = isWord(head, 'async') ? tokens[1] : head;
      if (isWord(keyword, 'def') || isWord(keyword, 'class')) {
        const name = tokens[tokens.indexOf(keyword as PyToken) + 1];
        if (isIdentifier(name)) {
          if (scope === '' && !defined.has(name.value)) {
            defined.add(name.value);
            defs.push({ name: name.value, kind: isWord(keyword, 'class') ? 'class' : 'function' });
          }
          const qname = scope === '' ? name.value : `${scope}.${name.value}`;
          scopes.push({ indent: logical.indent, qname });
          scope = qname;
        }
      } else if (isWord(head, 'if') && colon > 0 && logical.indent === 0 && scopes.length === 0) {
        if (isMainGuardText(text.slice(head.end, (tokens[colon] as PyToken).start))) mainGuard = true;
      }
      simple = colon < 0 ? [] : splitStatements(tokens.slice(colon + 1));
    } else {
      simple = splitStatements(tokens);
      if (first) {
        const statement = simple[0];
        const value = statement?.length === 1 ? plainStringValue(statement[0]) : null;
        if (value !== null) docstring = cleanDoc(value);
      }
    }
    first = false;
    for (const statement of simple) {
      const start = statement[0] as PyToken;
      if (isWord(start, 'import')) parseImport(statement, scope, imports);
      else if (isWord(start, 'from')) parseFromImport(statement, scope, imports);
      else if (scope === '') {
        const found = allAssignment(statement);
        if (found !== undefined) all = found.append && all !== null ? [...all, ...found.names] : found.names;
      }
    }
  }
  return { imports, all, defs, docstring, mainGuard };
}

/**
 * Extraction under strategy `lexical`: exactly one node, the module `code:<path>` (kind `module`,
 * title the path, language `python`, summary and body from the module docstring, lines 1..last,
 * capabilities `entrypoint` for `__main__.py` or a top-level `__main__` guard and `test` for test
 * paths, the same as the AST extractor gives the module), no edges, no issues, no Logic, and
 * link data with the file's imports, literal `__all__` and module-level definition names (no
 * calls, no bases), so the linker produces `imports` edges only, the same ones as from AST data. Needs no {@link initPythonAdapter}; never throws: an unexpected
 * failure yields the bare module node and an `extract_failed` error issue.
 */
export function extractPythonLexical(input: CodeExtractInput): ExtractResult {
  const base = input.path.split('/').pop() ?? input.path;
  const node = (scan: PythonLexicalScan): GraphNode => {
    const capabilities: string[] = [];
    if (base === '__main__.py' || scan.mainGuard) capabilities.push('entrypoint');
    if (isPythonTestPath(input.path)) capabilities.push('test');
    return withContentHash({
      id: codeId(input.path),
      kind: 'module',
      title: input.path,
      family: null,
      authority: null,
      status: null,
      tags: [],
      summary: firstParagraph(scan.docstring),
      body: scan.docstring,
      source_path: input.path,
      start_line: 1,
      end_line: countLines(input.content),
      anchors: [],
      language: PYTHON_LANGUAGE,
      capabilities,
      origin: 'code',
    });
  };
  let scan: PythonLexicalScan;
  try {
    scan = scanPythonSource(input.content);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const empty: PythonLexicalScan = { imports: [], all: null, defs: [], docstring: '', mainGuard: false };
    return {
      nodes: [node(empty)],
      edges: [],
      issues: [{ severity: 'error', code: 'extract_failed', message: `Python lexical scan failed: ${message}`, path: input.path, line: null, node_id: codeId(input.path) }],
      logic_steps: [],
      logic_flows: [],
      link_data: { version: PYTHON_LINK_DATA_VERSION, imports: [], calls: [], bases: [], all: null, defs: [] } satisfies PythonLinkData,
    };
  }
  const linkData: PythonLinkData = { version: PYTHON_LINK_DATA_VERSION, imports: scan.imports, calls: [], bases: [], all: scan.all, defs: scan.defs };
  return { nodes: [node(scan)], edges: [], issues: [], logic_steps: [], logic_flows: [], link_data: linkData };
}
