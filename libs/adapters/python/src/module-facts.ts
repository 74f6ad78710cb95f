/**
 * Facts about a Python module shared by the AST and lexical strategies: the language id, the
 * test-path rule, docstring cleaning and summaries, the `__main__` guard test, the line count and
 * the shape of an extraction result.
 */
import type { ParsedSource } from '@docforge/core';

/** Value of `GraphNode.language` for every node this adapter emits. */
export const PYTHON_LANGUAGE = 'python';

/** Longest summary kept, in characters (same cap as Markdown summaries). */
const SUMMARY_MAX_CHARS = 400;

/** The ParsedSource fields a code adapter returns. */
export type ExtractResult = Pick<ParsedSource, 'nodes' | 'edges' | 'issues' | 'logic_steps' | 'logic_flows' | 'link_data' | 'code_text'>;

export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function cap(text: string): string {
  return text.length <= SUMMARY_MAX_CHARS ? text : `${text.slice(0, SUMMARY_MAX_CHARS - 1)}…`;
}

/** Whether a project-relative path is a test file: `test_*.py`, `*_test.py`, or under `tests/` or `test/`. */
export function isPythonTestPath(path: string): boolean {
  const segments = path.split('/');
  const base = segments[segments.length - 1] ?? '';
  if (/^test_.*\.py$/.test(base) || /_test\.py$/.test(base)) return true;
  return segments.slice(0, -1).some((segment) => segment === 'tests' || segment === 'test');
}

/**
 * inspect.cleandoc: strip the common indentation of all lines but the first, and blank edges.
 * Tabs count as 8 spaces; line breaks are normalized to `\n`. Shared with the lexical strategy.
 */
export function cleanDoc(raw: string): string {
  const lines = raw.replace(/\r\n?/g, '\n').replace(/\t/g, '        ').split('\n');
  let margin = Infinity;
  for (const text of lines.slice(1)) {
    const stripped = text.trimStart();
    if (stripped.length > 0) margin = Math.min(margin, text.length - stripped.length);
  }
  const out = [(lines[0] ?? '').trimStart()];
  for (const text of lines.slice(1)) out.push(margin === Infinity ? text.trimStart() : text.slice(margin));
  while (out.length > 0 && (out[0] ?? '').trim() === '') out.shift();
  while (out.length > 0 && (out[out.length - 1] ?? '').trim() === '') out.pop();
  return out.map((text) => text.trimEnd()).join('\n');
}

/** The first paragraph of a cleaned docstring, whitespace collapsed, capped at 400 characters (the node summary). */
export function firstParagraph(text: string): string {
  const paragraph = text.split(/\n\s*\n/)[0] ?? '';
  return cap(collapse(paragraph));
}

/**
 * Whether the source text of an `if` condition is `__name__ == "__main__"` (either order, either
 * quote, whitespace ignored, one pair of outer parentheses allowed). Shared with the lexical strategy.
 */
export function isMainGuardText(condition: string): boolean {
  const text = condition.replace(/\s+/g, '').replace(/'/g, '"').replace(/^\((.*)\)$/, '$1');
  return text === '__name__=="__main__"' || text === '"__main__"==__name__';
}

/** Counts the lines of a text the way an editor shows them (a final newline opens no line); at least 1. */
export function countLines(content: string): number {
  const lines = content.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return Math.max(1, lines.length);
}
