#!/usr/bin/env node
// One-file edits in a long-lived IndexManager (as in the MCP server), with wall time, process CPU
// time (all threads: main, build worker) and the build's stage times, p50/p95 over the edits.
// Prints figures; never asserts timings. Run after `npx tsc -b`.
// Usage: node ops/bench/edit-stages.mjs [--docs 10000] [--ts 2000] [--edits 12]
//   --docs N: the synthetic documentation corpus of N nodes (ops/bench/generate.mjs), editing one page.
//   --ts N:   the synthetic TypeScript tree of N files, editing the last module (no file imports it)
//             and then module 0 (nearly every file reaches it through imports: the worst case).
import { appendFileSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { IndexManager } from '@docforge/sync';
import { generateDocs, generateTs } from './generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(here, 'out');
const { values } = parseArgs({ options: { docs: { type: 'string' }, ts: { type: 'string' }, edits: { type: 'string', default: '12' } } });
const EDITS = Number(values.edits);

function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const ms = (x) => `${x.toFixed(x < 10 ? 2 : 0)} ms`;

async function bench(name, root, editFile, comment) {
  rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
  const manager = new IndexManager({ root, noAst: false, watchSources: true });
  const cold = await manager.sync();
  // As in a server, where the first edit comes after the start's idle-time work (manager.ts afterSync).
  const idleStarted = performance.now();
  await manager.whenIdle();
  const idleMs = performance.now() - idleStarted;
  const rows = { wall: [], cpu: [], identity_ms: [], parse_ms: [], link_ms: [], resolve_ms: [], write_ms: [], copy_ms: [], publish_ms: [] };
  const walks = {};
  const bases = {};
  for (let i = 0; i < EDITS; i += 1) {
    appendFileSync(editFile, `\n${comment} edit ${i} about settlement.\n`);
    const cpu = process.cpuUsage();
    const t = performance.now();
    const r = await manager.sync();
    rows.wall.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    rows.cpu.push((used.user + used.system) / 1000);
    if (!r.rebuilt) throw new Error('edit did not rebuild');
    rows.identity_ms.push(r.identity_ms);
    walks[r.walk ?? 'none'] = (walks[r.walk ?? 'none'] ?? 0) + 1;
    for (const key of ['parse_ms', 'link_ms', 'resolve_ms', 'write_ms', 'copy_ms', 'publish_ms']) rows[key].push(r.stats[key] ?? 0);
    bases[r.stats.delta_base ?? r.stats.mode] = (bases[r.stats.delta_base ?? r.stats.mode] ?? 0) + 1;
    // As in a server, the next edit comes after this one's idle-time work (the standby copy among it).
    await manager.whenIdle();
  }
  const last = await manager.sync();
  const size = statSync(path.join(root, '.docforge', 'index', last.publication.index_file)).size;
  await manager.close();
  console.log(`== ${name}: ${cold.stats.nodes} nodes, index file ${(size / 1e6).toFixed(1)} MB, ${EDITS} edits, load average ${loadavg()[0].toFixed(1)}`);
  console.log(`   idle-time work after the cold build: ${ms(idleMs)}; walks: ${Object.entries(walks).map(([k, v]) => `${k} ${v}`).join(', ')}; delta base: ${Object.entries(bases).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  for (const [key, samples] of Object.entries(rows)) console.log(`   ${key.padEnd(10)} p50 ${ms(percentile(samples, 50))}, p95 ${ms(percentile(samples, 95))}`);
}

console.log(`load average before: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
mkdirSync(outDir, { recursive: true });
if (values.docs) {
  const n = Number(values.docs);
  const root = path.join(outDir, `docs-${n}`);
  if (!existsSync(path.join(root, 'docforge.toml'))) await generateDocs(root, n);
  await bench(`documentation corpus (${n} nodes)`, root, path.join(root, 'docs', 'area-0000', 'n-3.md'), '');
}
if (values.ts) {
  const n = Number(values.ts);
  const root = path.join(outDir, `code-ts-${n}`);
  if (!existsSync(path.join(root, 'docforge.toml'))) generateTs(root, n);
  const last = n - 1;
  await bench(`synthetic TypeScript tree (${n} files), editing mod${last} (imported by no file)`, root, path.join(root, 'src', `m${Math.floor(last / 50)}`, `mod${last}.ts`), '//');
  await bench(`synthetic TypeScript tree (${n} files), editing mod0 (reached by nearly every file)`, root, path.join(root, 'src', 'm0', 'mod0.ts'), '//');
}
