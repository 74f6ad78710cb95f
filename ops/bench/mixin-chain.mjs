#!/usr/bin/env node
// Issue 33 leftover 4: the cost of a long mixin chain in the tree-sitter linker's method resolution order. Generates one file
// holding a chain of N Ruby modules (`module M<i>; include M<i-1>; def f<i>; base; end; end`, `base` defined only in M0) or N
// PHP traits (`trait T<i> { use T<i-1>; function f<i>() { $this->base(); } }`), so every one of the N receiver calls names a
// method N-i ancestors away; extracts and links it in this process (the compiled adapter) and prints the CPU time (user +
// system, process.cpuUsage) of extraction and of linking, and the calls resolved. Prints figures; never asserts.
// Usage: node ops/bench/mixin-chain.mjs [--lang ruby|php] [--n 6000]
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { initTreeLanguage, treeAdapter } from '../../libs/adapters/treesitter/dist/src/whole.js';

const { values } = parseArgs({ options: { lang: { type: 'string', default: 'ruby' }, n: { type: 'string', default: '6000' } } });
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

const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
await initTreeLanguage(lang);
const adapter = treeAdapter(lang);
const file = lang === 'php' ? php() : ruby();
const t0 = cpu();
const parsed = { path: file.path, ...adapter.extract({ path: file.path, content: file.content, strategy: 'ast', logic: false }) };
const t1 = cpu();
const link = adapter.link([parsed], { hasFile: (p) => p === file.path, readText: () => null });
const t2 = cpu();
const calls = link.edges.filter((e) => e.relation === 'calls').length;
console.log(`${lang} chain n=${n}: extract ${(t1 - t0).toFixed(2)} s CPU, link ${(t2 - t1).toFixed(2)} s CPU, calls resolved ${calls} of ${link.stats.calls_total}, load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
