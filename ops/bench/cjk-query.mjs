#!/usr/bin/env node
// Long CJK queries (issue 30 item 2, break-it trial): a 10,000-character query of one word written
// without spaces (`検索` × 5,000, the schema's maximum) against a Latin query of the same length, on
// a generated project of 3,000 pages plus pages in Japanese, Chinese and Thai. Times the three tools
// that analyse a query (docforge_search, docforge_get_context, docforge_get_task_context) through
// the real MCP server (wall time, paired: CJK and Latin alternate), and the query analysis and the
// search ranking in this process (CPU time). Prints figures with the load average, asserts nothing.
// Usage: node ops/bench/cjk-query.mjs [--pages 3000] [--runs 3]
import { mkdirSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { IndexManager } from '@docforge/sync';
import { analyseQuery, searchNodes } from '@docforge/retrieval';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { generateDocs } from './generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const { values } = parseArgs({ options: { pages: { type: 'string', default: '3000' }, runs: { type: 'string', default: '3' } } });
const pages = Number(values.pages);
const runs = Number(values.runs);
const root = path.join(here, 'out', `cjk-query-${pages}`);

const SENTENCES = ['日本語のテキストを検索する。', '全文検索エンジンは文書を索引し、検索語を含むページを返す。', '中文文档需要分词才能搜索。', 'ภาษาไทยเขียนติดกันโดยไม่เว้นวรรค'];
if (!existsSync(path.join(root, 'docforge.toml'))) {
  generateDocs(root, pages);
  mkdirSync(path.join(root, 'docs', 'cjk'), { recursive: true });
  for (let i = 0; i < 50; i += 1) writeFileSync(path.join(root, 'docs', 'cjk', `page-${i}.md`), `# 検索 ${i}\n\n${SENTENCES.join('\n\n').repeat(1 + (i % 4))}\n`);
}
rmSync(path.join(root, '.docforge'), { recursive: true, force: true });
const manager = new IndexManager({ root, noAst: false });
await manager.sync();
const reader = manager.reader();

const queries = { cjk: '検索'.repeat(5_000), latin: 'refund '.repeat(1_428).slice(0, 10_000) };
const load = () => os.loadavg()[0].toFixed(1);
const cpuMs = (body) => {
  const c0 = process.cpuUsage();
  body();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};
console.log(`cjk-query: ${reader.count('nodes')} nodes, ${runs} runs, ${new Date().toISOString()}, load ${load()}`);
for (const [name, q] of Object.entries(queries)) {
  const analysis = [];
  const search = [];
  for (let i = 0; i < runs; i += 1) {
    analysis.push(cpuMs(() => analyseQuery(q)));
    search.push(cpuMs(() => searchNodes(reader, `${q} ${i}`, 20)));
  }
  console.log(`  in process, ${name}: analyseQuery ${Math.min(...analysis).toFixed(0)} ms CPU (best of ${runs}), searchNodes ${Math.min(...search).toFixed(0)} ms CPU; load ${load()}`);
}
await manager.close();

const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(repo, 'apps/mcp-server/dist/src/main.js'), '--project-root', root], stderr: 'ignore' });
const client = new Client({ name: 'bench', version: '1' });
await client.connect(transport);
await client.callTool({ name: 'docforge_bootstrap', arguments: {} });
const tools = {
  docforge_search: (query) => ({ query, limit: 10 }),
  docforge_get_context: (query) => ({ query }),
  docforge_get_task_context: (task) => ({ task_kind: 'implementation', task }),
};
for (const [tool, args] of Object.entries(tools)) {
  const times = { cjk: [], latin: [] };
  for (let i = 0; i < runs; i += 1) {
    for (const [name, q] of Object.entries(queries)) {
      const t = performance.now();
      const r = await client.callTool({ name: tool, arguments: args(`${q.slice(0, 9_990)} ${i}`) });
      times[name].push(performance.now() - t);
      if (r.isError) console.log(`  ${tool} ${name}: error ${JSON.stringify(r.content).slice(0, 200)}`);
    }
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`  MCP ${tool}: CJK ${(med(times.cjk) / 1000).toFixed(2)} s, Latin ${(med(times.latin) / 1000).toFixed(2)} s (median wall of ${runs}, alternating); load ${load()}`);
}
await client.close();
