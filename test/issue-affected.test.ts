// Issue 32 item 3: `docforge affected` — what a change makes stale, from the sources now or from a
// unified diff on stdin, against the last publication, without synchronizing; on copies of
// examples/ and of the fastify package.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseUnifiedDiff } from '@docforge/sync';
import { CLI_ENTRY } from './helpers/paths.js';
import { treeHashes } from './helpers/hashes.js';
import { exampleProjectCopy, fastifyProjectCopy, tempDir } from './helpers/projects.js';

function cli(args: string[], input?: string) {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8', ...(input === undefined ? {} : { input }) });
}

interface AffectedJson {
  input: string;
  against: { generation: number };
  changed: { sources: { path: string; change: string; changed_nodes: number }[]; nodes: { id: string; change: string; published: boolean }[]; ignored_paths: string[]; truncated: boolean };
  affected: { items: { id: string; role: string; line: number; sections: { slug: string; line: number }[]; path: { from: string; relation: string; direction: string; to: string }[] }[]; truncated: boolean; truncation_reason: string | null; examined_edges: number };
}

function affectedJson(root: string, extra: string[] = [], input?: string): AffectedJson {
  const run = cli(['affected', '--json', '-C', root, ...extra], input);
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as AffectedJson;
}

/** A unified diff (git's form, a/ and b/ prefixes) of one file from `before` to `after`, with 3 lines of context. */
function unifiedDiff(file: string, before: string, after: string): string {
  const dir = tempDir('docforge-diff-');
  mkdirSync(path.join(dir, 'a', path.dirname(file)), { recursive: true });
  mkdirSync(path.join(dir, 'b', path.dirname(file)), { recursive: true });
  writeFileSync(path.join(dir, 'a', file), before);
  writeFileSync(path.join(dir, 'b', file), after);
  const run = spawnSync('diff', ['-u', `a/${file}`, `b/${file}`], { cwd: dir, encoding: 'utf8' });
  assert.equal(run.status, 1, run.stderr);
  return `diff --git a/${file} b/${file}\nindex 0000000..1111111 100644\n${run.stdout}`;
}

function stateHashes(root: string): Map<string, string> {
  return treeHashes(path.join(root, '.docforge'), '\u0000');
}

