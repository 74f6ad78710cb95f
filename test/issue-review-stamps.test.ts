// Pins issue 32 item 1 and drift_unreviewed_change end to end (real docforge-mcp over the MCP SDK client, real CLI): review stamps written by link_review, suspect links with their lines, a new review clearing them, moves changing nothing, stamps surviving later edits, plain Markdown stamps invisible when rendered, and no finding on an unchanged project.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderMarkdown } from '@docforge/render';
import { expectError, useServer, type Json, type Server } from './helpers/server.js';
import { CLI_ENTRY, REPO_ROOT } from './helpers/paths.js';
import { exampleProjectCopy, tempDir } from './helpers/projects.js';

const WRITER = 'agent-1';
const APPLIER = 'owner-1';

function cli(root: string, args: readonly string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI_ENTRY, ...args, '-C', root], { encoding: 'utf8', input });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function read(root: string, rel: string): string {
  return readFileSync(path.join(root, rel), 'utf8');
}

function edit(root: string, rel: string, from: string, to: string): void {
  const text = read(root, rel);
  assert.ok(text.includes(from), `${rel} holds ${JSON.stringify(from)}`);
  writeFileSync(path.join(root, rel), text.replace(from, to));
}

/** Findings of `docforge_validate_project` of one code. */
async function findings(s: Server, code: string): Promise<Json[]> {
  const e = await s.call('docforge_validate_project', { limit: 200 });
  assert.equal(e.ok, true, JSON.stringify(e.error));
  return (e.result!.items as Json[]).filter((i) => i.code === code);
}

/** Registers `operations` and applies them with their exact hash; returns the changeset document hash. */
async function registerAndApply(s: Server, operations: Json[]): Promise<string> {
  const reg = await s.call('docforge_register_changes', { operations });
  assert.equal(reg.ok, true, JSON.stringify(reg.error));
  const id = reg.result!.changeset_id as string;
  const sha = reg.result!.changeset_sha256 as string;
  const applied = await s.call('docforge_apply_changeset', { changeset_id: id, changeset_sha256: sha });
  assert.equal(applied.ok, true, JSON.stringify(applied.error));
  return sha;
}

/** The 1-based line of the first line of `text` holding `needle`. */
function lineOf(text: string, needle: string): number {
  return text.split('\n').findIndex((l) => l.includes(needle)) + 1;
}

