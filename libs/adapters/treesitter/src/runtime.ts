/**
 * The per-thread tree-sitter runtime of the family: web-tree-sitter's WASM module and, per
 * language, its grammar from `@vscode/tree-sitter-wasm` (go, rust, java, c-sharp, ruby, php, cpp),
 * plus a language's dialect grammar from its own npm package (C: `tree-sitter-c`).
 * Loading is asynchronous while `CodeAdapter.extract` is synchronous, so a thread awaits
 * {@link initGrammar} once per language and extraction then uses the loaded parser.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Language, Parser, Query } from 'web-tree-sitter';
import { errors, toDocforgeError } from '@docforge/core';

/**
 * A language loaded on this thread: its parser, and the query that captures the named nodes of
 * the types the extractor visits (one capture per node, in document order), so the walk over a
 * file is one WASM call instead of three or more per syntax node.
 */
export interface LoadedGrammar {
  parser: Parser;
  query: Query;
  /** The dialect's parser and query (`LanguageSpec.dialect`: C's `.c` files), or null when the language has none. */
  dialect: { parser: Parser; query: Query } | null;
}

let parsers: ReadonlyMap<string, LoadedGrammar> = new Map();
let loading: ReadonlyMap<string, Promise<void>> = new Map();

/** The query source capturing every named node whose type is in `types` (types the grammar lacks left out; `ERROR` is in every grammar): `[(a) (b)] @n`. */
function visitQuerySource(language: Language, types: ReadonlySet<string>): string {
  const known = [...types].filter((type) => type === 'ERROR' || language.idForNodeType(type, true) !== null).sort();
  return `[${known.map((type) => `(${type})`).join(' ')}] @n`;
}

/** A parser and visit query for the grammar at module specifier `specifier` (a `.wasm` file inside an npm package). */
async function loadOne(specifier: string, interesting: ReadonlySet<string>): Promise<{ parser: Parser; query: Query }> {
  const require = createRequire(import.meta.url);
  const language = await Language.load(new Uint8Array(await readFile(require.resolve(specifier))));
  const parser = new Parser();
  parser.setLanguage(language);
  return { parser, query: new Query(language, visitQuerySource(language, interesting)) };
}

async function load(id: string, grammar: string, interesting: ReadonlySet<string>, dialect: string | null): Promise<void> {
  await Parser.init();
  const main = await loadOne(`@vscode/tree-sitter-wasm/wasm/${grammar}`, interesting);
  const second = dialect === null ? null : await loadOne(dialect, interesting);
  parsers = new Map([...parsers, [id, { ...main, dialect: second }]]);
}

/**
 * Loads web-tree-sitter and the grammar `grammar` (a file name inside
 * `@vscode/tree-sitter-wasm/wasm`) for adapter `id` on the current thread, with the query of the
 * node types `interesting` (see {@link LoadedGrammar}), and the dialect grammar at module specifier
 * `dialect` (`tree-sitter-c/tree-sitter-c.wasm`) when not null. Idempotent and safe
 * to call concurrently; must resolve before that adapter's `extract` runs with strategy `ast`.
 * @throws DocforgeError `internal_error` (original as `cause`) when the runtime or grammar cannot be loaded; a later call retries.
 */
export async function initGrammar(id: string, grammar: string, interesting: ReadonlySet<string>, dialect: string | null = null): Promise<void> {
  if (parsers.has(id)) return;
  let pending = loading.get(id);
  if (pending === undefined) {
    pending = load(id, grammar, interesting, dialect);
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
 * The loaded parser and visit query of adapter `id` on this thread.
 * @throws DocforgeError `internal_error` when {@link initGrammar} has not resolved for it yet.
 */
export function requireParser(id: string): LoadedGrammar {
  const parser = parsers.get(id);
  if (parser === undefined) {
    throw errors.internalError(`The ${id} adapter is not initialized on this thread: await its init function once before calling extract().`);
  }
  return parser;
}
