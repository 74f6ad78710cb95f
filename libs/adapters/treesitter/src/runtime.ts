/**
 * The per-thread tree-sitter runtime of the family: web-tree-sitter's WASM module and its
 * grammars by module specifier: `@vscode/tree-sitter-wasm` (go, rust, java, c-sharp, ruby, php,
 * cpp) and a language's dialect grammar from its own npm package (C: `tree-sitter-c`).
 * Loading is asynchronous while `CodeAdapter.extract` is synchronous, so a thread awaits
 * {@link loadGrammar} (through `CodeAdapter.prepare`) for the grammar a file needs before that
 * file is extracted: a grammar no file needs is never loaded (a C-only project never loads C++'s).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Language, Parser, Query } from 'web-tree-sitter';
import { errors, toDocforgeError } from '@docforge/core';

/**
 * A grammar loaded on this thread: its parser, and the query that captures the named nodes of
 * the types the extractor visits (one capture per node, in document order), so the walk over a
 * file is one WASM call instead of three or more per syntax node.
 */
export interface LoadedGrammar {
  parser: Parser;
  query: Query;
}

let parsers: ReadonlyMap<string, LoadedGrammar> = new Map();
let loading: ReadonlyMap<string, Promise<void>> = new Map();

/** The query source capturing every named node whose type is in `types` (types the grammar lacks left out; `ERROR` is in every grammar): `[(a) (b)] @n`. */
function visitQuerySource(language: Language, types: ReadonlySet<string>): string {
  const known = [...types].filter((type) => type === 'ERROR' || language.idForNodeType(type, true) !== null).sort();
  return `[${known.map((type) => `(${type})`).join(' ')}] @n`;
}

/** Loads the runtime, then the grammar at module specifier `specifier` (a `.wasm` file inside an npm package) with its visit query. */
async function load(specifier: string, interesting: ReadonlySet<string>): Promise<void> {
  await Parser.init();
  const require = createRequire(import.meta.url);
  const language = await Language.load(new Uint8Array(await readFile(require.resolve(specifier))));
  const parser = new Parser();
  parser.setLanguage(language);
  parsers = new Map([...parsers, [specifier, { parser, query: new Query(language, visitQuerySource(language, interesting)) }]]);
}

/**
 * Loads web-tree-sitter and the grammar at module specifier `specifier`
 * (`@vscode/tree-sitter-wasm/wasm/tree-sitter-go.wasm`, `tree-sitter-c/tree-sitter-c.wasm`) on the
 * current thread, with the query of the node types `interesting` (see {@link LoadedGrammar}; one
 * set per grammar, the language's). Idempotent and safe to call concurrently; must resolve before
 * a file parsed with that grammar is extracted with strategy `ast`.
 * @throws DocforgeError `internal_error` (original as `cause`) when the runtime or grammar cannot be loaded; a later call retries.
 */
export async function loadGrammar(specifier: string, interesting: ReadonlySet<string>): Promise<void> {
  if (parsers.has(specifier)) return;
  let pending = loading.get(specifier);
  if (pending === undefined) {
    pending = load(specifier, interesting);
    loading = new Map([...loading, [specifier, pending]]);
  }
  try {
    await pending;
  } catch (error) {
    const rest = new Map(loading);
    rest.delete(specifier);
    loading = rest;
    throw toDocforgeError(error);
  }
}

/** Whether {@link loadGrammar} has completed for the grammar at `specifier` on this thread. */
export function isGrammarReady(specifier: string): boolean {
  return parsers.has(specifier);
}

/**
 * The loaded parser and visit query of the grammar at `specifier` on this thread.
 * @throws DocforgeError `internal_error` when {@link loadGrammar} has not resolved for it yet.
 */
export function requireGrammar(specifier: string): LoadedGrammar {
  const parser = parsers.get(specifier);
  if (parser === undefined) {
    throw errors.internalError(`The grammar ${specifier} is not loaded on this thread: await the adapter's prepare() (or its init function) for the file before calling extract().`);
  }
  return parser;
}
