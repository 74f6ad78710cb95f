// Pins that the start-up accelerators change no answer (issue 29 item 2): the CLI (through its
// launcher) and docforge-mcp run the same steps on two copies of a project, one with every tactic
// on and one with DOCFORGE_ACCELERATE=off, on examples/ and on fastify's docs and lib (TypeScript
// adapter), and every answer compares equal: the sync results of a cold build, a no-change sync
// and a one-file edit (all fields but the index file's name, inode and size, the receipt's and the
// publication time), CLI search, and the structuredContent of MCP sync, search, get_node, impact
// and get_task_context (minus timing fields). Also: an unknown tactic name is refused.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { EXAMPLES_DIR, REPO_ROOT } from './helpers/paths.js';
import { fastifyProjectCopy, tempCopy } from './helpers/projects.js';
import { useServer, type Json } from './helpers/server.js';

const LAUNCHER = path.join(REPO_ROOT, 'apps/cli/bin/docforge.js');
/** Blank means every tactic on, whatever the test runner's own environment says. */
const MODES = { on: '', off: 'off' } as const;
type Mode = keyof typeof MODES;

/**
 * Fields that differ between two equal publications of two copies: file names, inodes, sizes, times,
 * durations, and the source identity (a hash of the sources' lstat: inodes and mtimes differ per copy).
 */
const VOLATILE = new Set(['source_identity', 'index_file', 'index_ino', 'index_size', 'receipt_ino', 'receipt_size', 'receipt_hash', 'published_at', 'active_index_path']);

/** `value` with `root` replaced by `<root>` in every string and the volatile fields (and any `*_ms`) left out. */
function stable(value: unknown, root: string): unknown {
  if (typeof value === 'string') return value.split(root).join('<root>');
  if (Array.isArray(value)) return value.map((item) => stable(item, root));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (!VOLATILE.has(key) && !key.endsWith('_ms')) out[key] = stable(item, root);
  return out;
}

/** One CLI run through the launcher with DOCFORGE_ACCELERATE set for `mode`; JSON stdout parsed. */
function cli(mode: Mode, root: string, args: string[]): unknown {
  const result = spawnSync(process.execPath, [LAUNCHER, ...args, '--json', '-C', root], {
    encoding: 'utf8', timeout: 180_000, env: { ...process.env, DOCFORGE_ACCELERATE: MODES[mode] },
  });
  assert.equal(result.status, 0, `${mode} docforge ${args.join(' ')}: ${result.stderr}`);
  return stable(JSON.parse(result.stdout), root);
}

interface Project {
  /** A fresh copy of the project. */
  copy(): string;
  /** The file a one-file edit appends a comment to (relative to the root). */
  edit: string;
  search: string;
  node: string;
  impact: Json;
  task: Json;
}

/** The answers of one mode: CLI sync (cold, no change, edit) and search, then the MCP tools. */
async function answers(mode: Mode, project: Project): Promise<Record<string, unknown>> {
  const root = project.copy();
  const out: Record<string, unknown> = {};
  out['cli cold sync'] = cli(mode, root, ['sync']);
  out['cli no-change sync'] = cli(mode, root, ['sync']);
  appendFileSync(path.join(root, project.edit), '\n// accelerators-off edit\n');
  out['cli edit sync'] = cli(mode, root, ['sync']);
  out['cli search'] = cli(mode, root, ['search', project.search]);
  const server = await useServer(root, { env: { DOCFORGE_ACCELERATE: MODES[mode] } });
  try {
    const calls: [string, string, Json][] = [
      ['sync', 'docforge_sync', {}],
      ['search', 'docforge_search', { query: project.search, limit: 20 }],
      ['get_node', 'docforge_get_node', { node_id: project.node }],
      ['impact', 'docforge_impact', project.impact],
      ['get_task_context', 'docforge_get_task_context', project.task],
    ];
    for (const [name, tool, args] of calls) {
      const envelope = await server.call(tool as Parameters<typeof server.call>[0], args);
      assert.equal(envelope.ok, true, `${mode} ${tool}: ${JSON.stringify(envelope.error)}`);
      out[`mcp ${name}`] = stable(envelope, root);
    }
  } finally {
    await server.close();
  }
  return out;
}

const FASTIFY_DESCRIPTOR = [
  'schema_version = 1', '[project]', 'id = "fastify"', 'name = "Fastify"', '[sources]', 'content_roots = ["docs"]', 'code_roots = ["."]',
  'exclude = ["**/node_modules/**"]', '[adapter]', 'code = "typescript"', 'strategy = "ast"', '',
].join('\n');

const PROJECTS: Record<string, Project> = {
  'examples/': {
    copy: () => tempCopy(EXAMPLES_DIR, 'docforge-accel-'),
    edit: 'src/ledger/ledger.ts',
    search: 'refund ledger',
    node: 'code:src/ledger/ledger.ts#Ledger.refund',
    impact: { node_id: 'REQ-PAY-002', depth: 3, limit: 200 },
    task: { task_kind: 'test', task: 'Which tests prove that authorization requests are idempotent?', limit: 200 },
  },
  "fastify's docs and lib": {
    copy: () => fastifyProjectCopy(['docs', 'lib', 'fastify.js', 'package.json'], FASTIFY_DESCRIPTOR, 'docforge-accel-fastify-'),
    edit: 'lib/route.js',
    search: 'route handler',
    node: 'code:lib/route.js',
    impact: { node_id: 'code:lib/route.js', depth: 2, limit: 200 },
    task: { task_kind: 'change', task: 'Change how a route registers its handler', focus_node_id: 'code:lib/route.js', limit: 200 },
  },
};

describe('every answer is the same with the start-up accelerators off', () => {
  for (const [name, project] of Object.entries(PROJECTS)) {
    test(name, { timeout: 600_000 }, async () => {
      const on = await answers('on', project);
      const off = await answers('off', project);
      for (const key of Object.keys(on)) assert.deepEqual(off[key], on[key], `${name}: ${key}`);
      assert.equal((on['cli cold sync'] as Json)['rebuilt'], true);
      assert.equal((on['cli no-change sync'] as Json)['rebuilt'], false);
      assert.equal((on['cli edit sync'] as Json)['rebuilt'], true);
    });
  }
});

test('an unknown tactic name is refused by the CLI and by docforge-mcp, with status 2 and the known names', () => {
  const env = { ...process.env, DOCFORGE_ACCELERATE: '-no-such-tactic' };
  const sync = spawnSync(process.execPath, [LAUNCHER, 'sync', '-C', EXAMPLES_DIR], { encoding: 'utf8', timeout: 60_000, env });
  assert.equal(sync.status, 2);
  assert.equal(sync.stdout, '');
  assert.match(sync.stderr, /^docforge: DOCFORGE_ACCELERATE="-no-such-tactic": "-no-such-tactic" is not a known tactic; .*cli-bundle.*worker-bundle\n$/);
  const mcp = spawnSync(process.execPath, [path.join(REPO_ROOT, 'apps/mcp-server/dist/src/main.js'), '--project-root', EXAMPLES_DIR], { encoding: 'utf8', timeout: 60_000, env, input: '' });
  assert.equal(mcp.status, 2);
  assert.match(mcp.stderr, /^docforge-mcp: DOCFORGE_ACCELERATE=.*is not a known tactic/);
});
