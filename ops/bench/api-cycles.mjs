#!/usr/bin/env node
// Public-API linking on a synthetic package whose modules form `export *` cycles (issue 31,
// break-it trial F1): `--modules N` ESM modules, each declaring one function and re-exporting two
// others with `export *` (module i re-exports i+1 and 7i+3, mod N, so every module reaches every
// other one through cycles), an entry `index.js` re-exporting module 0, and `--subpaths S`
// package.json `exports` subpaths each naming one module. Extracts every file (AST strategy, no
// Logic), then times the TypeScript adapter's link step in process and prints the figures and the
// API findings (`issues` the link step reports). With `--write DIR` it also writes the package
// there (for a `docforge build` of it). Prints figures; never asserts timings.
// Usage: node ops/bench/api-cycles.mjs [--modules 2000] [--subpaths 1] [--write DIR]
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadTypeScriptAdapter } from '@docforge/adapter-typescript';

const { values } = parseArgs({ options: { modules: { type: 'string', default: '2000' }, subpaths: { type: 'string', default: '1' }, write: { type: 'string' } } });
const modules = Number(values.modules);
const subpaths = Number(values.subpaths);

/** The synthetic package's files, project-relative path to text. */
function cyclePackage(moduleCount, subpathCount) {
  const files = {};
  const exportsField = { '.': './index.js' };
  for (let s = 1; s < subpathCount; s += 1) exportsField[`./s${s}`] = { import: `./lib/m${(s * 13) % moduleCount}.js`, default: `./lib/m${(s * 13) % moduleCount}.js` };
  files['package.json'] = JSON.stringify({ name: 'cycles', type: 'module', exports: exportsField });
  files['index.js'] = "export * from './lib/m0.js'\n";
  for (let i = 0; i < moduleCount; i += 1) {
    const a = (i + 1) % moduleCount;
    const b = (7 * i + 3) % moduleCount;
    files[`lib/m${i}.js`] = `export function f${i} () {}\nexport * from './m${a}.js'\nexport * from './m${b}.js'\n`;
  }
  return files;
}

const files = cyclePackage(modules, subpaths);
if (values.write) {
  for (const [rel, text] of Object.entries(files)) {
    const full = path.join(values.write, rel);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
}
const { extractTypeScript, linkTypeScript } = await loadTypeScriptAdapter();
const resolver = {
  hasFile: (p) => Object.prototype.hasOwnProperty.call(files, p) && !p.endsWith('.json'),
  readText: (p) => (Object.prototype.hasOwnProperty.call(files, p) ? files[p] : null),
};
let t = performance.now();
const inputs = Object.entries(files).filter(([p]) => p.endsWith('.js')).map(([p, content]) => ({ path: p, ...extractTypeScript({ path: p, content, strategy: 'ast', logic: false }) }));
const extractMs = performance.now() - t;
t = performance.now();
const result = linkTypeScript(inputs, resolver);
const linkMs = performance.now() - t;
const names = Object.keys(result.api ?? {}).length;
const findings = result.issues.filter((issue) => issue.code.startsWith('public_api'));
process.stdout.write(`${JSON.stringify({ modules, subpaths, extract_ms: Math.round(extractMs), link_ms: Math.round(linkMs), api_names: names, findings: findings.map((f) => `${f.code}: ${f.message}`) })}\n`);
