// Runs every compiled test file with Node's test runner (node --test does not expand globs on Node 20).
// Alongside the run it builds the shared example fixture once: a copy of examples/ indexed by the
// built `docforge sync` in the background, whose location reaches the tests through DOCFORGE_TEST_FIXTURES (see
// test/helpers/projects.ts, exampleProjectCopy); the same folder holds the run's other shared built
// fixtures (test/helpers/shared-fixtures.ts), checked unchanged at the end. Usage: node ops/run-tests.mjs [--core] [path substring ...]
// --core (npm run test:core) leaves out the tests that start the viewer daemon or a browser (CORE_EXCLUDED).
// DOCFORGE_TEST_CONCURRENCY sets how many test files run at once (default 3: most files wait on
// processes they spawn, so a third file keeps 2 cores busy).
import { copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

const FIXTURES_ENV = 'DOCFORGE_TEST_FIXTURES';
const roots = ['protocol', 'libs/core', 'libs/accelerate', 'libs/fs-safe', 'libs/markdown', 'libs/project', 'libs/init', 'libs/adapters/typescript', 'libs/adapters/python', 'libs/adapters/treesitter', 'libs/policy', 'libs/store', 'libs/identity', 'libs/stdio', 'libs/builder', 'libs/sync', 'libs/retrieval', 'libs/changesets', 'libs/ipc', 'libs/viewer-client', 'libs/render', 'apps/mcp-server', 'apps/cli', 'apps/viewer-manager', 'apps/graph-browser', 'test'];
const core = process.argv.includes('--core');
const filter = process.argv.slice(2).filter((arg) => arg !== '--core');
// Files of the daemon (viewer manager) and browser tests: path parts that name them.
const CORE_EXCLUDED = ['apps/viewer-manager/', 'apps/graph-browser/', 'libs/viewer-client/', 'browser', 'viewer'];
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
const chosen = filter.length > 0 ? files.filter((f) => filter.some((x) => f.includes(x))) : files;
// Longest first (issue 29 item 7): ops/test-files.mjs starts files in the order given (`node --test` sorts them), so the files that
// cost most (CPU seconds measured with ops/test-cpu, docs/architecture.md; the list of 2026-12-07 12:09,
// issue 29 item 7, helper j29) start at once instead of last on a busy pair of cores, where one of them would run
// alone at the end. Path parts, heaviest first.
const HEAVIEST = [
  'libs/sync/dist/test/one-shot-edit', 'test/dist/issue-cli-read-commands', 'test/dist/application-faults', 'test/dist/mcp-bundle',
  'test/dist/accelerators-off', 'test/dist/application.test', 'test/dist/issue-affected', 'test/dist/issue-identity-dependencies',
  'libs/sync/dist/test/incremental-resolve', 'libs/sync/dist/test/incremental-link', 'test/dist/cli.test', 'test/dist/issue-concurrent-sync',
  'libs/sync/dist/test/incremental-reviews', 'test/dist/context.test', 'test/dist/issue-viewer-lifecycle', 'test/dist/every-tool-schemas',
  'test/dist/issue-review-stamps', 'test/dist/cli-bundle', 'test/dist/graph-browser-snapshot', 'test/dist/issue-trial-render-output',
  'libs/adapters/typescript/dist/test/parser-build', 'test/dist/issue-init-file-roots', 'libs/builder/dist/test/parse-routes', 'test/dist/cli-full-bundle',
  'test/dist/issue-check', 'test/dist/issue-changeset-pages',
];
const rank = (f) => {
  const i = HEAVIEST.findIndex((part) => f.split(path.sep).join('/').includes(part));
  return i < 0 ? HEAVIEST.length : i;
};
const ordered = chosen.map((f, i) => [rank(f), i, f]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(([, , f]) => f);
const selected = core ? ordered.filter((f) => !CORE_EXCLUDED.some((x) => f.split(path.sep).join('/').includes(x))) : ordered;
if (selected.length === 0) {
  console.error('run-tests: no compiled test files found (did tsc -b run?)');
  process.exit(1);
}
// The launchers' bundles (apps/cli/dist/bundle: the no-change sync and the full CLI;
// apps/mcp-server/dist/bundle: the server), the bundled build worker (libs/sync/dist/bundle) and the
// harness's MCP SDK (test/dist/helpers/mcp-sdk.bundle.mjs) are
// rebuilt from the compiled files when stale, so a `tsc -b` before a subset run never leaves them
// stale for the tests that use them; each script exits at once while its stamp says the bundle is
// current (ops/build-stamp.mjs). All run at once.
const bundles = [
  ['apps/cli/scripts/build-bundle.mjs', 'the no-change sync'], ['apps/cli/scripts/build-full-bundle.mjs', 'the full CLI'],
  ['apps/mcp-server/scripts/build-bundle.mjs', 'docforge-mcp'], ['libs/sync/scripts/build-worker-bundle.mjs', 'the build worker'],
  ['test/scripts/build-sdk-bundle.mjs', "the end-to-end harness's MCP SDK"],
];
const bundled = await Promise.all(bundles.map(([script]) => new Promise((resolve) => {
  spawn(process.execPath, [script], { stdio: 'inherit' }).on('close', (code) => resolve(code));
})));
bundled.forEach((code, i) => {
  if (code !== 0) {
    console.error(`run-tests: bundling ${bundles[i][1]} failed`);
    process.exit(1);
  }
});

/**
 * Copies examples/ (without state) into `dir`/acme-payments and indexes it with the built CLI, in
 * the background: the unit tests run first meanwhile. On exit it writes `dir`/ready (or
 * `dir`/failed with the CLI's output), which test/helpers/projects.ts waits for.
 */
function buildExampleFixture(dir) {
  const project = path.join(dir, 'acme-payments');
  // Without state, nor the views `docforge render` may have written under examples/site/ (gitignored).
  cpSync('examples', project, { recursive: true, filter: (src) => !src.split(path.sep).includes('.docforge') && src !== path.join('examples', 'site') && !src.startsWith(path.join('examples', 'site') + path.sep) });
  const started = performance.now();
  const child = spawn(process.execPath, ['apps/cli/dist/src/main.js', 'sync', '-C', project], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      if (code === 0) {
        copyFileSync(path.join(project, '.docforge', 'index', 'current.json'), path.join(dir, 'published.json'));
        writeFileSync(path.join(dir, 'ready'), output);
        console.log(`# run-tests: example fixture built in ${Math.round(performance.now() - started)} ms at ${dir}`);
      } else {
        writeFileSync(path.join(dir, 'failed'), output || `exit code ${code}`);
        console.error(`run-tests: building the example fixture failed:\n${output}`);
      }
      resolve(code === 0);
    });
  });
}

