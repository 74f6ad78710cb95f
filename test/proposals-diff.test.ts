// Pins the review diff (contract "Isolated proposal tools": `docforge_get_changeset_diff`, the `changes` array) over stdio and through `docforge changeset diff` (text and --json): every operation kind on every source format (Markdown with TOML front matter, `[[node]]` records in a TOML file, plain Markdown) shows its real change (fields, declared relations added and removed, body, and the text diff of every file it rewrites), and an operation that cannot be projected says so instead of reading as a deletion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';
import { useServer, type Json, type Server } from './helpers/server.js';

const RECORDS = 'docs/decisions.toml';

/** A small project holding each source format: `[[node]]` records, TOML front matter pages and plain Markdown pages. */
function diffProject(): string {
  const root = tempDir('docforge-diff-');
  const write = (rel: string, text: string): void => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };
  write('docforge.toml', 'schema_version = 1\n[project]\nid = "diffs"\nname = "Diffs"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["src"]\n[adapter]\ncode = "typescript"\n');
  write('src/index.ts', 'export const x = 1;\n');
  write(RECORDS, [
    '# Decisions, one [[node]] each.',
    '',
    '[[node]]',
    'id = "ADR-001"',
    'kind = "decision"',
    'title = "Amounts are integers"',
    'status = "accepted"',
    'body = """',
    'Store minor units.',
    '"""',
    '',
    '[node.relations]',
    'relates_to = ["ADR-002"]',
    '',
    '[[node]]',
    'id = "ADR-002"',
    'kind = "decision"',
    'title = "Round half to even"',
    'body = """',
    'Banker\'s rounding.',
    '"""',
    '',
    '[[node]]',
    'id = "ADR-003"',
    'kind = "decision"',
    'title = "Retired decision"',
    'body = """',
    'Gone soon.',
    '"""',
    '',
  ].join('\n'));
  write('docs/components/ledger.md', '+++\nid = "CMP-LEDGER"\nkind = "component"\ntitle = "Ledger"\nstatus = "accepted"\n\n[relations]\nimplements = ["ADR-001"]\n+++\n# Ledger\n\nKeeps balances.\n');
  write('docs/components/store.md', '+++\nid = "CMP-STORE"\nkind = "component"\ntitle = "Store"\n+++\n# Store\n\nPersists entries.\n');
  write('docs/components/old.md', '+++\nid = "CMP-OLD"\nkind = "component"\ntitle = "Old"\n+++\n# Old\n\nUnused.\n');
  write('docs/guides/rounding.md', '# Rounding\n\nRound half to even.\n');
  write('docs/guides/intro.md', '# Intro\n\nStart here.\n');
  write('docs/guides/faq.md', '# FAQ\n\nAsk away.\n');
  write('docs/guides/legacy.md', '# Legacy\n\nOld notes.\n');
  return root;
}

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8' });
}

async function register(server: Server, operations: Json[]): Promise<string> {
  const registered = await server.call('docforge_register_changes', { operations });
  assert.equal(registered.ok, true, JSON.stringify(registered.error));
  return registered.result!.changeset_id as string;
}

async function mcpChanges(server: Server, id: string): Promise<Json[]> {
  const diff = await server.call('docforge_get_changeset_diff', { changeset_id: id });
  assert.equal(diff.ok, true, JSON.stringify(diff.error));
  assert.equal(diff.result!.format, 'changes');
  return diff.result!.changes as Json[];
}

/** The `+`/`-` lines of a unified diff (headers excluded). */
function changedLines(diff: string): string[] {
  return diff.split('\n').filter((l) => /^[+-]/.test(l) && !/^(\+\+\+|---) /.test(l));
}

/** The CLI text block of operation `index` (from its `[index]` header up to the next header). */
function textBlock(stdout: string, index: number): string {
  const start = stdout.indexOf(`[${index}] `);
  assert.ok(start >= 0, `no [${index}] block in:\n${stdout}`);
  const next = stdout.indexOf(`\n[${index + 1}] `, start);
  return stdout.slice(start, next < 0 ? undefined : next + 1);
}

/** Every projected change lists at least one changed line in its file diffs (or is a byte-keeping rename). */
function assertShowsFileChange(change: Json): void {
  assert.equal(change.projected, true, JSON.stringify(change));
  assert.equal(change.refusal, null);
  assert.ok(change.file_diffs.length > 0, `${change.op} lists the files it rewrites`);
  for (const f of change.file_diffs) {
    const rename = f.before_path !== null && f.after_path !== null && f.before_path !== f.after_path;
    if (!rename) assert.ok(changedLines(f.diff).length > 0, `${change.op}: ${f.diff}`);
    assert.match(f.diff, new RegExp(`^--- ${f.before_path ?? '/dev/null'}\\n\\+\\+\\+ ${f.after_path ?? '/dev/null'}$`, 'm'));
  }
}

