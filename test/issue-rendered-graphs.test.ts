// Pins issue 34 item 7 on examples/ and on pino's own docs: graph boxes hold their text (estimated and real font widths), every relation is labelled, previews carry a legend, `page` repeats no heading, and a renderer version bump turns every rendered view stale.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RENDERER_VERSION } from '@docforge/render';
import { CLI_ENTRY, REPO_ROOT } from './helpers/paths.js';
import { exampleProjectCopy, tempDir } from './helpers/projects.js';
import { useServer, type Json } from './helpers/server.js';
import { attr, byTag, classes, elements, parseHtml, text, type El } from './helpers/html.js';
import { drawnBoxes, fontAdvances, FONT_FILES, geometryProblems } from './helpers/svg-geometry.js';

const PINO = path.join(REPO_ROOT, 'node_modules', 'pino');
const FONTS = FONT_FILES.map(fontAdvances);

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8' });
}

function doc(root: string, file: string): El {
  return parseHtml(readFileSync(path.join(root, file), 'utf8'));
}

/** The relations the key under a graph lists. */
function keyed(page: El): Set<string> {
  return new Set(byTag(page, 'ul', 'key').flatMap((ul) => byTag(ul, 'li').map((li) => attr(li, 'data-relation')!)));
}

/** Asserts the geometry of the one graph SVG of a page; returns its boxes. */
function assertGeometry(page: El): ReturnType<typeof drawnBoxes> {
  const svg = byTag(page, 'svg', 'graph')[0]!;
  assert.ok(FONTS.length > 0, 'DejaVu Sans or Liberation Sans is installed: the real widths are checked too');
  assert.deepEqual(geometryProblems(svg, new Set(), FONTS), [], 'every text inside its box, every edge labelled, no overlap');
  const drawn = new Set(byTag(svg, 'path', 'edge').map((p) => attr(p, 'data-relation')!));
  assert.deepEqual([...keyed(page)].sort(), [...drawn].sort(), 'the key lists exactly the drawn relations');
  return drawnBoxes(svg);
}

/**
 * The headings a reader meets, in order, at the top of each node section: the page's h1 before
 * the first section, the section's own heading, then its body's first block when that is a
 * heading. No two neighbours may be the same words.
 */
function repeatedHeadings(page: El): string[] {
  const repeats: string[] = [];
  const h1 = text(byTag(page, 'h1')[0]!);
  for (const [i, section] of byTag(page, 'section', 'node').entries()) {
    const own = (section.childNodes ?? []).filter((c) => c.tagName === 'h2').map(text);
    const body = byTag(section, 'div', 'body')[0]!;
    const first = (body.childNodes ?? []).find((c) => c.tagName !== undefined);
    const lead = first !== undefined && /^h[1-6]$/.test(first.tagName!) ? [text(first)] : [];
    const seq = [...(i === 0 ? [h1] : []), ...own, ...lead];
    for (let k = 1; k < seq.length; k++) if (same(seq[k]!, seq[k - 1]!)) repeats.push(`${attr(section, 'data-node-id')}: "${seq[k - 1]}" then "${seq[k]}"`);
  }
  return repeats;
}

/** Headings compared as a reader would: letters and digits only, case folded (independent of the renderer's rule). */
function same(a: string, b: string): boolean {
  const key = (t: string) => t.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  return key(a) !== '' && key(a) === key(b);
}

/** Rewrites every render receipt as an older renderer version wrote it. */
function ageReceipts(root: string): string[] {
  const dir = path.join(root, '.docforge', 'renders');
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  for (const f of files) {
    const receipt = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Json;
    assert.equal(receipt.renderer_version, RENDERER_VERSION, `${f} records the renderer version that wrote it`);
    writeFileSync(path.join(dir, f), JSON.stringify({ ...receipt, renderer_version: RENDERER_VERSION - 1 }));
  }
  return files;
}

function statuses(root: string): string[] {
  const run = cli(['render', '-C', root, '--status', '--json']);
  return (JSON.parse(run.stdout).views as Json[]).map((v) => `${v.view}:${v.status}:${v.reason}`);
}

