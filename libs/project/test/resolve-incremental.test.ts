// Pins incremental resolution (issue 14): after every edit, IncrementalResolver.update returns exactly
// what resolveGraph returns from scratch (nodes, edges with mentions, issues, mention counts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withContentHash, type GraphEdge, type GraphNode } from '@docforge/core';
import { IncrementalResolver, parseContentSource, resolveGraph, type Descriptor, type ResolveSource } from '../src/index.js';
import { testDescriptor } from './helpers.js';

const desc = testDescriptor();

function parsed(path: string, text: string, descriptor: Descriptor = desc): ResolveSource {
  const result = parseContentSource({ path, text, descriptor });
  return { path, nodes: result.nodes, edges: result.edges, links: result.links };
}

function codeFile(path: string, names: string[], exported: string[]): ResolveSource {
  const make = (id: string, kind: string, title: string): GraphNode => withContentHash({
    id, kind, title, family: null, authority: null, status: null, tags: [], summary: '', body: '',
    source_path: path, start_line: 1, end_line: 10, anchors: [], language: 'javascript', capabilities: [], origin: 'code',
  });
  const nodes = [make(`code:${path}`, 'module', path), ...names.map((n) => make(`code:${path}#${n}`, 'function', n))];
  const edges: GraphEdge[] = exported.map((n) => ({ source_id: `code:${path}`, relation: 'defines', target_id: `code:${path}#${n}`, source_path: path, line: 1 }));
  return { path, nodes, edges, links: [] };
}

const fm = (id: string, body: string, relations = '', title = id): string => `+++\nid = "${id}"\nkind = "requirement"\ntitle = "${title}"\n${relations}+++\n# ${title}\n\n${body}\n`;

/** A project state: path -> source; code paths are the paths of code sources. */
type State = Map<string, ResolveSource>;

