// Pins the package graph of DESIGN.md section 2: apps → libs → core → protocol; no lib imports an app, no app imports another app, by static, type-only or dynamic import, require() or a relative path into another workspace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';
import { allSourceFiles, repoPath, scanFile, workspaceOf, workspaces, type Workspace } from './helpers/source-graph.js';

const list = workspaces();
const byName = new Map(list.map((ws) => [ws.name, ws]));

/** 0 protocol, 1 core, 2 other libs, 3 apps. */
function layer(ws: Workspace): number {
  if (ws.dir === 'protocol') return 0;
  if (ws.dir === 'libs/core') return 1;
  if (ws.dir.startsWith('libs/')) return 2;
  return 3;
}

const isApp = (ws: Workspace): boolean => ws.dir.startsWith('apps/');

/** Every source file with its workspace and what it references. */
const scanned = allSourceFiles().map((file) => ({ file, ws: workspaceOf(file, list)!, ...scanFile(file) }));

test('the scanner sees static, type-only and dynamic imports, re-exports, require(), resolve() and climbing path literals', () => {
  const dir = tempDir('docforge-graph-');
  const file = path.join(dir, 'probe.ts');
  writeFileSync(file, [
    "import { a } from '@docforge/core';",
    "import type { B } from '../../apps/x/src/b.js';",
    "export { c } from './c.js';",
    "const lazy = () => import('@docforge/mcp-server');",
    "const cjs = require('../../../libs/builder/src/build.js');",
    "const bin = createRequire(import.meta.url).resolve('@docforge/mcp-server');",
    "const entry = path.resolve(here, '../../../mcp-server/dist/src/main.js');",
    "type T = typeof import('../y.js');",
  ].join('\n'));
  const { references, paths } = scanFile(file);
  assert.deepEqual(references.map((r) => `${r.kind} ${r.specifier} @${r.line}`), [
    'import @docforge/core @1', 'import-type ../../apps/x/src/b.js @2', 'export ./c.js @3', 'dynamic-import @docforge/mcp-server @4',
    'require ../../../libs/builder/src/build.js @5', 'resolve @docforge/mcp-server @6', 'import-type ../y.js @8',
  ]);
  assert.deepEqual(paths.map((p) => `${p.text} @${p.line}`), [
    '../../apps/x/src/b.js @2', '../../../libs/builder/src/build.js @5', '../../../mcp-server/dist/src/main.js @7', '../y.js @8',
  ]);
});

test('workspace dependencies only point down the layers; an app depends on another app only to spawn its bin (resolving the package or its package.json)', () => {
  assert.ok(scanned.length > 50, `scanned ${scanned.length} source files`);
  for (const ws of list) {
    for (const dep of ws.dependencies) {
      const target = byName.get(dep);
      if (!target) continue;
      if (ws.dir === 'libs/core') assert.equal(target.dir, 'protocol', `core depends only on protocol, not ${target.dir}`);
      assert.ok(layer(target) <= layer(ws), `${ws.dir} depends upward on ${target.dir}`);
      if (!isApp(target)) continue;
      assert.ok(isApp(ws), `the lib ${ws.dir} depends on the app ${target.dir}`);
      const uses = scanned.filter((s) => s.ws === ws).flatMap((s) => s.references.filter((r) => r.specifier === dep || r.specifier === `${dep}/package.json`).map((r) => `${repoPath(s.file)}:${r.line} ${r.kind}`));
      assert.ok(uses.length > 0 && uses.every((u) => u.endsWith(' resolve')), `${ws.dir} may only resolve ${dep} (to spawn its bin), never import it: ${uses.join(', ')}`);
    }
  }
});

test('every @docforge import names a declared package of a lower layer, never an app and never an undeclared deep path', () => {
  const problems: string[] = [];
  for (const { file, ws, references } of scanned) {
    for (const ref of references) {
      if (!ref.specifier.startsWith('@docforge/')) continue;
      const where = `${repoPath(file)}:${ref.line} ${ref.kind} ${ref.specifier}`;
      // A subpath counts only when the package declares it in its `exports` map (a deliberate,
      // public light entry such as an adapter's `./manifest`); any other deep path bypasses index.ts.
      const [scope, name, ...rest] = ref.specifier.split('/');
      const packageName = `${scope}/${name}`;
      const target = byName.get(packageName);
      const subpath = rest.length > 0 ? `./${rest.join('/')}` : null;
      if (!target || (subpath !== null && !target.subpaths.includes(subpath))) {
        problems.push(`${where}: not a workspace package or a declared entry point (deep imports bypass the package's index.ts)`);
        continue;
      }
      if (!ws.dependencies.includes(packageName) && target !== ws) problems.push(`${where}: not declared in ${ws.dir}/package.json`);
      if (ref.kind === 'resolve') {
        // A package may resolve its own declared entry (a file its build writes, found the same way bundled or not).
        if (!isApp(ws) && target !== ws) problems.push(`${where}: only apps resolve other packages' bins`);
        continue;
      }
      if (isApp(target) && target !== ws) problems.push(`${where}: imports an app`);
      if (layer(target) > layer(ws)) problems.push(`${where}: imports upward`);
    }
  }
  assert.deepEqual(problems, []);
});

test('relative imports and relative path literals never reach into another workspace', () => {
  const problems: string[] = [];
  for (const { file, ws, references, paths } of scanned) {
    const own = path.join(REPO_ROOT, ws.dir);
    for (const ref of references) {
      if (!ref.specifier.startsWith('.')) continue;
      const resolved = path.resolve(path.dirname(file), ref.specifier);
      if (resolved !== own && !resolved.startsWith(`${own}${path.sep}`)) problems.push(`${repoPath(file)}:${ref.line} ${ref.kind} ${ref.specifier} leaves ${ws.dir}`);
    }
    // A path literal is resolved both from the source file and from its compiled twin in dist/,
    // since runtime code computes paths from import.meta.url of the compiled file.
    const compiledDir = path.join(own, 'dist', path.relative(own, path.dirname(file)));
    for (const literal of paths) {
      for (const base of [path.dirname(file), compiledDir]) {
        const target = workspaceOf(path.resolve(base, literal.text), list);
        if (target && target !== ws) {
          problems.push(`${repoPath(file)}:${literal.line} '${literal.text}' reaches into ${target.dir}`);
          break;
        }
      }
    }
  }
  assert.deepEqual(problems, []);
});
