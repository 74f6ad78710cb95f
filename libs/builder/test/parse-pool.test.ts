// Pins parallel parsing (issue 14): which builds parse on every core, and that parse threads
// (started ahead of time or not) give exactly what one thread gives, in the entries' order.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDescriptor, walkSources, type SourceEntry } from '@docforge/project';
import { typescriptManifest } from '@docforge/adapter-typescript';
import { loadBuiltinAdapter } from '../src/adapter-loader.js';
import { setAdapterLoader } from '@docforge/identity';
import { parseBatch, type ParseBatchTask } from '../src/parse.js';
import { CONTENT_BYTE_WEIGHT, PARALLEL_PARSE_MIN_CODE_BYTES, PARALLEL_PARSE_MIN_FILES, ParsePool, parsesInParallel } from '../src/parse-pool.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'docforge-parse-pool-')));
after(() => rmSync(root, { recursive: true, force: true }));
setAdapterLoader(loadBuiltinAdapter);

function entry(path: string, role: 'content' | 'code', size: number): SourceEntry {
  return { path, role, size, mtime_ns: '0', ctime_ns: '0', ino: '0' };
}

test('a build parses on every core only with many files holding much to parse, a content byte weighing a third of a code byte', () => {
  const many = (count: number, role: 'content' | 'code', size: number) => Array.from({ length: count }, (_, i) => entry(`f${i}`, role, size));
  assert.equal(parsesInParallel(many(PARALLEL_PARSE_MIN_FILES - 1, 'code', PARALLEL_PARSE_MIN_CODE_BYTES)), false, 'too few files');
  // fastify's package: 2.3 MB of code and 0.6 MB of Markdown in 326 files parse faster in one thread.
  assert.equal(parsesInParallel([...many(250, 'code', 9_000), ...many(76, 'content', 8_500)]), false);
  // Documentation: the generated 10,000-node corpus (9,845 pages, 11 MiB) inline; the 20,000- and
  // 100,000-node ones (22 and 110 MiB; ops/bench/generate.mjs) on every core (issue 35).
  assert.equal(parsesInParallel(many(9_845, 'content', 1_170)), false);
  assert.equal(parsesInParallel(many(19_605, 'content', 1_175)), true);
  assert.equal(parsesInParallel(many(98_005, 'content', 1_175)), true);
  // The weight: 18 MiB of content alone, or code and a third of the content's bytes reaching 6 MiB.
  const contentBytes = PARALLEL_PARSE_MIN_CODE_BYTES / CONTENT_BYTE_WEIGHT;
  assert.equal(parsesInParallel(many(1_000, 'content', Math.ceil(contentBytes / 1_000))), true);
  assert.equal(parsesInParallel(many(1_000, 'content', Math.floor(contentBytes / 1_000) - 1)), false);
  assert.equal(parsesInParallel([...many(1_000, 'code', 5_000), ...many(500, 'content', 8_000)]), true);
  assert.equal(parsesInParallel([...many(1_000, 'code', 5_000), ...many(500, 'content', 7_500)]), false);
  // A large code base.
  assert.equal(parsesInParallel(many(2_000, 'code', 4_000)), true);
});

test('parse threads give the same items as one thread, in the order of the entries', async () => {
  mkdirSync(join(root, 'docs'), { recursive: true });
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "p"\nname = "P"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["src"]\n[adapter]\ncode = "typescript"\n');
  for (let i = 0; i < 150; i += 1) {
    writeFileSync(join(root, 'docs', `page-${i}.md`), `# Page ${i}\n\n${'Some words. '.repeat(i % 40)}\n\nSee [next](page-${i + 1}.md) and \`f${i}\`.\n`);
    writeFileSync(join(root, 'src', `m${i}.ts`), `import { f${i + 1} } from './m${i + 1}.js';\n/** F ${i}. */\nexport function f${i}(x: number): number {\n${'  x += 1;\n'.repeat(i % 30)}  return f${i + 1}(x);\n}\n`);
  }
  writeFileSync(join(root, 'src', 'bad.js'), Buffer.from([0xff, 0xfe, 0x00, 0x41]));
  writeFileSync(join(root, 'src', 'gone.js'), 'export const gone = 1;\n');
  const descriptor = loadDescriptor(root);
  const entries = walkSources(descriptor, [...typescriptManifest.extensions]).entries;
  rmSync(join(root, 'src', 'gone.js'));
  const known = entries.find((e) => e.path === 'docs/page-3.md')!;
  const task: ParseBatchTask = { root, entries, knownHashes: { [known.path]: 'not its hash', 'docs/page-4.md': '' }, logicAllowed: true };
  const inline = await parseBatch(task);
  const pool = new ParsePool();
  const counts: number[] = [];
  const parallel = await pool.parse(task, (done) => counts.push(done));
  assert.deepEqual(parallel, inline);
  assert.deepEqual(parallel.map((item) => item.entry.path), entries.map((e) => e.path));
  assert.equal(counts.at(-1), entries.length);
  assert.ok(counts.every((n, i) => i === 0 || n > counts[i - 1]!), 'progress only grows');
  // Threads started ahead of a build (a cold build's first step) parse the same.
  pool.prestart(['typescript']);
  assert.deepEqual(await pool.parse(task, () => undefined), inline);
});
