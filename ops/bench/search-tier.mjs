#!/usr/bin/env node
// Search worst case (issue 14 item 6): the bounded candidate tier of libs/retrieval/src/ranking.ts
// against ranking every match, interleaved on the same index (ops/bench/out/docs-N, built by
// run.mjs or here), with the overlap of their first 20 results. Prints figures, asserts nothing.
// Usage: node ops/bench/search-tier.mjs [--size 100000] [--runs 40]
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { IndexManager } from '@docforge/sync';
import { IndexReader } from '@docforge/store';
import { MATCH_TIER, rankNodes } from '@docforge/retrieval';
import { generateDocs, wordOfRank } from './generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({ options: { size: { type: 'string', default: '100000' }, runs: { type: 'string', default: '40' } } });
const n = Number(values.size);
const runs = Number(values.runs);
const root = path.join(here, 'out', `docs-${n}`);
if (!existsSync(path.join(root, 'docforge.toml'))) await generateDocs(root, n);
const indexDir = path.join(root, '.docforge', 'index');
if (!existsSync(indexDir) || !readdirSync(indexDir).some((f) => f.endsWith('.sqlite'))) {
  const manager = new IndexManager({ root, noAst: false });
  await manager.sync();
  await manager.close();
}
const file = readdirSync(indexDir).filter((f) => f.endsWith('.sqlite')).sort().pop();
const reader = new IndexReader(path.join(indexDir, file));

const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const fmt = (ms) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
const sets = {
  'realistic terms': ['idempotency', 'refund settlement', 'ledger journal', 'webhook token', 'fraud score', 'latency budget alert', 'N-000123',
    wordOfRank(1000), `${wordOfRank(2000)} ${wordOfRank(5000)}`, wordOfRank(10000)],
  'worst case (two of the 8 most common words)': Array.from({ length: 8 }, (_, i) => `${wordOfRank(i % 4)} ${wordOfRank(4 + (i % 4))}`),
  'one common and one rare word': Array.from({ length: 8 }, (_, i) => `${wordOfRank(i)} ${wordOfRank(3000 + i)}`),
};
console.log(`${n} nodes, tier ${MATCH_TIER} matches per term, ${runs} runs per set, load ${(await import('node:os')).loadavg()[0].toFixed(1)}`);
for (const [name, queries] of Object.entries(sets)) {
  const times = { all: [], tier: [] };
  let overlap = 0;
  let compared = 0;
  for (let i = 0; i < runs; i += 1) {
    const q = queries[i % queries.length];
    let t = performance.now();
    const all = rankNodes(reader, q, {}, undefined, Infinity).ranked.slice(0, 20).map((r) => r.row.id);
    times.all.push(performance.now() - t);
    t = performance.now();
    const tier = rankNodes(reader, q, {}).ranked.slice(0, 20).map((r) => r.row.id);
    times.tier.push(performance.now() - t);
    if (i < queries.length) {
      overlap += tier.filter((id) => all.includes(id)).length;
      compared += Math.max(1, all.length);
    }
  }
  console.log(`${name}: every match p50 ${fmt(percentile(times.all, 50))}, p95 ${fmt(percentile(times.all, 95))}; bounded tier p50 ${fmt(percentile(times.tier, 50))}, p95 ${fmt(percentile(times.tier, 95))}; top-20 overlap ${(100 * overlap / compared).toFixed(0)}%`);
}
reader.close();
