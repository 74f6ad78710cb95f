/**
 * The built-in Python code adapter (DESIGN.md section 3; `[adapter] code = "python"`).
 */
import type { CodeAdapter, CodeExtractInput, LinkResult, ModuleResolver, ParsedSource } from '@docforge/core';
import { extractPython } from './extract.js';
import type { ExtractResult } from './module-facts.js';
import { extractPythonLexical } from './lexical.js';
import { linkPython } from './link.js';
import { readPythonLinkData } from './link-data.js';

/** Adapter version; part of `adapter_version` in every response. Bump when output for the same input changes. */
export const PYTHON_ADAPTER_VERSION = '1.1.0';

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
    return input.strategy === 'lexical' ? extractPythonLexical(input) : extractPython(input);
  },
  link(files: readonly Pick<ParsedSource, 'path' | 'nodes' | 'link_data'>[], resolver: ModuleResolver): LinkResult {
    return linkPython(files, resolver);
  },
  isLinkData(value: unknown): boolean {
    return readPythonLinkData(value) !== null;
  },
});
