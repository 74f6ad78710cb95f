/**
 * Validation findings as a CI check sees them (issue 32 item 5, `docforge check`): which findings
 * fail the check, and the plain text form. The GitHub and SARIF forms are in findings-github.ts
 * and findings-sarif.ts. Everything here works from a finding's code and severity only, so codes
 * added later (other validation rules) need no change here.
 */

/**
 * One validation finding as `docforge validate` lists it (core `SourceIssue`, with `severity` as a
 * plain string so that severities added later, such as `info`, are carried through unchanged).
 */
export interface CheckFinding {
  /** `error`, `warning` or `info`; any other value is treated as `warning`. */
  severity: string;
  /** Stable snake_case code, e.g. `broken_link`, `suspect_link`, `drift_parameters`. */
  code: string;
  message: string;
  /** Project-relative POSIX path of the file concerned, or null for a project-level finding. */
  path: string | null;
  /** 1-based line, or null when unknown. */
  line: number | null;
}

/** Code prefixes that fail `docforge check --strict` (ISSUE32-SHARED: suspect links and drift). */
export const STRICT_CODE_PREFIXES: readonly string[] = ['suspect_', 'drift_'];

/** Why a finding fails the check: `error` (any error), `strict` (a suspect or drift warning under `--strict`), or null (it does not fail it). */
export type CheckFailure = 'error' | 'strict' | null;

/**
 * Whether `finding` fails `docforge check`: every `error` does; with `strict`, so does any finding
 * whose code starts with `suspect_` or `drift_` unless its severity is `info`; `info` never does.
 */
export function checkFailure(finding: Pick<CheckFinding, 'severity' | 'code'>, strict: boolean): CheckFailure {
  if (finding.severity === 'error') return 'error';
  if (finding.severity === 'info') return null;
  if (strict && STRICT_CODE_PREFIXES.some((prefix) => finding.code.startsWith(prefix))) return 'strict';
  return null;
}

/** Counts of a check: findings per severity (`error`, `warning`, `info`, other keys as found) and how many fail it. */
export interface CheckSummary {
  counts: Record<string, number>;
  /** Findings that fail the check (errors, plus suspect/drift findings under `--strict`). */
  failing: number;
  /** Of `failing`, those that fail only because of `--strict`. */
  strict_failing: number;
  passed: boolean;
}

/** Summarises `findings` for a check with or without `--strict` ({@link checkFailure}). */
export function checkSummary(findings: readonly Pick<CheckFinding, 'severity' | 'code'>[], strict: boolean): CheckSummary {
  const counts: Record<string, number> = { error: 0, warning: 0, info: 0 };
  let failing = 0;
  let strictFailing = 0;
  for (const finding of findings) {
    counts[finding.severity] = (counts[finding.severity] ?? 0) + 1;
    const failure = checkFailure(finding, strict);
    if (failure !== null) failing += 1;
    if (failure === 'strict') strictFailing += 1;
  }
  return { counts, failing, strict_failing: strictFailing, passed: failing === 0 };
}

/** `path:line` of a finding (`path` alone without a line; `(project)` without a path). */
export function findingLocation(finding: Pick<CheckFinding, 'path' | 'line'>): string {
  if (finding.path === null || finding.path === '') return '(project)';
  return finding.line === null ? finding.path : `${finding.path}:${finding.line}`;
}

/**
 * A finding's message without the leading `path:line:` or `path:` that stored findings carry
 * (core `locatedIssueMessage`): every check format shows the location on its own.
 */
export function findingText(finding: Pick<CheckFinding, 'message' | 'path'>): string {
  const { message, path } = finding;
  if (path === null || path === '' || !message.startsWith(`${path}:`)) return message;
  return message.slice(path.length + 1).replace(/^\d+:/, '').trimStart();
}

/**
 * The text form of a check: one line per finding (`severity code location: message`, with
 * ` [fails --strict]` on a finding that fails only because of `--strict`), then one summary line.
 */
export function checkText(findings: readonly CheckFinding[], strict: boolean): string[] {
  const lines = findings.map((finding) => {
    const mark = checkFailure(finding, strict) === 'strict' ? ' [fails --strict]' : '';
    return `${finding.severity.padEnd(7)} ${finding.code} ${findingLocation(finding)}: ${findingText(finding)}${mark}`;
  });
  lines.push(checkSummaryLine(checkSummary(findings, strict), strict));
  return lines;
}

/** One summary line: `check passed` / `check failed`, with the counts per severity and the failing count. */
export function checkSummaryLine(summary: CheckSummary, strict: boolean): string {
  const { counts } = summary;
  const other = Object.entries(counts).filter(([key]) => !['error', 'warning', 'info'].includes(key)).map(([key, n]) => `, ${n} ${key}`).join('');
  const tally = `${counts.error} ${counts.error === 1 ? 'error' : 'errors'}, ${counts.warning} ${counts.warning === 1 ? 'warning' : 'warnings'}, ${counts.info} info${other}`;
  const failing = summary.strict_failing > 0 ? ` (${summary.strict_failing} suspect or drift ${summary.strict_failing === 1 ? 'finding' : 'findings'} under --strict)` : '';
  return `check ${summary.passed ? 'passed' : 'failed'}${strict ? ' (strict)' : ''}: ${tally}; ${summary.failing} failing${failing}`;
}
