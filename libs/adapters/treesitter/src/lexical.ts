/**
 * Strategy `lexical` for the tree-sitter family (DESIGN.md section 3, `[adapter] strategy =
 * "lexical"`): the module node and the imports of a file from a hand-written scanner, with no
 * syntax tree, no WASM and no Logic. {@link maskSource} blanks comments and string contents so the
 * languages' token patterns never match inside them.
 */
import { codeId, withContentHash } from '@docforge/core';
import type { CodeExtractInput } from '@docforge/core';
import { languageFor, type ExtractResult } from './extract.js';
import { TREE_LINK_DATA_VERSION, type TreeLinkData } from './link-data.js';
import type { LanguageSpec } from './spec.js';
import { countLines } from './tree.js';

/** The comment and string syntax of a language, for {@link maskSource}. */
export interface MaskSyntax {
  /** Line comment openers (`//`, `#`). */
  line: readonly string[];
  /** Whether `/* *\/` comments exist, and whether they nest (Rust). */
  block: boolean;
  nestedBlock?: boolean;
  /** Quote characters of strings with backslash escapes. */
  quotes: readonly string[];
  /** Quote characters of raw strings without escapes that may span lines (Go backquotes). */
  raw?: readonly string[];
}

/**
 * The text with every comment replaced by spaces and every string's content replaced by spaces
 * (quotes kept), line breaks kept: same length, so offsets and lines match the source. Rust
 * lifetimes (`'a`) and char literals are left as they are when no closing quote follows on the line.
 * Never throws.
 */
export function maskSource(text: string, syntax: MaskSyntax): string {
  const out = text.split('');
  const blank = (from: number, to: number): void => {
    for (let i = from; i < to; i += 1) if (out[i] !== '\n' && out[i] !== '\r') out[i] = ' ';
  };
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i] as string;
    const opener = syntax.line.find((open) => text.startsWith(open, i));
    if (opener !== undefined) {
      let end = text.indexOf('\n', i);
      if (end < 0) end = n;
      blank(i, end);
      i = end;
    } else if (syntax.block && text.startsWith('/*', i)) {
      let depth = 1;
      let j = i + 2;
      while (j < n && depth > 0) {
        if (syntax.nestedBlock === true && text.startsWith('/*', j)) { depth += 1; j += 2; } else if (text.startsWith('*/', j)) { depth -= 1; j += 2; } else j += 1;
      }
      blank(i, j);
      i = j;
    } else if (syntax.raw?.includes(ch) === true) {
      let end = text.indexOf(ch, i + 1);
      if (end < 0) end = n - 1;
      blank(i + 1, end);
      i = end + 1;
    } else if (syntax.quotes.includes(ch)) {
      let j = i + 1;
      while (j < n && text[j] !== ch && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      if (j < n && text[j] === ch) {
        blank(i + 1, j);
        i = j + 1;
      } else i += 1;
    } else i += 1;
  }
  return out.join('');
}

/** 1-based line of an offset. */
export function lineAtOffset(text: string, offset: number): number {
  let count = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) count += 1;
  return count;
}

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
