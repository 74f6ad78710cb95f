// Pins code in the graph end to end over stdio on real code nobody here wrote: fastify's lib/, fastify.js and docs/ with the TypeScript adapter (strategy ast, then lexical), checked against the source text.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FASTIFY_DIR } from './helpers/paths.js';
import { fastifyProjectCopy } from './helpers/projects.js';
import { sharedFastifyProject } from './helpers/shared-fixtures.js';
import { expectError, useServer } from './helpers/server.js';

/**
 * Fastify's lib/, docs/, fastify.js and package.json with a descriptor for `strategy`, and one added
 * page: for `ast` the run's shared built copy (its tests only read; test/helpers/shared-fixtures.ts),
 * for `lexical` a private copy (its test asserts that nothing was built).
 */
function fastifyProject(strategy: 'ast' | 'lexical'): string {
  const descriptor = [
    'schema_version = 1',
    '[project]',
    'id = "fastify"',
    'name = "Fastify"',
    '[sources]',
    'content_roots = ["docs"]',
    'code_roots = ["."]',
    'exclude = ["**/node_modules/**", "**/.git/**"]',
    '[adapter]',
    'code = "typescript"',
    `strategy = "${strategy}"`,
    '',
  ].join('\n');
  // fastify's own docs link to lib/ only through absolute GitHub URLs (checked below), so this test
  // adds one page with a relative link into lib/ to exercise `documents` edges.
  const internals = '# Routing internals\n\nThe router lives in [route.js](../lib/route.js).\n';
  const parts = ['lib', 'docs', 'fastify.js', 'package.json'] as const;
  if (strategy === 'ast') return sharedFastifyProject(parts, descriptor, { 'docs/Internals.md': internals });
  const root = fastifyProjectCopy(parts, descriptor, `docforge-fastify-code-${strategy}-`);
  writeFileSync(path.join(root, 'docs', 'Internals.md'), internals);
  return root;
}

/** The project files a file's relative `require('…')` calls name, as module node ids. */
function requiredModules(root: string, file: string): Set<string> {
  const text = readFileSync(path.join(root, file), 'utf8');
  const out = new Set<string>();
  for (const match of text.matchAll(/require\(['"](\.{1,2}\/[^'"]+)['"]\)/g)) {
    const target = path.posix.join(path.posix.dirname(file), match[1]!);
    for (const candidate of [target, `${target}.js`, `${target}/index.js`]) {
      if (existsSync(path.join(root, candidate)) && candidate.endsWith('.js')) {
        out.add(`code:${candidate}`);
        break;
      }
    }
  }
  return out;
}

function codeFiles(root: string): string[] {
  const files = ['fastify.js'];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.js')) files.push(rel);
    }
  };
  walk('lib');
  return files.sort();
}

function lineOf(root: string, file: string, line: number): string {
  return readFileSync(path.join(root, file), 'utf8').split('\n')[line - 1] ?? '';
}

