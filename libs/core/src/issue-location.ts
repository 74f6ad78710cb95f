/**
 * Where a validation finding's message starts (docs/errors.md, "Validation findings"): every
 * message begins with `path:line:` (or `path:` when the finding has no line), so a message read
 * alone, in a terminal or an editor's problem matcher, names its place. Applied once where findings
 * are stored (libs/store index-writer.ts), whatever produced them (libs/project, the built-in
 * adapters, libs/builder, a project-owned adapter).
 */
import type { SourceIssue } from './model.js';

/**
 * The message of `issue` starting with its location: unchanged when `path` is null or the message
 * already starts with `path:<digits>:`; a leading `path:` without a line gets the line inserted;
 * otherwise `path:line: ` (or `path: `) is prepended.
 * @returns the located message (the issue itself is not changed)
 */
export function locatedIssueMessage(issue: Pick<SourceIssue, 'message' | 'path' | 'line'>): string {
  const { message, path, line } = issue;
  if (path === null || path === '') return message;
  if (message.startsWith(`${path}:`)) {
    const rest = message.slice(path.length + 1);
    if (/^\d+:/.test(rest)) return message;
    return line === null ? message : `${path}:${line}:${rest}`;
  }
  return `${path}:${line === null ? '' : `${line}:`} ${message}`;
}
