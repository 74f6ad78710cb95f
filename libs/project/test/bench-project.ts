// Manual benchmark (not a test): `node libs/project/dist/test/bench-project.js` times walkSources on a generated 10,000-file tree and resolveGraph on 10,000 synthetic nodes / 50,000 edges.
import { lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { withContentHash, type GraphEdge, type GraphNode } from '@docforge/core';
import { cheapIdentity, loadDescriptor, resolveGraph, walkSources, type LinkRef, type ResolveSource } from '../src/index.js';
import { removeTree, tempTree } from './helpers.js';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function benchWalk(): void {
  const root = tempTree({ 'docforge.toml': 'schema_version = 1\n[project]\nid = "bench"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["src"]\n' });
  try {
    for (let d = 0; d < 100; d += 1) {
      mkdirSync(join(root, 'docs', `area${d}`, 'sub'), { recursive: true });
      mkdirSync(join(root, 'src', `mod${d}`), { recursive: true });
      for (let f = 0; f < 25; f += 1) {
        writeFileSync(join(root, 'docs', `area${d}`, `doc${f}.md`), `# Doc ${f}\n`);
        writeFileSync(join(root, 'docs', `area${d}`, 'sub', `doc${f}.md`), `# Sub ${f}\n`);
        writeFileSync(join(root, 'src', `mod${d}`, `file${f}.ts`), `export const x${f} = ${f};\n`);
        writeFileSync(join(root, 'src', `mod${d}`, `file${f}.js`), `export const y${f} = ${f};\n`);
      }
    }
    const desc = loadDescriptor(root);
    const times: number[] = [];
    let count = 0;
    for (let run = 0; run < 30; run += 1) {
      const start = performance.now();
      const walk = walkSources(desc, ['.ts', '.js']);
      cheapIdentity(walk.entries, []);
      times.push(performance.now() - start);
      count = walk.entries.length;
    }
    const walkOnly: number[] = [];
    for (let run = 0; run < 30; run += 1) {
      const start = performance.now();
      walkSources(desc, ['.ts', '.js']);
      walkOnly.push(performance.now() - start);
    }
    const paths = walkSources(desc, ['.ts', '.js']).entries.map((entry) => `${root}/${entry.path}`);
    const floor: number[] = [];
    for (let run = 0; run < 30; run += 1) {
      const start = performance.now();
      for (const path of paths) lstatSync(path, { bigint: true });
      floor.push(performance.now() - start);
    }
    process.stderr.write(`lstatSync floor (bare loop over the same ${paths.length} files): median ${median(floor).toFixed(1)} ms (min ${Math.min(...floor).toFixed(1)})\n`);
    process.stderr.write(`walkSources: ${count} files, median ${median(walkOnly).toFixed(1)} ms (min ${Math.min(...walkOnly).toFixed(1)}); walk + cheapIdentity median ${median(times).toFixed(1)} ms\n`);
  } finally {
    removeTree(root);
  }
}

function benchResolve(): void {
  const desc = loadDescriptorLike();
  const sources: ResolveSource[] = [];
  const N = 10_000;
  for (let i = 0; i < N; i += 1) {
    const path = `docs/d${i}.md`;
    const node: GraphNode = withContentHash({
      id: `N-${i}`, kind: 'requirement', title: `Node ${i}`, family: null, authority: null, status: null, tags: [], summary: '', body: '',
      source_path: path, start_line: 1, end_line: 20, anchors: [], language: null, capabilities: [], origin: 'document',
    });
    const edges: GraphEdge[] = [];
    for (let k = 1; k <= 3; k += 1) edges.push({ source_id: node.id, relation: k === 1 ? 'depends_on' : 'implements', target_id: `N-${(i * 7 + k * 13) % N}`, source_path: path, line: k + 5 });
    const links: LinkRef[] = [
      { from_id: node.id, target_path: `docs/d${(i + 1) % N}.md`, anchor: null, line: 12 },
      { from_id: node.id, target_path: `docs/d${(i * 3 + 5) % N}.md`, anchor: null, line: 13 },
    ];
    sources.push({ path, nodes: [node], edges, links });
  }
  const times: number[] = [];
  const cpu: number[] = [];
  let edges = 0;
  for (let run = 0; run < 30; run += 1) {
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    const graph = resolveGraph({ descriptor: desc, sources, codePaths: new Set() });
    const used = process.cpuUsage(cpuStart);
    times.push(performance.now() - start);
    cpu.push((used.user + used.system) / 1000);
    edges = graph.edges.length;
  }
  process.stderr.write(`resolveGraph: ${N} nodes, ${edges} edges out (50,000 in), wall median ${median(times).toFixed(1)} ms (min ${Math.min(...times).toFixed(1)}), CPU median ${median(cpu).toFixed(1)} ms\n`);
}

function loadDescriptorLike(): ReturnType<typeof loadDescriptor> {
  const root = tempTree({ 'docforge.toml': 'schema_version = 1\n[project]\nid = "bench"\n[vocabulary]\nrelations = []\n' });
  try {
    return loadDescriptor(root);
  } finally {
    removeTree(root);
  }
}

benchWalk();
benchResolve();
