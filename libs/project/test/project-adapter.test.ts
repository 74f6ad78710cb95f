// Pins project-owned adapter support: the implementation fingerprint over the module and its relative imports, the per-call guard, and the walk of declared input globs.
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprintProjectAdapter, MAX_ADAPTER_FILES, ProjectAdapterGuard, relativeSpecifiers, validInputGlob, walkAdapterInputs } from '../src/index.js';
import { removeTree, tempTree } from './helpers.js';

/** SHA-256 hex by node:crypto: expectations never use the implementation's own hash. */
function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** RFC 8785 canonical JSON of plain JSON values (undefined members dropped), written independently of @docforge/core. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const ADAPTER = [
  "import { a } from './lib/a.mjs';",
  "export { b } from \"./lib/b.mjs\";",
  "import './side.mjs';",
  "const lazy = () => import('./lazy.mjs');",
  "import fs from 'node:fs';",
  "import { gone } from './missing.mjs';",
  'export const version = "1";',
  'export function extract() { return {}; }',
].join('\n');

function project(): string {
  return tempTree({
    '.docforge/adapter.mjs': ADAPTER,
    '.docforge/lib/a.mjs': "import { c } from '../shared/c.mjs';\nexport const a = 1;\n",
    '.docforge/lib/b.mjs': "import { a } from './a.mjs';\nexport const b = 2;\n",
    '.docforge/shared/c.mjs': 'export const c = 3;\n',
    '.docforge/side.mjs': '',
    '.docforge/lazy.mjs': 'export default 1;\n',
    '.docforge/unrelated.mjs': 'export const x = 1;\n',
  });
}

test('relative specifiers of imports, re-exports, import() and require() are found; bare ones are not', () => {
  assert.deepEqual(relativeSpecifiers(ADAPTER).sort(), ['./lazy.mjs', './lib/a.mjs', './lib/b.mjs', './missing.mjs', './side.mjs']);
  assert.deepEqual(relativeSpecifiers("const x = require('../y.cjs')\nimport z from 'zod'"), ['../y.cjs']);
});

test('the fingerprint covers the module and every relative module it imports, transitively, and nothing else', () => {
  const root = project();
  try {
    const fp = fingerprintProjectAdapter(root, '.docforge/adapter.mjs');
    assert.deepEqual(fp.files.map((f) => f.path), [
      '.docforge/adapter.mjs', '.docforge/lazy.mjs', '.docforge/lib/a.mjs', '.docforge/lib/b.mjs', '.docforge/shared/c.mjs', '.docforge/side.mjs',
    ]);
    assert.equal(fp.files[0]!.sha256, sha256Hex(ADAPTER));
    assert.equal(fp.fingerprint, sha256Hex(canonical(fp.files)));
    assert.equal(fp.module, '.docforge/adapter.mjs');
    assert.equal(fp.truncated, false);
    // Deterministic, and changed by any byte of any covered file (but not of an unrelated one).
    assert.equal(fingerprintProjectAdapter(root, '.docforge/adapter.mjs').fingerprint, fp.fingerprint);
    appendFileSync(join(root, '.docforge/unrelated.mjs'), '// x\n');
    assert.equal(fingerprintProjectAdapter(root, '.docforge/adapter.mjs').fingerprint, fp.fingerprint);
    appendFileSync(join(root, '.docforge/shared/c.mjs'), '// x\n');
    assert.notEqual(fingerprintProjectAdapter(root, '.docforge/adapter.mjs').fingerprint, fp.fingerprint);
  } finally {
    removeTree(root);
  }
});

test('imports are confined to the project root and bounded', () => {
  const outside = tempTree({ 'evil.mjs': 'export const e = 1;\n' });
  const files: Record<string, string> = { 'adapter.mjs': `import './m0.mjs';\nimport '../${outside.split('/').pop()}/evil.mjs';\n` };
  for (let i = 0; i < MAX_ADAPTER_FILES + 20; i += 1) files[`m${i}.mjs`] = `import './m${i + 1}.mjs';\n`;
  const root = tempTree(files);
  try {
    symlinkSync(join(outside, 'evil.mjs'), join(root, 'linked.mjs'));
    appendFileSync(join(root, 'adapter.mjs'), "import './linked.mjs';\n");
    const fp = fingerprintProjectAdapter(root, 'adapter.mjs');
    assert.equal(fp.files.length, MAX_ADAPTER_FILES);
    assert.equal(fp.truncated, true);
    assert.ok(fp.files.every((f) => !f.path.includes('evil') && !f.path.startsWith('..')));
  } finally {
    removeTree(root);
    removeTree(outside);
  }
});

test('a missing module is fingerprinted as missing', () => {
  const root = tempTree({ 'docs/a.md': '# A\n' });
  try {
    const fp = fingerprintProjectAdapter(root, '.docforge/adapter.mjs');
    assert.deepEqual(fp.files, [{ path: '.docforge/adapter.mjs', sha256: 'missing' }]);
  } finally {
    removeTree(root);
  }
});

