// Pins "every DOCFORGE_* variable is read in one config module" (issue 29, item 4): no hand-written source under the src/ of a lib or app reads a DOCFORGE_* environment variable except libs/core/src/config.ts (writes for child processes and `delete` are not reads).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { allSourceFiles, repoPath } from './helpers/source-graph.js';

/** The one module that reads DOCFORGE_* variables. */
const CONFIG_MODULE = 'libs/core/src/config.ts';

/**
 * Files that still read their own variables: none since the accelerators' fence (issue 29 item 2)
 * moved the last reads (build pool, watchdog, code cache, compiler loader) into the config module.
 * Kept (empty) so a file that must read its own variable for a while is listed here, with why.
 */
const NOT_YET_MIGRATED: readonly string[] = [];

/**
 * A read of a DOCFORGE_* variable: `process.env.DOCFORGE_X`, `env.DOCFORGE_X`, `env['DOCFORGE_X']`,
 * or `process.env[NAME_ENV]` (a constant naming one), unless assigned to or deleted.
 */
const READ = /\benv(?:\.DOCFORGE_[A-Z0-9_]+(?![A-Z0-9_])|\[\s*['"`]DOCFORGE_[A-Z0-9_]+['"`]\s*\]|\[\s*[A-Z0-9_]+_ENV\s*\])(?!\s*=[^=])/g;

/** The lines of `text` that read a DOCFORGE_* variable (comments skipped), as `line: text`. */
function envReads(text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, index) => {
    const code = line.trim();
    if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*')) return;
    for (const match of code.matchAll(READ)) {
      if (/\bdelete\s+(?:process\.)?$/.test(code.slice(0, match.index))) continue;
      out.push(`${index + 1}: ${code}`);
      break;
    }
  });
  return out;
}

test('the read detector', () => {
  assert.equal(envReads("const a = process.env.DOCFORGE_LOG_LEVEL;").length, 1);
  assert.equal(envReads("const a = env['DOCFORGE_TS_PARSER'] === 'whole';").length, 1);
  assert.equal(envReads("const a = process.env[WORKER_BUNDLE_ENV];").length, 1);
  assert.equal(envReads("process.env.DOCFORGE_LOG_LEVEL = level;").length, 0);
  assert.equal(envReads("delete process.env[WORKER_CONFIG_ENV];").length, 0);
  assert.equal(envReads(" * `DOCFORGE_LOG_LEVEL` is read by process.env.DOCFORGE_LOG_LEVEL").length, 0);
  assert.equal(envReads("if (process.env.DOCFORGE_X === '1') run();").length, 1);
});

test('DOCFORGE_* variables are read only by the config module (libs/core/src/config.ts)', () => {
  const files = allSourceFiles();
  assert.ok(files.some((file) => repoPath(file) === CONFIG_MODULE), 'the config module exists');
  const offenders: string[] = [];
  const stillReading = new Set<string>();
  for (const file of files) {
    const rel = repoPath(file);
    if (rel === CONFIG_MODULE) continue;
    const reads = envReads(readFileSync(file, 'utf8'));
    if (reads.length === 0) continue;
    if (NOT_YET_MIGRATED.includes(rel)) stillReading.add(rel);
    else offenders.push(...reads.map((read) => `${rel}:${read}`));
  }
  assert.deepEqual(offenders, [], `DOCFORGE_* read outside ${CONFIG_MODULE}; read it there and pass the value down:\n${offenders.join('\n')}`);
  // An exception whose file no longer reads anything must leave the list.
  assert.deepEqual(NOT_YET_MIGRATED.filter((rel) => !stillReading.has(rel)), [], 'exceptions that read nothing any more');
});
