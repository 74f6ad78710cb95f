// Pins issue 8 item 5: the bins point at committed executable launchers (so `npm ci` links them before dist/ exists), both programs answer --version from their package.json, and a launcher without dist/ says to run npm run build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';

const APPS = [
  { dir: 'apps/cli', bin: 'docforge' },
  { dir: 'apps/mcp-server', bin: 'docforge-mcp' },
];

for (const { dir, bin } of APPS) {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, dir, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };
  const target = path.posix.join(dir, pkg.bin[bin]!);

  test(`${bin}: the bin is a committed executable launcher outside dist/`, () => {
    assert.ok(!pkg.bin[bin]!.split('/').includes('dist'), `${bin} points into dist/: npm ci would not link it`);
    const staged = execFileSync('git', ['ls-files', '-s', '--', target], { cwd: REPO_ROOT, encoding: 'utf8' });
    assert.match(staged, /^100755 /, `${target} is tracked by git with mode 755 (got ${JSON.stringify(staged)})`);
    assert.match(readFileSync(path.join(REPO_ROOT, target), 'utf8'), /^#!\/usr\/bin\/env node\n/);
  });

  test(`${bin} --version prints the version of its package.json`, () => {
    const run = spawnSync(path.join(REPO_ROOT, target), ['--version'], { encoding: 'utf8', input: '' });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, `${bin} ${pkg.version}\n`);
  });

  test(`${bin}: without a build, the launcher says to run npm run build`, () => {
    const copy = path.join(tempDir('docforge-launcher-'), 'bin');
    mkdirSync(copy);
    copyFileSync(path.join(REPO_ROOT, target), path.join(copy, path.basename(target)));
    const run = spawnSync(process.execPath, [path.join(copy, path.basename(target)), '--version'], { encoding: 'utf8', input: '' });
    assert.equal(run.status, 1);
    assert.match(run.stderr, new RegExp(`^${bin}: .*dist/src/main\\.js is missing; run npm run build`));
    assert.equal(run.stdout, '');
  });
}
