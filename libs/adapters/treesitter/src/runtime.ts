/**
 * The per-thread tree-sitter runtime of the family: web-tree-sitter's WASM module and, per
 * language, its grammar from `@vscode/tree-sitter-wasm` (go, rust, java, c-sharp, ruby, php, cpp).
 * Loading is asynchronous while `CodeAdapter.extract` is synchronous, so a thread awaits
 * {@link initGrammar} once per language and extraction then uses the loaded parser.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';
import { errors, toDocforgeError } from '@docforge/core';

let parsers: ReadonlyMap<string, Parser> = new Map();
let loading: ReadonlyMap<string, Promise<void>> = new Map();

async function load(id: string, grammar: string): Promise<void> {
  const require = createRequire(import.meta.url);
  const grammarPath = require.resolve(`@vscode/tree-sitter-wasm/wasm/${grammar}`);
  await Parser.init();
  const language = await Language.load(new Uint8Array(await readFile(grammarPath)));
  const created = new Parser();
  created.setLanguage(language);
  parsers = new Map([...parsers, [id, created]]);
}

/**
 * Loads web-tree-sitter and the grammar `grammar` (a file name inside
 * `@vscode/tree-sitter-wasm/wasm`) for adapter `id` on the current thread. Idempotent and safe
 * to call concurrently; must resolve before that adapter's `extract` runs with strategy `ast`.
 * @throws DocforgeError `internal_error` (original as `cause`) when the runtime or grammar cannot be loaded; a later call retries.
 */
export async function initGrammar(id: string, grammar: string): Promise<void> {
  if (parsers.has(id)) return;
  let pending = loading.get(id);
  if (pending === undefined) {
    pending = load(id, grammar);
    loading = new Map([...loading, [id, pending]]);
  }
  try {
    await pending;
  } catch (error) {
    const rest = new Map(loading);
    rest.delete(id);
    loading = rest;
    throw toDocforgeError(error);
  }
}

/** Whether {@link initGrammar} has completed for adapter `id` on this thread. */
export function isGrammarReady(id: string): boolean {
  return parsers.has(id);
}

/**
 * The loaded parser of adapter `id` on this thread.
 * @throws DocforgeError `internal_error` when {@link initGrammar} has not resolved for it yet.
 */
export function requireParser(id: string): Parser {
  const parser = parsers.get(id);
  if (parser === undefined) {
    throw errors.internalError(`The ${id} adapter is not initialized on this thread: await its init function once before calling extract().`);
  }
  return parser;
}
