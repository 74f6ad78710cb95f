// Pins `docforge render` on examples/ (each renderer's structure on parsed HTML/SVG, expectations read from the example sources) and docforge_render_status: current, stale, unverified, deep, no writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { exampleProjectCopy } from './helpers/projects.js';
import { useServer, expectError, type Json } from './helpers/server.js';
import { attr, byTag, classes, elements, parseHtml, text } from './helpers/html.js';

function cli(args: string[]) {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8' });
}

/** Front matter facts of every Markdown node and `[[node]]` record under docs/, read with plain text matching. */
function exampleFacts(root: string): { id: string; kind: string; title: string; relations: Map<string, string[]> }[] {
  const facts: { id: string; kind: string; title: string; relations: Map<string, string[]> }[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.md') || name.endsWith('.toml')) {
        const textOf = readFileSync(full, 'utf8');
        const chunks = name.endsWith('.toml') ? textOf.split(/^\[\[node\]\]$/m).slice(1) : [textOf.split(/^\+\+\+$/m)[1] ?? ''];
        for (const chunk of chunks) {
          const id = /^id = "([^"]+)"/m.exec(chunk)?.[1];
          const kind = /^kind = "([^"]+)"/m.exec(chunk)?.[1];
          const title = /^title = "([^"]+)"/m.exec(chunk)?.[1];
          if (!id || !kind || !title) continue;
          const relations = new Map<string, string[]>();
          for (const m of chunk.matchAll(/^([a-z_]+) = \[([^\]]*)\]/gm)) if (m[1] !== 'tags') relations.set(m[1]!, [...m[2]!.matchAll(/"([^"]+)"/g)].map((x) => x[1]!));
          facts.push({ id, kind, title, relations });
        }
      }
    }
  };
  walk(path.join(root, 'docs'));
  return facts;
}

test('docforge render writes one HTML file per declared view with the structure of its renderer', () => {
  const root = exampleProjectCopy();
  const run = cli(['render', '-C', root, '--json']);
  assert.equal(run.status, 0, run.stderr);
  const written = JSON.parse(run.stdout).views as Json[];
  assert.deepEqual(written.map((w) => w.view), ['components', 'requirements', 'traceability', 'gateway-graph']);
  const facts = exampleFacts(root);
  const doc = (file: string) => parseHtml(readFileSync(path.join(root, file), 'utf8'));

  const catalog = doc('site/components.html');
  const expectedComponents = facts.filter((f) => f.kind === 'component' || f.kind === 'decision').map((f) => f.id).sort();
  assert.ok(expectedComponents.length >= 10);
  assert.deepEqual(byTag(catalog, 'li', 'node').map((li) => attr(li, 'data-node-id')).sort(), expectedComponents);
  assert.deepEqual(byTag(catalog, 'section', 'kind').map((s) => attr(s, 'data-kind')), ['component', 'decision']);
  const familyOf = (id: string) => { const li = byTag(catalog, 'section', 'family').find((s) => byTag(s, 'li').some((x) => attr(x, 'data-node-id') === id)); return li ? attr(li, 'data-family') : null; };
  assert.equal(familyOf('CMP-AUTH-GATEWAY'), 'payments', 'grouped by the family of its front matter');

  const page = doc('site/requirements.html');
  const requirements = facts.filter((f) => f.kind === 'requirement');
  const sections = byTag(page, 'section', 'node');
  assert.deepEqual(sections.map((s) => attr(s, 'data-node-id')).sort(), requirements.map((r) => r.id).sort());
  for (const r of requirements) {
    const section = sections.find((s) => attr(s, 'data-node-id') === r.id)!;
    assert.equal(text(byTag(section, 'h2')[0]!), r.title);
  }
  const ids = new Set(elements(page).map((e) => attr(e, 'id')).filter(Boolean));
  for (const a of byTag(page, 'a')) {
    const href = attr(a, 'href')!;
    assert.ok(!href.startsWith('#') || ids.has(href.slice(1)), `in-page link ${href} resolves`);
  }

  const matrix = doc('site/traceability.html');
  const columns = new Set(facts.filter((f) => f.kind === 'component' || f.kind === 'test').map((f) => f.id));
  const covered = new Set<string>();
  for (const f of facts) {
    for (const rel of ['implements', 'verifies']) {
      for (const target of f.relations.get(rel) ?? []) {
        if (columns.has(f.id)) covered.add(target);
        if (f.kind === 'requirement' && columns.has(target)) covered.add(f.id);
      }
    }
  }
  const rows = byTag(matrix, 'tr').filter((tr) => attr(tr, 'data-row-id') !== null);
  assert.deepEqual(rows.map((tr) => attr(tr, 'data-row-id')).sort(), requirements.map((r) => r.id).sort());
  for (const tr of rows) {
    const id = attr(tr, 'data-row-id')!;
    assert.equal(classes(tr).includes('uncovered'), !covered.has(id), `${id} coverage follows the implements/verifies declarations`);
  }
  assert.ok(rows.some((tr) => classes(tr).includes('uncovered')) && rows.some((tr) => classes(tr).includes('covered')));

  const graph = doc('site/gateway-graph.html');
  const svg = byTag(graph, 'svg', 'graph')[0]!;
  const drawn = new Set(byTag(svg, 'g', 'node').map((g) => attr(g, 'data-node-id')));
  const gateway = facts.find((f) => f.id === 'CMP-AUTH-GATEWAY')!;
  for (const targets of gateway.relations.values()) for (const t of targets) assert.ok(drawn.has(t), `depth 1 draws the declared neighbour ${t}`);
  assert.deepEqual(byTag(svg, 'g', 'focus').map((g) => attr(g, 'data-node-id')), ['CMP-AUTH-GATEWAY']);
  for (const p of byTag(svg, 'path', 'edge')) assert.ok(drawn.has(attr(p, 'data-source')) && drawn.has(attr(p, 'data-target')), 'every drawn relation joins two drawn nodes');
  assert.ok(existsSync(path.join(root, '.docforge', 'renders', 'gateway-graph.json')), 'the receipt lives under the state dir');

  const unknown = cli(['render', '-C', root, 'graph']);
  assert.equal(unknown.status, 1);
  assert.match(unknown.stderr, /view_not_found/);
});

