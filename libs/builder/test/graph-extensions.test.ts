// Pins what the build adds after resolution: link capabilities (package.json entrypoints) on copies of nodes, project-owned adapter nodes and edges with their failure modes, and the no-Logic policy check before publication.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { withContentHash, type CodeAdapter, type GraphNode } from '@docforge/core';
import { fingerprintProjectAdapter, walkSources, cheapIdentity, loadDescriptor } from '@docforge/project';
import { stateLayout } from '@docforge/fs-safe';
import { registerCodeAdapter } from '@docforge/identity';
import { runBuild } from '../src/build.js';
import { BuildCaches } from '../src/build-caches.js';
import type { BuildTask } from '../src/build-types.js';
import { extendGraph } from '../src/project-adapter.js';
import Database from 'better-sqlite3';
import { IndexReader } from '@docforge/store';
import { readPublication } from '@docforge/store';

/** The caches a build worker would keep between these builds. */
const caches = new BuildCaches();
const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'docforge-index-')));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function taskFor(root: string, extra: Partial<BuildTask> = {}): BuildTask {
  const descriptor = loadDescriptor(root);
  const walk = walkSources(descriptor, ['.ts', '.js']);
  return {
    root,
    stateDir: join(root, descriptor.state.dir),
    entries: walk.entries,
    walkIssues: walk.issues,
    sourceIdentity: cheapIdentity(walk.entries, []),
    logicAllowed: true,
    minGeneration: 1,
    ...extra,
  };
}

function node(id: string, capabilities: string[]): GraphNode {
  return withContentHash({
    id, kind: 'module', title: id, family: null, authority: null, status: null, tags: [], summary: '', body: '', source_path: 'a.js',
    start_line: 1, end_line: 1, anchors: [], language: 'javascript', capabilities, origin: 'code',
  });
}

test('extendGraph adds capabilities to copies with a recomputed hash and never mutates the given nodes', () => {
  const a = node('code:a.js', ['test']);
  const b = node('code:b.js', ['entrypoint']);
  const frozen = [Object.freeze(a), Object.freeze(b)];
  const result = extendGraph({ nodes: frozen, edges: [] }, new Map([['code:a.js', ['entrypoint']], ['code:b.js', ['entrypoint']], ['code:zz.js', ['entrypoint']]]), null);
  assert.deepEqual(result.nodes[0]!.capabilities, ['entrypoint', 'test']);
  assert.notEqual(result.nodes[0], a);
  assert.equal(result.nodes[0]!.content_hash, node('code:a.js', ['entrypoint', 'test']).content_hash);
  assert.deepEqual(a.capabilities, ['test'], 'the cached node is untouched');
  assert.equal(result.nodes[1], b, 'a node that already has the capability is kept as is');
  assert.equal(result.nodes.length, 2, 'unknown ids are ignored');
});

const DESCRIPTOR = (extra = ''): string => `schema_version = 1\n[project]\nid = "t"\nname = "T"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["src"]\n[adapter]\ncode = "typescript"\n${extra}`;

test('a nonempty Logic projection under a no-Logic policy is rejected before publication', async () => {
  // A rogue adapter that ignores `input.logic` stands in for any adapter that would emit Logic.
  const rogue: CodeAdapter = {
    id: 'typescript',
    version: 'rogue',
    extensions: ['.ts'],
    extract: (input) => ({
      nodes: [withContentHash({ ...node(`code:${input.path}`, []), source_path: input.path, language: 'typescript' })],
      edges: [],
      issues: [],
      logic_steps: [{ owner_id: `code:${input.path}`, step: 0, kind: 'entry', label: 'x', start_line: 1, end_line: 1 }],
      logic_flows: [],
      link_data: null,
    }),
    link: () => ({ edges: [], issues: [], stats: {} }),
  };
  registerCodeAdapter(rogue);
  caches.reset();
  const root = tree({ 'docforge.toml': DESCRIPTOR(), 'docs/a.md': '# A\n', 'src/x.ts': 'export const x = 1;\n' });
  const outcome = await runBuild(taskFor(root, { logicAllowed: false }), caches);
  assert.equal(outcome.ok, false);
  assert.equal(outcome.ok ? '' : outcome.error.code, 'policy_violation');
  assert.equal(readPublication(stateLayout(join(root, '.docforge'))), null, 'nothing was published');
  // The same sources under a Logic-allowing policy publish, with Logic.
  const allowed = await runBuild(taskFor(root, { logicAllowed: true }), caches);
  assert.equal(allowed.ok, true);
  assert.equal(allowed.ok && allowed.publication.logic_present, true);
  caches.reset();
});

