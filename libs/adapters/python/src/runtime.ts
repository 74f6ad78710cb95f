/**
 * The per-thread tree-sitter runtime: web-tree-sitter's WASM module and the Python grammar from
 * `@vscode/tree-sitter-wasm`. Loading is asynchronous while `CodeAdapter.extract` is synchronous,
 * so a thread awaits {@link initPythonAdapter} once and extraction then uses the loaded parser.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';
import { errors, toDocforgeError } from '@docforge/core';

/** Package-relative specifier of the Python grammar (ABI 15, tree-sitter-python 0.25). */
const GRAMMAR_SPECIFIER = '@vscode/tree-sitter-wasm/wasm/tree-sitter-python.wasm';

let parser: Parser | null = null;
let loading: Promise<void> | null = null;

async function load(): Promise<void> {
  const require = createRequire(import.meta.url);
  const grammarPath = require.resolve(GRAMMAR_SPECIFIER);
  await Parser.init();
  const language = await Language.load(new Uint8Array(await readFile(grammarPath)));
  const created = new Parser();
  created.setLanguage(language);
  parser = created;
}

/**
 * Loads web-tree-sitter and the Python grammar for the current thread (worker threads each
 * need their own call). Idempotent and safe to call concurrently; must resolve before
 * `pythonAdapter.extract` is used.
 * @throws DocforgeError `internal_error` (with the original as `cause`) when the WASM runtime
 *   or grammar cannot be loaded; a later call retries.
 */
export async function initPythonAdapter(): Promise<void> {
  if (parser !== null) return;
  loading ??= load();
  try {
    await loading;
  } catch (error) {
    loading = null;
    throw toDocforgeError(error);
  }
}

/** Whether {@link initPythonAdapter} has completed on this thread. */
export function isPythonAdapterReady(): boolean {
  return parser !== null;
}

/**
 * The loaded parser of this thread.
 * @throws DocforgeError `internal_error` when {@link initPythonAdapter} has not resolved yet.
 */
export function requireParser(): Parser {
  if (parser === null) {
    throw errors.internalError(
      'The Python adapter is not initialized on this thread: await initPythonAdapter() once before calling extract().',
    );
  }
  return parser;
}