test('security: a node body with <script> and javascript: links renders neither as live markup (docforge render)', () => {
  const root = exampleProjectCopy();
  writeFileSync(path.join(root, 'docs', 'requirements', 'evil.md'), '+++\nid = "REQ-EVIL-001"\nkind = "requirement"\ntitle = "Evil <script>alert(0)</script>"\n+++\n# Evil\n\n<script>alert(1)</script>\n\n[click](javascript:alert(2)) <a href="javascript:alert(3)">x</a>\n');
  assert.equal(cli(['render', '-C', root, 'requirements']).status, 0);
  const html = readFileSync(path.join(root, 'site', 'requirements.html'), 'utf8');
  const all = elements(parseHtml(html));
  assert.deepEqual(all.filter((e) => e.tagName === 'script'), []);
  for (const e of all) for (const a of e.attrs ?? []) assert.ok(!/^\s*javascript:/i.test(a.value) && !/^on/i.test(a.name), `${e.tagName} ${a.name}=${a.value}`);
  const evil = byTag(parseHtml(html), 'section', 'node').find((s) => attr(s, 'data-node-id') === 'REQ-EVIL-001')!;
  assert.match(text(evil), /<script>alert\(1\)<\/script>/, 'shown as text');
});

function views(result: Json): Record<string, string> {
  return Object.fromEntries((result.views as Json[]).map((v) => [v.view, `${v.status}:${v.reason}`]));
}

function stateListing(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(path.join(root, rel)).sort()) {
      const child = path.join(rel, name);
      const st = statSync(path.join(root, child), { bigint: true });
      out.push(`${child} ${st.size} ${st.mtimeNs}`);
      if (st.isDirectory()) walk(child);
    }
  };
  walk('.docforge');
  return out;
}

