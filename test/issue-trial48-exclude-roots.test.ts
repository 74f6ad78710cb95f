// Break-it trial 48 (issue 30): an exclude glob that matches a whole declared root (`*`, `**/*`,
// `!(x)`, the negation `!docs/**`, which skips every path outside docs) left the project with no
// nodes of that root, and `docforge validate` exited 0 without a word. Each such glob and root is
// now an `exclude_covers_root` warning at the `exclude` line; an ordinary glob gives none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { exampleProjectCopy } from './helpers/projects.js';

interface Issue { severity: string; code: string; message: string; path: string | null; line: number | null }

function coverWarnings(exclude: string[]): Issue[] {
  const root = exampleProjectCopy();
  const file = path.join(root, 'docforge.toml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('exclude = ["**/node_modules/**"]', `exclude = ${JSON.stringify(exclude)}`));
  const r = spawnSync(process.execPath, [CLI_ENTRY, 'validate', '-C', root, '--json'], { encoding: 'utf8' });
  const issues = (JSON.parse(r.stdout) as { issues: Issue[] }).issues;
  return issues.filter((i) => i.code === 'exclude_covers_root');
}

test('an exclude glob matching a whole content or code root is an exclude_covers_root warning naming glob and root', () => {
  const all = coverWarnings(['**/node_modules/**', '*']);
  assert.deepEqual(all.map((i) => i.severity), ['warning', 'warning']);
  assert.ok(all.some((i) => i.message.includes('"*"') && i.message.includes('content root "docs"')), JSON.stringify(all));
  assert.ok(all.some((i) => i.message.includes('code root "src"')), JSON.stringify(all));
  assert.equal(all[0]!.path, 'docforge.toml');
  assert.equal(typeof all[0]!.line, 'number');
  const negation = coverWarnings(['!docs/**']);
  assert.equal(negation.length, 1, JSON.stringify(negation));
  assert.match(negation[0]!.message, /code root "src"/);
  assert.deepEqual(coverWarnings(['**/node_modules/**', 'docs/drafts/**']), []);
});
