// Issue 32 item 5: `docforge check` — the strict rule over findings, the three formats (GitHub
// line by line, SARIF validated against the published SARIF 2.1.0 schema) and the exit codes, on
// copies of examples/ and of the fastify package's docs and code.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import AjvDraft04Module from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';
import { checkFailure, checkSummary, githubLine, sarifLog, type CheckFinding } from '@docforge/render';
import { CLI_ENTRY } from './helpers/paths.js';
import { exampleProjectCopy } from './helpers/projects.js';
import { sharedFastifyProject } from './helpers/shared-fixtures.js';

const require = createRequire(import.meta.url);
// CommonJS packages: their classes are the `default` export of the module object.
const AjvDraft04 = AjvDraft04Module.default;
const addFormats = addFormatsModule.default;

/** The SARIF 2.1.0 schema as published (the copy @microsoft/jest-sarif ships; draft-04). */
function sarifValidator() {
  const file = path.join(path.dirname(require.resolve('@microsoft/jest-sarif/package.json')), 'lib/schemas/sarif-2.1.0-rtm.5.json');
  const schema = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  assert.equal(schema.$schema, 'http://json-schema.org/draft-04/schema#');
  // unicodeRegExp off: the published schema's language pattern (`…{2}]?$`) is valid only without the `u` flag.
  const ajv = new AjvDraft04({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

function cli(args: string[], cwd?: string) {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8', ...(cwd ? { cwd } : {}) });
}

const finding = (severity: string, code: string, extra: Partial<CheckFinding> = {}): CheckFinding => ({ severity, code, message: `${code} here`, path: 'docs/a.md', line: 3, ...extra });

describe('the check rule over findings (codes and severities only)', () => {
  test('errors always fail; suspect_/drift_ warnings only with --strict; info never', () => {
    const cases: [CheckFinding, ReturnType<typeof checkFailure>, ReturnType<typeof checkFailure>][] = [
      [finding('error', 'malformed_front_matter'), 'error', 'error'],
      [finding('error', 'drift_parameters'), 'error', 'error'],
      [finding('warning', 'broken_link'), null, null],
      [finding('warning', 'suspect_link'), null, 'strict'],
      [finding('warning', 'drift_unreviewed_change'), null, 'strict'],
      [finding('warning', 'unresolved_code_mention'), null, null],
      [finding('warning', 'drift_parameters'), null, 'strict'],
      [finding('warning', 'suspectlink'), null, null],
      [finding('warning', 'coverage_api_undocumented'), null, null],
      [finding('info', 'coverage_requirement_untraced'), null, null],
      [finding('info', 'drift_parameters'), null, null],
      [finding('info', 'suspect_link'), null, null],
    ];
    for (const [f, plain, strict] of cases) {
      assert.equal(checkFailure(f, false), plain, `${f.severity} ${f.code}`);
      assert.equal(checkFailure(f, true), strict, `${f.severity} ${f.code} --strict`);
    }
    const all = cases.map(([f]) => f);
    assert.deepEqual(checkSummary(all, false), { counts: { error: 2, warning: 7, info: 3 }, failing: 2, strict_failing: 0, passed: false });
    // Under --strict every case whose strict column fails counts; the strict-only ones are those the plain run passes.
    const strictFailing = cases.filter(([, plain, strict]) => plain === null && strict !== null).length;
    assert.equal(strictFailing, 3);
    assert.deepEqual(checkSummary(all, true), { counts: { error: 2, warning: 7, info: 3 }, failing: 2 + strictFailing, strict_failing: strictFailing, passed: false });
    assert.equal(checkSummary(all.filter((f) => f.severity !== 'error'), false).passed, true);
    assert.equal(checkSummary([finding('info', 'coverage_decision_ungoverning')], true).passed, true);
  });

  test('GitHub workflow commands escape %, CR and LF in the message, and : and , in properties', () => {
    const f: CheckFinding = { severity: 'warning', code: 'broken_link', message: 'docs/a,b:c.md:7: 100% of\r\nit: a, b', path: 'docs/a,b:c.md', line: 7 };
    assert.equal(githubLine(f, false), '::warning file=docs/a%2Cb%3Ac.md,line=7,title=broken_link::100%25 of%0D%0Ait: a, b');
    assert.equal(githubLine(f, false, 'sub dir/'), '::warning file=sub dir/docs/a%2Cb%3Ac.md,line=7,title=broken_link::100%25 of%0D%0Ait: a, b');
    assert.equal(githubLine({ ...f, severity: 'info', code: 'coverage_api_undocumented' }, true), '::notice file=docs/a%2Cb%3Ac.md,line=7,title=coverage_api_undocumented::100%25 of%0D%0Ait: a, b');
    assert.equal(githubLine({ ...f, code: 'suspect_link' }, true), '::error file=docs/a%2Cb%3Ac.md,line=7,title=suspect_link (fails --strict)::100%25 of%0D%0Ait: a, b');
    assert.equal(githubLine({ severity: 'error', code: 'descriptor_invalid', message: 'bad', path: null, line: null }, false), '::error title=descriptor_invalid::bad');
  });

  test('a SARIF log of synthetic findings of every severity validates against the published schema', () => {
    const validate = sarifValidator();
    const findings = [finding('error', 'duplicate_id'), finding('warning', 'suspect_link', { path: 'docs/with space/ü.md', line: null }), finding('info', 'coverage_requirement_untraced'), finding('error', 'descriptor_invalid', { path: null, line: null })];
    const log = sarifLog(findings, { root: '/tmp/project', version: '0.1.0', strict: true });
    assert.equal(validate(log), true, JSON.stringify(validate.errors));
    const run = (log.runs as { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string; ruleIndex: number; level: string; locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region?: { startLine: number } } }[] }[] }[])[0]!;
    assert.deepEqual(run.tool.driver.rules.map((r) => r.id), ['duplicate_id', 'suspect_link', 'coverage_requirement_untraced', 'descriptor_invalid']);
    assert.deepEqual(run.results.map((r) => [r.ruleId, r.ruleIndex, r.level]), [['duplicate_id', 0, 'error'], ['suspect_link', 1, 'error'], ['coverage_requirement_untraced', 2, 'note'], ['descriptor_invalid', 3, 'error']]);
    assert.deepEqual(run.results[1]!.locations[0]!.physicalLocation, { artifactLocation: { uri: 'docs/with%20space/%C3%BC.md', uriBaseId: 'PROJECTROOT' } });
    assert.deepEqual(run.results[3]!.locations[0]!.physicalLocation.artifactLocation, { uri: 'docforge.toml', uriBaseId: 'PROJECTROOT' });
  });
});

