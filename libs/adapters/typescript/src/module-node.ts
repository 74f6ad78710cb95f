/**
 * The module node every extraction of a TypeScript/JavaScript file starts with, and the shape of
 * an extraction result (shared by the AST and the lexical strategies).
 */
import { codeId, startsLikeModuleCode, type GraphNode, type ParsedSource } from '@docforge/core';
import { languageOf } from './paths.js';

/** What {@link extractTypeScript} returns: the ParsedSource fields other than file identity. */
export type TsExtractResult = Pick<ParsedSource, 'nodes' | 'edges' | 'issues' | 'logic_steps' | 'logic_flows' | 'link_data' | 'code_text'>;

/**
 * The file's header comment (issue 9 item 4): the comment the file opens with, after any shebang
 * and blank lines, either a block comment (`/** ... *\/` or `/* ... *\/`, decoration stripped) or
 * a run of `//` lines, when a blank line, an import, `'use strict'` or a `require()` follows it (a
 * comment glued to the first declaration is that declaration's); '' otherwise. A text scan (no AST), so the
 * AST and lexical strategies agree; reads at most the first 16 KiB.
 */
export function headerComment(text: string): string {
  const head = text.slice(0, 16384).replace(/^#![^\n]*\n/, '').replace(/^\s+/, '');
  let comment = '';
  let rest = '';
  if (head.startsWith('/*')) {
    const end = head.indexOf('*/', 2);
    if (end < 0) return '';
    comment = head.slice(2, end).replace(/^\*+!?/, '').split('\n').map((line) => line.replace(/^\s*\*? ?/, '').trimEnd()).join('\n').trim();
    rest = head.slice(end + 2);
  } else {
    const lines = head.split('\n');
    let n = 0;
    while (n < lines.length && /^\s*\/\//.test(lines[n]!)) n += 1;
    comment = lines.slice(0, n).map((line) => line.replace(/^\s*\/\/+ ?/, '').trimEnd()).join('\n').trim();
    rest = `\n${lines.slice(n).join('\n')}`;
  }
  // A comment glued to the first declaration documents that declaration, not the file.
  const separated = /^[ \t]*\r?\n[ \t]*\r?\n/.test(rest) || startsLikeModuleCode(rest) || rest.trim() === '';
  return separated ? comment : '';
}

/** The summary of a module node: `module <path>`, then ` — ` and the header's first paragraph (at most 400 characters). */
export function moduleSummary(path: string, header: string): string {
  const lead = (header.split(/\n\s*\n/)[0] ?? '').replace(/\s+/g, ' ').trim();
  return (lead === '' ? `module ${path}` : `module ${path} — ${lead}`).slice(0, 400);
}

/**
 * The `module` node of a file: id `code:<path>` ({@link codeId}), capabilities `entrypoint` and `test` as given;
 * `header` (the file's {@link headerComment}) becomes its body, and its first paragraph
 * follows `module <path>` in the summary (at most 400 characters).
 */
export function moduleNode(path: string, lines: number, isTest: boolean, entry: boolean, header = ''): Omit<GraphNode, 'content_hash'> {
  const capabilities: string[] = [];
  if (entry) capabilities.push('entrypoint');
  if (isTest) capabilities.push('test');
  return {
    id: codeId(path),
    kind: 'module',
    title: path,
    family: null,
    authority: null,
    status: null,
    tags: [],
    summary: moduleSummary(path, header),
    body: header,
    source_path: path,
    start_line: 1,
    end_line: Math.max(1, lines),
    anchors: [],
    language: languageOf(path),
    capabilities,
    origin: 'code',
  };
}