test('docforge_render_status: current after render, unverified without or with a corrupt receipt, deep finds a hand-edited output, stale after a canonical edit; never writes', async () => {
  const root = exampleProjectCopy();
  const server = await useServer(root, { diagnostics: true });
  let status = await server.call('docforge_render_status');
  assert.deepEqual(Object.values(views(status.result!)), ['stale:output_missing', 'stale:output_missing', 'stale:output_missing', 'stale:output_missing']);
  assert.equal((status.result!.views as Json[])[0].command, 'docforge render components');

  assert.equal(cli(['render', '-C', root]).status, 0);
  const before = stateListing(root);
  status = await server.call('docforge_render_status');
  assert.deepEqual(status.result!.counts, { current: 4, stale: 0, unverified: 0 });
  assert.equal(status.diagnostics!.stages.rendering.count, 0, 'the cheap status renders nothing');
  const deep = await server.call('docforge_render_status', { deep: true });
  assert.deepEqual(Object.values(views(deep.result!)), Array(4).fill('current:output_matches'));
  assert.deepEqual(deep.result!.differing_outputs, []);
  assert.ok(deep.diagnostics!.stages.rendering.count >= 4 && deep.diagnostics!.stages.rendering.ms > 0, 'diagnostics stage rendering is measured');
  assert.deepEqual(stateListing(root), before, 'status (cheap and deep) writes nothing under the state dir');

  appendFileSync(path.join(root, 'site', 'components.html'), '<!-- edited by hand -->\n');
  status = await server.call('docforge_render_status', { view: 'components' });
  assert.deepEqual(views(status.result!), { components: 'unverified:output_changed' });
  const deepEdited = await server.call('docforge_render_status', { deep: true });
  assert.deepEqual(deepEdited.result!.differing_outputs, ['site/components.html']);
  assert.equal(views(deepEdited.result!).components, 'stale:output_differs');
  assert.equal(views(deepEdited.result!).requirements, 'current:output_matches');

  writeFileSync(path.join(root, '.docforge', 'renders', 'requirements.json'), '{"schema_version": 1, "view": "requirements"');
  rmSync(path.join(root, '.docforge', 'renders', 'traceability.json'));
  status = await server.call('docforge_render_status');
  assert.equal(views(status.result!).requirements, 'unverified:receipt_corrupt');
  assert.equal(views(status.result!).traceability, 'unverified:receipt_missing');
  assert.equal(views(status.result!)['gateway-graph'], 'current:rendered_from_current_sources');

  const current = readFileSync(path.join(root, '.docforge', 'index', 'current.json'), 'utf8');
  appendFileSync(path.join(root, 'docs', 'components', 'ledger.md'), '\nOne more canonical sentence.\n');
  status = await server.call('docforge_render_status');
  assert.equal(views(status.result!)['gateway-graph'], 'stale:sources_changed');
  assert.equal(status.project!.staleness, 'stale');
  assert.equal(readFileSync(path.join(root, '.docforge', 'index', 'current.json'), 'utf8'), current, 'no index rebuild');

  await expectError(server.call('docforge_render_status', { view: 'nope' }), 'view_not_found');
  const cliStatus = cli(['render', '-C', root, '--status', 'components']);
  assert.equal(cliStatus.status, 1, 'docforge render --status exits 1 unless every view is current');
  assert.match(cliStatus.stdout, /^stale +components -> site\/components\.html \(sources_changed\); run: docforge render components$/m);
  // Issue 30: the output edited by hand above is not replaced (render_output_foreign); moved away, it renders again.
  const refused = cli(['render', '-C', root]);
  assert.notEqual(refused.status, 0);
  assert.match(refused.stderr, /render_output_foreign/);
  rmSync(path.join(root, 'site', 'components.html'));
  assert.equal(cli(['render', '-C', root]).status, 0);
  const cliDeep = cli(['render', '-C', root, '--status', '--deep', '--json']);
  assert.equal(cliDeep.status, 0, cliDeep.stdout);
  assert.deepEqual((JSON.parse(cliDeep.stdout).views as Json[]).map((v) => v.reason), Array(4).fill('output_matches'));
  status = await server.call('docforge_render_status');
  assert.deepEqual(status.result!.counts, { current: 4, stale: 0, unverified: 0 }, 'rendering again makes every view current');
});
