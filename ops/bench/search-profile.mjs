#!/usr/bin/env node
// Search profile (issue 14): which SQL statements one docforge_search runs, how often, how many rows they
// return (the `rows_read` diagnostics counter) and how long they take, for the realistic and worst-case query
// sets of run.mjs. Statements are timed by wrapping better-sqlite3's prepared statements in this process only.
// Prints figures, asserts nothing.
// Usage: node ops/bench/search-profile.mjs [--size 10000] [--index FILE] [--runs 3]
//   --index: a published index file (gen-*.sqlite) instead of ops/bench/out/docs-N (built by run.mjs).
import { createRequire } from 'node:module';
import { existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({ options: { size: { type: 'string', default: '10000' }, index: { type: 'string' }, runs: { type: 'string', default: '3' } } });
const Database = createRequire(import.meta.url)('better-sqlite3');
const prepare = Database.prototype.prepare;
const stats = new Map();
Database.prototype.prepare = function wrapped(sql) {
  const stmt = prepare.call(this, sql);
  const key = sql.replace(/\s+/g, ' ').trim();
  for (const method of ['all', 'get']) {
    const run = stmt[method].bind(stmt);
    stmt[method] = (...params) => {
      const t = performance.now();
      const result = run(...params);
      const s = stats.get(key) ?? { calls: 0, rows: 0, ms: 0 };
      s.calls += 1;
      s.rows += Array.isArray(result) ? result.length : result === undefined ? 0 : 1;
      s.ms += performance.now() - t;
      stats.set(key, s);
      return result;
    };
  }
  return stmt;
};
const { IndexReader, rowsReadTotal } = await import('@docforge/store');
const { searchNodes } = await import('@docforge/retrieval');
const { wordOfRank } = await import('./generate.mjs');

let file = values.index;
if (file === undefined) {
  const dir = path.join(here, 'out', `docs-${values.size}`, '.docforge', 'index');
  if (!existsSync(dir)) throw new Error(`no index at ${dir}: run node ops/bench/run.mjs --sizes ${values.size} --search-only first, or pass --index`);
  file = path.join(dir, readdirSync(dir).filter((f) => f.endsWith('.sqlite')).sort().pop());
}
const reader = new IndexReader(file);
const sets = {
  'realistic terms': ['idempotency', 'refund settlement', 'ledger journal', 'webhook token', 'fraud score', 'latency budget alert', 'N-000123',
    wordOfRank(1000), `${wordOfRank(2000)} ${wordOfRank(5000)}`, wordOfRank(10000)],
  'worst case (two of the 8 most common words)': Array.from({ length: 8 }, (_, i) => `${wordOfRank(i % 4)} ${wordOfRank(4 + (i % 4))}`),
};
const runs = Number(values.runs);
console.log(`${reader.count('nodes')} nodes (${path.basename(file)}), ${runs} runs per set after one warm-up run, load ${os.loadavg()[0].toFixed(1)}`);
for (const [name, queries] of Object.entries(sets)) {
  for (const q of queries) searchNodes(reader, q, 20);
  stats.clear();
  const rows0 = rowsReadTotal();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let r = 0; r < runs; r += 1) for (const q of queries) searchNodes(reader, q, 20);
  const n = runs * queries.length;
  const cpu = process.cpuUsage(cpu0);
  const statements = [...stats.values()].reduce((a, s) => a + s.calls, 0);
  console.log(`\n${name}: ${((performance.now() - t0) / n).toFixed(2)} ms/search wall, ${((cpu.user + cpu.system) / 1000 / n).toFixed(2)} ms CPU, ${(statements / n).toFixed(1)} statements, ${((rowsReadTotal() - rows0) / n).toFixed(0)} rows_read`);
  for (const [sql, s] of [...stats].sort((a, b) => b[1].ms - a[1].ms)) {
    console.log(`  ${(s.ms / n).toFixed(2).padStart(7)} ms  ${(s.calls / n).toFixed(1).padStart(4)}x  ${String(Math.round(s.rows / n)).padStart(5)} rows  ${sql.slice(0, 110)}`);
  }
}
reader.close();