describe('review stamps on a copy of examples/ (front matter)', async () => {
  const root = exampleProjectCopy();
  const s = await useServer(root, { proposalWriter: WRITER, canonicalApplier: APPLIER, mode: 'application' });
  const DOC = 'docs/components/retry.md';
  const FN = 'code:src/shared/retry.ts#withRetry';

  test('an unchanged project has no suspect or drift finding after its first sync', async () => {
    assert.deepEqual(await findings(s, 'suspect_link'), []);
    assert.deepEqual(await findings(s, 'drift_unreviewed_change'), []);
    const back = await s.call('docforge_backlinks', { node_id: FN, relations: ['defines'] });
    assert.deepEqual(back.result!.items.filter((i: Json) => i.id === 'CMP-RETRY').map((i: Json) => i.review_state), ['unreviewed']);
  });

  test('link_review stamps the relation in [[reviews]]; a body edit of the function makes it suspect at the relation line; a review clears it', async () => {
    await registerAndApply(s, [{ op: 'link_review', source_id: 'CMP-RETRY', links: [{ relation: 'defines', target_id: FN }] }]);
    const stamped = read(root, DOC);
    assert.match(stamped, /\[\[reviews\]\]\nrelation = "defines"\ntarget = "code:src\/shared\/retry\.ts#withRetry"\nhash = "[0-9a-f]{16}"\n/);
    const node = await s.call('docforge_get_node', { node_id: 'CMP-RETRY', include_body: false });
    assert.equal(node.result!.edges.outgoing.find((e: Json) => e.relation === 'defines' && e.target_id === FN).review_state, 'reviewed');
    assert.deepEqual(await findings(s, 'suspect_link'), []);

    // A changed statement under an unchanged doc comment.
    edit(root, 'src/shared/retry.ts', 'const maxAttempts = options.maxAttempts ?? 4;', 'const maxAttempts = options.maxAttempts ?? 5;');
    const suspect = await findings(s, 'suspect_link');
    assert.equal(suspect.length, 1, JSON.stringify(suspect));
    assert.equal(suspect[0]!.path, DOC);
    assert.equal(suspect[0]!.line, lineOf(stamped, 'defines = ['), 'the line of the defines relation');
    assert.ok(suspect[0]!.message.includes(FN));
    const deps = await s.call('docforge_dependencies', { node_id: 'CMP-RETRY', relations: ['defines'] });
    assert.equal(deps.result!.items.find((i: Json) => i.id === FN).review_state, 'suspect');
    // The unstamped links to the changed function drift.
    const drift = await findings(s, 'drift_unreviewed_change');
    assert.ok(drift.some((d) => d.path === 'docs/components/ledger.md' && d.message.includes(FN) && typeof d.line === 'number' && d.line > 1), JSON.stringify(drift));
    // The finding names how to review again (new-user trial u2): the CLI command and the MCP operation, which clears it as written.
    const ledger = drift.find((d) => d.path === 'docs/components/ledger.md' && d.message.includes(FN))!;
    const how = /review the link again \(docforge review (\S+) --target (\S+) --writer W --canonical-applier A, or the MCP docforge_register_changes operation (\{.*\})\)$/.exec(ledger.message);
    assert.ok(how !== null, ledger.message);
    assert.equal(how[2], FN);
    const operation = JSON.parse(how[3]!) as { op: string; source_id: string; links: { target_id: string }[] };
    assert.equal(operation.op, 'link_review');
    assert.equal(operation.source_id, how[1]);
    await registerAndApply(s, [operation]);
    assert.ok(!(await findings(s, 'drift_unreviewed_change')).some((d) => d.message === ledger.message), 'the named operation reviewed the link');

    await registerAndApply(s, [{ op: 'link_review', source_id: 'CMP-RETRY', links: [{ relation: 'defines', target_id: FN }] }]);
    assert.deepEqual(await findings(s, 'suspect_link'), []);
    assert.equal((read(root, DOC).match(/\[\[reviews\]\]/g) ?? []).length, 1, 'the review replaced the stamp');
  });

  test('moving the function down its file changes nothing', async () => {
    const file = 'src/shared/retry.ts';
    const text = read(root, file);
    const start = text.indexOf('export async function withRetry');
    const end = text.indexOf('\n}\n', start) + 3;
    writeFileSync(path.join(root, file), `${text.slice(0, start)}${text.slice(end)}\n${text.slice(start, end)}`);
    const moved = await s.call('docforge_get_node', { node_id: FN, include_body: false });
    assert.notEqual(moved.result!.node.start_line, lineOf(text, 'export async function withRetry'), 'the function moved');
    assert.deepEqual(await findings(s, 'suspect_link'), []);
  });

  test('the stamp survives a later format-preserving edit of the same file', async () => {
    await registerAndApply(s, [{ op: 'node_update', node_id: 'CMP-RETRY', set: { title: 'Retry helper (reviewed)' } }]);
    const text = read(root, DOC);
    assert.match(text, /title = "Retry helper \(reviewed\)"/);
    assert.match(text, /\[\[reviews\]\]\nrelation = "defines"/);
    assert.deepEqual(await findings(s, 'suspect_link'), []);
  });

  test('bad review input is refused and stores nothing', async () => {
    const listed = async (): Promise<number> => ((await s.call('docforge_list_changesets', { history: true })).result!.items as Json[]).length;
    const before = await listed();
    await expectError(s.call('docforge_register_changes', { operations: [{ op: 'link_review', source_id: 'CMP-RETRY', links: [{ relation: 'calls', target_id: FN }] }] }), 'changeset_invalid');
    await expectError(s.call('docforge_register_changes', { operations: [{ op: 'link_review', source_id: 'CMP-RETRY', links: [{ relation: 'defines', target_id: FN, hash: '0123456789abcdef' }] }] }), 'changeset_invalid');
    await expectError(s.call('docforge_register_changes', { operations: [{ op: 'relationship_update', source_id: 'CMP-RETRY', add: [{ relation: 'relates_to', target_id: 'REQ-PLT-001', hash: '0123456789abcdef' }] }] }), 'changeset_invalid');
    assert.equal(await listed(), before);
  });

  test('a stamp naming no relation is a review_stamp_unmatched finding at its line', async () => {
    edit(root, DOC, '[[reviews]]', '[[reviews]]\nrelation = "documents"\ntarget = "code:src/shared/retry.ts#gone"\nhash = "0123456789abcdef"\n\n[[reviews]]');
    const unmatched = await findings(s, 'review_stamp_unmatched');
    assert.deepEqual(unmatched.map((f) => [f.path, f.line]), [[DOC, lineOf(read(root, DOC), '[[reviews]]')]]);
  });
});

