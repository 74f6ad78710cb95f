// Pins the `bundle-cache` tactic (issue 29 item 7; libs/accelerate loadBundle): docforge-mcp's launcher
// compiles its bundle (dist/bundle/main.cjs) from a V8 code cache in DOCFORGE_CODE_CACHE_DIR, written
// when the process exits. Answers are the same with the tactic on and off; with it off nothing is
// written there; a start on a valid cache file reuses it (its bytes unchanged); a damaged cache file is
// replaced by a valid one and the answers stay the same; DOCFORGE_CODE_CACHE_DIR=off writes nowhere; a
// project whose docforge.toml names a project-owned module never compiles from the cache (on Node 20
// such code cannot run `import()`), and its canonical applier still loads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MCP_ENTRY } from './helpers/paths.js';
import { exampleProjectCopy, sharedExampleProject, tempDir } from './helpers/projects.js';
import { searchSteps, stepwiseSession } from './helpers/stepwise.js';

const STEPS = searchSteps('bundle-cache-test');

/** The cache file header libs/accelerate code-cache.cts writes before the SHA-256 and V8's data. */
const MAGIC = 'DFV8CC1\n';

/** Leaves out timing fields (`*_ms`) at any depth, and parses each text block (the structured result as JSON). */
function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !key.endsWith('_ms')).map(([key, item]) => [key, key === 'text' && typeof item === 'string' ? stable(JSON.parse(item)) : stable(item)]));
}

/** One docforge-mcp session through its launcher with `env` and `args` added, `steps` sent in turn: exit status and answers (timings aside). */
async function session(root: string, env: Record<string, string>, args: string[] = [], steps: object[][] = STEPS): Promise<{ status: number | null; answers: unknown[]; stderr: string }> {
  const { status, stdout, stderr } = await stepwiseSession(MCP_ENTRY, ['--project-root', root, '--log-level', 'error', ...args], env, steps);
  return { status, answers: stdout.split('\n').filter(Boolean).map((line) => stable(JSON.parse(line))), stderr };
}

/** The cache files of bundle `name` (`main`, `cli`) in `dir`. */
function cacheFiles(dir: string, name: string): string[] {
  return readdirSync(dir).filter((entry) => new RegExp(`^${name}-[0-9a-f]{24}\\.v8cache$`).test(entry)).map((entry) => path.join(dir, entry));
}

test('docforge-mcp: the bundle compiles through its code cache, written at exit, reused, replaced when damaged, same answers', async () => {
  const root = sharedExampleProject();
  const dir = tempDir('docforge-bundle-cache-');
  const off = await session(root, { DOCFORGE_ACCELERATE: '-bundle-cache', DOCFORGE_CODE_CACHE_DIR: dir });
  assert.equal(off.status, 0, off.stderr);
  assert.equal(off.answers.length, 3);
  assert.deepEqual(cacheFiles(dir, 'main'), [], 'nothing written with the tactic off');

  const first = await session(root, { DOCFORGE_CODE_CACHE_DIR: dir });
  assert.equal(first.status, 0, first.stderr);
  assert.deepEqual(first.answers, off.answers);
  const [file, ...others] = cacheFiles(dir, 'main');
  assert.ok(file !== undefined && others.length === 0, `one cache file of the server bundle: ${readdirSync(dir).join(', ')}`);
  const written = readFileSync(file);
  assert.equal(written.subarray(0, MAGIC.length).toString('latin1'), MAGIC);

  const reused = await session(root, { DOCFORGE_CODE_CACHE_DIR: dir });
  assert.equal(reused.status, 0, reused.stderr);
  assert.deepEqual(reused.answers, off.answers);
  assert.deepEqual(readFileSync(file), written, 'a valid cache file is reused, not written again');

  writeFileSync(file, `${MAGIC}not a cache`);
  const repaired = await session(root, { DOCFORGE_CODE_CACHE_DIR: dir });
  assert.equal(repaired.status, 0, repaired.stderr);
  assert.deepEqual(repaired.answers, off.answers);
  const rewritten = readFileSync(file);
  assert.equal(rewritten.subarray(0, MAGIC.length).toString('latin1'), MAGIC);
  assert.ok(rewritten.length > 1000, 'the damaged file is replaced by cached data');

  const none = tempDir('docforge-bundle-cache-');
  const disabled = await session(root, { DOCFORGE_CODE_CACHE_DIR: 'off', XDG_CACHE_HOME: none });
  assert.equal(disabled.status, 0, disabled.stderr);
  assert.deepEqual(disabled.answers, off.answers);
  assert.deepEqual(readdirSync(none), [], 'DOCFORGE_CODE_CACHE_DIR=off writes no cache');
});

test('a project that names a project-owned module: no compile from the cache, and its canonical applier loads', async () => {
  const dir = tempDir('docforge-bundle-cache-');
  const shared = await session(sharedExampleProject(), { DOCFORGE_CODE_CACHE_DIR: dir });
  assert.equal(shared.status, 0, shared.stderr);
  const [file] = cacheFiles(dir, 'main');
  assert.ok(file !== undefined, 'a cache file exists');
  const cached = readFileSync(file);
  const root = exampleProjectCopy();
  const descriptor = path.join(root, 'docforge.toml');
  writeFileSync(descriptor, readFileSync(descriptor, 'utf8').replace('canonical_applier = "generic"', 'module = "adapter.mjs"'));
  writeFileSync(path.join(root, 'adapter.mjs'), "export const version = '1.0.0';\nexport function extract() { return { nodes: [], edges: [] }; }\nexport const canonicalApplier = { interface_version: 1, stage: ({ after }) => after };\n");
  const apply = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'docforge_apply_changeset', arguments: { changeset_id: 'cs-none', changeset_sha256: '0'.repeat(64) } } };
  const run = await session(root, { DOCFORGE_CODE_CACHE_DIR: dir }, ['--proposal-writer', 'agent', '--canonical-applier', 'reviewer'], [STEPS[0]!, STEPS[1]!, [apply]]);
  assert.equal(run.status, 0, run.stderr);
  const answer = JSON.stringify(run.answers[2]);
  assert.ok(!answer.includes('canonical_applier_unavailable'), `the canonical applier loads: ${answer.slice(0, 500)}`);
  assert.deepEqual(cacheFiles(dir, 'main'), [file]);
  assert.deepEqual(readFileSync(file), cached, 'the cache is neither used nor written again');
});
