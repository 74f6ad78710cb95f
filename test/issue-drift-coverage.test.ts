// Pins issue 32 items 2 and 4 end to end, through the real MCP server and the real CLI, on copies
// of examples/ and of pino (a package nobody here wrote): an unchanged project has no drift
// finding beyond the documented ones; a renamed method makes each doc that names it a
// `unresolved_code_mention` at the doc's line; changed parameters make the doc section that lists
// them a `drift_parameters`; coverage findings (info) follow the examples' own relations.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY, REPO_ROOT } from './helpers/paths.js';
import { exampleProjectCopy, tempDir } from './helpers/projects.js';
import { useServer, type Json } from './helpers/server.js';

const ALL = ['error', 'warning', 'info'];

function lineOf(root: string, rel: string, line: number): string {
  return readFileSync(path.join(root, rel), 'utf8').split('\n')[line - 1] ?? '';
}

function edit(root: string, rel: string, from: string, to: string): void {
  const file = path.join(root, rel);
  const text = readFileSync(file, 'utf8');
  assert.ok(text.includes(from), `${rel} holds ${from}`);
  writeFileSync(file, text.split(from).join(to));
}

const LEDGER_API = [
  '# Ledger API', '',
  '## `Ledger.refund(paymentId, amount)`', '',
  '| Name | Type | Description |', '|------|------|-------------|',
  '| `paymentId` | string | The captured payment. |', '| `amount` | Money | The amount to refund. |', '',
].join('\n');

