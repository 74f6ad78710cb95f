// Pins that a build loads a tree-sitter grammar only when a file it parses needs it (issue 33): strategy `lexical` loads
// none, a C-only project (`[adapter.c] headers = "c"`, tree-sitter's own C runtime as input) loads the C grammar and not
// C++'s, and the first C++ file loads C++'s; the output is the same as with every grammar loaded up front.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cheapIdentity, loadDescriptor, walkSources } from '@docforge/project';
import { TREE_MANIFESTS, loadTreeAdapters } from '@docforge/adapter-treesitter';
import { setAdapterLoader } from '@docforge/identity';
import { loadBuiltinAdapter } from '../src/adapter-loader.js';
import { parseBatch } from '../src/parse.js';
import { runBuild } from '../src/build.js';
import { BuildCaches } from '../src/build-caches.js';

const C = 'tree-sitter-c/tree-sitter-c.wasm';
const CPP = '@vscode/tree-sitter-wasm/wasm/tree-sitter-cpp.wasm';
const root = realpathSync(mkdtempSync(join(tmpdir(), 'docforge-grammar-on-demand-')));
after(() => rmSync(root, { recursive: true, force: true }));
setAdapterLoader(loadBuiltinAdapter);
const caches = new BuildCaches();
const extensions = TREE_MANIFESTS.find((m) => m.id === 'cpp')!.extensions;
// tree-sitter's C runtime as web-tree-sitter ships it (.c and .h; nobody here wrote it).
const runtime = join(dirname(createRequire(import.meta.url).resolve('web-tree-sitter')), 'lib');

function descriptor(strategy: string): void {
  writeFileSync(join(root, 'docforge.toml'), ['schema_version = 1', '[project]', 'id = "p"', 'name = "P"', '[sources]', 'content_roots = ["docs"]',
    'code_roots = ["src"]', '[adapter]', 'code = "cpp"', `strategy = "${strategy}"`, '[adapter.c]', 'headers = "c"', ''].join('\n'));
}

async function build(generation: number): Promise<void> {
  const d = loadDescriptor(root);
  const walk = walkSources(d, [...extensions]);
  const outcome = await runBuild({ root, stateDir: join(root, d.state.dir), entries: walk.entries, walkIssues: walk.issues, sourceIdentity: cheapIdentity(walk.entries, []), logicAllowed: true, minGeneration: generation }, caches);
  assert.equal(outcome.ok, true, JSON.stringify(outcome));
}

test('lexical loads no grammar; a C-only project loads only C; a .cpp file then loads C++', async () => {
  const { isGrammarReady } = await loadTreeAdapters();
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'docs', 'a.md'), '# A\n\nText.\n');
  cpSync(runtime, join(root, 'src'), { recursive: true, filter: (src) => !/\.(wasm|map|cjs|js)$/.test(src) });
  assert.ok(readdirSync(join(root, 'src')).filter((f) => f.endsWith('.c')).length >= 10);
  descriptor('lexical');
  await build(1);
  assert.deepEqual([isGrammarReady(C), isGrammarReady(CPP)], [false, false], 'strategy lexical parses with no grammar');
  descriptor('ast');
  await build(2);
  assert.deepEqual([isGrammarReady(C), isGrammarReady(CPP)], [true, false], 'a C-only project never loads the C++ grammar');
  writeFileSync(join(root, 'src', 'probe.cpp'), 'namespace n {\nint f(int a) { return a; }\n}\n');
  await build(3);
  assert.deepEqual([isGrammarReady(C), isGrammarReady(CPP)], [true, true]);
});

test('C files parsed through prepare give what they give with every grammar loaded up front', async () => {
  const { initTreeLanguage } = await loadTreeAdapters();
  const entries = walkSources(loadDescriptor(root), [...extensions]).entries.filter((e) => e.path === 'src/parser.c' || e.path === 'src/subtree.h');
  assert.equal(entries.length, 2);
  const before = await parseBatch({ root, entries, knownHashes: {}, logicAllowed: true });
  await initTreeLanguage('cpp');
  const again = await parseBatch({ root, entries, knownHashes: {}, logicAllowed: true });
  assert.deepEqual(again, before);
  const nodes = before.flatMap((item) => (item.reuse ? [] : item.source.nodes.map((n) => n.id)));
  assert.ok(nodes.includes('code:src/parser.c#ts_parser_parse'), nodes.slice(0, 20).join(', '));
  assert.ok(before.every((item) => !item.reuse && item.source.issues.every((i) => i.code !== 'adapter_extraction_failed')));
});
