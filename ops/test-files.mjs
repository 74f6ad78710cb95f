// Runs the test files named on the command line in the order given, DOCFORGE_TEST_CONCURRENCY at
// once, through node:test's run() (issue 29 item 7). `node --test FILE...` sorts its files by path
// on Node 20 (measured 2026-12-07: it ran apps/ first and reached test/dist/issue-identity-dependencies
// after 37 minutes), so ops/run-tests.mjs's heaviest-first order needs run(), which keeps the order.
// The reporter is the one `node --test` picks: spec from Node 23 on, else spec on a terminal and TAP
// otherwise (.ci/run reads the closing `# pass N` / `ℹ pass N` counts of either). Exits 1 when any
// test, suite or file fails. Usage (from ops/run-tests.mjs): node ops/test-files.mjs FILE...
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';
import path from 'node:path';

const files = process.argv.slice(2).map((file) => path.resolve(file));
const concurrency = Number(process.env.DOCFORGE_TEST_CONCURRENCY ?? 3);
const major = Number(process.versions.node.split('.')[0]);
const reporter = major >= 23 || process.stdout.isTTY ? new spec() : tap;
const stream = run({ files, concurrency });
stream.on('test:fail', () => {
  process.exitCode = 1;
});
stream.compose(reporter).pipe(process.stdout);
