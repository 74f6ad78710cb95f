// Pins the new-user trial's F2 for Python (issue 30): an import whose module file a `[sources].exclude` glob leaves
// out said nothing, where the TypeScript adapter names the glob. Relative imports (`from .gen import x`,
// `from . import gen`) and absolute imports into the project's own package (`from app.gen.models import M`) whose
// `.py` or `__init__.py` the glob matches are now `unresolved_import` warnings in the TypeScript adapter's words (core
// `excludedImportIssue`); `import os`, imports of indexed modules and imports nothing excludes say nothing.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SourceIssue } from '@docforge/core';
import { initPythonAdapter, pythonAdapter } from '../src/whole.js';
import { extractFile, type SourceFile } from './helpers.js';

before(async () => {
  await initPythonAdapter();
});

const FILES: SourceFile[] = [
  { path: 'app/__init__.py', content: '' },
  { path: 'app/core.py', content: 'import os\nfrom .gen import schema\nfrom . import gen\nfrom app.gen.models import Model\nfrom .util import helper\n' },
  { path: 'app/util.py', content: 'def helper():\n    return 1\n' },
  { path: 'app/gen/__init__.py', content: '' },
  { path: 'app/gen/models.py', content: 'class Model:\n    pass\n' },
];

/** The unresolved_import issues of linking FILES without the files `excludedBy` names. */
function issues(excludedBy: ((path: string) => string | null) | undefined): SourceIssue[] {
  const kept = FILES.filter((file) => excludedBy?.(file.path) == null);
  const paths = new Set(kept.map((file) => file.path));
  const link = pythonAdapter.link(kept.map(extractFile), { hasFile: (path) => paths.has(path), readText: () => null, ...(excludedBy === undefined ? {} : { excludedBy }) });
  return link.issues.filter((issue) => issue.code === 'unresolved_import');
}

test('imports into an excluded package name the glob, in the TypeScript adapter\'s words', () => {
  const found = issues((path) => (path.startsWith('app/gen/') ? 'app/gen/**' : null));
  assert.deepEqual(found.map((i) => [i.severity, i.path, i.line, i.node_id]), [
    ['warning', 'app/core.py', 2, 'code:app/core.py'],
    ['warning', 'app/core.py', 3, 'code:app/core.py'],
    ['warning', 'app/core.py', 4, 'code:app/core.py'],
  ]);
  assert.equal(found[0]!.message, `Cannot resolve module '.gen' to a project file: its path app/gen/__init__.py matches [sources].exclude "app/gen/**" of docforge.toml, so it is not indexed (remove that glob to index it).`);
  assert.match(found[1]!.message, /^Cannot resolve module '\.gen' to a project file: its path app\/gen\/__init__\.py matches/);
  assert.match(found[2]!.message, /^Cannot resolve module 'app\.gen\.models' to a project file: its path app\/gen\/models\.py matches/);
});

test('nothing excluded, or a resolver without excludedBy: no warning', () => {
  assert.deepEqual(issues(() => null), []);
  assert.deepEqual(issues(undefined), []);
});