describe('docforge check end to end', () => {
  test('examples/: passes clean; a broken link is a warning (exit 0, also --strict); a malformed file fails it in every format', () => {
    const root = exampleProjectCopy({ state: false });
    const clean = cli(['check', '-C', root]);
    assert.equal(clean.status, 0, clean.stderr);
    // The examples' info findings (coverage, issue 32 item 4) are listed and never fail the check.
    const infos = (JSON.parse(cli(['validate', '--json', '--limit', '1000', '-C', root]).stdout) as { issues: { severity: string; code: string }[] }).issues.filter((i) => i.severity === 'info');
    const n = infos.length;
    const notInfo = (out: string): string[] => out.split('\n').filter((l) => !l.startsWith('info ') && !l.startsWith('::notice '));
    assert.equal(clean.stdout.split('\n').filter((l) => l.startsWith('info ')).length, n);
    assert.deepEqual(notInfo(clean.stdout), [`check passed: 0 errors, 0 warnings, ${n} info; 0 failing`, '']);
    // A new page nobody links to: editing a linked page would also make its unreviewed links drift (issue 32 item 2).
    const doc = 'docs/components/zz-notes.md';
    writeFileSync(path.join(root, doc), '# Notes\n\nSee [the missing page](missing.md), 100%.\n');
    const line = 3;
    const text = cli(['check', '-C', root]);
    assert.equal(text.status, 0, text.stderr);
    assert.deepEqual(notInfo(text.stdout), [
      `warning broken_link ${doc}:${line}: link to "docs/components/missing.md" does not resolve to a Markdown source under the content roots`,
      `check passed: 0 errors, 1 warning, ${n} info; 0 failing`, '']);
    assert.equal(cli(['check', '--strict', '-C', root]).status, 0, 'broken_link is not a suspect or drift finding');
    // GitHub, line by line; run from the project's parent, so file= is relative to that directory.
    const github = cli(['check', '--format', 'github', '-C', path.basename(root)], path.dirname(root));
    assert.equal(github.status, 0, github.stderr);
    assert.deepEqual(notInfo(github.stdout), [
      `::warning file=${path.basename(root)}/${doc},line=${line},title=broken_link::link to "docs/components/missing.md" does not resolve to a Markdown source under the content roots`, '']);
    assert.equal(github.stderr, `check passed: 0 errors, 1 warning, ${n} info; 0 failing\n`);

    // A second document with the id of an existing one: an error.
    writeFileSync(path.join(root, 'docs/zz-dup.md'), '+++\nid = "CMP-LEDGER"\nkind = "component"\ntitle = "Dup"\n+++\n# Dup\n');
    const failed = cli(['check', '-C', root]);
    assert.equal(failed.status, 1, failed.stdout);
    const errorLine = failed.stdout.split('\n').find((l) => l.startsWith('error'));
    assert.ok(errorLine, failed.stdout);
    assert.ok(failed.stdout.split('\n').includes(`check failed: 1 error, 1 warning, ${n} info; 1 failing`), failed.stdout);
    const ghFailed = cli(['check', '--format', 'github', '-C', root]);
    assert.equal(ghFailed.status, 1);
    const lines = notInfo(ghFailed.stdout.trimEnd());
    assert.equal(lines.length, 2);
    assert.match(lines.find((l) => l.startsWith('::error '))!, /^::error file=docs\/[a-z/-]+\.md,line=\d+,title=duplicate_id::\S/);
    const sarif = cli(['check', '--format', 'sarif', '-C', root]);
    assert.equal(sarif.status, 1);
    const log = JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string; level: string }[] }[] };
    assert.equal(sarifValidator()(log), true);
    assert.deepEqual(log.runs[0]!.results.filter((r) => r.level !== 'note').map((r) => [r.ruleId, r.level]).sort(), [['broken_link', 'warning'], ['duplicate_id', 'error']]);
    assert.equal(log.runs[0]!.results.filter((r) => r.level === 'note').length, n);
  });

  test('fastify (docs and code): the SARIF log validates and lists every finding that validate lists; GitHub has one line per finding', () => {
    // Reads only (validate and check): the run's shared built copy (test/helpers/shared-fixtures.ts).
    const root = sharedFastifyProject(['docs', 'lib', 'fastify.js'], 'schema_version = 1\n[project]\nid = "fastify"\nname = "Fastify"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["lib", "fastify.js"]\n[adapter]\ncode = "typescript"\n');
    const validated = JSON.parse(cli(['validate', '--json', '--limit', '10000', '-C', root]).stdout) as { total: number; issues: { code: string; path: string; line: number | null }[] };
    assert.ok(validated.total > 0, 'fastify\'s docs have findings (broken anchors)');
    const sarif = cli(['check', '--format', 'sarif', '-C', root]);
    assert.equal(sarif.status, validated.issues.some((i) => (i as { severity?: string }).severity === 'error') ? 1 : 0, sarif.stderr);
    const log = JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } } }[] }[] }[] };
    const validate = sarifValidator();
    assert.equal(validate(log), true, JSON.stringify(validate.errors?.slice(0, 3)));
    assert.equal(log.runs.length, 1);
    assert.deepEqual(log.runs[0]!.results.map((r) => `${r.ruleId} ${decodeURIComponent(r.locations[0]!.physicalLocation.artifactLocation.uri)}:${r.locations[0]!.physicalLocation.region?.startLine}`),
      validated.issues.map((i) => `${i.code} ${i.path}:${i.line ?? undefined}`));
    for (const r of log.runs[0]!.results) assert.ok(existsSync(path.join(root, decodeURIComponent(r.locations[0]!.physicalLocation.artifactLocation.uri))));
    const github = cli(['check', '--format', 'github', '-C', root]);
    const lines = github.stdout.trimEnd().split('\n');
    assert.equal(lines.length, validated.total);
    // info findings (coverage) are notices; warnings are warnings; none fails without --strict.
    const command = (severity: string | undefined): string => (severity === 'info' ? 'notice' : severity === 'error' ? 'error' : 'warning');
    for (const [i, l] of lines.entries()) {
      const issue = validated.issues[i] as { code: string; path: string; line: number | null; severity?: string };
      assert.ok(l.startsWith(`::${command(issue.severity)} file=${issue.path},line=${issue.line},title=${issue.code}::`), l);
    }
  });

  test('a project that does not load is one located error finding in every format', () => {
    const root = exampleProjectCopy({ state: false });
    const toml = readFileSync(path.join(root, 'docforge.toml'), 'utf8');
    writeFileSync(path.join(root, 'docforge.toml'), `${toml}garbage = [\n`);
    // The line the descriptor error names (the TOML parser's, as `docforge validate` reports it).
    const validate = cli(['validate', '-C', root]);
    assert.equal(validate.status, 1);
    const line = Number(/"line":(\d+)/.exec(validate.stderr)?.[1]);
    assert.ok(line >= toml.split('\n').length, validate.stderr);
    const github = cli(['check', '--format', 'github', '-C', root]);
    assert.equal(github.status, 1, github.stderr);
    assert.deepEqual(github.stdout.split('\n'), [`::error file=docforge.toml,line=${line},title=descriptor_invalid::TOML syntax error: invalid value`, '']);
    const sarif = cli(['check', '--format', 'sarif', '-C', root]);
    assert.equal(sarif.status, 1);
    const log = JSON.parse(sarif.stdout) as Record<string, unknown>;
    assert.equal(sarifValidator()(log), true);
    assert.equal(cli(['check', '-C', root]).status, 1);
  });

  test('usage errors exit 2 and build nothing', () => {
    const root = exampleProjectCopy({ state: false });
    for (const argv of [['check', '--format', 'xml'], ['check', 'extra'], ['check', '--strict', '--strict']]) {
      const run = cli([...argv, '-C', root]);
      assert.equal(run.status, 2, `${argv.join(' ')}: ${run.stderr}`);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, /^docforge: /);
    }
    // A line that asks for --json gets its refusal as JSON, as every refused line does (README "--json").
    const json = cli(['check', '--json', '-C', root]);
    assert.equal(json.status, 2);
    assert.equal((JSON.parse(json.stdout) as { error: { code: string; message: string } }).error.message, 'check takes --format text|github|sarif, not --json');
    assert.equal(existsSync(path.join(root, '.docforge')), false);
  });
});