describe('review stamps on a copy of pino (plain Markdown, via the CLI)', async () => {
  const PINO = path.join(REPO_ROOT, 'node_modules', 'pino');
  const root = tempDir('docforge-pino-review-');
  for (const part of ['docs', 'lib', 'pino.js', 'pino.d.ts', 'browser.js', 'file.js', 'package.json']) cpSync(path.join(PINO, part), path.join(root, part), { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), [
    'schema_version = 1', '[project]', 'id = "pino"', 'name = "pino"', '[sources]', 'content_roots = ["docs"]', 'code_roots = ["."]',
    'exclude = ["**/node_modules/**"]', '[adapter]', 'code = "typescript"', 'strategy = "ast"', 'canonical_applier = "generic"', '',
  ].join('\n'));
  const FN = 'code:lib/transport.js#transport';
  const before = read(root, 'docs/api.md');
  const s = await useServer(root);

  test('docforge review stamps a plain page invisibly; a body edit makes the section suspect; docforge review clears it', async () => {
    assert.equal(cli(root, ['sync']).status, 0);
    assert.deepEqual(await findings(s, 'suspect_link'), []);
    assert.deepEqual(await findings(s, 'drift_unreviewed_change'), []);
    // Without a canonical applier the review is refused before anything is registered, so nothing
    // is left to block the next review as a conflict (new-user trial).
    const toml = read(root, 'docforge.toml');
    writeFileSync(path.join(root, 'docforge.toml'), toml.replace('canonical_applier = "generic"\n', ''));
    const noApplier = cli(root, ['review', 'api', '--target', FN, '--writer', WRITER, '--canonical-applier', APPLIER, '--yes']);
    assert.equal(noApplier.status, 1);
    assert.match(noApplier.stderr, /canonical_applier_unavailable/);
    assert.doesNotMatch(noApplier.stdout, /changeset cs-/);
    assert.equal(cli(root, ['changeset', 'list']).stdout.match(/cs-/g), null, 'no changeset registered');
    writeFileSync(path.join(root, 'docforge.toml'), toml);
    const gates = cli(root, ['review', 'api', '--target', FN]);
    assert.equal(gates.status, 2, 'both gates are required');
    assert.match(gates.stderr, /--writer W .* --canonical-applier A/);

    const declined = cli(root, ['review', 'api', '--target', FN, '--writer', WRITER, '--canonical-applier', APPLIER], 'n\n');
    assert.equal(declined.status, 1);
    assert.match(declined.stdout, /sha256 [0-9a-f]{64}/);
    assert.match(declined.stdout, /^\+<!-- docforge-reviewed: code:lib\/transport\.js#transport=[0-9a-f]{16} -->$/m, 'the diff shows the stamp comment');
    assert.equal(read(root, 'docs/api.md'), before, 'declined: nothing applied');

    const applied = cli(root, ['review', 'api', '--target', FN, '--writer', WRITER, '--canonical-applier', APPLIER], 'y\n');
    assert.equal(applied.status, 0, applied.stderr);
    const stamped = read(root, 'docs/api.md');
    const stampLine = lineOf(stamped, '<!-- docforge-reviewed:');
    assert.ok(stampLine > 1 && /^#+ /.test(stamped.split('\n')[stampLine - 2]!), 'the stamp is on the line after a heading');
    // Rendered by DocForge's renderer, the stamped page is the page before the stamp.
    const ctx = { nodeId: 'api', sourcePath: 'docs/api.md', present: new Set<string>(), nodeByPath: new Map<string, string>() };
    assert.equal(renderMarkdown(stamped, ctx), renderMarkdown(before, ctx));
    assert.deepEqual(await findings(s, 'suspect_link'), []);
    const back = await s.call('docforge_backlinks', { node_id: FN, relations: ['documents'] });
    assert.equal(back.result!.items.find((i: Json) => i.id === 'api').review_state, 'reviewed');

    edit(root, 'lib/transport.js', 'function transport (fullOptions) {', 'function transport (fullOptions) {\n  void 0');
    // Each section that names the function was stamped, and each is suspect at the line that names it.
    const sections = back.result!.items.find((i: Json) => i.id === 'api').mention.sections as Json[];
    const stamps = (stamped.match(/docforge-reviewed:/g) ?? []).length;
    assert.equal(stamps, sections.length);
    const suspect = await findings(s, 'suspect_link');
    assert.deepEqual(suspect.map((f) => [f.path, f.line]), sections.map((m) => ['docs/api.md', m.line]));
    assert.ok(suspect.every((f, i) => f.message.includes(`#${sections[i]!.slug}`) && f.message.includes(FN)));

    assert.equal(cli(root, ['review', 'api', '--target', FN, '--writer', WRITER, '--canonical-applier', APPLIER, '--yes']).status, 0);
    assert.deepEqual(await findings(s, 'suspect_link'), []);
    assert.equal((read(root, 'docs/api.md').match(/docforge-reviewed:/g) ?? []).length, stamps, 'the new review replaced the stamps in place');
  });
});