describe('examples/', () => {
  const root = exampleProjectCopy();
  const run = cli(['render', '-C', root, '--json']);

  test('the gateway graph: every box holds its text, every relation drawn has its label, no boxes overlap', () => {
    assert.equal(run.status, 0, run.stderr);
    const boxes = assertGeometry(doc(root, 'site/gateway-graph.html'));
    const nodes = boxes.filter((b) => b.kind === 'node');
    assert.ok(nodes.length >= 3 && boxes.some((b) => b.kind === 'label'));
    // The drawn title is the node's title (read from its source), never cut on this graph.
    const gateway = nodes.find((b) => b.name === 'CMP-AUTH-GATEWAY')!;
    const source = readFileSync(path.join(root, 'docs', 'components', 'auth-gateway.md'), 'utf8');
    assert.equal(gateway.lines.slice(0, -1).map((l) => l.text).join(' '), /^title = "([^"]+)"/m.exec(source)![1]);
  });

  test('the requirements page repeats no heading', () => {
    const page = doc(root, 'site/requirements.html');
    assert.ok(byTag(page, 'section', 'node').length > 1);
    assert.deepEqual(repeatedHeadings(page), []);
  });

  test('after a renderer version bump every rendered view is stale (renderer_changed) until rendered again', () => {
    const views = (JSON.parse(run.stdout).views as Json[]).map((v) => v.view as string);
    assert.deepEqual(statuses(root), views.map((v) => `${v}:current:rendered_from_current_sources`));
    assert.equal(ageReceipts(root).length, views.length);
    assert.deepEqual(statuses(root), views.map((v) => `${v}:stale:renderer_changed`));
    assert.equal(cli(['render', '-C', root]).status, 0);
    assert.deepEqual(statuses(root), views.map((v) => `${v}:current:rendered_from_current_sources`));
  });

  test('previews carry a legend for added, changed and removed, whose counts are the preview\'s marks', async () => {
    const server = await useServer(root, { proposalWriter: 'agent' });
    const registered = await server.call('docforge_register_changes', {
      operations: [
        { op: 'node_create', node: { id: 'CMP-RATE-LIMITER', kind: 'component', title: 'Rate limiter', status: 'draft' }, path: 'docs/components/rate-limiter.md', body: '# Rate limiter\n\nLimits authorization bursts.\n' },
        { op: 'node_update', node_id: 'CMP-AUTH-GATEWAY', set: { title: 'Authorization gateway v2' } },
        { op: 'relationship_update', source_id: 'CMP-AUTH-GATEWAY', add: [{ relation: 'depends_on', target_id: 'CMP-RATE-LIMITER' }], remove: [{ relation: 'depends_on', target_id: 'CMP-RETRY' }] },
      ],
    });
    assert.equal(registered.ok, true, JSON.stringify(registered.error));
    for (const view of ['gateway-graph', 'components', 'requirements']) {
      const preview = await server.call('docforge_preview_changeset', { changeset_id: registered.result!.changeset_id, view });
      assert.equal(preview.ok, true, JSON.stringify(preview.error));
      const page = doc(root, preview.result!.preview.path);
      const legend = byTag(page, 'aside', 'legend');
      assert.equal(legend.length, 1, `${view}: one legend`);
      const items = byTag(legend[0]!, 'li').map((li) => attr(li, 'data-mark'));
      assert.deepEqual(items, ['added', 'changed', 'removed']);
      const marks = preview.result!.marks as Json;
      const line = (mark: string) => text(byTag(legend[0]!, 'li').find((li) => attr(li, 'data-mark') === mark)!);
      assert.match(line('added'), new RegExp(`${marks.nodes_added} nodes?, ${marks.relations_added} relations?`));
      assert.match(line('changed'), new RegExp(`${marks.nodes_changed} nodes?, 0 relations`));
      assert.match(line('removed'), new RegExp(`${marks.nodes_removed} nodes?, ${marks.relations_removed} relations?`));
      // Each swatch is drawn with the classes of the marked elements it explains.
      for (const li of byTag(legend[0]!, 'li')) assert.ok(byTag(li, 'g').some((g) => classes(g).includes(attr(li, 'data-mark')!)));
      if (view === 'gateway-graph') {
        assertGeometry(page);
        assert.ok(byTag(page, 'g', 'edge-label').some((g) => classes(g).includes('removed')), 'a removed relation keeps its label, marked removed');
      }
    }
    const declared = doc(root, 'site/gateway-graph.html');
    assert.deepEqual(byTag(declared, 'aside', 'legend'), [], 'declared output has no preview legend');
    await server.close();
  });
});

describe('pino docs/ (a package nobody here wrote)', () => {
  const root = tempDir('docforge-pino-render-');
  cpSync(path.join(PINO, 'docs'), path.join(root, 'docs'), { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), [
    'schema_version = 1', '[project]', 'id = "pino"', 'name = "pino"', '[sources]', 'content_roots = ["docs"]', 'code_roots = []', '',
    '[[views]]', 'id = "api"', 'title = "API"', 'renderer = "page"', 'select = { ids = ["api"] }', 'output = "site/api.html"', '',
    '[[views]]', 'id = "docs"', 'title = "Pino documentation"', 'renderer = "page"', 'select = {}', 'output = "site/docs.html"', '',
    '[[views]]', 'id = "web"', 'title = "Web frameworks and neighbours"', 'renderer = "graph"', 'focus = "web"', 'depth = 2', 'output = "site/web.html"', '',
  ].join('\n'));
  const run = cli(['render', '-C', root, '--json']);

  test('the graph around web.md: "Web Frameworks" and "Asynchronous Logging" sit inside their boxes, every relation labelled', () => {
    assert.equal(run.status, 0, run.stderr);
    const boxes = assertGeometry(doc(root, 'site/web.html'));
    const titleOf = (id: string) => boxes.find((b) => b.kind === 'node' && b.name === id)!.lines.slice(0, -1).map((l) => l.text).join(' ');
    for (const [id, file] of [['web', 'web.md'], ['asynchronous', 'asynchronous.md']] as const) {
      assert.equal(titleOf(id), /^# (.+)$/m.exec(readFileSync(path.join(PINO, 'docs', file), 'utf8'))![1], `${id}: the whole first heading is drawn`);
    }
    assert.ok(boxes.filter((b) => b.kind === 'label').length >= 5);
  });

  test('page: the API page shows "API" once, and no page section repeats a heading', () => {
    const api = doc(root, 'site/api.html');
    const headings = elements(api).filter((e) => /^h[1-6]$/.test(e.tagName ?? '')).map(text);
    assert.equal(headings.filter((h) => same(h, 'API')).length, 1, `headings: ${headings.slice(0, 4).join(' | ')}`);
    assert.ok(elements(api).some((e) => attr(e, 'id')?.endsWith('--api')), 'the dropped heading keeps its anchor');
    const all = doc(root, 'site/docs.html');
    assert.ok(byTag(all, 'section', 'node').length >= 10);
    assert.deepEqual(repeatedHeadings(all), []);
  });

  test('a renderer version bump turns every rendered pino view stale', () => {
    ageReceipts(root);
    assert.deepEqual(statuses(root), ['api:stale:renderer_changed', 'docs:stale:renderer_changed', 'web:stale:renderer_changed']);
  });
});
