// Reads the records ops/test-cpu/hook.cjs wrote and prints the suite's CPU per process kind, the CPU of
// the core suite (npm run test:core's files), and the top test files by CPU (the file's process plus
// every process it spawned, found through parent pids, else the test file a process inherited).
// Usage: node ops/test-cpu/report.mjs DIR [TOP=20]
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const [dir, topText = '20'] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node ops/test-cpu/report.mjs DIR [TOP]');
  process.exit(2);
}
// As ops/run-tests.mjs CORE_EXCLUDED.
const CORE_EXCLUDED = ['apps/viewer-manager/', 'apps/graph-browser/', 'libs/viewer-client/', 'browser', 'viewer'];
const records = readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')));
const byPid = new Map(records.map((r) => [r.pid, r]));
const cpu = (r) => (r.user + r.sys) / 1e6;

function kind(r) {
  const args = r.argv.slice(1).join(' ');
  if (r.execArgv.includes('--test') || r.argv.some((a) => a.endsWith('test-files.mjs'))) return 'test-runner';
  if (r.argv.some((a) => a.endsWith('.test.js'))) return 'test-file';
  if (/docforge-mcp|mcp-server\/dist/.test(args)) return 'docforge-mcp';
  if (/bin\/docforge\.js|apps\/cli\/dist\/src\/main|cli\.cjs/.test(args)) return 'cli';
  if (/graph-browser/.test(args)) return 'graph-browser';
  if (/viewer-manager/.test(args)) return 'viewer-manager';
  if (/run-tests/.test(args)) return 'run-tests';
  if (/scripts\/build-|build-stamp/.test(args)) return 'build-scripts';
  if (/\btsc\b/.test(args)) return 'tsc';
  if (/\bnpm\b/.test(args)) return 'npm';
  return 'other';
}
for (const r of records) r.kind = kind(r);

function owner(r) {
  const seen = new Set();
  for (let cur = r; cur && !seen.has(cur.pid); cur = byPid.get(cur.ppid)) {
    seen.add(cur.pid);
    if (cur.kind === 'test-file') return cur.argv.find((a) => a.endsWith('.test.js'));
  }
  return r.testfile;
}

const kinds = new Map();
for (const r of records) {
  const e = kinds.get(r.kind) ?? { n: 0, cpu: 0 };
  e.n += 1;
  e.cpu += cpu(r);
  kinds.set(r.kind, e);
}
console.log('kind               processes    CPU s   CPU s each');
let total = 0;
for (const [k, e] of [...kinds].sort((a, b) => b[1].cpu - a[1].cpu)) {
  total += e.cpu;
  console.log(`${k.padEnd(18)} ${String(e.n).padStart(9)} ${e.cpu.toFixed(1).padStart(8)} ${(e.cpu / e.n).toFixed(2).padStart(12)}`);
}
console.log(`total              ${String(records.length).padStart(9)} ${total.toFixed(1).padStart(8)}`);

const files = new Map();
let core = 0;
let excluded = 0;
for (const r of records) {
  const file = owner(r);
  if (!file) continue;
  const rel = file.replace(/^.*?\/((?:test|libs|apps|protocol)\/)/, '$1');
  if (CORE_EXCLUDED.some((x) => rel.includes(x))) excluded += cpu(r);
  else core += cpu(r);
  const e = files.get(rel) ?? { self: 0, spawned: 0, kinds: {} };
  if (r.kind === 'test-file') e.self += cpu(r);
  else {
    e.spawned += cpu(r);
    e.kinds[r.kind] = (e.kinds[r.kind] ?? 0) + 1;
  }
  files.set(rel, e);
}
console.log(`\ntest files: ${files.size}; CPU under the core suite's files ${core.toFixed(1)} s, under the daemon and browser files ${excluded.toFixed(1)} s`);
const top = Number(topText);
console.log(`\ntop ${top} test files by CPU: total = own process + spawned (spawned process counts)`);
for (const [file, e] of [...files].sort((a, b) => b[1].self + b[1].spawned - (a[1].self + a[1].spawned)).slice(0, top)) {
  const spawned = Object.entries(e.kinds).map(([k, n]) => `${k} ${n}`).join(', ');
  console.log(`${(e.self + e.spawned).toFixed(1).padStart(6)} = ${e.self.toFixed(1).padStart(5)} + ${e.spawned.toFixed(1).padStart(5)}  ${file}${spawned ? `  (${spawned})` : ''}`);
}
