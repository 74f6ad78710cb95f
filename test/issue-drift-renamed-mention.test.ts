// Issue 32 item 2, "a renamed function makes the doc that names it a finding, with the doc's line":
// `drift_unresolved_mention` (warning) for a doc mention that resolved to code at the review
// baseline and names no code after a rename, end to end through the real CLI (sync, rename, sync,
// validate) on a copy of examples/ and on the pino package; none on an unchanged project.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY, REPO_ROOT } from './helpers/paths.js';
import { exampleProjectCopy, tempDir } from './helpers/projects.js';
import type { Json } from './helpers/server.js';

function cli(root: string, args: string[]) {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args, '-C', root], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

function sync(root: string): void {
  const run = cli(root, ['sync']);
  assert.equal(run.status, 0, run.stderr);
}

function issues(root: string, code: string): Json[] {
  const run = cli(root, ['validate', '--json']);
  assert.ok(run.status === 0 || run.status === 1, run.stderr);
  return ((JSON.parse(run.stdout) as Json).issues as Json[]).filter((i) => i.code === code);
}

/** Replaces every whole-word `from` by `to` in the given files of `root`. */
function rename(root: string, files: string[], from: string, to: string): void {
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8');
    const next = text.replace(new RegExp(`\\b${from}\\b`, 'g'), to);
    assert.notEqual(next, text, `${file} holds ${from}`);
    writeFileSync(path.join(root, file), next);
  }
}

/** 1-based lines of `file` that hold the code span `` `text` ``. */
function spanLines(root: string, file: string, text: string): number[] {
  return readFileSync(path.join(root, file), 'utf8').split('\n').flatMap((l, i) => (l.includes(`\`${text}`) ? [i + 1] : []));
}

describe('drift_unresolved_mention', () => {
  test('examples/: renaming a class every doc names by its bare name makes each doc a warning at its line; it stays until the doc is fixed', () => {
    const root = exampleProjectCopy({ state: false });
    sync(root);
    assert.deepEqual(issues(root, 'drift_unresolved_mention'), [], 'none after the first sync');
    const baseline = JSON.parse(readFileSync(path.join(root, '.docforge', 'index', 'review-baseline.json'), 'utf8')) as Json;
    assert.equal(baseline.mentions['CMP-ERRORS\u0000ServiceStoppedError'], 'code:src/shared/errors.ts#ServiceStoppedError');
    sync(root);
    assert.deepEqual(issues(root, 'drift_unresolved_mention'), [], 'none on an unchanged project');

    rename(root, ['src/shared/errors.ts', 'src/shared/base-service.ts'], 'ServiceStoppedError', 'ServiceHaltedError');
    sync(root);
    const found = issues(root, 'drift_unresolved_mention');
    const expected = ['docs/components/base-service.md', 'docs/components/errors.md'].map((file) => [file, spanLines(root, file, 'ServiceStoppedError')[0]]);
    assert.deepEqual(found.map((i) => [i.path, i.line]), expected);
    for (const i of found) {
      assert.equal(i.severity, 'warning');
      assert.match(i.message, /names `ServiceStoppedError`, which resolved to code:src\/shared\/errors\.ts#ServiceStoppedError and now names no code/);
    }
    // A bare name was never an unresolved_code_mention: only the baseline proves it was project code.
    assert.deepEqual(issues(root, 'unresolved_code_mention').filter((i) => /ServiceStoppedError/.test(i.message)), []);
    sync(root);
    assert.equal(issues(root, 'drift_unresolved_mention').length, 2, 'the finding stays while the doc still names the old name');

    rename(root, ['docs/components/base-service.md', 'docs/components/errors.md'], 'ServiceStoppedError', 'ServiceHaltedError');
    sync(root);
    assert.deepEqual(issues(root, 'drift_unresolved_mention'), [], 'fixed docs clear it');
  });

  test('examples/: a renamed method named qualified is also a warning, beside the info unresolved_code_mention', () => {
    const root = exampleProjectCopy({ state: false });
    sync(root);
    // Keep the declared relation valid: only the mention should go stale.
    const component = path.join(root, 'docs/components/refund-service.md');
    writeFileSync(component, readFileSync(component, 'utf8').replace('calls = ["code:src/ledger/ledger.ts#Ledger.refund"]', 'calls = []'));
    sync(root);
    assert.deepEqual(issues(root, 'drift_unresolved_mention'), []);
    rename(root, ['src/ledger/ledger.ts', 'src/refunds/refund-service.ts'], 'refund', 'reverse');
    sync(root);
    const requirement = 'docs/requirements/led-003-refund-limit.md';
    const found = issues(root, 'drift_unresolved_mention').filter((i) => i.path === requirement);
    assert.deepEqual(found.map((i) => i.line), [spanLines(root, requirement, 'Ledger.refund')[0]]);
    assert.ok(issues(root, 'unresolved_code_mention').some((i) => i.path === requirement && i.severity === 'info'));
  });

  test('pino: renaming an exported function named in its docs is a warning at the doc line', () => {
    const pino = path.join(REPO_ROOT, 'node_modules', 'pino');
    const root = path.join(tempDir('docforge-drift-rename-'), 'pino');
    cpSync(pino, root, { recursive: true, filter: (src) => !path.relative(pino, src).split(path.sep).includes('node_modules') });
    assert.equal(spawnSync(process.execPath, [CLI_ENTRY, 'init', root], { encoding: 'utf8' }).status, 0);
    sync(root);
    assert.deepEqual(issues(root, 'drift_unresolved_mention'), [], 'none after the first sync');
    const baseline = JSON.parse(readFileSync(path.join(root, '.docforge', 'index', 'review-baseline.json'), 'utf8')) as Json;
    const named = Object.entries(baseline.mentions as Record<string, string>).filter(([, id]) => id === 'code:lib/transport.js#transport');
    assert.ok(named.length > 0, 'pino docs name transport');
    const text = readFileSync(path.join(root, 'lib/transport.js'), 'utf8');
    writeFileSync(path.join(root, 'lib/transport.js'), text.replace(/function transport \(/, 'function transportRenamed (').replace(/module\.exports = transport\b/, 'module.exports = transportRenamed'));
    sync(root);
    const found = issues(root, 'drift_unresolved_mention');
    assert.ok(found.length > 0);
    for (const i of found) {
      assert.match(i.message, /resolved to code:lib\/transport\.js#transport and now names no code/);
      const line = readFileSync(path.join(root, i.path), 'utf8').split('\n')[i.line - 1]!;
      const mention = /names `([^`]+)`/.exec(i.message)![1]!;
      assert.ok(line.includes(mention), `${i.path}:${i.line} holds ${mention}: ${line}`);
    }
  });
});