/**
 * Runs the selected files in their order (ops/test-files.mjs: node:test's run(), since `node --test`
 * sorts its files on Node 20), DOCFORGE_TEST_CONCURRENCY at once; resolves with its exit status.
 */
function runTests(env) {
  const child = spawn(process.execPath, ['ops/test-files.mjs', ...selected], { stdio: 'inherit', env });
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

const env = { ...process.env };
let fixtures = null;
let fixtureBuilt = Promise.resolve(true);
if (!env[FIXTURES_ENV] && selected.some((f) => f.startsWith(path.join('test', 'dist')))) {
  fixtures = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'docforge-fixtures-')));
  fixtureBuilt = buildExampleFixture(fixtures);
  env[FIXTURES_ENV] = fixtures;
}
// Reference builds the incremental-build tests compare with, shared by source tree between test files
// for this run (libs/sync/test/full-build.ts); removed after it.
const REFERENCES_ENV = 'DOCFORGE_TEST_REFERENCES';
let references = null;
if (!env[REFERENCES_ENV]) {
  references = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'docforge-references-')));
  env[REFERENCES_ENV] = references;
}
let status = await runTests(env);
if (references) rmSync(references, { recursive: true, force: true });
if (!(await fixtureBuilt)) status = 1;
const currentFile = fixtures ? path.join(fixtures, 'acme-payments', '.docforge', 'index', 'current.json') : null;
if (currentFile && existsSync(path.join(fixtures, 'ready')) && readFileSync(currentFile, 'utf8') !== readFileSync(path.join(fixtures, 'published.json'), 'utf8')) {
  // Tests share the fixture read-only (sharedExampleProject); a test that changed it must use a private copy.
  console.error('run-tests: a test changed the shared example fixture (its current.json differs); use exampleProjectCopy() in tests that write');
  status = 1;
}
// The shared built fixtures (test/helpers/shared-fixtures.ts): one per fixture and run, for tests that only read; each must end as published.
const shared = fixtures ? path.join(fixtures, 'shared') : null;
const sharedBuilt = shared && existsSync(shared) ? readdirSync(shared).filter((name) => existsSync(path.join(shared, name, 'ready'))) : [];
for (const name of sharedBuilt) {
  const current = path.join(shared, name, 'project', '.docforge', 'index', 'current.json');
  if (!existsSync(current) || readFileSync(current, 'utf8') !== readFileSync(path.join(shared, name, 'published.json'), 'utf8')) {
    console.error(`run-tests: a test changed the shared fixture ${name} (its current.json differs); use a private copy in tests that write`);
    status = 1;
  }
}
if (sharedBuilt.length > 0) console.log(`# run-tests: ${sharedBuilt.length} shared fixtures built once each: ${sharedBuilt.join(', ')}`);
if (fixtures) rmSync(fixtures, { recursive: true, force: true });
// The browser tests (test/browser.test.ts) write screenshots of every view here.
const browserArtifacts = path.join('test', 'dist', 'artifacts', 'browser');
if (selected.some((f) => f.includes('browser')) && existsSync(browserArtifacts)) console.log(`# run-tests: browser screenshots in ${path.resolve(browserArtifacts)}`);
process.exit(status);
