#!/usr/bin/env node
// Cold index of one corpus with a fresh .docforge: prints wall and stage times (no assertions).
// Usage: node ops/bench/cold.mjs ROOT
import { rmSync } from 'node:fs';
import path from 'node:path';
import { IndexManager } from '@docforge/sync';

const root = path.resolve(process.argv[2] ?? '.');
rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
const manager = new IndexManager({ root, noAst: false });
const t = performance.now();
const r = await manager.sync();
const ms = performance.now() - t;
const s = r.stats;
console.log(`cold ${ms.toFixed(0)} ms (walk ${r.identity_ms?.toFixed(0)}, parse ${s.parse_ms.toFixed(0)}, resolve ${s.resolve_ms.toFixed(0)}, write ${s.write_ms.toFixed(0)}, publish ${s.publish_ms.toFixed(0)}); ${s.nodes} nodes`);
await manager.close();