describe('unified diff parsing', () => {
  test('git diff text: files, removed old lines and added new lines; created and deleted files', () => {
    const text = [
      'commit 123', 'Author: someone', '', '    message', '',
      'diff --git a/src/x.ts b/src/x.ts', 'index 1..2 100644', '--- a/src/x.ts', '+++ b/src/x.ts',
      '@@ -10,4 +10,5 @@ function f() {', ' a', '-b', '+B', '+C', ' d', '', '@@ -30 +31 @@', '-z', '+Z', '\\ No newline at end of file',
      'diff --git a/new.md b/new.md', 'new file mode 100644', '--- /dev/null', '+++ b/new.md', '@@ -0,0 +1,2 @@', '+# New', '+text',
      'diff --git a/old.md b/old.md', 'deleted file mode 100644', '--- a/old.md', '+++ /dev/null', '@@ -1 +0,0 @@', '-gone',
    ].join('\r\n');
    assert.deepEqual(parseUnifiedDiff(text), [
      { old_path: 'src/x.ts', new_path: 'src/x.ts', removed: [11, 30], added: [11, 12, 31] },
      { old_path: null, new_path: 'new.md', removed: [], added: [1, 2] },
      { old_path: 'old.md', new_path: null, removed: [1], added: [] },
    ]);
    assert.deepEqual(parseUnifiedDiff(''), []);
  });

  test('git\'s quoted paths are decoded (octal UTF-8 bytes, C escapes); sections of one file merge; a pure rename names both paths (break-it trial)', () => {
    // As `git diff` prints a path with non-ASCII or control characters (core.quotePath, the default).
    const quoted = ['diff --git "a/docs/\\303\\251.md" "b/docs/\\303\\251.md"', '--- "a/docs/\\303\\251.md"', '+++ "b/docs/\\303\\251.md"', '@@ -1 +1,2 @@', ' # é', '+more'].join('\n');
    assert.deepEqual(parseUnifiedDiff(quoted), [{ old_path: 'docs/é.md', new_path: 'docs/é.md', removed: [], added: [2] }]);
    assert.deepEqual(parseUnifiedDiff('--- "a/q\\tq.ts"\n+++ "b/q\\tq.ts"\n@@ -1 +1 @@\n-a\n+b\n')[0]!.new_path, 'q\tq.ts');
    // An escape git never writes is a malformed diff, not an internal error.
    assert.throws(() => parseUnifiedDiff('--- "a/q\\xq.ts"\n+++ "b/q.ts"\n'), (e: { code?: string; message?: string }) => e.code === 'invalid_arguments' && /line 1: a quoted path/.test(e.message ?? ''));
    // The same file in many sections is one entry, its lines once each.
    const repeated = Array.from({ length: 500 }, () => '--- a/src/x.ts\n+++ b/src/x.ts\n@@ -3 +3 @@\n-a\n+b').join('\n');
    assert.deepEqual(parseUnifiedDiff(repeated), [{ old_path: 'src/x.ts', new_path: 'src/x.ts', removed: [3], added: [3] }]);
    // `git diff -M` of a pure rename has no ---/+++ lines.
    const rename = ['diff --git a/lib/time.js b/lib/time2.js', 'similarity index 100%', 'rename from lib/time.js', 'rename to lib/time2.js'].join('\n');
    assert.deepEqual(parseUnifiedDiff(rename), [{ old_path: 'lib/time.js', new_path: 'lib/time2.js', removed: [], added: [] }]);
  });

  test('sections without lines to map are reported, not dropped: binary files (git and diff -r) and mode changes alone', () => {
    const text = [
      'diff --git a/img.png b/img.png', 'index 1..2 100644', 'Binary files a/img.png and b/img.png differ',
      'diff --git a/run.sh b/run.sh', 'old mode 100644', 'new mode 100755',
      'diff --git a/tool.sh b/tool.sh', 'old mode 100644', 'new mode 100755', '--- a/tool.sh', '+++ b/tool.sh', '@@ -1 +1 @@', '-a', '+b',
      'diff --git a/logo.bin b/logo.bin', 'new file mode 100644', 'index 0000000..3333333', 'GIT binary patch', 'literal 5', 'McmZQzWMXCn00300ss_', '', 'literal 0', 'HcmV?d00001', '',
      'Binary files old/doc.pdf and new/doc.pdf differ',
    ].join('\n');
    assert.deepEqual(parseUnifiedDiff(text), [
      { old_path: 'img.png', new_path: 'img.png', removed: [], added: [], unmapped: 'binary' },
      { old_path: 'run.sh', new_path: 'run.sh', removed: [], added: [], unmapped: 'mode_only' },
      { old_path: 'tool.sh', new_path: 'tool.sh', removed: [1], added: [1] },
      { old_path: 'logo.bin', new_path: 'logo.bin', removed: [], added: [], unmapped: 'binary' },
      { old_path: 'old/doc.pdf', new_path: 'new/doc.pdf', removed: [], added: [], unmapped: 'binary' },
    ]);
  });

  test('text that is not a unified diff is refused with the line that broke it', () => {
    const cases: [string, RegExp][] = [
      ['hello world\n', /line 1: no "--- "\/"\+\+\+ " file header found/],
      ['@@ -1 +1 @@\n-a\n+b\n', /line 1: a hunk before any/],
      ['--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+b\n', /line 5: the hunk at line 3 ends early/],
      ['--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n-b\n+c\n', /line 5: the hunk at line 3 removes more lines than its header counts/],
      ['--- a/x\n+++ b/x\n@@ -x +1 @@\n', /line 3: malformed hunk header/],
      ['--- a/x\n+++ b/x\n@@ -1 +1 @@\n*a\n', /line 4: a hunk line must start with/],
      ['--- a/x\n+++ b/x\n@@ -99999999999999999999,1 +1,1 @@\n-a\n+b\n', /line 3: a hunk line number or count above 2147483647/],
      ['--- a/x\n+++ b/x\n@@ -1,1 +1,4294967296 @@\n-a\n+b\n', /line 3: a hunk line number or count above 2147483647/],
    ];
    for (const [text, message] of cases) {
      assert.throws(() => parseUnifiedDiff(text), (error: Error & { code?: string }) => error.code === 'invalid_arguments' && message.test(error.message), text);
    }
  });
});