test('every operation kind on every source format shows its real change in the MCP diff and in docforge changeset diff (text and --json)', async () => {
  const root = diffProject();
  const server = await useServer(root, { proposalWriter: 'agent' });
  await server.call('docforge_bootstrap');

  // The reported case: a relationship update of a TOML record through the propose tool.
  const proposed = await server.call('docforge_propose_relationship_update', { source_id: 'ADR-001', add: [{ relation: 'governs', target_id: 'guides/rounding' }] });
  assert.equal(proposed.ok, true, JSON.stringify(proposed.error));
  const reported = proposed.result!.changeset_id as string;

  const records = await register(server, [
    { op: 'node_create', node: { id: 'ADR-010', kind: 'decision', title: 'Currencies are ISO codes', relations: { relates_to: ['ADR-002'] } }, path: RECORDS, body: 'Use ISO 4217.\n' },
    { op: 'node_update', node_id: 'ADR-002', set: { title: 'Round half to even, always', status: 'accepted' }, body: 'Banker\'s rounding everywhere.\n' },
    { op: 'node_move', node_id: 'ADR-002', new_path: 'docs/archive.toml' },
    { op: 'relationship_update', source_id: 'ADR-001', add: [{ relation: 'governs', target_id: 'CMP-STORE' }], remove: [{ relation: 'relates_to', target_id: 'ADR-002' }] },
    { op: 'node_delete', node_id: 'ADR-003' },
  ]);
  const front = await register(server, [
    { op: 'node_create', node: { id: 'CMP-NEW', kind: 'component', title: 'New', relations: { implements: ['ADR-001'] } }, path: 'docs/components/new.md', body: '# New\n\nFresh.\n' },
    { op: 'node_update', node_id: 'CMP-STORE', set: { status: 'accepted' }, body: '# Store\n\nPersists entries durably.\n' },
    { op: 'node_move', node_id: 'CMP-STORE', new_path: 'docs/moved/store.md' },
    { op: 'relationship_update', source_id: 'CMP-LEDGER', add: [{ relation: 'governs', target_id: 'guides/rounding' }], remove: [{ relation: 'implements', target_id: 'ADR-001' }] },
    { op: 'node_delete', node_id: 'CMP-OLD' },
  ]);
  const plain = await register(server, [
    { op: 'node_update', node_id: 'guides/intro', set: { title: 'Introduction' }, body: '# Intro\n\nStart here, then read the FAQ.\n' },
    { op: 'node_move', node_id: 'guides/faq', new_path: 'docs/help/faq.md' },
    { op: 'relationship_update', source_id: 'guides/rounding', add: [{ relation: 'governs', target_id: 'CMP-LEDGER' }] },
    { op: 'node_delete', node_id: 'guides/legacy' },
  ]);

  // The reported case over MCP: the added relation and the record's file diff are shown.
  const [rel] = await mcpChanges(server, reported);
  assertShowsFileChange(rel!);
  assert.deepEqual(rel!.relations_added, [{ relation: 'governs', target_id: 'guides/rounding' }]);
  assert.deepEqual(rel!.relations_removed, []);
  assert.deepEqual(rel!.before.relations, { relates_to: ['ADR-002'] });
  assert.deepEqual(rel!.after.relations, { governs: ['guides/rounding'], relates_to: ['ADR-002'] });
  assert.notDeepEqual(rel!.before, rel!.after);
  assert.equal(rel!.body_diff, '', 'the body is untouched');
  assert.deepEqual([rel!.file_diffs[0].before_path, rel!.file_diffs[0].after_path], [RECORDS, RECORDS]);
  assert.ok(changedLines(rel!.file_diffs[0].diff).some((l) => l.startsWith('+') && l.includes('"guides/rounding"')), rel!.file_diffs[0].diff);
  assert.ok(changedLines(rel!.file_diffs[0].diff).every((l) => l.startsWith('+')), 'only additions: the record file keeps its formatting');

  // TOML records: every kind.
  const [rCreate, rUpdate, rMove, rRel, rDelete] = await mcpChanges(server, records);
  for (const c of [rCreate, rUpdate, rMove, rRel, rDelete]) assertShowsFileChange(c!);
  assert.deepEqual(rCreate!.relations_added, [{ relation: 'relates_to', target_id: 'ADR-002' }]);
  assert.ok(changedLines(rCreate!.file_diffs[0].diff).includes('+id = "ADR-010"'), rCreate!.file_diffs[0].diff);
  assert.match(rCreate!.body_diff, /^\+Use ISO 4217\.$/m);
  assert.deepEqual([rUpdate!.before.title, rUpdate!.after.title, rUpdate!.before.status, rUpdate!.after.status], ['Round half to even', 'Round half to even, always', null, 'accepted']);
  assert.match(rUpdate!.body_diff, /^\+Banker's rounding everywhere\.$/m);
  assert.ok(changedLines(rUpdate!.file_diffs[0].diff).includes('+title = "Round half to even, always"'), rUpdate!.file_diffs[0].diff);
  assert.deepEqual(rMove!.file_diffs.map((f: Json) => [f.before_path, f.after_path]), [[null, 'docs/archive.toml'], [RECORDS, RECORDS]], 'the record leaves one file and lands in another');
  assert.ok(changedLines(rMove!.file_diffs[0].diff).includes('+id = "ADR-002"'));
  assert.ok(changedLines(rMove!.file_diffs[1].diff).includes('-id = "ADR-002"'));
  assert.deepEqual([rMove!.before.source_path, rMove!.after.source_path], [RECORDS, 'docs/archive.toml']);
  assert.deepEqual(rRel!.before.relations, { relates_to: ['ADR-002'] }, 'moving ADR-002 out of the file kept ADR-001\'s [node.relations]');
  assert.deepEqual(rRel!.relations_added, [{ relation: 'governs', target_id: 'CMP-STORE' }]);
  assert.deepEqual(rRel!.relations_removed, [{ relation: 'relates_to', target_id: 'ADR-002' }]);
  assert.deepEqual([rDelete!.after, rDelete!.after_path], [null, null]);
  assert.match(rDelete!.body_diff, /^-Gone soon\.$/m);
  assert.ok(changedLines(rDelete!.file_diffs[0].diff).includes('-id = "ADR-003"'));

  // Markdown with TOML front matter: every kind.
  const [fCreate, fUpdate, fMove, fRel, fDelete] = await mcpChanges(server, front);
  for (const c of [fCreate, fUpdate, fMove, fRel, fDelete]) assertShowsFileChange(c!);
  assert.deepEqual([fCreate!.file_diffs[0].before_path, fCreate!.file_diffs[0].after_path], [null, 'docs/components/new.md']);
  assert.deepEqual(fCreate!.relations_added, [{ relation: 'implements', target_id: 'ADR-001' }]);
  assert.ok(changedLines(fCreate!.file_diffs[0].diff).includes('+Fresh.'));
  assert.deepEqual([fUpdate!.before.status, fUpdate!.after.status], [null, 'accepted']);
  assert.ok(changedLines(fUpdate!.file_diffs[0].diff).includes('+status = "accepted"'), fUpdate!.file_diffs[0].diff);
  assert.match(fUpdate!.body_diff, /^\+Persists entries durably\.$/m);
  assert.deepEqual(fMove!.file_diffs.map((f: Json) => [f.before_path, f.after_path]), [['docs/components/store.md', 'docs/moved/store.md']], 'a byte-keeping move is one rename');
  assert.deepEqual([fMove!.before.source_path, fMove!.after.source_path], ['docs/components/store.md', 'docs/moved/store.md']);
  assert.deepEqual(fRel!.relations_added, [{ relation: 'governs', target_id: 'guides/rounding' }]);
  assert.deepEqual(fRel!.relations_removed, [{ relation: 'implements', target_id: 'ADR-001' }]);
  assert.ok(changedLines(fRel!.file_diffs[0].diff).some((l) => l.startsWith('+') && l.includes('"guides/rounding"')), fRel!.file_diffs[0].diff);
  assert.deepEqual([fDelete!.file_diffs[0].before_path, fDelete!.file_diffs[0].after_path], ['docs/components/old.md', null]);
  assert.ok(changedLines(fDelete!.file_diffs[0].diff).includes('-id = "CMP-OLD"'));

  // Plain Markdown: update, move and delete show their change; a relationship update cannot be held and says so.
  const [pUpdate, pMove, pRel, pDelete] = await mcpChanges(server, plain);
  for (const c of [pUpdate, pMove, pDelete]) assertShowsFileChange(c!);
  assert.deepEqual([pUpdate!.before.title, pUpdate!.after.title], ['Intro', 'Introduction']);
  assert.ok(changedLines(pUpdate!.file_diffs[0].diff).includes('+# Introduction'), pUpdate!.file_diffs[0].diff);
  assert.deepEqual([pMove!.before.id, pMove!.after.id], ['guides/faq', 'help/faq'], 'the path-derived id changes');
  assert.deepEqual(pMove!.file_diffs.map((f: Json) => [f.before_path, f.after_path]), [['docs/guides/faq.md', 'docs/help/faq.md']]);
  assert.deepEqual([pRel!.projected, pRel!.refusal?.code, pRel!.after, pRel!.body_diff, pRel!.file_diffs, pRel!.relations_added], [false, 'metadata_not_representable', null, '', [], []], 'not projected: not shown as a deletion');
  assert.deepEqual([pDelete!.after, pDelete!.file_diffs[0].after_path], [null, null]);
  assert.ok(changedLines(pDelete!.file_diffs[0].diff).includes('-Old notes.'));
  await server.close();

  // The CLI, text: the reported case shows the added relation and the record's file diff.
  const text = (id: string): string => {
    const out = cli(['changeset', 'diff', id, '-C', root]);
    assert.equal(out.status, 0, out.stderr);
    return out.stdout;
  };
  const reportedText = text(reported);
  assert.match(reportedText, /^\[0\] relationship_update ADR-001 {2}docs\/decisions\.toml -> docs\/decisions\.toml$/m);
  assert.match(reportedText, /^\+governs guides\/rounding$/m);
  assert.match(reportedText, /^--- docs\/decisions\.toml\n\+\+\+ docs\/decisions\.toml$/m);
  assert.match(reportedText, /^\+.*"guides\/rounding"/m);

  const recordsText = text(records);
  assert.match(textBlock(recordsText, 0), /^\+relates_to ADR-002$/m);
  assert.match(textBlock(recordsText, 0), /^\+id = "ADR-010"$/m);
  assert.match(textBlock(recordsText, 1), /^-title: "Round half to even"\n\+title: "Round half to even, always"$/m);
  assert.match(textBlock(recordsText, 1), /^\+Banker's rounding everywhere\.$/m);
  assert.match(textBlock(recordsText, 2), /^\+\+\+ docs\/archive\.toml$/m);
  assert.match(textBlock(recordsText, 2), /^-id = "ADR-002"$/m);
  assert.match(textBlock(recordsText, 3), /^-relates_to ADR-002\n\+governs CMP-STORE$/m);
  assert.match(textBlock(recordsText, 4), /^-id = "ADR-003"$/m);

  const frontText = text(front);
  assert.match(textBlock(frontText, 0), /^\+implements ADR-001$/m);
  assert.match(textBlock(frontText, 0), /^--- \/dev\/null\n\+\+\+ docs\/components\/new\.md$/m);
  assert.match(textBlock(frontText, 1), /^\+status: "accepted"$/m);
  assert.match(textBlock(frontText, 1), /^\+Persists entries durably\.$/m);
  assert.match(textBlock(frontText, 2), /^--- docs\/components\/store\.md\n\+\+\+ docs\/moved\/store\.md$/m);
  assert.match(textBlock(frontText, 3), /^-implements ADR-001\n\+governs guides\/rounding$/m);
  assert.match(textBlock(frontText, 4), /^-id = "CMP-OLD"$/m);

  const plainText = text(plain);
  assert.match(textBlock(plainText, 0), /^\+# Introduction$/m);
  assert.match(textBlock(plainText, 1), /^-id: "guides\/faq"\n\+id: "help\/faq"$/m);
  assert.match(textBlock(plainText, 2), /^\[2\] relationship_update guides\/rounding {2}docs\/guides\/rounding\.md -> \(not projected: metadata_not_representable: /m);
  assert.doesNotMatch(textBlock(plainText, 2), /^[+-]/m, 'nothing listed as changed');
  assert.match(textBlock(plainText, 3), /^-Old notes\.$/m);

  // The CLI, --json: the same entries as the MCP tool.
  const json = (id: string): Json[] => JSON.parse(cli(['changeset', 'diff', id, '-C', root, '--json']).stdout).changes as Json[];
  assert.deepEqual(json(reported), [rel]);
  assert.deepEqual(json(records), [rCreate, rUpdate, rMove, rRel, rDelete]);
  assert.deepEqual(json(front), [fCreate, fUpdate, fMove, fRel, fDelete]);
  assert.deepEqual(json(plain), [pUpdate, pMove, pRel, pDelete]);
});
