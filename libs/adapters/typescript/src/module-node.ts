/**
 * The module node every extraction of a TypeScript/JavaScript file starts with, and the shape of
 * an extraction result (shared by the AST and the lexical strategies).
 */
import { codeId, type GraphNode, type ParsedSource } from '@docforge/core';
import { languageOf } from './paths.js';

/** What {@link extractTypeScript} returns: the ParsedSource fields other than file identity. */
export type TsExtractResult = Pick<ParsedSource, 'nodes' | 'edges' | 'issues' | 'logic_steps' | 'logic_flows' | 'link_data'>;

/** The `module` node of a file: id `code:<path>` ({@link codeId}), capabilities `entrypoint` and `test` as given. */
export function moduleNode(path: string, lines: number, isTest: boolean, entry: boolean): Omit<GraphNode, 'content_hash'> {
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
    summary: `module ${path}`,
    body: '',
    source_path: path,
    start_line: 1,
    end_line: Math.max(1, lines),
    anchors: [],
    language: languageOf(path),
    capabilities,
    origin: 'code',
  };
}
