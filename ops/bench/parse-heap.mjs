#!/usr/bin/env node
// The documentation parse alone, as a cold build's worker runs it (issue 35): parses the first N
// sources of ROOT inline (libs/builder parseBatch, batches of 1,000), keeps every result in its
// reshaped form as the build session does, and prints process CPU, the scavenges and mark-compacts
// V8 reported, and the heap the kept results hold after a full collection. Run it with the build
// worker's young generation (`--max-semi-space-size=8`: 24 MB) and `--expose-gc`. Prints; never asserts.
// Usage: node --max-semi-space-size=8 --expose-gc ops/bench/parse-heap.mjs ROOT [--files 20000]
import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadDescriptor, walkSources } from '@docforge/project';
import { parseBatch } from '@docforge/builder';
import * as parseModule from '../../libs/builder/dist/src/parse.js';
// What the build session keeps of an inline content parse: the parse as built where keptInline exists, else a reshaped copy.
const kept1 = parseModule.keptInline ?? parseModule.reshaped;

const { values, positionals } = parseArgs({ allowPositionals: true, options: { files: { type: 'string', default: '20000' }, discard: { type: 'boolean', default: false } } });
const root = positionals[0];
if (root === undefined) throw new Error('usage: parse-heap.mjs ROOT [--files N]');
const entries = walkSources(loadDescriptor(root), []).entries.slice(0, Number(values.files));
const gcs = { minor: 0, major: 0, ms: 0 };
const observer = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = e.detail?.kind ?? e.kind;
    if (kind === 1) gcs.minor += 1; else gcs.major += 1;
    gcs.ms += e.duration;
  }
});
observer.observe({ entryTypes: ['gc'] });
global.gc?.();
const heap0 = process.memoryUsage().heapUsed;
const c = process.cpuUsage();
const kept = [];
for (let i = 0; i < entries.length; i += 1000) {
  const items = await parseBatch({ root, entries: entries.slice(i, i + 1000), knownHashes: {}, logicAllowed: true });
  for (const item of items) if (!values.discard) kept.push(kept1(item.source));
}
const u = process.cpuUsage(c);
await new Promise((r) => setTimeout(r, 50));
global.gc?.();
const heap = process.memoryUsage().heapUsed - heap0;
console.log(`${entries.length} sources${values.discard ? " (discarded)" : ""}: CPU ${((u.user + u.system) / 1e6).toFixed(2)} s; scavenges ${gcs.minor}, major ${gcs.major}, GC pauses ${(gcs.ms / 1000).toFixed(2)} s; kept heap ${(heap / 1e6).toFixed(1)} MB (${(heap / kept.length / 1024).toFixed(2)} KB per source)`);
