// Runs every compiled test file with Node's test runner (node --test does not expand globs on Node 20).
import { readdirSync, existsSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const roots = ['protocol', 'libs/core', 'libs/fs-safe', 'libs/project', 'libs/adapters/typescript', 'libs/adapters/python', 'libs/policy', 'libs/index', 'libs/retrieval', 'apps/mcp-server', 'apps/cli', 'test'];
const filter = process.argv.slice(2);
const files = [];
function collect(dir) {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) collect(full);
    else if (name.endsWith('.test.js')) files.push(full);
  }
}
for (const root of roots) collect(path.join(root, 'dist', 'test'));
collect(path.join('test', 'dist'));
const selected = filter.length > 0 ? files.filter((f) => filter.some((x) => f.includes(x))) : files;
if (selected.length === 0) {
  console.error('run-tests: no compiled test files found (did tsc -b run?)');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...selected], { stdio: 'inherit' });
process.exit(result.status ?? 1);
