/**
 * Makes the `CodeAdapter` of one language of the tree-sitter family from its {@link LanguageSpec}
 * (DESIGN.md section 3; `[adapter] code = "go"` and the others).
 */
import { collectCodeText, type CodeAdapter, type CodeExtractInput, type LinkInput, type LinkResult, type ModuleResolver } from '@docforge/core';
import { extractTree, grammarFor, type ExtractResult } from './extract.js';
import { extractLexical } from './lexical.js';
import { linkTree } from './link.js';
import { readTreeLinkData } from './link-data.js';
import { isGrammarReady, loadGrammar } from './runtime.js';
import type { LanguageSpec } from './spec.js';

/** Node kinds that own code text (their body lines are searchable). */
const OWNERS: ReadonlySet<string> = new Set(['module', 'class', 'struct', 'enum', 'trait', 'interface', 'record', 'function', 'method']);

/**
 * The adapter of `spec`'s language, version `version`. Strategy `ast`: extraction through
 * web-tree-sitter (await `prepare` for a file, or {@link initTreeAdapter} once per thread, first;
 * `extract` throws DocforgeError `internal_error` otherwise). `prepare` loads the one grammar a
 * file needs (C's or C++'s for the `cpp` adapter), nothing for strategy `lexical`. Strategy `lexical`: the language's hand-written
 * scanner, module nodes and imports only, no WASM. Code text: the words of module top levels and
 * of definition bodies, without the language's keywords.
 */
export function makeTreeAdapter(spec: LanguageSpec, version: string): CodeAdapter {
  const textOptions = { owners: OWNERS, keywords: spec.keywords };
  return Object.freeze({
    id: spec.id,
    version,
    extensions: Object.freeze([...spec.extensions]),
    extract(input: CodeExtractInput): ExtractResult {
      const extracted = input.strategy === 'lexical' ? extractLexical(spec, input) : extractTree(spec, input);
      return { ...extracted, code_text: collectCodeText(input.content, extracted.nodes, textOptions) };
    },
    prepare(input: Pick<CodeExtractInput, 'path' | 'strategy' | 'options'>): Promise<void> | null {
      const grammar = input.strategy === 'lexical' ? null : grammarFor(spec, input.path, input.options);
      return grammar === null || isGrammarReady(grammar) ? null : loadGrammar(grammar, spec.interesting);
    },
    link(files: readonly LinkInput[], resolver: ModuleResolver): LinkResult {
      return linkTree(spec, files, resolver);
    },
    isLinkData(value: unknown): boolean {
      return readTreeLinkData(value, spec.id) !== null;
    },
  });
}

/**
 * Loads every grammar of `spec`'s language on this thread (idempotent; its dialect's too), for callers that extract
 * without `prepare` (tests, ops scripts).
 * @throws DocforgeError `internal_error` when the WASM runtime or a grammar cannot be loaded.
 */
export async function initTreeAdapter(spec: LanguageSpec): Promise<void> {
  await loadGrammar(`@vscode/tree-sitter-wasm/wasm/${spec.grammar}`, spec.interesting);
  if (spec.dialect !== undefined) await loadGrammar(spec.dialect.grammar, spec.interesting);
}
