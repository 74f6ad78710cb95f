#!/usr/bin/env node
// The full write stage alone (issue 35): reads the graph of a published index (nodes, edges,
// review hashes) and writes it again from scratch through libs/store's `writeIndexFile`, printing
// wall and process CPU (user + system) per run with the load average. Lets a write-stage tactic
// (pragmas, index order, FTS5 options) be compared in alternating runs without a whole build. With
// 2,000 or more nodes (a multiple of 2,000) it also prints the CPU of the node rows alone (issue 35).
// Prints; never asserts. Run after `npm run -s build`.
// Usage: node ops/bench/write-stage.mjs INDEX.sqlite [--runs 2] [--store PATH/TO/store/dist/src/index.js]
import { rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values, positionals } = parseArgs({ allowPositionals: true, options: { runs: { type: 'string', default: '2' }, store: { type: 'string' } } });
if (positionals.length !== 1) throw new Error('usage: write-stage.mjs INDEX.sqlite [--runs N] [--store FILE]');
const Database = createRequire(path.join(here, '../../libs/store/package.json'))('better-sqlite3');
const { writeIndexFile } = await import(values.store ? path.resolve(values.store) : '@docforge/store');
const db = new Database(positionals[0], { readonly: true });
const nodes = db.prepare('SELECT id, kind, title, family, authority, status, tags, summary, body, source_path, start_line, end_line, anchors, language, capabilities, origin, content_hash FROM nodes ORDER BY rowid').all()
  .map((r) => ({ ...r, tags: JSON.parse(r.tags), anchors: JSON.parse(r.anchors), capabilities: JSON.parse(r.capabilities) }));
const review = new Map(db.prepare('SELECT node_id, hash FROM node_review').raw().all());
// A build emits edges by source path and line.
const edges = db.prepare('SELECT source_id, relation, target_id, source_path, line FROM edges').all()
  .sort((a, b) => (a.source_path < b.source_path ? -1 : a.source_path > b.source_path ? 1 : a.line - b.line));
db.close();
const rows = { nodes, edges, review: (n) => review.get(n.id), sources: [], logic: [], issues: [], unresolved: [], meta: {} };
const file = path.join(tmpdir(), `docforge-write-stage-${process.pid}.sqlite`);
console.log(`${nodes.length} nodes, ${edges.length} edges`);
for (let i = 0; i < Number(values.runs); i += 1) {
  rmSync(file, { force: true });
  const cpu = process.cpuUsage();
  const t = performance.now();
  // The node rows end at the last `write` progress call (every 2,000 nodes): their CPU is the cold build's "node rows" phase.
  let nodeRows = null;
  writeIndexFile(file, rows, (_stage, done, total) => {
    if (done === total) nodeRows = process.cpuUsage(cpu);
  });
  const used = process.cpuUsage(cpu);
  const rowsText = nodeRows === null ? '' : `, node rows ${((nodeRows.user + nodeRows.system) / 1000).toFixed(0)} ms`;
  console.log(`write: wall ${(performance.now() - t).toFixed(0)} ms, CPU ${((used.user + used.system) / 1000).toFixed(0)} ms (system ${(used.system / 1000).toFixed(0)})${rowsText}, load ${loadavg()[0].toFixed(1)}`);
}
rmSync(file, { force: true });
