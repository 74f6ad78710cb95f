/**
 * `docforge check [--strict] [--format text|github|sarif]` (issue 32 item 5): the CI check. It
 * synchronizes and lists the findings exactly as `docforge validate` does (commands.ts
 * `validationFindings`, the one assembly), every finding, and exits 1 when one fails the check
 * (libs/render findings.ts `checkFailure`: any `error`; with `--strict` also `suspect_*` and
 * `drift_*` findings; `info` never), else 0; 2 for a usage error.
 */
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { toDocforgeError } from '@docforge/core';
import type { CheckFinding } from '@docforge/render';
import { printLine as print, printRaw, errorLine, refuseUsage } from './terminal.js';
import { USAGE_EXIT_CODE, validationFindings, withManager, type SyncOptions } from './commands.js';

/** The output formats of `docforge check`. */
export const CHECK_FORMATS = ['text', 'github', 'sarif'] as const;

/** One of {@link CHECK_FORMATS}. */
export type CheckFormat = (typeof CHECK_FORMATS)[number];

/** Options of {@link runCheck}. */
export interface CheckOptions extends SyncOptions {
  strict: boolean;
  /** `--format` as given (checked here: a value outside {@link CHECK_FORMATS} is a usage error); undefined: text. */
  format: string | undefined;
}

/** The CLI's version (`tool.driver.version` of the SARIF log). */
function cliVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/**
 * The project root relative to the working directory, as a POSIX prefix ending in `/` (`''` when
 * they coincide, or when the root is not under it): GitHub resolves annotation files against the checkout, where CI runs the check.
 */
function annotationPrefix(root: string): string {
  const relative = path.relative(process.cwd(), root).split(path.sep).join('/');
  // A root outside the working directory: project-relative paths (no `../` climbing out of the checkout).
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? '' : `${relative}/`;
}

/**
 * `docforge check`: prints every finding in the chosen format (text and github on stdout, one
 * line each, the summary last in text and on stderr otherwise; sarif: the SARIF log alone on
 * stdout) and resolves to the exit code.
 */
export async function runCheck(root: string, options: CheckOptions): Promise<number> {
  const format = (options.format ?? 'text') as CheckFormat;
  if (!(CHECK_FORMATS as readonly string[]).includes(format)) {
    return refuseUsage(options.json, `check --format must be one of ${CHECK_FORMATS.join(', ')} (got ${JSON.stringify(format)})`);
  }
  if (options.json) return refuseUsage(true, 'check takes --format text|github|sarif, not --json');
  const render = await import('@docforge/render');
  let issues: CheckFinding[];
  try {
    // Every finding: a CI check reports them all (its output grows with the findings, not the project).
    issues = await withManager(root, options, (manager, sync) => validationFindings(manager, sync, manager.reader().count('issues')).issues);
  } catch (error) {
    // A project that cannot even be loaded (a broken docforge.toml) is one error finding, located
    // as the error says, so the annotation or SARIF result still points at the cause.
    issues = [projectFinding(toDocforgeError(error).toWire())];
  }
  return printCheck(render, issues, root, format, options.strict);
}

/** The finding of an error that stopped the synchronization (severity `error`, located by its `path`/`line` details when given). */
function projectFinding(wire: { code: string; message: string; details: Record<string, unknown> }): CheckFinding {
  const { details } = wire;
  return { severity: 'error', code: wire.code, message: wire.message, path: typeof details.path === 'string' ? details.path : null, line: typeof details.line === 'number' ? details.line : null };
}

/** Prints the findings in `format` and returns the exit code (0 passed, 1 failed). */
function printCheck(render: typeof import('@docforge/render'), issues: readonly CheckFinding[], root: string, format: CheckFormat, strict: boolean): number {
  const summary = render.checkSummary(issues, strict);
  if (format === 'sarif') {
    printRaw(JSON.stringify(render.sarifLog(issues, { root, version: cliVersion(), strict }), null, 2));
    errorLine(render.checkSummaryLine(summary, strict));
  } else if (format === 'github') {
    // printLine: a control character in project text (ESC…) must not reach the log raw.
    for (const line of render.githubLines(issues, strict, annotationPrefix(root))) print(line);
    errorLine(render.checkSummaryLine(summary, strict));
  } else {
    for (const line of render.checkText(issues, strict)) print(line);
  }
  return summary.passed ? 0 : 1;
}
