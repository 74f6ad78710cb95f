// Pins the package graph of DESIGN.md section 2: apps → libs → core → protocol; no lib imports an app, no app imports another app.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './helpers/paths.js';

const workspaces = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;

function layer(dir: string): number {
  if (dir === 'protocol') return 0;
  if (dir === 'libs/core') return 1;
  if (dir.startsWith('libs/')) return 2;
  return 3;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name !== 'node_modules' && name !== 'dist' && name !== 'fixtures') out.push(...sourceFiles(full));
    } else if (name.endsWith('.ts')) out.push(full);
  }
  return out;
}

test('workspace dependencies and imports only point down the layers', () => {
  const byName = new Map<string, string>();
  for (const ws of workspaces) byName.set((JSON.parse(readFileSync(path.join(REPO_ROOT, ws, 'package.json'), 'utf8')) as { name: string }).name, ws);
  for (const ws of workspaces) {
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, ws, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const dep of Object.keys(pkg.dependencies ?? {})) {
      const target = byName.get(dep);
      if (!target) continue;
      assert.ok(!target.startsWith('apps/'), `${ws} depends on the app ${target}`);
      if (ws === 'libs/core') assert.equal(target, 'protocol', `core depends only on protocol, not ${target}`);
      assert.ok(layer(target) <= layer(ws), `${ws} depends upward on ${target}`);
    }
    for (const file of sourceFiles(path.join(REPO_ROOT, ws, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/from ['"](@docforge\/[a-z-]+|(?:\.\.\/)+[^'"]*)['"]/g)) {
        const spec = match[1]!;
        if (spec.startsWith('@docforge/')) {
          const target = byName.get(spec);
          assert.ok(target, `${file} imports unknown package ${spec}`);
          assert.ok(!target.startsWith('apps/') || target === ws, `${file} imports the app ${spec}`);
          assert.ok(layer(target!) <= layer(ws), `${file} imports upward ${spec}`);
          assert.ok(spec in ((JSON.parse(readFileSync(path.join(REPO_ROOT, ws, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {}), `${ws} imports ${spec} without declaring it`);
        } else {
          const resolved = path.resolve(path.dirname(file), spec);
          assert.ok(resolved.startsWith(path.join(REPO_ROOT, ws)), `${file} reaches outside its package with ${spec}`);
        }
      }
    }
  }
});