function check(resolver: IncrementalResolver, state: State, step: string, extra: { descriptor?: Descriptor; exists?: Set<string> } = {}): void {
  const sources = [...state.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
  const codePaths = new Set(sources.filter((s) => s.nodes.some((n) => n.origin === 'code')).map((s) => s.path));
  const exists = extra.exists;
  const input = {
    descriptor: extra.descriptor ?? desc, sources, codePaths, isCodeSourcePath: (p: string) => p.startsWith('src/') && p.endsWith('.ts'),
    ...(exists === undefined ? {} : { pathExists: (p: string) => exists.has(p) }),
  };
  const full = resolveGraph(input);
  const incremental = resolver.update({ ...input, sources: [...sources].reverse() });
  assert.deepEqual(incremental.nodes, full.nodes, `${step}: nodes`);
  assert.deepEqual(incremental.edges, full.edges, `${step}: edges`);
  assert.deepEqual(incremental.issues, full.issues, `${step}: issues`);
  assert.deepEqual(incremental.mentions, full.mentions, `${step}: mention counts`);
}

test('incremental resolution equals a full resolution after adding, removing and renaming targets, ids, titles, files and duplicates', () => {
  const resolver = new IncrementalResolver();
  const state: State = new Map();
  const put = (source: ResolveSource): void => {
    state.set(source.path, source);
  };
  put(parsed('docs/a.md', fm('A', 'See [b](b.md), [c](c.md#intro), [code](../src/x.ts) and [guide](guide).', '[relations]\ndepends_on = ["B", "GHOST"]\n')));
  put(parsed('docs/b.md', fm('B', 'Back to [a](a.md).', '[relations]\nrelates_to = "A"\n')));
  put(parsed('docs/guide.md', '# Guide\n\nUses `x.run()`, `src/x.ts`, `Twice.go` and [missing](missing.md).\n'));
  put(codeFile('src/x.ts', ['run', 'Twice.go'], ['run']));
  check(resolver, state, 'initial');
  check(resolver, state, 'no change');

  put(parsed('docs/c.md', fm('C', 'New page.\n\n## Intro\n')));
  check(resolver, state, 'a link target appears (c.md) and its anchor resolves');
  put(parsed('docs/ghost.md', fm('GHOST', 'Now exists.')));
  check(resolver, state, 'a dangling relation target appears');
  put(parsed('docs/c.md', fm('C', 'Renamed section.\n\n## Outro\n', '', 'C renamed')));
  check(resolver, state, 'a title and the linked anchor change');
  put(parsed('docs/b.md', fm('B2', 'Back to [a](a.md).', '[relations]\nrelates_to = "A"\n')));
  check(resolver, state, 'an id is renamed (B -> B2): depends_on B dangles');
  put(parsed('docs/z.md', fm('A', 'A duplicate of A that loses.', '[relations]\nrelates_to = "B2"\n')));
  check(resolver, state, 'a losing duplicate appears');
  put(parsed('docs/0.md', fm('A', 'A duplicate of A that wins.', '[relations]\nrelates_to = "C"\n')));
  check(resolver, state, 'a winning duplicate appears');
  state.delete('docs/0.md');
  check(resolver, state, 'the winning duplicate is deleted');
  state.delete('docs/c.md');
  put(parsed('docs/sub/c.md', fm('C', 'Moved.\n\n## Intro\n')));
  check(resolver, state, 'a file moves (c.md -> sub/c.md)');
  put(parsed('docs/guide/index.md', '# Guide index\n'));
  check(resolver, state, 'an extensionless link finds its page');
  put(codeFile('src/x.ts', ['run', 'walk', 'Twice.go'], ['run', 'walk']));
  check(resolver, state, 'code ids and exports change (mentions)');
  put(codeFile('src/y.ts', ['Twice.go'], []));
  check(resolver, state, 'a mention becomes ambiguous');
  const linkEdge = (from: string, to: string): GraphEdge => ({ source_id: from, relation: 'calls', target_id: to, source_path: 'src/x.ts', line: 3 });
  put({ path: '\u0000link', nodes: [], edges: [linkEdge('code:src/x.ts#run', 'code:src/y.ts#Twice.go'), linkEdge('code:src/x.ts#walk', 'code:src/z.ts#gone')], links: [] });
  check(resolver, state, 'linked code edges (a pseudo-source) appear');
  put(codeFile('src/z.ts', ['gone'], []));
  check(resolver, state, 'a code target of a linked edge appears (no pseudo-source change)');
  put(codeFile('src/y.ts', ['Other'], []));
  check(resolver, state, 'a code target of a linked edge disappears');
  state.delete('src/x.ts');
  check(resolver, state, 'a documented code file is deleted');
  put(parsed('docs/a.md', fm('A', 'Only [b2](b.md) now.', '[relations]\ndepends_on = "B2"\n')));
  check(resolver, state, 'links and relations are removed');
  state.delete('docs/ghost.md');
  state.delete('docs/z.md');
  check(resolver, state, 'files deleted');
});

test('incremental resolution re-checks the file system and follows the relation vocabulary', () => {
  const resolver = new IncrementalResolver();
  const state: State = new Map();
  state.set('docs/home.md', parsed('docs/home.md', '# Home\n\n[assets](assets) and [other](guides/none).\n'));
  state.set('docs/b.md', parsed('docs/b.md', fm('B', 'Text.', '[relations]\nblesses = "B"\nrelates_to = "C"\n')));
  state.set('docs/c.md', parsed('docs/c.md', fm('C', 'Text.')));
  const exists = new Set<string>();
  check(resolver, state, 'nothing exists', { exists });
  exists.add('docs/assets');
  check(resolver, state, 'a directory appears (no source changed)', { exists });
  const closed = testDescriptor({ vocabulary: { ...desc.vocabulary, relations: [] } });
  check(resolver, state, 'closed vocabulary', { exists, descriptor: closed });
  state.set('docs/c.md', parsed('docs/c.md', fm('C', 'Text.', '[relations]\nblesses = "B"\n'), closed));
  check(resolver, state, 'an undeclared relation appears', { exists, descriptor: closed });
  check(resolver, state, 'open vocabulary again', { exists });
});

test('incremental resolution follows byte-identical copies appearing and going (new-user trial on lru-cache)', () => {
  const resolver = new IncrementalResolver();
  const state: State = new Map();
  const copy = (path: string, hash: string): ResolveSource => ({ ...codeFile(path, ['Cache', 'Cache.dispose'], ['Cache']), content_hash: hash });
  state.set('docs/guide.md', parsed('docs/guide.md', '# Guide\n\nCall `Cache.dispose` to release.\n'));
  state.set('dist/index.js', copy('dist/index.js', 'h1'));
  state.set('dist/node/index.js', copy('dist/node/index.js', 'h1'));
  check(resolver, state, 'two copies: the mention links the kept one');
  const linked = resolveGraph({ descriptor: desc, sources: [...state.values()], codePaths: new Set(['dist/index.js', 'dist/node/index.js']) });
  assert.deepEqual(linked.edges.filter((e) => e.relation === 'documents').map((e) => e.target_id), ['code:dist/index.js#Cache.dispose']);
  state.set('dist/node/index.js', copy('dist/node/index.js', 'h2'));
  check(resolver, state, 'no longer a copy: ambiguous');
  state.set('dist/node/index.js', copy('dist/node/index.js', 'h1'));
  check(resolver, state, 'a copy again');
});
