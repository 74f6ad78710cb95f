/**
 * Strategy `lexical` (DESIGN.md section 3, `[adapter] strategy = "lexical"`): module nodes and
 * module references WITHOUT any abstract syntax tree and without Logic. The hand-written
 * tokenizer (lexer.ts) turns the text into a flat token stream (identifiers, string and
 * no-substitution template literals, punctuators), skipping comments, string and template
 * contents and regular expression literals; module references are then recognised by token
 * patterns. No TypeScript compiler API (not even its scanner) is used here.
 */
import { codeId, withContentHash } from '@docforge/core';
import type { CodeExtractInput, GraphNode } from '@docforge/core';
import { headerComment, moduleSummary, type TsExtractResult } from './module-node.js';
import { isEntrypointPath, isTestPath, languageOf } from './paths.js';
import type { TsImportRecord, TsLinkData } from '@docforge/ts-link-model';
import { lexTokens, type LexToken } from '@docforge/ts-lexer';

const MAX_LOOKAHEAD = 400;

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
