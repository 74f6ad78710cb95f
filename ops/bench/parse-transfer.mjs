#!/usr/bin/env node
// What a parse thread's results cost to hand back (issue 35): parses a batch of sources inline
// (libs/builder parseBatch) and times, in process CPU, the parse, the structured clone
// (v8.serialize / v8.deserialize, what a worker message costs) and JSON of the same items.
// Prints; never asserts. Run after `npm run -s build`.
// Usage: node ops/bench/parse-transfer.mjs ROOT [--files 4000] [--rounds 3]   (ROOT: e.g. a generate.mjs docs corpus)
import v8 from 'node:v8';
import { parseArgs } from 'node:util';
import { loadDescriptor, walkSources } from '@docforge/project';
import { parseBatch } from '@docforge/builder';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { files: { type: 'string', default: '4000' }, rounds: { type: 'string', default: '3' } } });
const root = positionals[0];
if (root === undefined) throw new Error('usage: parse-transfer.mjs ROOT [--files N] [--rounds N]');
const entries = walkSources(loadDescriptor(root), []).entries.slice(0, Number(values.files));
const task = { root, entries, knownHashes: {}, logicAllowed: true };
const cpuMs = (since) => { const u = process.cpuUsage(since); return ((u.user + u.system) / 1000).toFixed(0); };
await parseBatch({ ...task, entries: entries.slice(0, 200) });
for (let round = 0; round < Number(values.rounds); round += 1) {
  let c = process.cpuUsage();
  const items = await parseBatch(task);
  const parse = cpuMs(c);
  c = process.cpuUsage();
  const buffer = v8.serialize(items);
  const ser = cpuMs(c);
  c = process.cpuUsage();
  v8.deserialize(buffer);
  const de = cpuMs(c);
  c = process.cpuUsage();
  const json = JSON.stringify(items);
  const js = cpuMs(c);
  c = process.cpuUsage();
  JSON.parse(json);
  const jp = cpuMs(c);
  console.log(`${entries.length} sources: parse ${parse} ms; structured clone ${ser} + ${de} ms (${(buffer.length / 1e6).toFixed(1)} MB); JSON ${js} + ${jp} ms (${(json.length / 1e6).toFixed(1)} MB)`);
}
