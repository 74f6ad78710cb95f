/**
 * Checks shared by the command lines (`docforge`, `docforge-mcp`, the graph-browser worker): options
 * that take one value, and log levels. Node's `parseArgs` keeps the last of a repeated option
 * silently, and pino throws on an unknown level name; both are usage errors here.
 */

import { LOG_LEVELS, readDocforgeConfig, type Environment } from './config.js';

/** Whether `value` is one of {@link LOG_LEVELS}. */
export function isLogLevel(value: string): boolean {
  return LOG_LEVELS.includes(value);
}

/**
 * The log level of `DOCFORGE_LOG_LEVEL` when it names one of {@link LOG_LEVELS}, else `fallback`
 * (unset, empty or unknown: logging must never stop a process from starting).
 */
export function envLogLevel(fallback: string, env: Environment = process.env): string {
  return readDocforgeConfig(env).logLevel ?? fallback;
}

/** The part of a `parseArgs` token (`tokens: true`) this module reads. */
export interface OptionToken {
  kind: string;
  name?: string;
  rawName?: string;
}

/**
 * The first option given more than once (as written, e.g. `--project-root` or `-C`), or null.
 * Every option of the DocForge command lines takes at most one value, so a repeat is ambiguous.
 * @param tokens the `tokens` of `parseArgs({ tokens: true, … })`
 */
export function repeatedOption(tokens: readonly OptionToken[]): string | null {
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name === undefined) continue;
    if (seen.has(token.name)) return token.rawName ?? `--${token.name}`;
    seen.add(token.name);
  }
  return null;
}
