// Standing guard against super-linear (ReDoS) regular expressions (issue 30: an 80,000-capital node title took 28 s
// to index through a backtracking regex; 47 more literals were found by `recheck`). Every regex literal in the
// product sources (libs/*/src, libs/adapters/*/src, apps/*/src and web/src, protocol/src, found with the TypeScript
// compiler API by ops/regex-audit.mjs) must be in ops/regex-audit.json with recheck's verdict `safe`, or be listed
// there as an exception (input of a stated bound) or as still open. Running recheck on all of them takes minutes,
// so the committed verdicts are compared; recheck runs here only on literals the file lacks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface Literal {
  source: string;
  flags: string;
  file: string;
  line: number;
}

interface AuditEntry {
  source: string;
  flags: string;
  at: string[];
  verdict: string;
}

interface Audit {
  exceptions: { source: string; flags: string; bound: string; reason: string }[];
  open: string[];
  literals: AuditEntry[];
}

interface AuditModule {
  findLiterals(): Literal[];
  keyOf(lit: { source: string; flags: string }): string;
  check(source: string, flags: string): Promise<{ verdict: string; complexity?: string }>;
  readAudit(): Audit;
}

const MAX_EXCEPTIONS = 5;

async function auditModule(): Promise<AuditModule> {
  // This file runs as test/dist/regex-linear.test.js: the repository root is two levels up.
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  return (await import(pathToFileURL(path.join(root, 'ops', 'regex-audit.mjs')).href)) as AuditModule;
}

test('every regex literal of the sources has a verdict in ops/regex-audit.json, and a new one is checked by recheck', async () => {
  const audit = await auditModule();
  const literals = audit.findLiterals();
  assert.ok(literals.length > 400, `${literals.length} regex literals found`);
  const file = audit.readAudit();
  const known = new Set(file.literals.map((e) => audit.keyOf(e)));
  const missing = literals.filter((lit) => !known.has(audit.keyOf(lit)));
  const unsafe: string[] = [];
  for (const lit of missing) {
    const { verdict, complexity } = await audit.check(lit.source, lit.flags);
    if (verdict !== 'safe') unsafe.push(`${lit.file}:${lit.line} ${audit.keyOf(lit)}: ${verdict} ${complexity ?? ''}`);
  }
  assert.deepEqual(unsafe, [], `new regex literals that recheck finds not safe (rewrite them linear):\n${unsafe.join('\n')}`);
  const inSource = [...new Set(literals.map((lit) => audit.keyOf(lit)))].sort();
  assert.deepEqual([...known].sort(), inSource, 'ops/regex-audit.json is stale: run node ops/regex-audit.mjs --update');
});

test('every verdict in ops/regex-audit.json is safe, except a few bounded exceptions and the open list, which only shrinks', async () => {
  const audit = await auditModule();
  const file = audit.readAudit();
  assert.ok(file.exceptions.length <= MAX_EXCEPTIONS, `${file.exceptions.length} exceptions`);
  for (const e of file.exceptions) assert.ok(e.bound.length > 0 && e.reason.length > 0, `exception ${audit.keyOf(e)} states its bound and reason`);
  const allowed = new Set([...file.exceptions.map((e) => audit.keyOf(e)), ...file.open]);
  const notSafe = file.literals.filter((e) => e.verdict !== 'safe');
  assert.deepEqual(notSafe.filter((e) => !allowed.has(audit.keyOf(e))).map((e) => `${e.at.join(',')} ${audit.keyOf(e)}: ${e.verdict}`), []);
  // A listed literal that is gone or safe must leave the lists (they only shrink).
  const stillBad = new Set(notSafe.map((e) => audit.keyOf(e)));
  assert.deepEqual([...allowed].filter((k) => !stillBad.has(k)), []);
});