describe('docforge-mcp on fastify lib/ and docs/ (strategy ast)', async () => {
  const root = fastifyProject('ast');
  const s = await useServer(root);

  test('fastify docs have no relative link into lib/ (hence the added Internals page)', () => {
    const docs = path.join(FASTIFY_DIR, 'docs');
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith('.md') && /\]\((?:\.\.\/)+(?:[^)]*\/)?lib\//.test(readFileSync(full, 'utf8'))) offenders.push(full);
      }
    };
    walk(docs);
    assert.deepEqual(offenders, []);
  });

  test('code:lib/route.js exists with exactly one imports edge per module it requires, at a line that requires it', async () => {
    const node = await s.call('docforge_get_node', { node_id: 'code:lib/route.js', include_body: false });
    assert.equal(node.ok, true, JSON.stringify(node.error));
    assert.equal(node.result!.node.kind, 'module');
    assert.equal(node.result!.node.language, 'javascript');
    const deps = await s.call('docforge_dependencies', { node_id: 'code:lib/route.js', relations: ['imports'], depth: 1, limit: 100 });
    assert.equal(deps.result!.truncated, false);
    const expected = requiredModules(root, 'lib/route.js');
    assert.ok(expected.size >= 10, 'route.js requires many sibling modules');
    assert.deepEqual(deps.result!.items.map((i: { id: string }) => i.id).sort(), [...expected].sort());
    for (const item of deps.result!.items) {
      const target = path.posix.basename(item.id.slice('code:lib/'.length), '.js');
      assert.match(lineOf(root, 'lib/route.js', item.declared_in.line), new RegExp(`require\\('\\./${target}(\\.js)?'\\)`), item.id);
    }
  });

  test('docforge_impact of a lib module returns exactly its real importers', async () => {
    const impact = await s.call('docforge_impact', { node_id: 'code:lib/decorate.js', relations: ['imports'], depth: 1, limit: 100 });
    const expected = codeFiles(root).filter((file) => requiredModules(root, file).has('code:lib/decorate.js')).map((f) => `code:${f}`);
    assert.deepEqual(expected, ['code:fastify.js', 'code:lib/plugin-utils.js', 'code:lib/reply.js', 'code:lib/request.js']);
    assert.deepEqual(impact.result!.items.map((i: { id: string }) => i.id).sort(), expected);
    for (const item of impact.result!.items) assert.equal(item.relation, 'imports');
  });

  test('docforge_impact of a lib function returns its real callers, each at a line that calls it', async () => {
    const impact = await s.call('docforge_impact', { node_id: 'code:lib/decorate.js#checkExistence', relations: ['calls'], depth: 1, limit: 100 });
    const callers = impact.result!.items as { id: string; relation: string; declared_in: { path: string; line: number } }[];
    assert.ok(callers.length >= 5, `checkExistence has several callers, got ${callers.length}`);
    const spans = new Map<string, { path: string; start: number; end: number }>();
    for (const caller of callers) {
      assert.equal(caller.relation, 'calls');
      const text = lineOf(root, caller.declared_in.path, caller.declared_in.line);
      // Direct calls inside decorate.js; elsewhere through the module's export `exist: checkExistence`.
      if (caller.declared_in.path === 'lib/decorate.js') assert.match(text, /checkExistence\(/, caller.id);
      else {
        assert.match(text, /\.exist\(/, caller.id);
        assert.ok(requiredModules(root, caller.declared_in.path).has('code:lib/decorate.js'), `${caller.declared_in.path} requires decorate.js`);
      }
      const node = (await s.call('docforge_get_node', { node_id: caller.id, include_body: false })).result!.node;
      assert.ok(node.start_line <= caller.declared_in.line && caller.declared_in.line <= node.end_line, `${caller.id} spans the calling line`);
      spans.set(caller.id, { path: node.source_path, start: node.start_line, end: node.end_line });
    }
    // Every direct call in the source is inside a reported caller.
    const lines = readFileSync(path.join(root, 'lib/decorate.js'), 'utf8').split('\n');
    lines.forEach((text, index) => {
      if (!/checkExistence\(/.test(text) || /function checkExistence/.test(text)) return;
      const line = index + 1;
      assert.ok([...spans.values()].some((span) => span.path === 'lib/decorate.js' && span.start <= line && line <= span.end), `call at lib/decorate.js:${line} is attributed`);
    });
    // And docforge_dependencies of a caller lists the callee.
    const deps = await s.call('docforge_dependencies', { node_id: 'code:lib/decorate.js#checkDependencies', relations: ['calls'], depth: 1 });
    const callees = deps.result!.items.map((i: { id: string }) => i.id);
    assert.ok(callees.includes('code:lib/decorate.js#checkExistence'));
    assert.ok(callees.includes('code:lib/decorate.js#hasInstanceProperty'));
  });

  test('docforge_get_logic of a fastify function with branches and a loop returns steps and flows whose lines match the source', async () => {
    const id = 'code:lib/decorate.js#checkDependencies';
    const e = await s.call('docforge_get_logic', { node_id: id });
    assert.equal(e.ok, true, JSON.stringify(e.error));
    const r = e.result!;
    const lines = readFileSync(path.join(root, 'lib/decorate.js'), 'utf8').split('\n');
    const start = lines.findIndex((l) => l.startsWith('function checkDependencies')) + 1;
    assert.ok(start > 0);
    const end = lines.findIndex((l, i) => i >= start && l === '}') + 1;
    assert.deepEqual({ id: r.owner.id, kind: r.owner.kind, start: r.owner.start_line, end: r.owner.end_line }, { id, kind: 'function', start, end });
    assert.equal(r.truncated, false);
    assert.equal(r.truncation_reason, null);
    assert.equal(r.total_steps, r.steps.length);
    assert.equal(r.total_flows, r.flows.length);
    assert.deepEqual(r.steps.map((st: { kind: string }) => st.kind), ['entry', 'branch', 'return', 'branch', 'throw', 'loop', 'branch', 'throw', 'exit']);
    const keyword: Record<string, RegExp> = { branch: /^\s*if \(/, return: /^\s*return\b/, throw: /^\s*throw\b/, loop: /^\s*for \(/ };
    for (const step of r.steps as { step: number; kind: string; label: string; start_line: number; end_line: number }[]) {
      if (step.kind === 'entry') {
        assert.deepEqual([step.start_line, step.end_line], [start, end]);
        continue;
      }
      if (step.kind === 'exit') {
        assert.deepEqual([step.start_line, step.end_line], [end, end]);
        continue;
      }
      const text = lines[step.start_line - 1]!;
      assert.match(text, keyword[step.kind]!, `step ${step.step} (${step.kind}) starts at a line that is one: ${text}`);
      assert.ok(text.includes(step.label), `label ${JSON.stringify(step.label)} is the source text of line ${step.start_line}`);
      assert.ok(step.start_line > start && step.end_line < end && step.end_line >= step.start_line);
      // Compound steps end at the line closing their block.
      if (step.kind === 'branch' || step.kind === 'loop') assert.match(lines[step.end_line - 1]!, /^\s*}\s*$/);
      else assert.equal(step.end_line, step.start_line);
    }
    assert.deepEqual(r.flows.map((f: { from_step: number; to_step: number; kind: string }) => `${f.from_step}>${f.to_step} ${f.kind}`), [
      '0>1 sequence', '1>2 branch_true', '1>3 branch_false', '2>8 return', '3>4 branch_true', '3>5 branch_false', '4>8 throw',
      '5>6 loop_body', '5>8 loop_exit', '6>5 branch_false', '6>7 branch_true', '7>8 throw',
    ]);
  });

  test('docforge_get_logic is bounded, and refuses modules, documents and unknown ids', async () => {
    const page = await s.call('docforge_get_logic', { node_id: 'code:lib/route.js#buildRouting', limit: 10 });
    assert.equal(page.ok, true);
    assert.equal(page.result!.steps.length, 10);
    assert.ok(page.result!.total_steps > 10);
    assert.equal(page.result!.truncated, true);
    assert.equal(page.result!.truncation_reason, 'result_limit');
    assert.ok(page.result!.flows.every((f: { from_step: number; to_step: number }) => f.from_step < 10 && f.to_step < 10));
    const module = await s.call('docforge_get_logic', { node_id: 'code:lib/route.js' });
    await expectError(module, 'logic_not_found');
    assert.equal(module.error!.details.kind, 'module');
    assert.equal(module.project!.staleness, 'current');
    const doc = await s.call('docforge_get_logic', { node_id: 'Internals' });
    await expectError(doc, 'logic_not_found');
    const missing = await s.call('docforge_get_logic', { node_id: 'code:lib/nope.js#x' });
    await expectError(missing, 'node_not_found');
    const tooMany = await s.call('docforge_get_logic', { node_id: 'code:lib/route.js#buildRouting', limit: 1000 });
    assert.equal(tooMany.error!.code, 'invalid_arguments', 'limit above the project max_results');
    // Logic stays out of primary search: no step label is a search hit.
    const search = await s.call('docforge_search', { query: 'FST_ERR_DEC_MISSING_DEPENDENCY', limit: 20 });
    assert.ok(search.result!.items.every((i: { id: string }) => !i.id.includes('step')));
  });

  test('a docs page linking into lib/ has a documents edge to that module', async () => {
    const back = await s.call('docforge_backlinks', { node_id: 'code:lib/route.js', relations: ['documents'] });
    assert.deepEqual(back.result!.items.map((i: { id: string; relation: string }) => `${i.id} ${i.relation}`), ['Internals documents']);
    const deps = await s.call('docforge_dependencies', { node_id: 'Internals', depth: 1 });
    assert.ok(deps.result!.items.some((i: { id: string; relation: string }) => i.id === 'code:lib/route.js' && i.relation === 'documents'));
  });

  test('a qualified name, as written or with .prototype., ranks its method first', async () => {
    for (const query of ['Reply.serialize', 'Reply.prototype.serialize', 'reply.send']) {
      const e = await s.call('docforge_search', { query, limit: 3 });
      assert.equal(e.ok, true, JSON.stringify(e.error));
      const expected = query === 'reply.send' ? 'code:lib/reply.js#Reply.send' : 'code:lib/reply.js#Reply.serialize';
      assert.equal(e.result!.items[0]!.id, expected, `${query}: ${e.result!.items.map((i: { id: string }) => i.id).join(', ')}`);
    }
  });

  test('package.json main makes fastify.js an entrypoint; filters work on language and capability', async () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { main: string };
    const node = await s.call('docforge_get_node', { node_id: `code:${pkg.main}`, include_body: false });
    assert.ok(node.result!.node.capabilities.includes('entrypoint'));
    const entry = await s.call('docforge_filter_nodes', { capabilities: ['entrypoint'], limit: 100 });
    assert.ok(entry.result!.items.some((i: { id: string }) => i.id === 'code:fastify.js'));
    const js = await s.call('docforge_filter_nodes', { languages: ['javascript'], kinds: ['module'], limit: 200 });
    assert.deepEqual(js.result!.items.map((i: { id: string }) => i.id).sort(), codeFiles(root).map((f) => `code:${f}`));
  });
});

describe('docforge-mcp on fastify lib/ with strategy lexical', async () => {
  const root = fastifyProject('lexical');
  const s = await useServer(root);

  test('docforge_get_logic is refused by policy before anything is read or built', async () => {
    const error = await expectError(s.call('docforge_get_logic', { node_id: 'code:lib/route.js#buildRouting' }), 'adapter_policy_forbids_logic');
    assert.equal(error.details.reason, 'lexical_adapter_strategy');
    assert.equal(existsSync(path.join(root, '.docforge', 'index')), false, 'no index was built for a refused call');
  });

  test('the same module nodes and imports edges exist, with no declarations, calls or Logic', async () => {
    const boot = await s.call('docforge_bootstrap');
    assert.equal(boot.ok, true, JSON.stringify(boot.error));
    assert.match(boot.project!.adapter_version, /strategy=lexical/);
    assert.equal(boot.result!.index.counts.logic_steps, 0);
    assert.equal(boot.result!.effective_policy.ast.logic_allowed, false);
    assert.deepEqual(boot.result!.capabilities.logic, { available: false, reason: 'lexical_adapter_strategy' });
    const modules = await s.call('docforge_filter_nodes', { languages: ['javascript'], limit: 200 });
    assert.deepEqual(modules.result!.items.map((i: { id: string }) => i.id).sort(), codeFiles(root).map((f) => `code:${f}`));
    assert.ok(modules.result!.items.every((i: { kind: string }) => i.kind === 'module'));
    const deps = await s.call('docforge_dependencies', { node_id: 'code:lib/route.js', depth: 1, limit: 100 });
    assert.deepEqual(deps.result!.items.map((i: { id: string }) => i.id).sort(), [...requiredModules(root, 'lib/route.js')].sort());
    assert.ok(deps.result!.items.every((i: { relation: string }) => i.relation === 'imports'));
    const impact = await s.call('docforge_impact', { node_id: 'code:lib/decorate.js', depth: 1, limit: 100 });
    assert.deepEqual(impact.result!.items.map((i: { id: string }) => i.id).sort(), ['code:fastify.js', 'code:lib/plugin-utils.js', 'code:lib/reply.js', 'code:lib/request.js']);
    const fastify = await s.call('docforge_get_node', { node_id: 'code:fastify.js', include_body: false });
    assert.ok(fastify.result!.node.capabilities.includes('entrypoint'), 'package.json main applies without an AST too');
    const back = await s.call('docforge_backlinks', { node_id: 'code:lib/route.js', relations: ['documents'] });
    assert.equal(back.result!.items[0]?.id, 'Internals');
  });
});