describe('docforge affected end to end', () => {
  test('examples/: a changed method body names the doc section and its requirements; a diff on stdin answers the same; nothing is published', () => {
    const root = exampleProjectCopy({ state: false });
    assert.equal(cli(['sync', '-C', root]).status, 0);
    const unchanged = affectedJson(root);
    assert.deepEqual([unchanged.changed.nodes, unchanged.affected.items], [[], []]);
    const file = 'src/refunds/refund-service.ts';
    const before = readFileSync(path.join(root, file), 'utf8');
    const edited = before.replace("result = { paymentId: request.paymentId, status: 'completed', entryId: entry.id };", "result = { paymentId: request.paymentId, status: 'completed', entryId: entry.id, settled: false };");
    assert.notEqual(edited, before);
    writeFileSync(path.join(root, file), edited);
    const state = stateHashes(root);

    const now = affectedJson(root);
    assert.equal(now.input, 'sources');
    assert.deepEqual(now.changed.sources, [{ path: file, change: 'modified', changed_nodes: 1 }]);
    assert.deepEqual(now.changed.nodes.map((n) => [n.id, n.change, n.published]), [['code:src/refunds/refund-service.ts#RefundService.requestRefund', 'modified', true]]);
    const byId = new Map(now.affected.items.map((i) => [i.id, i]));
    const component = byId.get('CMP-REFUND-SERVICE');
    assert.ok(component, JSON.stringify(now.affected.items.map((i) => i.id)));
    assert.equal(component.role, 'doc');
    assert.deepEqual(component.sections.map((s) => s.slug), ['refund-service']);
    assert.equal(component.line, component.sections[0]!.line);
    assert.deepEqual(component.path.map((h) => `${h.from} ${h.direction} ${h.relation} ${h.to}`), [
      'code:src/refunds/refund-service.ts#RefundService.requestRefund incoming contains code:src/refunds/refund-service.ts#RefundService',
      'code:src/refunds/refund-service.ts#RefundService incoming defines CMP-REFUND-SERVICE',
    ]);
    for (const requirement of ['REQ-PAY-005', 'REQ-LED-003']) {
      const entry = byId.get(requirement);
      assert.ok(entry, requirement);
      assert.equal(entry.role, 'requirement');
      assert.equal(entry.path.at(-1)!.from, 'CMP-REFUND-SERVICE');
      assert.match(entry.path.at(-1)!.relation, /^implement/);
    }
    assert.equal(byId.get('TST-LED-003')?.role, 'test');
    assert.equal(now.affected.truncated, false);
    const text = cli(['affected', '-C', root]);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^ {2}modified code:src\/refunds\/refund-service\.ts#RefundService\.requestRefund {2}\[method\]/m);
    assert.match(text.stdout, /reread section refund-service \(Refund service\) at docs\/components\/refund-service\.md:\d+/);
    assert.match(text.stdout, /^ {2}requirement REQ-PAY-005 /m);

    const diff = unifiedDiff(file, before, edited);
    const fromDiff = affectedJson(root, ['--diff', '-'], diff);
    assert.equal(fromDiff.input, 'diff');
    assert.deepEqual(fromDiff.changed.nodes, now.changed.nodes);
    assert.deepEqual(fromDiff.affected, now.affected);
    // Answering never synchronizes: the state directory is as it was, and sync still has work.
    assert.deepEqual(stateHashes(root), state);
    assert.equal(now.against.generation, 1);
    assert.match(cli(['sync', '-C', root]).stdout, /^rebuilt: generation 2/);
    assert.deepEqual(affectedJson(root).changed.nodes, []);
  });

  test('moving code without changing it changes no node; a malformed diff is a usage error that changes nothing', () => {
    const root = exampleProjectCopy({ state: false });
    assert.equal(cli(['sync', '-C', root]).status, 0);
    const file = 'src/shared/retry.ts';
    const before = readFileSync(path.join(root, file), 'utf8');
    writeFileSync(path.join(root, file), `\n\n\n${before}`);
    const moved = affectedJson(root);
    assert.deepEqual(moved.changed.sources, [{ path: file, change: 'modified', changed_nodes: 0 }]);
    assert.deepEqual(moved.affected.items, []);
    const state = stateHashes(root);
    for (const input of ['not a diff\n', '--- a/src/shared/retry.ts\n+++ b/src/shared/retry.ts\n@@ -1,3 +1,3 @@\n-x\n']) {
      const run = cli(['affected', '--diff', '-', '-C', root], input);
      assert.equal(run.status, 2, run.stdout);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, /^docforge: invalid_arguments: the diff on standard input is not a unified diff: line \d+: /);
    }
    for (const argv of [['affected', '--diff', 'patch.diff'], ['affected', '--depth', '0'], ['affected', '--limit', '100000'], ['affected', 'extra']]) {
      const run = cli([...argv, '-C', root], '');
      assert.equal(run.status, 2, `${argv.join(' ')}: ${run.stderr}`);
      assert.equal(run.stdout, '');
    }
    assert.deepEqual(stateHashes(root), state);
  });

  test('an edit of numbers and operators alone changes the function; the text answer counts the callers it does not follow (new-user trial)', () => {
    const root = exampleProjectCopy({ state: false });
    assert.equal(cli(['sync', '-C', root]).status, 0);
    const file = 'src/shared/retry.ts';
    const before = readFileSync(path.join(root, file), 'utf8');
    const edited = before.replace('baseDelayMs * 2 ** (attempt - 1)', 'baseDelayMs * 2 ** (attempt - 2)');
    assert.notEqual(edited, before);
    writeFileSync(path.join(root, file), edited);
    const now = affectedJson(root);
    assert.deepEqual(now.changed.nodes.map((n) => [n.id, n.change]), [['code:src/shared/retry.ts#withRetry', 'modified']]);
    const text = cli(['affected', '-C', root]);
    assert.equal(text.status, 0, text.stderr);
    // withRetry's callers (the gateway, the refund service, ...) are counted as not followed, as many as its incoming calls edges.
    const callers = JSON.parse(cli(['backlinks', 'code:src/shared/retry.ts#withRetry', '--relations', 'calls', '--json', '-C', root]).stdout) as { result: { items: unknown[] } };
    assert.ok(callers.result.items.length >= 2);
    assert.match(text.stdout, new RegExp(`^\\(not followed: ${callers.result.items.length} calls into the changed node; the code that calls them is not listed here: docforge impact ID --relations calls\\)$`, 'm'));
  });

  test('a changed requirement reaches what implements it and its tests, and no test leads back to other subjects', () => {
    const root = exampleProjectCopy({ state: false });
    assert.equal(cli(['sync', '-C', root]).status, 0);
    const file = 'docs/requirements/pay-005-partial-refunds.md';
    const before = readFileSync(path.join(root, file), 'utf8');
    writeFileSync(path.join(root, file), before.replace('one returned item at a time', 'one returned item at a time, or by amount'));
    const answer = affectedJson(root);
    assert.deepEqual(answer.changed.nodes.map((n) => [n.id, n.change]), [['REQ-PAY-005', 'modified']]);
    const byId = new Map(answer.affected.items.map((i) => [i.id, i]));
    assert.deepEqual(byId.get('CMP-REFUND-SERVICE')?.path.map((h) => `${h.from} ${h.direction} ${h.relation}`), ['REQ-PAY-005 incoming implements']);
    assert.deepEqual(byId.get('TST-LED-003')?.path.map((h) => `${h.from} ${h.direction} ${h.relation}`), ['REQ-PAY-005 incoming verifies']);
    // TST-LED-003 also tests CMP-LEDGER (`CMP-LEDGER tested_by TST-LED-003`): a test ends its path.
    for (const entry of answer.affected.items) assert.ok(entry.path.every((h) => h.from !== 'TST-LED-003'), JSON.stringify(entry.path));
    assert.equal(byId.has('CMP-LEDGER'), false);
  });

  test('--json: every error is a JSON error object on standard output (exit 2 for usage, 1 otherwise); a git diff with a binary file and a mode change names them as not mapped', () => {
    const fresh = exampleProjectCopy({ state: false });
    const unpublished = cli(['affected', '--json', '-C', fresh]);
    assert.equal(unpublished.status, 1);
    assert.equal(unpublished.stderr, '');
    const error = (JSON.parse(unpublished.stdout) as { schema_version: number; error: { code: string; message: string } });
    assert.equal(error.schema_version, 1);
    assert.equal(error.error.code, 'index_unavailable');
    assert.match(error.error.message, /nothing is published yet/);

    const root = exampleProjectCopy({ state: false });
    assert.equal(cli(['sync', '-C', root]).status, 0);
    for (const [argv, input, pattern] of [
      [['--diff', '-'], 'not a diff\n', /line 1: /],
      [['--depth', '0'], '', /--depth must be an integer from 1 to 10/],
      [['--diff', 'patch.diff'], '', /--diff takes "-"/],
    ] as const) {
      const run = cli(['affected', '--json', '-C', root, ...argv], input);
      assert.equal(run.status, 2, run.stdout);
      assert.equal(run.stderr, '');
      const body = JSON.parse(run.stdout) as { error: { code: string; message: string; details: Record<string, unknown> } };
      assert.equal(body.error.code, 'invalid_arguments');
      assert.match(body.error.message, pattern);
    }

    // A real git diff: a changed method body, a binary file, a mode change alone.
    const git = (args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' });
    if (git(['--version']).status !== 0) return;
    for (const args of [['init', '-q'], ['config', 'user.email', 'e@example.com'], ['config', 'user.name', 'e'], ['config', 'core.fileMode', 'true']]) assert.equal(git(args).status, 0);
    writeFileSync(path.join(root, 'docs', 'diagram.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]));
    assert.equal(git(['add', '-A']).status, 0);
    assert.equal(git(['commit', '-qm', 'base']).status, 0);
    writeFileSync(path.join(root, 'docs', 'diagram.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 3, 4]));
    chmodSync(path.join(root, 'src/shared/retry.ts'), 0o755);
    const file = 'src/refunds/refund-service.ts';
    const before = readFileSync(path.join(root, file), 'utf8');
    writeFileSync(path.join(root, file), before.replace("status: 'completed', entryId: entry.id };", "status: 'completed', entryId: entry.id, settled: false };"));
    const diff = git(['diff']).stdout;
    assert.match(diff, /^Binary files a\/docs\/diagram\.png and b\/docs\/diagram\.png differ$/m);
    assert.match(diff, /^old mode 100644$/m);
    const answer = affectedJson(root, ['--diff', '-'], diff) as AffectedJson & { changed: { unmapped_paths: { path: string; reason: string }[] } };
    assert.deepEqual(answer.changed.unmapped_paths, [{ path: 'docs/diagram.png', reason: 'binary' }, { path: 'src/shared/retry.ts', reason: 'mode_only' }]);
    assert.deepEqual(answer.changed.nodes.map((n) => n.id), ['code:src/refunds/refund-service.ts#RefundService.requestRefund']);
    const text = cli(['affected', '--diff', '-', '-C', root], diff);
    assert.match(text.stdout, /^not mapped \(binary file\): docs\/diagram\.png$/m);
    assert.match(text.stdout, /^not mapped \(mode change only\): src\/shared\/retry\.ts$/m);
  });

  test('nothing published yet: index_unavailable, exit 1, nothing built', () => {
    const root = exampleProjectCopy({ state: false });
    const run = cli(['affected', '-C', root]);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /^docforge: index_unavailable: nothing is published yet: run docforge sync/);
  });

  test('fastify: a changed function body names the reference section that documents it', () => {
    const root = fastifyProjectCopy(['docs', 'lib', 'fastify.js'], 'schema_version = 1\n[project]\nid = "fastify"\nname = "Fastify"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["lib", "fastify.js"]\n[adapter]\ncode = "typescript"\n');
    assert.equal(cli(['sync', '-C', root]).status, 0);
    const file = 'lib/content-type-parser.js';
    const before = readFileSync(path.join(root, file), 'utf8');
    const edited = before.replace(/function hasContentTypeParser \(contentType\) \{\n {2}return [^\n]+\n\}/, 'function hasContentTypeParser (contentType) {\n  return this[kContentTypeParser].hasParser(contentType) === true\n}');
    assert.notEqual(edited, before, 'fastify still has hasContentTypeParser as this test expects');
    writeFileSync(path.join(root, file), edited);
    const now = affectedJson(root);
    assert.deepEqual(now.changed.nodes.map((n) => [n.id, n.change]), [['code:lib/content-type-parser.js#hasContentTypeParser', 'modified']]);
    const reference = now.affected.items.find((i) => i.id === 'Reference/ContentTypeParser');
    assert.ok(reference, JSON.stringify(now.affected.items.map((i) => i.id)));
    assert.ok(reference.sections.some((s) => s.slug === 'hascontenttypeparser'), JSON.stringify(reference.sections));
    assert.deepEqual(reference.path.map((h) => h.relation), ['documents']);
    const fromDiff = affectedJson(root, ['--diff', '-'], unifiedDiff(file, before, edited));
    assert.deepEqual(fromDiff.affected, now.affected);
  });
});
