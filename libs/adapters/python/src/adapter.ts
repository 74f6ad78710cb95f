/**
 * The built-in Python code adapter (DESIGN.md section 3; `[adapter] code = "python"`).
 */
import { collectCodeText, type CodeAdapter, type CodeExtractInput, type CodeTextOptions, type LinkResult, type ModuleResolver, type ParsedSource } from '@docforge/core';
import { extractPython } from './extract.js';
import type { ExtractResult } from './module-facts.js';
import { extractPythonLexical } from './lexical.js';
import { linkPython } from './link.js';
import { readPythonLinkData } from './link-data.js';
import { KEYWORDS } from './scanner.js';

/**
 * Code text (issue 31 item 1): the words of module top levels and class, function and method
 * bodies, without Python's reserved words.
 */
const CODE_TEXT_OPTIONS: CodeTextOptions = Object.freeze({ owners: new Set(['module', 'class', 'function', 'method']), keywords: KEYWORDS });

/** Adapter version; part of `adapter_version` in every response. Bump when output for the same input changes. */
export const PYTHON_ADAPTER_VERSION = '1.2.0';

/**
 * The Python adapter: id `python`, extensions `.py`. Strategy `ast`: extraction through
 * web-tree-sitter with the tree-sitter-python grammar; await `initPythonAdapter()` once per thread
 * before `extract`, which throws DocforgeError `internal_error` otherwise. Strategy `lexical`:
 * a hand-written scanner (lexical.ts) yields the module node and its imports only, with no WASM
 * and no initialization needed. Produces no Logic under either strategy.
 */
export const pythonAdapter: CodeAdapter = Object.freeze({
  id: 'python',
  version: PYTHON_ADAPTER_VERSION,
  extensions: Object.freeze(['.py']),
  extract(input: CodeExtractInput): ExtractResult {
    const extracted = input.strategy === 'lexical' ? extractPythonLexical(input) : extractPython(input);
    return { ...extracted, code_text: collectCodeText(input.content, extracted.nodes, CODE_TEXT_OPTIONS) };
  },
  link(files: readonly Pick<ParsedSource, 'path' | 'nodes' | 'link_data'>[], resolver: ModuleResolver): LinkResult {
    return linkPython(files, resolver);
  },
  isLinkData(value: unknown): boolean {
    return readPythonLinkData(value) !== null;
  },
});
