/**
 * The built-in Python code adapter (DESIGN.md section 3; `[adapter] code = "python"`).
 */
import type { CodeAdapter, CodeExtractInput, LinkResult, ModuleResolver, ParsedSource } from '@docforge/core';
import { extractPython } from './extract.js';
import type { ExtractResult } from './extract.js';
import { linkPython } from './link.js';

/** Adapter version; part of `adapter_version` in every response. Bump when output for the same input changes. */
export const PYTHON_ADAPTER_VERSION = '1.0.0';

/**
 * The Python adapter: id `python`, extensions `.py`, extraction through web-tree-sitter with the
 * tree-sitter-python grammar. Await `initPythonAdapter()` once per thread before `extract`;
 * `extract` throws DocforgeError `internal_error` otherwise. Produces no Logic.
 */
export const pythonAdapter: CodeAdapter = Object.freeze({
  id: 'python',
  version: PYTHON_ADAPTER_VERSION,
  extensions: Object.freeze(['.py']),
  extract(input: CodeExtractInput): ExtractResult {
    return extractPython(input);
  },
  link(files: readonly Pick<ParsedSource, 'path' | 'nodes' | 'link_data'>[], resolver: ModuleResolver): LinkResult {
    return linkPython(files, resolver);
  },
});
