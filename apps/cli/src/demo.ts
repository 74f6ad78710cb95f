import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The bundled example project (repository `examples/`). */
export const EXAMPLES_ROOT = path.resolve(here, '../../../../examples');

const SERVER_PACKAGE = '@docforge/mcp-server';
const SERVER_BIN = 'docforge-mcp';

/**
 * The absolute path of the `docforge-mcp` bin, found through the `@docforge/mcp-server` package
 * (a declared dependency of the CLI): its entry is resolved like any package, its package.json is
 * the nearest one above that entry, and the bin is read from its `bin` field. The CLI only spawns
 * this file as a separate process; it never imports the server's code (apps never import apps,
 * DESIGN.md section 2).
 * @throws Error when the package cannot be resolved or declares no `docforge-mcp` bin.
 */
export function mcpServerBin(): string {
  const entry = createRequire(import.meta.url).resolve('@docforge/mcp-server');
  let dir = path.dirname(entry);
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`${SERVER_PACKAGE}: no package.json above ${entry}`);
    dir = parent;
  }
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; bin?: string | Record<string, string> };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.[SERVER_BIN];
  if (pkg.name !== SERVER_PACKAGE || typeof bin !== 'string') throw new Error(`${SERVER_PACKAGE}: package.json at ${dir} declares no ${SERVER_BIN} bin`);
  return path.resolve(dir, bin);
}

interface Envelope {
  ok: boolean;
  project?: { id: string; revision: number; source_hash: string; staleness: string };
  result?: Record<string, unknown>;
  error?: { code: string; message: string };
}

function out(text = ''): void {
  process.stdout.write(`${text}\n`);
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Envelope> {
  out(`\n> ${name} ${JSON.stringify(args)}`);
  const response = await client.callTool({ name, arguments: args });
  const envelope = response.structuredContent as unknown as Envelope;
  if (!envelope.ok) out(`  error ${envelope.error?.code}: ${envelope.error?.message}`);
  return envelope;
}

type Item = Record<string, unknown>;

/**
 * `docforge demo`: starts docforge-mcp on the bundled examples (or `root`) over stdio, drives it
 * with the MCP SDK client and prints a readable transcript of bootstrap, search, node,
 * backlinks, impact and validation. Returns the exit code (1 if any step failed).
 */
export async function runDemo(root: string | null): Promise<number> {
  const projectRoot = root ?? EXAMPLES_ROOT;
  out(`DocForge demo: docforge-mcp --project-root ${projectRoot}`);
  const transport = new StdioClientTransport({ command: process.execPath, args: [mcpServerBin(), '--project-root', projectRoot], stderr: 'ignore' });
  const client = new Client({ name: 'docforge-demo', version: '0.1.0' });
  await client.connect(transport);
  let failures = 0;
  try {
    const { tools } = await client.listTools();
    out(`connected; ${tools.length} tools: ${tools.map((t) => t.name).join(', ')}`);

    const boot = await call(client, 'docforge_bootstrap');
    if (!boot.ok) return 1;
    const index = boot.result!.index as Item;
    const counts = index.counts as Item;
    out(`  project ${boot.project!.id}, revision ${boot.project!.revision}, staleness ${boot.project!.staleness}`);
    out(`  active index ${String(index.active_index_path)}`);
    out(`  ${String(counts.nodes)} nodes, ${String(counts.edges)} edges, ${String(counts.issues)} issues from ${String(counts.sources)} sources`);

    const search = await call(client, 'docforge_search', { query: 'idempotency refund', limit: 5 });
    const hits = (search.result?.items ?? []) as Item[];
    for (const [i, h] of hits.entries()) out(`  ${i + 1}. ${String(h.id)} [${String(h.kind)}] ${String(h.title)}`);
    if (hits.length === 0) failures += 1;

    const focus = String(hits[0]?.id ?? '');
    const node = await call(client, 'docforge_get_node', { node_id: focus, include_body: false });
    if (node.ok) {
      const n = node.result!.node as Item;
      const edges = node.result!.edges as { outgoing: Item[]; incoming: Item[] };
      out(`  ${String(n.id)}: ${String(n.title)} (${String(n.kind)}, ${String(n.status ?? '-')}) at ${String(n.source_path)}:${String(n.start_line)}`);
      for (const e of edges.outgoing.slice(0, 8)) out(`    -> ${String(e.relation)} ${String(e.target_id)}`);
      for (const e of edges.incoming.slice(0, 8)) out(`    <- ${String(e.relation)} ${String(e.source_id)}`);
    } else failures += 1;

    const back = await call(client, 'docforge_backlinks', { node_id: focus, limit: 10 });
    for (const b of (back.result?.items ?? []) as Item[]) out(`  <- ${String(b.relation)} from ${String(b.id)} (${String(b.title)})`);

    const impact = await call(client, 'docforge_impact', { node_id: focus, depth: 3, limit: 15 });
    for (const i of (impact.result?.items ?? []) as Item[]) out(`  depth ${String(i.depth)}: ${String(i.id)} via ${String(i.relation)} of ${String(i.via)}`);
    if (impact.ok) out(`  truncated: ${String(impact.result!.truncated)}${impact.result!.truncation_reason ? ` (${String(impact.result!.truncation_reason)})` : ''}, examined ${String(impact.result!.examined_edges)} edges`);
    else failures += 1;

    const logic = await call(client, 'docforge_get_logic', { node_id: 'code:src/ledger/ledger.ts#Ledger.post', limit: 12 });
    if (logic.ok) {
      const r = logic.result!;
      for (const step of (r.steps ?? []) as Item[]) out(`  step ${String(step.step)} [${String(step.kind)}] line ${String(step.start_line)}: ${String(step.label)}`);
      out(`  ${String((r.flows as Item[] | undefined)?.length ?? 0)} flows shown${r.truncated ? ' (truncated)' : ''}`);
    } else if (logic.error?.code !== 'adapter_policy_forbids_logic') failures += 1;

    const task = await call(client, 'docforge_get_task_context', { task_kind: 'change', task: 'Change how refunds are posted to the ledger', limit: 6 });
    if (task.ok) {
      const r = task.result!;
      for (const item of (r.evidence ?? r.items ?? []) as Item[]) out(`  evidence ${String(item.id ?? item.node_id)} (${String(item.kind)}) ${String(item.source_path ?? '')}`);
      const gaps = (r.gaps ?? r.evidence_gaps ?? []) as Item[];
      out(`  ${gaps.length} evidence gap(s); capsule ${String(r.capsule_hash ?? '').slice(0, 16)}…`);
    } else failures += 1;

    const validation = await call(client, 'docforge_validate_project', { limit: 10 });
    if (validation.ok) {
      const c = validation.result!.counts as Item;
      out(`  valid: ${String(validation.result!.valid)}; ${String(c.error)} errors, ${String(c.warning)} warnings`);
      for (const i of (validation.result!.items ?? []) as Item[]) out(`  ${String(i.severity)} ${String(i.code)}: ${String(i.message)}`);
    } else failures += 1;
    out(`\ndemo ${failures === 0 ? 'finished' : `finished with ${failures} failed step(s)`}`);
    return failures === 0 ? 0 : 1;
  } finally {
    await client.close();
  }
}