describe('examples: drift and coverage through the MCP server', async () => {
  const root = exampleProjectCopy();
  writeFileSync(path.join(root, 'docs', 'guides', 'ledger-api.md'), LEDGER_API);
  const s = await useServer(root);
  const findings = async (): Promise<Json[]> => {
    const r = await s.call('docforge_validate_project', { severities: ALL, limit: 200 });
    assert.equal(r.ok, true, JSON.stringify(r.error));
    assert.equal(r.result!.truncated, false);
    return r.result!.items;
  };

  test('unchanged: no drift finding; coverage findings are exactly the undocumented exported functions', async () => {
    const items = await findings();
    assert.deepEqual(items.filter((i) => i.code.startsWith('drift_')), []);
    const coverage = items.filter((i) => i.code.startsWith('coverage_'));
    assert.ok(coverage.every((i) => i.severity === 'info'));
    assert.deepEqual(coverage.map((i) => [i.code, i.node_id, i.path, i.line]), [
      ['coverage_api_undocumented', 'code:src/index.ts#main', 'src/index.ts', 54],
      ['coverage_api_undocumented', 'code:src/ledger/types.ts#merchantPayable', 'src/ledger/types.ts', 47],
      ['coverage_api_undocumented', 'code:src/shared/retry.ts#sleep', 'src/shared/retry.ts', 29],
    ]);
    // The examples' own relations agree: none of them has a documents edge or an edge from a document.
    for (const item of coverage) {
      const back = await s.call('docforge_backlinks', { node_id: item.node_id, limit: 100 });
      assert.deepEqual(back.result!.items.filter((b: Json) => b.relation === 'documents' || !String(b.id).startsWith('code:')), [], item.node_id);
      assert.match(lineOf(root, item.path, item.line), /export (async )?function/);
    }
    // Paged like every finding: one at a time, by cursor, the same three in the same order.
    const paged: Json[] = [];
    let cursor: string | undefined;
    do {
      const page = await s.call('docforge_validate_project', { severities: ['info'], limit: 1, ...(cursor ? { cursor } : {}) });
      assert.ok(page.result!.items.length <= 1);
      paged.push(...page.result!.items);
      cursor = page.result!.next_cursor ?? undefined;
    } while (cursor !== undefined && paged.length < 10);
    assert.deepEqual(paged.map((i) => i.node_id), coverage.map((i) => i.node_id));
    // The default page (error, warning) leaves info out but counts it.
    const page = await s.call('docforge_validate_project', {});
    assert.equal(page.result!.items.some((i: Json) => i.severity === 'info'), false);
    assert.equal(page.result!.counts.info, 3);
  });

  test('every requirement in force is traced by the examples\' own relations; a new untraced one and a decision losing governs are findings', async () => {
    // The oracle: each requirement not deprecated has an implements/implemented_by/verifies/tested_by/proves edge in either direction.
    const reqs = await s.call('docforge_filter_nodes', { kinds: ['requirement'], limit: 200 });
    const trace = new Set(['implements', 'implemented_by', 'verifies', 'tested_by', 'proves']);
    for (const req of reqs.result!.items as Json[]) {
      const node = await s.call('docforge_get_node', { node_id: req.id, include_body: false });
      const edges = node.result!.edges as { outgoing: Json[]; incoming: Json[] };
      const traced = [...edges.outgoing, ...edges.incoming].some((r) => trace.has(r.relation));
      assert.equal(traced || node.result!.node.status === 'deprecated', true, req.id);
    }
    writeFileSync(path.join(root, 'docs', 'requirements', 'pay-006-untraced.md'), '+++\nid = "REQ-PAY-006"\nkind = "requirement"\ntitle = "Untraced"\nstatus = "accepted"\n\n[relations]\nrelates_to = ["REQ-PAY-003"]\n+++\n# Untraced\n\nNothing implements this yet.\n');
    edit(root, 'docs/decisions/adr-001-double-entry-minor-units.md', 'governs = ["CMP-LEDGER", "IFC-LEDGER-STORE"]\n', '');
    const items = await findings();
    assert.deepEqual(items.filter((i) => i.code === 'coverage_requirement_untraced').map((i) => [i.node_id, i.path, i.line]), [['REQ-PAY-006', 'docs/requirements/pay-006-untraced.md', 1]]);
    assert.deepEqual(items.filter((i) => i.code === 'coverage_decision_ungoverning').map((i) => [i.node_id, i.path]), [['ADR-001', 'docs/decisions/adr-001-double-entry-minor-units.md']]);
  });

  test('changed parameters of Ledger.refund: drift_parameters at the line of the table, naming both sides', async () => {
    edit(root, 'src/ledger/ledger.ts', 'async refund(paymentId: string, amount: Money)', 'async refund(paymentId: string, refundAmount: Money, reason?: string)');
    const items = (await findings()).filter((i) => i.code === 'drift_parameters');
    assert.equal(items.length, 1, JSON.stringify(items));
    assert.deepEqual([items[0]!.severity, items[0]!.path, items[0]!.line, items[0]!.node_id], ['warning', 'docs/guides/ledger-api.md', 5, 'guides/ledger-api']);
    assert.match(items[0]!.message, /section "ledgerrefundpaymentid-amount" lists the parameters of code:src\/ledger\/ledger\.ts#Ledger\.refund as \(paymentId, amount\).*not listed: refundAmount, reason; not declared: amount/);
  });

  test('a renamed method makes each doc that names it a unresolved_code_mention at the doc line', async () => {
    edit(root, 'src/ledger/ledger.ts', 'async capture(', 'async captureFunds(');
    const items = (await findings()).filter((i) => i.code === 'unresolved_code_mention');
    assert.ok(items.length >= 1, 'at least one finding');
    for (const item of items) {
      assert.match(item.message, /`Ledger\.capture`.*code:src\/ledger\/ledger\.ts#Ledger, which has no "capture"/);
      assert.ok(lineOf(root, item.path, item.line).includes('Ledger.capture'), `${item.path}:${item.line}`);
    }
    assert.ok(items.some((i) => i.path === 'docs/components/auth-gateway.md' && i.line === 41), JSON.stringify(items));
    // Renaming it back clears them.
    edit(root, 'src/ledger/ledger.ts', 'async captureFunds(', 'async capture(');
    assert.deepEqual((await findings()).filter((i) => i.code === 'unresolved_code_mention'), []);
  });
});

function cliValidate(root: string): Json[] {
  const r = spawnSync(process.execPath, [CLI_ENTRY, 'validate', '--json', '--limit', '5000'], { cwd: root, encoding: 'utf8' });
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  return (JSON.parse(r.stdout) as { issues: Json[] }).issues;
}

describe('pino: drift through the CLI on a package nobody here wrote', () => {
  const PINO = path.join(REPO_ROOT, 'node_modules', 'pino');
  const root = tempDir('docforge-pino-drift-');
  for (const part of ['docs', 'lib', 'pino.js', 'pino.d.ts', 'browser.js', 'file.js', 'package.json']) cpSync(path.join(PINO, part), path.join(root, part), { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), [
    'schema_version = 1', '[project]', 'id = "pino"', 'name = "pino"', '[sources]', 'content_roots = ["docs"]', 'code_roots = ["."]',
    'exclude = ["**/node_modules/**"]', '[adapter]', 'code = "typescript"', 'strategy = "ast"', '',
  ].join('\n'));

  test('unchanged: no drift finding; the only unresolved mentions are benchmarks.md calling `pino.info(…)`, which pino does not have', () => {
    assert.deepEqual(cliValidate(root).filter((i) => i.code.startsWith('drift_') || i.code.startsWith('suspect_')), []);
    const drift = cliValidate(root).filter((i) => i.code === 'unresolved_code_mention');
    assert.ok(drift.length >= 1);
    for (const item of drift) {
      assert.equal(item.severity, 'info');
      assert.equal(item.code, 'unresolved_code_mention');
      assert.equal(item.path, 'docs/benchmarks.md');
      assert.ok(lineOf(root, item.path, item.line).includes('pino.info('), `${item.line}`);
    }
    // pino's exports indeed hold no `info`.
    assert.equal(/module\.exports\.info\b/.test(readFileSync(path.join(root, 'pino.js'), 'utf8')), false);
    // A second run on the unchanged project: the same findings, none new.
    assert.deepEqual(cliValidate(root).filter((i) => i.code === 'unresolved_code_mention'), drift);
  });

  test('renaming the transport export: each `pino.transport()` mention is a finding at its line', () => {
    edit(root, 'pino.js', 'module.exports.transport = require', 'module.exports.transportRenamed = require');
    edit(root, 'pino.d.ts', 'export function transport<', 'export function transportRenamed<');
    const drift = cliValidate(root).filter((i) => i.code === 'unresolved_code_mention' && i.path !== 'docs/benchmarks.md');
    assert.ok(drift.length >= 3, JSON.stringify(drift));
    for (const item of drift) {
      assert.match(item.message, /`pino\.transport\(.*\)`.*"pino" resolves to code:pino\.js#pino, which has no "transport"/);
      assert.ok(lineOf(root, item.path, item.line).includes('pino.transport('), `${item.path}:${item.line}`);
    }
  });
});

describe('examples: the matrix renderer\'s coverage mode through `docforge render`', () => {
  const VIEW = [
    '', '[[views]]', 'id = "coverage"', 'title = "Requirement coverage"', 'renderer = "matrix"', 'mode = "coverage"', 'rows = { kinds = ["requirement"] }',
    'columns = { kinds = ["test", "function", "class", "method", "module"] }',
    'relations = ["implements", "implemented_by", "verifies", "tested_by", "proves", "defines", "defined_in", "documents"]', 'output = "site/coverage.html"', '',
  ].join('\n');

  test('rows against code and tests; the deprecated untraced requirement is the uncovered row', () => {
    const root = exampleProjectCopy();
    writeFileSync(path.join(root, 'docforge.toml'), readFileSync(path.join(root, 'docforge.toml'), 'utf8') + VIEW);
    const r = spawnSync(process.execPath, [CLI_ENTRY, 'render', 'coverage'], { cwd: root, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const html = readFileSync(path.join(root, 'site', 'coverage.html'), 'utf8');
    const rows = [...html.matchAll(/<tr class="(covered|partial|uncovered)" data-row-id="([^"]+)"/g)].map((m) => [m[2], m[1]]);
    assert.equal(rows.length, 16);
    assert.deepEqual(rows.filter(([, state]) => state === 'uncovered'), [['REQ-FRD-004', 'uncovered']]);
    // REQ-LED-001: CMP-LEDGER implements it and defines code:src/ledger/ledger.ts#Ledger; TST-LED-001 verifies it.
    const led = /<tr class="covered" data-row-id="REQ-LED-001"[^]*?<\/tr>/.exec(html)?.[0] ?? '';
    assert.match(led, /<td class="code"[^>]*>.*data-node-id="code:src\/ledger\/ledger\.ts#Ledger"/);
    assert.match(led, /<td class="tests"[^>]*>.*data-node-id="TST-LED-001"/);
  });

  test('mode is refused on another renderer and for another value, with the descriptor line', () => {
    const root = exampleProjectCopy();
    const base = readFileSync(path.join(root, 'docforge.toml'), 'utf8');
    writeFileSync(path.join(root, 'docforge.toml'), base + VIEW.replace('mode = "coverage"', 'mode = "rows"'));
    const r = spawnSync(process.execPath, [CLI_ENTRY, 'validate'], { cwd: root, encoding: 'utf8' });
    assert.notEqual(r.status, 0);
    assert.match(r.stderr + r.stdout, /descriptor_invalid: docforge\.toml:\d+: \[\[views\]\]\[\d\]\.mode must be "coverage"/);
    const catalog = ['', '[[views]]', 'id = "cat"', 'renderer = "catalog"', 'mode = "coverage"', 'output = "site/cat.html"', ''].join('\n');
    writeFileSync(path.join(root, 'docforge.toml'), base + catalog);
    const c = spawnSync(process.execPath, [CLI_ENTRY, 'validate'], { cwd: root, encoding: 'utf8' });
    assert.notEqual(c.status, 0);
    assert.match(c.stderr + c.stdout, /descriptor_invalid: docforge\.toml:\d+: \[\[views\]\]\[\d\]\.mode .*matrix/);
  });
});
