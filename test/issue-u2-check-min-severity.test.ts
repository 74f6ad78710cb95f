// New-user trial u2: `docforge check --min-severity error|warning|info` prints only findings at that severity or above
// (plus any finding that fails the check); the summary counts every finding and says how many it did not show, and the
// exit code is the same as without it. Default `info`: every finding, as before. On a copy of examples/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { exampleProjectCopy } from './helpers/projects.js';

function cli(args: string[]) {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8' });
}

test('--min-severity hides info (and warning) findings, never a failing one; summary and exit code unchanged', () => {
  const root = exampleProjectCopy({ state: false });
  writeFileSync(path.join(root, 'docs/components/zz-notes.md'), '# Notes\n\nSee [the missing page](missing.md).\n');
  const all = cli(['check', '--format', 'github', '-C', root]);
  assert.equal(all.status, 0, all.stderr);
  const notices = all.stdout.split('\n').filter((l) => l.startsWith('::notice ')).length;
  assert.ok(notices > 0, 'the example project has info-level coverage findings');
  const summary = all.stderr.trimEnd();
  assert.match(summary, /^check passed: 0 errors, 1 warning, \d+ info; 0 failing$/);
  // Default = info: byte for byte what --min-severity info prints.
  const info = cli(['check', '--format', 'github', '--min-severity', 'info', '-C', root]);
  assert.equal(info.stdout, all.stdout);
  assert.equal(info.stderr, all.stderr);

  const warning = cli(['check', '--format', 'github', '--min-severity', 'warning', '-C', root]);
  assert.equal(warning.status, 0);
  assert.deepEqual(warning.stdout.trimEnd().split('\n').map((l) => l.split(' ')[0]), ['::warning']);
  assert.equal(warning.stderr.trimEnd(), `${summary} (${notices} below --min-severity warning not shown)`);

  const error = cli(['check', '--min-severity', 'error', '-C', root]);
  assert.equal(error.status, 0);
  assert.deepEqual(error.stdout.trimEnd().split('\n'), [`${summary} (${notices + 1} below --min-severity error not shown)`]);

  // A failing error is printed, and the exit code stays 1; SARIF holds only the printed results.
  writeFileSync(path.join(root, 'docs/zz-dup.md'), '+++\nid = "CMP-LEDGER"\nkind = "component"\ntitle = "Dup"\n+++\n# Dup\n');
  const failed = cli(['check', '--min-severity', 'error', '-C', root]);
  assert.equal(failed.status, 1);
  const lines = failed.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 2, failed.stdout);
  assert.match(lines[0]!, /^error +duplicate_id /);
  assert.match(lines[1]!, /^check failed: 1 error, 1 warning, \d+ info; 1 failing \(\d+ below --min-severity error not shown\)$/);
  const sarif = JSON.parse(cli(['check', '--format', 'sarif', '--min-severity', 'warning', '-C', root]).stdout) as { runs: { results: { level: string }[] }[] };
  assert.deepEqual(sarif.runs[0]!.results.map((r) => r.level).sort(), ['error', 'warning']);

  const bad = cli(['check', '--min-severity', 'notice', '-C', root]);
  assert.equal(bad.status, 2);
  // The same first line, now followed by check's own usage (issue 30, stop 49: a command's bad flag prints its usage).
  assert.match(bad.stderr, /^docforge: check --min-severity must be one of error, warning, info \(got "notice"\)\n\nUsage: docforge check \.\.\.\n\n {2}check \[--strict\]/);
  assert.doesNotMatch(bad.stderr, /Commands:/);
});

test('validate --min-severity lists the findings at that severity or above and says how many it hid (new-user trial 50)', () => {
  const root = exampleProjectCopy();
  writeFileSync(path.join(root, 'docs/components/zz-notes.md'), '# Notes\n\nSee [the missing page](missing.md).\n');
  const all = cli(['validate', '-C', root]);
  assert.equal(all.status, 0, all.stderr);
  const listed = (out: string): string[] => out.split('\n').filter((l) => /^(error|warning|info) /.test(l)).map((l) => l.split(' ')[0]!);
  const every = listed(all.stdout);
  assert.ok(every.includes('warning') && every.includes('info'), all.stdout);
  const warning = cli(['validate', '--min-severity', 'warning', '-C', root]);
  assert.equal(warning.status, 0, warning.stderr);
  assert.deepEqual(listed(warning.stdout), every.filter((s) => s !== 'info'));
  const hidden = every.filter((s) => s === 'info').length;
  assert.match(warning.stdout, new RegExp(`^1 of 1 issue shown \\(${hidden} below --min-severity warning not shown\\); valid$`, 'm'));
  assert.equal(cli(['validate', '--min-severity', 'info', '-C', root]).stdout, all.stdout);
  const json = JSON.parse(cli(['validate', '--min-severity', 'error', '--json', '-C', root]).stdout) as { issues: unknown[]; total: number; valid: boolean };
  assert.deepEqual([json.issues, json.total, json.valid], [[], 0, true]);
  const bad = cli(['validate', '--min-severity', 'notice', '-C', root]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^docforge: validate --min-severity must be one of error, warning, info \(got "notice"\)/);
});
