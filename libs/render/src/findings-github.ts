/**
 * `docforge check --format github` (issue 32 item 5): one GitHub Actions workflow command per
 * finding (`::error file=…,line=…,title=…::message`, `::warning …`, `::notice …`), which the
 * runner turns into annotations on the pull request. Escaping follows the Actions toolkit
 * (`@actions/core` command.ts): `%`, CR and LF in the message; additionally `:` and `,` in
 * property values.
 */
import type { CheckFinding } from './findings.js';
import { checkFailure, findingText } from './findings.js';

/** Escapes the data (message) part of a workflow command: `%` -> `%25`, CR -> `%0D`, LF -> `%0A`. */
export function escapeCommandData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow command property value: as {@link escapeCommandData}, plus `:` -> `%3A` and `,` -> `%2C`. */
export function escapeCommandProperty(text: string): string {
  return escapeCommandData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** The workflow command of a severity: `error`, `warning`, or `notice` for `info` (any other severity: `warning`). */
export function githubCommand(severity: string): 'error' | 'warning' | 'notice' {
  if (severity === 'error') return 'error';
  return severity === 'info' ? 'notice' : 'warning';
}

/**
 * The workflow command line of one finding. Properties: `file` (project-relative path, prefixed
 * with `pathPrefix`, the project root's path relative to the repository checkout: `''` when they
 * coincide), `line` when known, and `title` (the code; with ` (fails --strict)` when the finding
 * fails the check only because of `--strict`). A finding that fails the strict check is an
 * `error` annotation, so the failing findings stand out.
 */
export function githubLine(finding: CheckFinding, strict: boolean, pathPrefix = ''): string {
  const failure = checkFailure(finding, strict);
  const command = failure === 'strict' ? 'error' : githubCommand(finding.severity);
  const properties: string[] = [];
  if (finding.path !== null && finding.path !== '') {
    properties.push(`file=${escapeCommandProperty(`${pathPrefix}${finding.path}`)}`);
    if (finding.line !== null) properties.push(`line=${finding.line}`);
  }
  properties.push(`title=${escapeCommandProperty(failure === 'strict' ? `${finding.code} (fails --strict)` : finding.code)}`);
  return `::${command} ${properties.join(',')}::${escapeCommandData(findingText(finding))}`;
}

/** Every finding's workflow command line ({@link githubLine}), in order. */
export function githubLines(findings: readonly CheckFinding[], strict: boolean, pathPrefix = ''): string[] {
  return findings.map((finding) => githubLine(finding, strict, pathPrefix));
}
