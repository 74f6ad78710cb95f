import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { printLine, printRaw } from './terminal.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The bundled example project (repository `examples/`). */
export const EXAMPLES_ROOT = path.resolve(here, '../../../../examples');
/** This program's committed launcher (`apps/cli/bin/docforge.js`), for commands to copy. */
const CLI_LAUNCHER = path.resolve(here, '../../bin/docforge.js');

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

type Item = Record<string, unknown>;

/** One line of human output, terminal-safe (terminal.ts). */
const out = printLine;

/**
 * A section header. When `count` is given the header announces `count noun` and exactly that many
 * list lines (`  - …`) follow (the demo test checks this for every section).
 */
function section(title: string, count?: number, noun?: [singular: string, plural: string]): void {
  out();
  out(`## ${title}${count === undefined ? '' : `: ${count} ${count === 1 ? noun?.[0] ?? 'item' : noun?.[1] ?? 'items'}`}`);
  if (pendingCall !== null) out(`  ${pendingCall}`);
  pendingCall = null;
}

/** The tool call made for the next section, echoed under its header. */
let pendingCall: string | null = null;

function listLine(text: string): void {
  out(`  - ${text}`);
}

function oneLine(text: unknown, max = 160): string {
  const s = String(text ?? '').replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** The relation names of a traversal item: `relations` (several paths to one node) or the single `relation`. */
function relationsOf(item: Item): string[] {
  const many = item.relations;
  if (Array.isArray(many) && many.length > 0) {
    return [...new Set(many.map((r) => (typeof r === 'string' ? r : String((r as Item).relation))))];
  }
  return [String(item.relation)];
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Envelope> {
  pendingCall = `> ${name} ${JSON.stringify(args)}`;
  const response = await client.callTool({ name, arguments: args });
  const envelope = response.structuredContent as unknown as Envelope;
  if (!envelope.ok) {
    out(`  ${pendingCall}`);
    pendingCall = null;
    out(`  error ${envelope.error?.code}: ${envelope.error?.message}`);
  }
  return envelope;
}

/**
 * Each relation `source --relation--> target` is printed at most once in the transcript: a
 * section lists only relations no earlier section showed.
 */
class RelationLog {
  private readonly shown = new Set<string>();

  /** Keeps the relations not shown yet and marks them shown. */
  fresh<T>(items: readonly T[], key: (item: T) => string[]): T[] {
    const kept: T[] = [];
    for (const item of items) {
      const keys = key(item).filter((k) => !this.shown.has(k));
      if (keys.length === 0) continue;
      for (const k of keys) this.shown.add(k);
      kept.push(item);
    }
    return kept;
  }
}

const edgeKey = (source: unknown, relation: unknown, target: unknown): string => `${String(source)} --${String(relation)}--> ${String(target)}`;

/**
 * `docforge demo`: starts docforge-mcp on the bundled examples (or `root`) over stdio, drives it
 * with the MCP SDK client and prints a transcript: tools, bootstrap, search with excerpts, a node's
 * relations, backlinks, impact, function Logic with its control flows, task context with its
 * evidence gaps and capsule, validation; it ends with the commands to set up your own project and
 * an MCP client configuration. Every section that announces a count lists exactly that many lines,
 * and every relation appears once. Returns the exit code (1 if any step failed).
 */
export async function runDemo(root: string | null): Promise<number> {
  const projectRoot = root ?? EXAMPLES_ROOT;
  const serverBin = mcpServerBin();
  out('DocForge turns a project\'s documentation and code into one typed graph that AI coding agents query over MCP.');
  out(`This demo starts the MCP server and calls its tools as an agent would: docforge-mcp --project-root ${projectRoot}`);
  const transport = new StdioClientTransport({ command: process.execPath, args: [serverBin, '--project-root', projectRoot], stderr: 'ignore' });
  const client = new Client({ name: 'docforge-demo', version: '0.1.0' });
  await client.connect(transport);
  const relations = new RelationLog();
  let failures = 0;
  try {
    const { tools } = await client.listTools();
    section('Connected over stdio', tools.length, ['tool', 'tools']);
    for (const t of tools) listLine(`${t.name}: ${oneLine(t.description?.split(/(?<=\.)\s/)[0], 110)}`);

    const boot = await call(client, 'docforge_bootstrap');
    if (!boot.ok) return 1;
    section('Bootstrap: bind the project and synchronize the index');
    const index = boot.result!.index as Item;
    const counts = index.counts as Item;
    out(`  project ${boot.project!.id}, revision ${boot.project!.revision}, staleness ${boot.project!.staleness}`);
    out(`  active index ${String(index.active_index_path)}`);
    out(`  ${String(counts.nodes)} nodes, ${String(counts.edges)} edges, ${String(counts.issues)} issues from ${String(counts.sources)} sources`);

    const query = 'idempotency refund';
    const search = await searchSection(client, query);
    if (search.length === 0) failures += 1;
    const focus = String(search[0]?.id ?? '');

    failures += await nodeSection(client, focus, relations);

    const back = await call(client, 'docforge_backlinks', { node_id: focus, limit: 10 });
    const backItems = relations.fresh((back.result?.items ?? []) as Item[], (b) => [edgeKey(b.id, b.relation, focus)]);
    section(`Backlinks of ${focus} (what points at it)`, backItems.length, ['incoming relation', 'incoming relations']);
    for (const b of backItems) listLine(`${edgeKey(b.id, b.relation, focus)}  (${oneLine(b.title, 80)})`);
    if (!back.ok) failures += 1;

    failures += await impactSection(client, focus, relations);
    failures += await logicSection(client, 'code:src/ledger/ledger.ts#Ledger.post');
    failures += await taskSection(client, 'Change how refunds are posted to the ledger');

    // Every severity, so the issues shown add up to the count the sync printed above.
    const validation = await call(client, 'docforge_validate_project', { limit: 10, severities: ['error', 'warning', 'info'] });
    if (validation.ok) {
      const c = validation.result!.counts as Item;
      const items = (validation.result!.items ?? []) as Item[];
      section('Validation (malformed files, duplicate ids, dangling relations, broken links, undocumented exports)', items.length, ['issue shown', 'issues shown']);
      for (const i of items) listLine(`${String(i.severity)} ${String(i.code)}: ${oneLine(i.message)}`);
      out(`  valid: ${String(validation.result!.valid)}; ${String(c.error)} errors, ${String(c.warning)} warnings, ${String(c.info)} notes (info)`);
    } else failures += 1;

    out();
    out(`demo ${failures === 0 ? 'finished' : `finished with ${failures} failed step(s)`}`);
    nextSteps(serverBin);
    return failures === 0 ? 0 : 1;
  } finally {
    await client.close();
  }
}

/** Search with each hit's location and excerpt; returns the hits. */
async function searchSection(client: Client, query: string): Promise<Item[]> {
  const search = await call(client, 'docforge_search', { query, limit: 5 });
  const hits = (search.result?.items ?? []) as Item[];
  section(`Search "${query}" (bm25 over titles, bodies and code), with excerpts`, hits.length, ['hit', 'hits']);
  for (const [i, h] of hits.entries()) {
    const where = `${String(h.source_path)}:${String(h.start_line)}`;
    const heading = h.section && typeof h.section === 'object' ? ` § ${String((h.section as Item).title ?? (h.section as Item).anchor)}` : '';
    listLine(`${i + 1}. ${String(h.id)} [${String(h.kind)}] ${oneLine(h.title, 80)}  ${where}${heading}`);
    out(`      "${oneLine(h.excerpt, 200)}"`);
  }
  return hits;
}

/** The focus node and its outgoing relations. Returns the number of failed steps. */
async function nodeSection(client: Client, focus: string, relations: RelationLog): Promise<number> {
  const node = await call(client, 'docforge_get_node', { node_id: focus, include_body: false });
  if (!node.ok) return 1;
  const n = node.result!.node as Item;
  const edges = node.result!.edges as { outgoing: Item[]; incoming: Item[] };
  const outgoing = relations.fresh(edges.outgoing, (e) => [edgeKey(focus, e.relation, e.target_id)]);
  section(`Node ${focus}`, outgoing.length, ['outgoing relation', 'outgoing relations']);
  out(`  ${String(n.title)} (${String(n.kind)}, ${String(n.status ?? '-')}) at ${String(n.source_path)}:${String(n.start_line)}; ${edges.incoming.length} incoming relations follow as backlinks`);
  for (const e of outgoing) listLine(edgeKey(focus, e.relation, e.target_id));
  return 0;
}

/** Impact beyond the backlinks already shown. Returns the number of failed steps. */
async function impactSection(client: Client, focus: string, relations: RelationLog): Promise<number> {
  const impact = await call(client, 'docforge_impact', { node_id: focus, depth: 3, limit: 15 });
  if (!impact.ok) return 1;
  const all = (impact.result!.items ?? []) as Item[];
  const deeper = relations.fresh(all, (i) => relationsOf(i).map((r) => edgeKey(i.id, r, i.via)));
  const direct = all.length - deeper.length;
  section(`Impact of a change to ${focus}, beyond its ${direct} direct backlinks`, deeper.length, ['more node', 'more nodes']);
  for (const i of deeper) listLine(`depth ${String(i.depth)}: ${String(i.id)} --${relationsOf(i).join(', ')}--> ${String(i.via)}`);
  const reason = impact.result!.truncation_reason ? ` (${String(impact.result!.truncation_reason)})` : '';
  out(`  truncated: ${String(impact.result!.truncated)}${reason}, examined ${String(impact.result!.examined_edges)} edges (traversals are bounded)`);
  return 0;
}

/** Statement-level Logic of one function: its steps, then its control flows. Returns the number of failed steps. */
async function logicSection(client: Client, owner: string): Promise<number> {
  const logic = await call(client, 'docforge_get_logic', { node_id: owner, limit: 12 });
  if (!logic.ok) return logic.error?.code === 'adapter_policy_forbids_logic' ? 0 : 1;
  const r = logic.result!;
  const steps = (r.steps ?? []) as Item[];
  const flows = (r.flows ?? []) as Item[];
  section(`Logic of ${owner}`, steps.length, ['statement-level step', 'statement-level steps']);
  for (const step of steps) listLine(`step ${String(step.step)} [${String(step.kind)}] line ${String(step.start_line)}: ${oneLine(step.label, 110)}`);
  section(`Control flows between those steps${r.truncated ? ' (truncated)' : ''}`, flows.length, ['flow', 'flows']);
  for (const f of flows) listLine(`step ${String(f.from_step)} -> step ${String(f.to_step)} [${String(f.kind)}]${f.label ? ` ${oneLine(f.label, 80)}` : ''}`);
  return 0;
}

/** Task context: evidence, evidence gaps and the capsule, each explained. Returns the number of failed steps. */
async function taskSection(client: Client, task: string): Promise<number> {
  const result = await call(client, 'docforge_get_task_context', { task_kind: 'change', task, limit: 6 });
  if (!result.ok) return 1;
  const r = result.result!;
  const evidence = ((r.items ?? []) as Item[]).filter((i) => i.type === 'evidence');
  section(`Task context for the change "${task}"`, evidence.length, ['evidence item', 'evidence items']);
  for (const item of evidence) listLine(`${String(item.id)} (${String(item.kind)}) ${String(item.source_path ?? '')}${item.role ? `, ${String(item.role)} at depth ${String(item.depth)}` : ''}`);
  const gaps = (r.gaps ?? []) as Item[];
  section('Evidence gaps of this task context', gaps.length, ['gap', 'gaps']);
  out('  evidence gap: a part of the plan the index could not back with evidence (a limit was hit, nothing matched, or a relation category is undeclared); check it by hand.');
  for (const g of gaps) listLine(`${String(g.kind)}${g.cause ? `, cause ${String(g.cause)}` : ''}${g.stage ? `, at ${String(g.stage)}` : ''}`);
  out(`  capsule ${String(r.capsule_hash ?? '').slice(0, 16)}…`);
  out('  capsule: the hash of this exact evidence set on this index generation and policy; cite it, and a changed index shows as a different capsule.');
  return 0;
}

/** The closing lines: set up your own project and register the server with an MCP client. */
function nextSteps(serverBin: string): void {
  const yours = '/absolute/path/to/your/project';
  section('Next: your own project');
  out(`  1. describe it:   npx docforge init ${yours}      (inside this checkout; elsewhere: node ${CLI_LAUNCHER} init ${yours})`);
  out(`  2. index, check:  npx docforge validate -C ${yours}`);
  out('  3. register docforge-mcp with your MCP client (stdio; Claude Desktop / Cursor style "mcpServers"):');
  const snippet = { mcpServers: { docforge: { command: 'node', args: [serverBin, '--project-root', yours] } } };
  printRaw(JSON.stringify(snippet, null, 2));
}