test('the guard passes while nothing changed, ignores a touch, and latches adapter_restart_required on a content change', () => {
  const root = project();
  try {
    const guard = new ProjectAdapterGuard(root, '.docforge/adapter.mjs');
    guard.check('.docforge/adapter.mjs');
    guard.check(undefined);
    // Same bytes, new mtime: re-hashed once, still the same implementation.
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(root, '.docforge/lib/b.mjs'), later, later);
    guard.check('.docforge/adapter.mjs');
    assert.equal(guard.restartRequired, false);
    appendFileSync(join(root, '.docforge/lib/b.mjs'), '// edited\n');
    assert.throws(() => guard.check('.docforge/adapter.mjs'), (error: { code?: string; remediation?: string; details?: Record<string, unknown> }) => {
      assert.equal(error.code, 'adapter_restart_required');
      assert.equal(error.remediation, 'restart_project_server');
      assert.equal(error.details?.path, '.docforge/lib/b.mjs');
      assert.equal(error.details?.reason, 'content_changed');
      return true;
    });
    // Reverting does not help: the process never reloads the adapter.
    writeFileSync(join(root, '.docforge/lib/b.mjs'), "import { a } from './a.mjs';\nexport const b = 2;\n");
    assert.throws(() => guard.check('.docforge/adapter.mjs'), { code: 'adapter_restart_required' });
  } finally {
    removeTree(root);
  }
});

test('the guard detects a removed file, a swapped inode with other bytes, and a changed [adapter] module binding', () => {
  const root = project();
  try {
    const g1 = new ProjectAdapterGuard(root, '.docforge/adapter.mjs');
    rmSync(join(root, '.docforge/side.mjs'));
    assert.throws(() => g1.check('.docforge/adapter.mjs'), (e: { details?: Record<string, unknown> }) => e.details?.reason === 'file_removed');
    writeFileSync(join(root, '.docforge/side.mjs'), '');
    const g2 = new ProjectAdapterGuard(root, '.docforge/adapter.mjs');
    writeFileSync(join(root, '.docforge/new.mjs'), 'export const version = "2";\n');
    renameSync(join(root, '.docforge/new.mjs'), join(root, '.docforge/lazy.mjs'));
    assert.throws(() => g2.check('.docforge/adapter.mjs'), (e: { details?: Record<string, unknown> }) => e.details?.path === '.docforge/lazy.mjs');
    const g3 = new ProjectAdapterGuard(root, '.docforge/adapter.mjs');
    assert.throws(() => g3.check('.docforge/other.mjs'), (e: { details?: Record<string, unknown> }) => e.details?.reason === 'adapter_module_changed');
    const g4 = new ProjectAdapterGuard(root, null);
    g4.check(null);
    assert.throws(() => g4.check('.docforge/adapter.mjs'), { code: 'adapter_restart_required' });
    const missing = new ProjectAdapterGuard(root, 'not-there.mjs');
    missing.check('not-there.mjs');
    writeFileSync(join(root, 'not-there.mjs'), 'export const version = "1";\n');
    assert.throws(() => missing.check('not-there.mjs'), (e: { details?: Record<string, unknown> }) => e.details?.reason === 'file_appeared');
  } finally {
    removeTree(root);
  }
});

test('declared input globs are walked from their base with lstat only, skipping node_modules, .git, the state dir and links', () => {
  const root = tempTree({
    'services/a.json': '{}',
    'services/nested/b.json': '{}',
    'services/readme.md': '#',
    'services/node_modules/x.json': '{}',
    '.github/workflows/ci.yml': 'on: push',
    'config/app.yml': 'a: 1',
    '.docforge/index/current.json': '{}',
    'top.json': '{}',
  });
  try {
    symlinkSync(join(root, 'top.json'), join(root, 'services/link.json'));
    mkdirSync(join(root, 'empty'));
    const walk = walkAdapterInputs(root, ['services/**/*.json', '.github/workflows/*.yml', 'config/app.yml', 'missing/*.json', '*.json', '**/current.json', '../x', '/abs', 42], '.docforge');
    assert.deepEqual(walk.files.map((f) => f.path), ['.github/workflows/ci.yml', 'config/app.yml', 'services/a.json', 'services/nested/b.json', 'top.json']);
    assert.deepEqual(walk.invalid, ['../x', '/abs', '42']);
    assert.equal(walk.truncated, false);
    for (const file of walk.files) {
      assert.match(file.mtime_ns, /^\d+$/);
      assert.ok(file.size >= 0);
    }
  } finally {
    removeTree(root);
  }
});

test('input glob validation', () => {
  for (const ok of ['a/*.json', './x.yml', '**/*.md']) assert.equal(validInputGlob(ok), true, ok);
  for (const bad of ['', ' ', '/etc/passwd', '../up', 'a/../../b', 'C:/x', 'a\\b', '!neg', 7, null]) assert.equal(validInputGlob(bad), false, String(bad));
});
