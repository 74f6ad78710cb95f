/**
 * smol-toml through its one-file CommonJS build (issue 14): Node's ESM import would load and link
 * its nine module files in every process that reads a descriptor, including a no-change
 * `docforge sync`. One instance for the descriptor, content and front matter readers.
 */
import { createRequire } from 'node:module';
import type * as SmolToml from 'smol-toml';

const toml = createRequire(import.meta.url)('smol-toml') as typeof SmolToml;

/** smol-toml's `parse` (TOML 1.0 text to a table). @throws TomlError on invalid TOML */
export const parseToml: typeof SmolToml.parse = toml.parse;

/** smol-toml's parse error class (carries `line` and `column`, 1-based). */
export const TomlError: typeof SmolToml.TomlError = toml.TomlError;
