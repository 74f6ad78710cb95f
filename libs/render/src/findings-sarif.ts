/**
 * `docforge check --format sarif` (issue 32 item 5): the findings as one SARIF 2.1.0 log
 * (OASIS SARIF 2.1.0; tests validate it against the published JSON schema), so code-scanning UIs
 * show them inline. One run; `tool.driver.rules` holds one rule per code used, in order of first
 * use; each result names its rule (`ruleId`, `ruleIndex`), a `level`, the message, and a physical
 * location relative to the project root (`uriBaseId` `PROJECTROOT`, whose absolute URI is given in
 * the run's `originalUriBaseIds`).
 */
import { pathToFileURL } from 'node:url';
import type { CheckFinding } from './findings.js';
import { checkFailure, findingText } from './findings.js';

/** The `uriBaseId` of every result location: the project root. */
export const SARIF_ROOT_BASE_ID = 'PROJECTROOT';

/** SARIF result level of a severity: `error`, `warning`, or `note` for `info` (any other severity: `warning`). */
export function sarifLevel(severity: string): 'error' | 'warning' | 'note' {
  if (severity === 'error') return 'error';
  return severity === 'info' ? 'note' : 'warning';
}

/** What {@link sarifLog} needs besides the findings. */
export interface SarifRun {
  /** Absolute project root (its file URI becomes `originalUriBaseIds.PROJECTROOT`). */
  root: string;
  /** The CLI version (`tool.driver.version`). */
  version: string;
  strict: boolean;
  /**
   * The file given as the location of a project-level finding (no path): code-scanning UIs show
   * only located results. Default `docforge.toml`, the project's descriptor.
   */
  projectFile?: string;
}

/** A project-relative POSIX path as a relative URI reference (each segment percent-encoded). */
export function sarifUri(relativePath: string): string {
  return relativePath.split('/').map((segment) => encodeURIComponent(segment)).join('/');
}

/** A rule's identifier-like name: `broken_link` -> `BrokenLink`. */
function ruleName(code: string): string {
  return code.split(/[_\W]+/).filter(Boolean).map((word) => word[0]!.toUpperCase() + word.slice(1)).join('') || 'Finding';
}

/**
 * The SARIF 2.1.0 log of a check. A finding that fails the check only because of `--strict`
 * (a `suspect_*` or `drift_*` warning) gets level `error`, as in the GitHub format; every other
 * result's level follows its severity ({@link sarifLevel}).
 */
export function sarifLog(findings: readonly CheckFinding[], run: SarifRun): Record<string, unknown> {
  const ruleIndex = new Map<string, number>();
  const rules: Record<string, unknown>[] = [];
  const results = findings.map((finding) => {
    let index = ruleIndex.get(finding.code);
    if (index === undefined) {
      index = rules.length;
      ruleIndex.set(finding.code, index);
      rules.push({
        id: finding.code,
        name: ruleName(finding.code),
        shortDescription: { text: `DocForge validation finding ${finding.code}` },
        defaultConfiguration: { level: sarifLevel(finding.severity) },
      });
    }
    const level = checkFailure(finding, run.strict) === 'strict' ? 'error' : sarifLevel(finding.severity);
    const file = finding.path === null || finding.path === '' ? (run.projectFile ?? 'docforge.toml') : finding.path;
    const region = finding.line !== null && finding.line >= 1 ? { region: { startLine: finding.line } } : {};
    return {
      ruleId: finding.code,
      ruleIndex: index,
      level,
      message: { text: findingText(finding) },
      locations: [{ physicalLocation: { artifactLocation: { uri: sarifUri(file), uriBaseId: SARIF_ROOT_BASE_ID }, ...region } }],
    };
  });
  const rootUri = pathToFileURL(run.root.endsWith('/') ? run.root : `${run.root}/`).href;
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: { driver: { name: 'DocForge', version: run.version, rules } },
      originalUriBaseIds: { [SARIF_ROOT_BASE_ID]: { uri: rootUri } },
      results,
    }],
  };
}
