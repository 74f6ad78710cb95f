// Pins the key order of package.json `exports` conditions (new-user trial nu2, 2026-12-08) on linkify-it as
// installed under node_modules: its `.` entry lists `require` (build/index.cjs.js) before `import` (index.mjs).
// Node takes the first condition it matches in the package's own key order; the resolver read `import` first
// whatever the package said. A file of the project that loads the package by name resolves to `require`'s file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractTypeScript, linkTypeScript } from '../src/adapter.js';
import { memoryResolver } from './helpers.js';

const LINKIFY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../node_modules/linkify-it');

test('a package entry resolves to the first condition Node matches in the package key order (linkify-it: require)', () => {
  const manifest = readFileSync(path.join(LINKIFY, 'package.json'), 'utf8');
  const entry = (JSON.parse(manifest) as { exports: Record<string, Record<string, string>> }).exports['.']!;
  assert.deepEqual(Object.entries(entry), [['require', './build/index.cjs.js'], ['import', './index.mjs']]);
  const files: Record<string, string> = {
    'linkify/package.json': manifest,
    'linkify/build/index.cjs.js': readFileSync(path.join(LINKIFY, 'build', 'index.cjs.js'), 'utf8'),
    'linkify/index.mjs': readFileSync(path.join(LINKIFY, 'index.mjs'), 'utf8'),
    'app/use.js': "const LinkifyIt = require('linkify-it');\nmodule.exports = () => new LinkifyIt();\n",
  };
  const inputs = Object.keys(files).filter((p) => !p.endsWith('.json')).sort()
    .map((p) => ({ path: p, ...extractTypeScript({ path: p, content: files[p]!, strategy: 'ast', logic: false }) }));
  const result = linkTypeScript(inputs, memoryResolver(files));
  const imports = result.edges.filter((e) => e.source_id === 'code:app/use.js' && e.relation === 'imports').map((e) => e.target_id);
  assert.deepEqual(imports, ['code:linkify/build/index.cjs.js']);
});
