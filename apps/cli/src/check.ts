/**
 * `docforge check [--strict] [--format text|github|sarif] [--min-severity error|warning|info]`
 * (issue 32 item 5; new-user trial u2 for `--min-severity`): the CI check. It
 * synchronizes and lists the findings exactly as `docforge validate` does (commands.ts
 * `validationFindings`, the one assembly), every finding, and exits 1 when one fails the check
 * (libs/render findings.ts `checkFailure`: any `error`; with `--strict` also `suspect_*` and
 * `drift_*` findings; `info` never), else 0; 2 for a usage error.
 */
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { toDocforgeError } from '@docforge/core';
import type { CheckFinding } from '@docforge/render';
import { printLine as print, printRaw, errorLine } from './terminal.js';
import { refuseInput } from './cli-error.js';
import { USAGE_EXIT_CODE, validationFindings, withManager, type SyncOptions } from './commands.js';

/** The output formats of `docforge check`. */
export const CHECK_FORMATS = ['text', 'github', 'sarif'] as const;

/** One of {@link CHECK_FORMATS}. */
export type CheckFormat = (typeof CHECK_FORMATS)[number];

/** The lowest severities `docforge check --min-severity` takes, lowest last (`info`: every finding, the default). */
export const CHECK_SEVERITIES = ['error', 'warning', 'info'] as const;

/** Options of {@link runCheck}. */
export interface CheckOptions extends SyncOptions {
  strict: boolean;
  /** `--format` as given (checked here: a value outside {@link CHECK_FORMATS} is a usage error); undefined: text. */
  format: string | undefined;
  /**
   * `--min-severity` as given (one of {@link CHECK_SEVERITIES}, else a usage error); undefined:
   * `info` (every finding). Findings below it are not printed unless they fail the check; the
   * summary still counts every finding and the exit code is the same as without it.
   */
  minSeverity?: string | undefined;
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
    return refuseInput(options.json, `check --format must be one of ${CHECK_FORMATS.join(', ')} (got ${JSON.stringify(format)})`, 'check');
  }
  if (options.json) return refuseInput(true, 'check takes --format text|github|sarif, not --json');
  const minSeverity = options.minSeverity ?? 'info';
  if (!(CHECK_SEVERITIES as readonly string[]).includes(minSeverity)) {
    return refuseInput(false, `check --min-severity must be one of ${CHECK_SEVERITIES.join(', ')} (got ${JSON.stringify(minSeverity)})`, 'check');
  }
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
  return printCheck(render, issues, root, format, options.strict, minSeverity);
}

/** The finding of an error that stopped the synchronization (severity `error`, located by its `path`/`line` details when given). */
function projectFinding(wire: { code: string; message: string; details: Record<string, unknown> }): CheckFinding {
  const { details } = wire;
  return { severity: 'error', code: wire.code, message: wire.message, path: typeof details.path === 'string' ? details.path : null, line: typeof details.line === 'number' ? details.line : null };
}

/**
 * The findings `--min-severity` keeps: those at `minSeverity` or above (error > warning > info;
 * an unknown severity counts as info), and every finding that fails the check whatever its severity.
 */
export function findingsAtLeast<T extends Pick<CheckFinding, 'severity' | 'code'>>(
  issues: readonly T[], minSeverity: string, strict: boolean, failure: (finding: T, strict: boolean) => unknown,
): T[] {
  const rank = (severity: string): number => {
    const at = (CHECK_SEVERITIES as readonly string[]).indexOf(severity);
    return at < 0 ? CHECK_SEVERITIES.length - 1 : at;
  };
  const bound = rank(minSeverity);
  return issues.filter((finding) => rank(finding.severity) <= bound || failure(finding, strict) !== null);
}

/** Prints the findings at `minSeverity` or above in `format` and returns the exit code (0 passed, 1 failed; over every finding). */
function printCheck(render: typeof import('@docforge/render'), issues: readonly CheckFinding[], root: string, format: CheckFormat, strict: boolean, minSeverity: string): number {
  const summary = render.checkSummary(issues, strict);
  const shown = findingsAtLeast(issues, minSeverity, strict, render.checkFailure);
  const hidden = issues.length - shown.length;
  const summaryLine = `${render.checkSummaryLine(summary, strict)}${hidden === 0 ? '' : ` (${hidden} below --min-severity ${minSeverity} not shown)`}`;
  if (format === 'sarif') {
    printRaw(JSON.stringify(render.sarifLog(shown, { root, version: cliVersion(), strict }), null, 2));
    errorLine(summaryLine);
  } else if (format === 'github') {
    // printLine: a control character in project text (ESC…) must not reach the log raw.
    for (const line of render.githubLines(shown, strict, annotationPrefix(root))) print(line);
    errorLine(summaryLine);
  } else {
    // checkText's last line is the summary of what it was given: the summary of every finding replaces it.
    for (const line of render.checkText(shown, strict).slice(0, -1)) print(line);
    print(summaryLine);
  }
  return summary.passed ? 0 : 1;
}
