#!/usr/bin/env node
// Issue 33 leftover 4: the cost of a long mixin chain in the tree-sitter linker's method resolution order. Generates one file
// holding a chain of N Ruby modules (`module M<i>; include M<i-1>; def f<i>; base; end; end`, `base` defined only in M0) or N
// PHP traits (`trait T<i> { use T<i-1>; function f<i>() { $this->base(); } }`), so every one of the N receiver calls names a
// method N-i ancestors away; extracts and links it in this process (the compiled adapter) and prints the CPU time (user +
// system, process.cpuUsage) of extraction and of linking, and the calls resolved. With --sync, instead: the file in a project
// of its own, and one cold `docforge sync` process on it, its user and system CPU and wall time from /usr/bin/time. Prints
// figures; never asserts.
// Usage: node ops/bench/mixin-chain.mjs [--lang ruby|php] [--n 6000] [--sync]
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { initTreeLanguage, treeAdapter } from '../../libs/adapters/treesitter/dist/src/whole.js';

const { values } = parseArgs({ options: { lang: { type: 'string', default: 'ruby' }, n: { type: 'string', default: '6000' }, sync: { type: 'boolean', default: false } } });
const n = Number(values.n);
const lang = values.lang;

function ruby() {
  const out = ['module M0', '  def base', '  end', 'end'];
  for (let i = 1; i < n; i += 1) out.push(`module M${i}`, `  include M${i - 1}`, `  def f${i}`, '    base()', '  end', 'end');
  return { path: 'lib/chain.rb', content: `${out.join('\n')}\n` };
}

function php() {
  const out = ['<?php', 'namespace Chain;', 'trait T0 { public function base() {} }'];
  for (let i = 1; i < n; i += 1) out.push(`trait T${i} { use T${i - 1}; public function f${i}() { $this->base(); } }`);
  return { path: 'src/Chain.php', content: `${out.join('\n')}\n` };
}

/** One cold `docforge sync` of the chain in a project of its own: CPU (user, system) and wall seconds. */
function syncOnce(file) {
  const root = path.join(tmpdir(), `docforge-mixin-chain-${lang}`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(path.join(root, path.dirname(file.path)), { recursive: true });
  mkdirSync(path.join(root, 'docs'), { recursive: true });
  writeFileSync(path.join(root, file.path), file.content);
  writeFileSync(path.join(root, 'docs', 'index.md'), '# chain\n');
  writeFileSync(path.join(root, 'docforge.toml'), ['schema_version = 1', '[project]', 'id = "chain"', 'name = "chain"', '[sources]', 'content_roots = ["docs"]',
    'code_roots = ["."]', '[adapter]', `code = "${lang}"`, 'strategy = "ast"', ''].join('\n'));
  const cli = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'apps', 'cli', 'bin', 'docforge.js');
  const run = spawnSync('/usr/bin/time', ['-f', 'cpu %U %S wall %e', process.execPath, cli, 'sync'], { cwd: root, encoding: 'utf8' });
  const times = /cpu ([\d.]+) ([\d.]+) wall ([\d.]+)/.exec(run.stderr ?? '');
  if (run.status !== 0 || times === null) throw new Error(`docforge sync exited ${run.status}:\n${run.stdout}\n${run.stderr}`);
  rmSync(root, { recursive: true, force: true });
  return { user: Number(times[1]), system: Number(times[2]), wall: Number(times[3]) };
}

const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
const file = lang === 'php' ? php() : ruby();
if (values.sync) {
  const t = syncOnce(file);
  console.log(`${lang} chain n=${n}, docforge sync: CPU ${(t.user + t.system).toFixed(2)} s (user ${t.user}, system ${t.system}), wall ${t.wall} s, load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  process.exit(0);
}
await initTreeLanguage(lang);
const adapter = treeAdapter(lang);
const t0 = cpu();
const parsed = { path: file.path, ...adapter.extract({ path: file.path, content: file.content, strategy: 'ast', logic: false }) };
const t1 = cpu();
const link = adapter.link([parsed], { hasFile: (p) => p === file.path, readText: () => null });
const t2 = cpu();
const calls = link.edges.filter((e) => e.relation === 'calls').length;
console.log(`${lang} chain n=${n}: extract ${(t1 - t0).toFixed(2)} s CPU, link ${(t2 - t1).toFixed(2)} s CPU, calls resolved ${calls} of ${link.stats.calls_total}, load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
