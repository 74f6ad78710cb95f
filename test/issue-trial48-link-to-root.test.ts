// Break-it trial 48 (issue 30): a link in a content root pointing at the project root itself
// (`docs/up -> ..`) was reported as "symbolic link target  lies outside ...": the root's relative
// path is empty, so the message named no target. It now names it as the project root.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { exampleProjectCopy } from './helpers/projects.js';

test('a link to the project root is reported naming the root, never an empty target', () => {
  const root = exampleProjectCopy();
  symlinkSync('..', path.join(root, 'docs', 'up'));
  const r = spawnSync(process.execPath, [CLI_ENTRY, 'validate', '-C', root, '--json'], { encoding: 'utf8' });
  const issues = (JSON.parse(r.stdout) as { issues: { code: string; path: string | null; message: string }[] }).issues;
  const found = issues.find((i) => i.path === 'docs/up');
  assert.ok(found, JSON.stringify(issues.filter((i) => i.code.startsWith('symlink'))));
  assert.equal(found.code, 'symlink_to_excluded_path');
  assert.match(found.message, /symbolic link target \. \(the project root\) lies outside the declared content and code roots/);
  assert.doesNotMatch(found.message, /target {2}/);
});