const ADAPTER = `import { label } from './lib/label.mjs';
export const version = '2.1.0';
export const inputs = ['services/*.json'];
export const proposalOperations = ['node_update', 'node_create'];
export function extract({ files, nodes }) {
  if (files.some((f) => f.path === 'services/boom.json')) throw new Error('boom');
  const out = { nodes: [], edges: [] };
  for (const f of files) {
    const s = JSON.parse(f.content);
    out.nodes.push({ id: 'service:' + s.name, kind: 'service', title: label(s.name), source_path: f.path, tags: ['b', 'a', 'a'], capabilities: ['x'] });
    out.edges.push({ source_id: 'doc-a', relation: 'documents', target_id: 'service:' + s.name });
  }
  out.edges.push({ source_id: 'service:billing', relation: 'calls', target_id: 'service:ghost' });
  out.nodes.push({ id: 'doc-a', kind: 'service' });
  out.nodes.push({ kind: 'service' });
  out.meta = nodes.length;
  return out;
}
`;

function adapterProject(): string {
  return tree({
    'docforge.toml': DESCRIPTOR('module = ".docforge/adapter.mjs"\n'),
    'docs/a.md': '+++\nid = "doc-a"\nkind = "document"\ntitle = "A"\n+++\n# A\n',
    'src/x.ts': 'export const x = 1;\n',
    'services/billing.json': '{"name":"billing"}',
    '.docforge/adapter.mjs': ADAPTER,
    '.docforge/lib/label.mjs': "export function label(name) { return 'Service ' + name; }\n",
  });
}

