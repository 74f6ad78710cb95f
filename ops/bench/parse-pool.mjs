#!/usr/bin/env node
// What parsing a cold build's sources on both cores buys (issue 35): the same sources parsed inline
// in this thread (libs/builder parseBatch, what a build worker does below the threshold) and then on
// a ParsePool (this thread and `availableParallelism() - 1` parse threads, JSON batches), alternating.
// Reports CPU per thread (/proc/self/task/TID/stat, user + system): this thread's is what bounds the
// parse's wall time on an idle machine, the sum is what the machine pays. Prints; never asserts.
// Usage: node ops/bench/parse-pool.mjs ROOT [--files N] [--rounds 3]   (ROOT: e.g. a generate.mjs docs corpus)
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { loadDescriptor, walkSources } from '@docforge/project';
import { parseBatch } from '@docforge/builder';
import { ParsePool } from '../../libs/builder/dist/src/parse-pool.js';
import { Piscina } from 'piscina';

// Counts the sources the parse threads were given (the rest the calling thread parsed).
let remoteSources = 0;
const run = Piscina.prototype.run;
Piscina.prototype.run = function counted(task, options) {
  remoteSources += task.entries?.length ?? 0;
  return run.call(this, task, options);
};

const { values, positionals } = parseArgs({ allowPositionals: true, options: { files: { type: 'string' }, rounds: { type: 'string', default: '3' } } });
const root = positionals[0];
if (root === undefined) throw new Error('usage: parse-pool.mjs ROOT [--files N] [--rounds N]');
const all = walkSources(loadDescriptor(root), []).entries;
const entries = values.files === undefined ? all : all.slice(0, Number(values.files));
const task = { root, entries, knownHashes: {}, logicAllowed: true };

/** CPU seconds of every live thread of this process, by thread id. */
function threads() {
  const out = new Map();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
      out.set(tid, (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}
const self = String(process.pid);
const total = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };

async function measure(name, run) {
  global.gc?.();
  const before = threads();
  const t0 = total();
  const w0 = performance.now();
  await run();
  const wall = (performance.now() - w0) / 1000;
  const after = threads();
  const mine = after.get(self) - before.get(self);
  const others = [...after].filter(([tid]) => tid !== self).map(([tid, cpu]) => cpu - (before.get(tid) ?? 0)).sort((a, b) => b - a);
  console.log(`${name}: this thread ${mine.toFixed(2)} s, busiest other thread ${(others[0] ?? 0).toFixed(2)} s, whole process ${(total() - t0).toFixed(2)} s CPU, wall ${wall.toFixed(2)} s; ${remoteSources} sources to parse threads (load ${loadavg()[0].toFixed(1)})`);
  remoteSources = 0;
}

console.log(`${entries.length} sources`);
await parseBatch({ ...task, entries: entries.slice(0, 500) });
for (let round = 0; round < Number(values.rounds); round += 1) {
  const order = round % 2 === 0 ? ['inline', 'pool'] : ['pool', 'inline'];
  for (const name of order) {
    if (name === 'inline') await measure('inline', () => parseBatch(task));
    // A fresh pool each round, as a cold build's worker starts its threads (thread start counted).
    else await measure('pool  ', () => new ParsePool().parse(task, () => undefined));
  }
}
process.exit(0);
