// Pins the new-user trial 48 finding (issue 30): with `build/**` in [sources].exclude, yargs'
// `index.mjs` importing './build/lib/yargs-factory.js' was reported "Cannot resolve module … to a
// project file", as if the file were missing. An unresolved relative import whose path an exclude
// glob matches now says which glob leaves it out (ModuleResolver.excludedBy, from the descriptor
// alone). Real input: the installed piscina's test/ sources, which import '../dist' and
// '../dist/…', linked with `dist/**` excluded; '..' (the package root) names no glob.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractTypeScript, linkTypeScript } from '../src/adapter.js';
import { memoryResolver } from './helpers.js';

const PISCINA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../node_modules/piscina');

function piscinaTests(): Record<string, string> {
  const files: Record<string, string> = { 'package.json': readFileSync(path.join(PISCINA, 'package.json'), 'utf8') };
  for (const entry of readdirSync(path.join(PISCINA, 'test'), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(ts|js|mjs|cjs)$/.test(entry.name)) continue;
    const abs = path.join(entry.parentPath, entry.name);
    files[path.relative(PISCINA, abs).split(path.sep).join('/')] = readFileSync(abs, 'utf8');
  }
  return files;
}

function unresolved(excludedBy?: (p: string) => string | null) {
  const files = piscinaTests();
  const inputs = Object.keys(files).filter((p) => !p.endsWith('.json')).sort()
    .map((p) => ({ path: p, ...extractTypeScript({ path: p, content: files[p]!, strategy: 'ast', logic: false }) }));
  const resolver = { ...memoryResolver(files), ...(excludedBy === undefined ? {} : { excludedBy }) };
  return linkTypeScript(inputs, resolver).issues.filter((i) => i.code === 'unresolved_import');
}

test("piscina's tests with dist/** excluded: each import into dist/ names the glob; '..' and a resolver without excludedBy keep the plain wording", () => {
  const issues = unresolved((p) => (p === 'dist' || p.startsWith('dist/') ? 'dist/**' : null));
  const intoDist = issues.filter((i) => /Cannot resolve module '\.\.\/dist[^']*'/.test(i.message));
  assert.ok(intoDist.length >= 9, `${intoDist.length} imports into dist/`);
  for (const issue of intoDist) {
    assert.match(issue.message, /^Cannot resolve module '\.\.\/dist[^']*' to a project file: its path dist(\/[^ ]*)? matches \[sources\]\.exclude "dist\/\*\*" of docforge\.toml, so it is not indexed \(remove that glob to index it\)\.$/);
  }
  const root = issues.filter((i) => i.message.startsWith("Cannot resolve module '..' "));
  assert.ok(root.length > 0);
  for (const issue of root) assert.equal(issue.message, "Cannot resolve module '..' to a project file.");
  const plain = unresolved();
  assert.equal(plain.length, issues.length);
  assert.ok(plain.every((i) => !i.message.includes('[sources].exclude')));
});

// Issue 30, third trial 48: the state dir's own exclusion was reported as a glob `DIR/**` the user
// never wrote. `excludedBy` answers `[state].dir "DIR"` for a path in the state dir
// (@docforge/project excludeGlobOf), and the message says the path lies in the state dir.
test("piscina's tests with the state dir at dist: each import into dist/ says it lies in the state dir, naming no glob", () => {
  const issues = unresolved((p) => (p === 'dist' || p.startsWith('dist/') ? '[state].dir "dist"' : null));
  const intoDist = issues.filter((i) => /Cannot resolve module '\.\.\/dist[^']*'/.test(i.message));
  assert.ok(intoDist.length >= 9, `${intoDist.length} imports into dist/`);
  for (const issue of intoDist) {
    assert.match(issue.message, /^Cannot resolve module '\.\.\/dist[^']*' to a project file: its path dist(\/[^ ]*)? lies in the state dir \(\[state\]\.dir "dist" of docforge\.toml\), which DocForge never indexes \(choose a state dir that holds no sources\)\.$/);
    assert.ok(!issue.message.includes('[sources].exclude'), issue.message);
  }
});
