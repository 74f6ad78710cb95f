/**
 * Strategy `lexical` for the tree-sitter family (DESIGN.md section 3, `[adapter] strategy =
 * "lexical"`): the module node and the imports of a file from a hand-written scanner, with no
 * syntax tree, no WASM and no Logic. `maskSource` (@docforge/core source-mask.ts) blanks comments and string contents so
 * the languages' token patterns never match inside them.
 */
import { codeId, withContentHash } from '@docforge/core';
import type { CodeExtractInput } from '@docforge/core';
import { languageFor, type ExtractResult } from './extract.js';
import { TREE_LINK_DATA_VERSION, type TreeLinkData } from './link-data.js';
import type { LanguageSpec } from './spec.js';
import { countLines } from './tree.js';

export { lineAtOffset, maskSource, type MaskSyntax } from '@docforge/core';

/**
 * Extracts one file with strategy `lexical`: the module node (`test` and `entrypoint`
 * capabilities by the language's rules) and link data with the imports and top-level definition
 * names the language's lexical scanner finds; no definition nodes, calls, bases or Logic.
 */
export function extractLexical(spec: LanguageSpec, input: CodeExtractInput): ExtractResult {
  const scan = spec.lexical(input.content);
  const id = codeId(input.path);
  const capabilities: string[] = [];
  if (spec.moduleEntrypoint(input.path, scan.pkg, new Set(scan.defs.map((d) => d.name)))) capabilities.push('entrypoint');
  if (spec.isTestPath(input.path)) capabilities.push('test');
  const node = withContentHash({
    id, kind: 'module', title: input.path, family: null, authority: null, status: null, tags: [], summary: '', body: '',
    source_path: input.path, start_line: 1, end_line: countLines(input.content), anchors: [], language: languageFor(spec, input.path, input.options), capabilities, origin: 'code',
  });
  const linkData: TreeLinkData = { version: TREE_LINK_DATA_VERSION, lang: spec.id, package: scan.pkg, imports: scan.imports, calls: [], bases: [], defs: scan.defs };
  return { nodes: [node], edges: [], issues: [], logic_steps: [], logic_flows: [], link_data: linkData };
}