test('a project-owned adapter adds validated nodes and edges; dangling edges, duplicates and bad nodes become issues', async () => {
  registerCodeAdapter({ id: 'typescript', version: 't', extensions: ['.ts'], extract: (input) => ({ nodes: [withContentHash({ ...node(`code:${input.path}`, []), source_path: input.path })], edges: [], issues: [], logic_steps: [], logic_flows: [], link_data: null }), link: () => ({ edges: [], issues: [], stats: {} }) });
  caches.reset();
  caches.projectAdapter.reset();
  const root = adapterProject();
  const fp = fingerprintProjectAdapter(root, '.docforge/adapter.mjs');
  const outcome = await runBuild(taskFor(root, { projectAdapter: { module: '.docforge/adapter.mjs', fingerprint: fp.fingerprint }, identityExtra: [] }), caches);
  assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome.error));
  assert.deepEqual(outcome.adapter, { loaded: true, version: '2.1.0', inputs: ['services/*.json'], proposal_operations: ['node_create', 'node_update'], error: null });
  assert.match(outcome.publication.adapter_version, new RegExp(`\\+project@2\\.1\\.0#${fp.fingerprint.slice(0, 12)}$`));
  const reader = new IndexReader(join(root, '.docforge/index', outcome.publication.index_file));
  try {
    const service = reader.getNode('service:billing')!;
    assert.equal(service.origin, 'adapter');
    assert.equal(service.title, 'Service billing');
    assert.equal(service.source_path, 'services/billing.json');
    assert.deepEqual(service.tags, ['a', 'b']);
    const { content_hash: hash, ...rest } = service;
    assert.equal(hash, withContentHash({ ...rest }).content_hash);
    const db = new Database(reader.file, { readonly: true, fileMustExist: true });
    const edges = db.prepare("SELECT source_id, relation, target_id FROM edges WHERE target_id LIKE 'service:%' OR source_id LIKE 'service:%'").all();
    assert.deepEqual(edges, [{ source_id: 'doc-a', relation: 'documents', target_id: 'service:billing' }]);
    const issues = db.prepare("SELECT severity, code FROM issues WHERE code IN ('dangling_relation', 'duplicate_id', 'adapter_invalid_node') ORDER BY code").all();
    assert.deepEqual(issues, [
      { severity: 'error', code: 'adapter_invalid_node' },
      { severity: 'error', code: 'dangling_relation' },
      { severity: 'error', code: 'duplicate_id' },
    ]);
    db.close();
    assert.equal(reader.getNode('doc-a')!.kind, 'document', 'the document keeps its id; the adapter duplicate is dropped');
  } finally {
    reader.close();
  }
  // An adapter exception with a last publication fails the build (the last publication keeps being served).
  writeFileSync(join(root, 'services/boom.json'), '{"name":"boom"}');
  const failed = await runBuild(taskFor(root, { projectAdapter: { module: '.docforge/adapter.mjs', fingerprint: fp.fingerprint }, identityExtra: [] }), caches);
  assert.equal(failed.ok, false);
  assert.equal(!failed.ok && failed.error.code, 'adapter_failed');
  assert.match(!failed.ok ? failed.error.message : '', /boom/);
  assert.equal(readPublication(stateLayout(join(root, '.docforge')))!.generation, outcome.publication.generation);
  // Without a last publication it publishes without the adapter's contribution and an adapter_failed issue.
  rmSync(join(root, '.docforge/index'), { recursive: true, force: true });
  caches.reset();
  const first = await runBuild(taskFor(root, { projectAdapter: { module: '.docforge/adapter.mjs', fingerprint: fp.fingerprint }, identityExtra: [] }), caches);
  assert.ok(first.ok);
  const reader2 = new IndexReader(join(root, '.docforge/index', first.publication.index_file));
  try {
    assert.equal(reader2.getNode('service:billing'), null);
    assert.equal(reader2.issues(100).issues.filter((issue) => issue.code === 'adapter_failed').length, 1);
  } finally {
    reader2.close();
  }
  caches.reset();
});

test('the build worker refuses adapter files that no longer hash to the process-start fingerprint', async () => {
  caches.reset();
  caches.projectAdapter.reset();
  const root = adapterProject();
  const fp = fingerprintProjectAdapter(root, '.docforge/adapter.mjs');
  appendFileSync(join(root, '.docforge/lib/label.mjs'), '// edited after start\n');
  const outcome = await runBuild(taskFor(root, { projectAdapter: { module: '.docforge/adapter.mjs', fingerprint: fp.fingerprint }, identityExtra: [] }), caches);
  assert.equal(outcome.ok, false);
  assert.equal(!outcome.ok && outcome.error.code, 'adapter_restart_required');
  assert.equal(existsSync(join(root, '.docforge/index/current.json')), false);
  caches.projectAdapter.reset();
});

test('a module without version or extract is reported as not loaded, with adapter_failed', async () => {
  caches.reset();
  caches.projectAdapter.reset();
  const root = tree({ 'docforge.toml': DESCRIPTOR('module = "adapter.mjs"\n'), 'docs/a.md': '# A\n', 'adapter.mjs': 'export const inputs = [];\n' });
  const fp = fingerprintProjectAdapter(root, 'adapter.mjs');
  const outcome = await runBuild(taskFor(root, { projectAdapter: { module: 'adapter.mjs', fingerprint: fp.fingerprint }, identityExtra: [] }), caches);
  assert.ok(outcome.ok);
  assert.equal(outcome.adapter?.loaded, false);
  assert.equal(outcome.adapter?.error?.code, 'adapter_failed');
  assert.match(outcome.adapter?.error?.message ?? '', /version/);
  caches.projectAdapter.reset();
});
