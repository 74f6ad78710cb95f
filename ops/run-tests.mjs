// Runs every compiled test file with Node's test runner (node --test does not expand globs on Node 20).
// Before the run it builds the shared example fixture once: a copy of examples/ indexed by the built
// `docforge sync`, whose location reaches the tests through DOCFORGE_TEST_FIXTURES (see
// test/helpers/projects.ts, exampleProjectCopy). Usage: node ops/run-tests.mjs [path substring ...]
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

const FIXTURES_ENV = 'DOCFORGE_TEST_FIXTURES';
const roots = ['protocol', 'libs/core', 'libs/project', 'libs/adapters/typescript', 'libs/adapters/python', 'libs/policy', 'libs/index', 'libs/retrieval', 'apps/mcp-server', 'apps/cli', 'test'];
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

/** Copies examples/ (without state) into `dir`/acme-payments and indexes it with the built CLI. */
function buildExampleFixture(dir) {
  const project = path.join(dir, 'acme-payments');
  cpSync('examples', project, { recursive: true, filter: (src) => !src.split(path.sep).includes('.docforge') });
  const sync = spawnSync(process.execPath, ['apps/cli/dist/src/main.js', 'sync', '-C', project], { encoding: 'utf8' });
  if (sync.status !== 0) {
    console.error(`run-tests: building the example fixture failed:\n${sync.stdout}${sync.stderr}`);
    process.exit(1);
  }
}

const env = { ...process.env };
let fixtures = null;
if (!env[FIXTURES_ENV] && selected.some((f) => f.startsWith(path.join('test', 'dist')))) {
  fixtures = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'docforge-fixtures-')));
  const started = performance.now();
  buildExampleFixture(fixtures);
  console.log(`# run-tests: example fixture built in ${Math.round(performance.now() - started)} ms at ${fixtures}`);
  env[FIXTURES_ENV] = fixtures;
}
const currentFile = fixtures ? path.join(fixtures, 'acme-payments', '.docforge', 'index', 'current.json') : null;
const publishedBefore = currentFile ? readFileSync(currentFile, 'utf8') : null;
const concurrency = Number(process.env.DOCFORGE_TEST_CONCURRENCY ?? 2);
const result = spawnSync(process.execPath, ['--test', `--test-concurrency=${concurrency}`, ...selected], { stdio: 'inherit', env });
let status = result.status ?? 1;
if (currentFile && (!existsSync(currentFile) || readFileSync(currentFile, 'utf8') !== publishedBefore)) {
  // Tests share the fixture read-only (sharedExampleProject); a test that changed it must use a private copy.
  console.error('run-tests: a test changed the shared example fixture (its current.json differs); use exampleProjectCopy() in tests that write');
  status = 1;
}
if (fixtures) rmSync(fixtures, { recursive: true, force: true });
process.exit(status);
