// Pins the docforge command line: init on an existing docs folder, sync (with build progress on stderr), validate exit codes, search, bad usage, and a demo that shows what it announces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { exampleProjectCopy, fastifyProjectCopy, sharedExampleProject, tempDir } from './helpers/projects.js';

function cli(args: string[], cwd?: string) {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8', cwd });
}

test('init writes a descriptor for an existing docs folder and refuses to overwrite it', () => {
  const root = fastifyProjectCopy(['docs'], undefined, 'docforge-cli-');
  const first = cli(['init', root]);
  assert.equal(first.status, 0, first.stderr);
  assert.match(first.stdout, /content roots: docs/);
  const text = readFileSync(path.join(root, 'docforge.toml'), 'utf8');
  assert.match(text, /schema_version = 1/);
  const again = cli(['init', root]);
  assert.notEqual(again.status, 0);
  assert.match(again.stderr, /invalid_arguments: .*already exists; init refuses to overwrite it \(edit that file, or remove it and run init again\)/);
  const sync = cli(['sync', '-C', root]);
  assert.equal(sync.status, 0, sync.stderr);
  assert.match(sync.stdout, /rebuilt: generation 1, \d+ nodes/);
  const again2 = cli(['sync', '-C', root]);
  assert.match(again2.stdout, /up to date: generation 1/);
  // A project path after `sync` is no silent no-op on the current directory.
  for (const command of ['sync', 'validate']) {
    const stray = cli([command, '-C', root, path.join(root, 'elsewhere')]);
    assert.equal(stray.status, 2, stray.stderr);
    assert.match(stray.stderr, new RegExp(`docforge: ${command} takes no arguments; name the project with -C DIR \\(got ".*elsewhere"\\)`));
    assert.equal(stray.stdout, '');
  }
  const search = cli(['search', '-C', root, '--json', 'onRequest']);
  assert.equal(search.status, 0, search.stderr);
  assert.equal(JSON.parse(search.stdout).items[0].id, 'Reference/Hooks');
});

test('validate exits 0 on the examples and 1 with file:line on a broken node', () => {
  // No prebuilt state: the validation itself must build and publish the index.
  const root = exampleProjectCopy({ state: false });
  const ok = cli(['validate', '-C', root]);
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /valid/);
  writeFileSync(path.join(root, 'docs', 'bad.md'), '+++\nid = "X"\nkind = "document"\ntitle = [\n+++\n');
  const bad = cli(['validate', '-C', root, '--json']);
  assert.equal(bad.status, 1);
  const report = JSON.parse(bad.stdout);
  assert.equal(report.valid, false);
  const issue = report.issues.find((i: { code: string }) => i.code === 'malformed_front_matter');
  assert.equal(issue.path, 'docs/bad.md');
  assert.equal(typeof issue.line, 'number');
  assert.ok(existsSync(path.join(root, '.docforge', 'index', 'current.json')));
});

test('bad usage gets a clear message and exit code 2; a missing descriptor a structured error', () => {
  const unknown = cli(['frobnicate']);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown command/);
  const noQuery = cli(['search']);
  assert.equal(noQuery.status, 2);
  const badLimit = cli(['search', 'x', '--limit', 'abc']);
  assert.equal(badLimit.status, 2);
  const missing = cli(['sync', '-C', tempDir('docforge-empty-')]);
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /descriptor_invalid/);
});

test('demo finds docforge-mcp through the @docforge/mcp-server package and drives it over stdio', () => {
  const root = sharedExampleProject();
  const demo = cli(['demo', '-C', root]);
  assert.equal(demo.status, 0, demo.stdout + demo.stderr);
  assert.match(demo.stdout, new RegExp(`docforge-mcp --project-root ${escapeRegExp(root)}`));
  assert.match(demo.stdout, /project acme-payments, revision \d+, staleness current/);
  assert.match(demo.stdout, /\ndemo finished\n/);
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The demo's sections: header line, announced count (if any) and the list lines (`  - …`) under it. */
function demoSections(stdout: string): { header: string; count: number | null; items: string[]; lines: string[] }[] {
  const sections: { header: string; count: number | null; items: string[]; lines: string[] }[] = [];
  for (const line of stdout.split('\n')) {
    if (line.startsWith('## ')) {
      const m = /: (\d+) [a-z -]+$/.exec(line);
      sections.push({ header: line, count: m ? Number(m[1]) : null, items: [], lines: [] });
    } else if (sections.length > 0) {
      sections.at(-1)!.lines.push(line);
      if (line.startsWith('  - ')) sections.at(-1)!.items.push(line.slice(4));
    }
  }
  return sections;
}

test('the demo shows what it announces: counted lists, flows, excerpts, each relation once, gaps and capsule explained, then your own project', () => {
  const root = sharedExampleProject();
  const demo = cli(['demo', '-C', root]);
  assert.equal(demo.status, 0, demo.stdout + demo.stderr);
  const sections = demoSections(demo.stdout);
  // Every section that announces a count lists exactly that many lines.
  const counted = sections.filter((s) => s.count !== null);
  assert.ok(counted.length >= 9, sections.map((s) => s.header).join('\n'));
  for (const s of counted) assert.equal(s.items.length, s.count, `${s.header}\n${s.items.join('\n')}`);
  // The control flows are printed, as many as the Logic announces (the old demo said "12 flows shown" and printed none).
  const flows = sections.find((s) => /Control flows/.test(s.header))!;
  assert.ok(flows.count! > 0);
  for (const f of flows.items) assert.match(f, /^step \d+ -> step \d+ \[[a-z_]+\]/);
  // Each relation appears once in the whole transcript.
  const relations = [...demo.stdout.matchAll(/(\S+) --([a-z_, ]+)--> (\S+)/g)].flatMap((m) => m[2]!.split(', ').map((r) => `${m[1]} ${r} ${m[3]}`));
  assert.ok(relations.length > 10);
  assert.deepEqual(relations.filter((r, i) => relations.indexOf(r) !== i), [], 'no relation is printed twice');
  // Search hits show the excerpts the search itself returns.
  const search = JSON.parse(cli(['search', '-C', root, '--json', '--limit', '5', 'idempotency refund']).stdout) as { items: { id: string; excerpt: string }[] };
  const hits = sections.find((s) => s.header.startsWith('## Search'))!;
  assert.equal(hits.count, search.items.length);
  for (const item of search.items) {
    const excerpt = item.excerpt.replace(/\s+/g, ' ').trim().slice(0, 60);
    assert.ok(hits.lines.some((l) => l.includes(excerpt)), `excerpt of ${item.id}: ${excerpt}`);
  }
  // The issues the sync counts are the issues the validation section shows (every severity).
  const syncIssues = Number(/ (\d+) issues from \d+ sources/.exec(demo.stdout)?.[1]);
  const validation = sections.find((s) => s.header.startsWith('## Validation'))!;
  assert.equal(validation.count, syncIssues, validation.header);
  // "evidence gap" and "capsule" are explained in one line each.
  assert.equal(demo.stdout.match(/^ {2}evidence gap: .{20,}$/gm)?.length, 1);
  assert.equal(demo.stdout.match(/^ {2}capsule: .{20,}$/gm)?.length, 1);
  // It ends with the init command for your own project and an MCP client configuration.
  const tail = demo.stdout.slice(demo.stdout.lastIndexOf('## Next'));
  assert.match(tail, /docforge init \/absolute\/path\/to\/your\/project/);
  const snippet = JSON.parse(tail.slice(tail.indexOf('\n{'))) as { mcpServers: { docforge: { command: string; args: string[] } } };
  const server = snippet.mcpServers.docforge;
  assert.equal(server.command, 'node');
  assert.ok(existsSync(server.args[0]!), `the configured server path exists: ${server.args[0]}`);
  assert.deepEqual(server.args.slice(1), ['--project-root', '/absolute/path/to/your/project']);
  assert.equal(spawnSync(process.execPath, [server.args[0]!, '--version'], { encoding: 'utf8' }).status, 0, 'the configured server runs');
});

test('sync reports build progress (stage, done of total files) on stderr when asked or on a terminal, and stays quiet otherwise', () => {
  const root = exampleProjectCopy({ state: false });
  const forced = cli(['sync', '--progress', '-C', root]);
  assert.equal(forced.status, 0, forced.stderr);
  const sources = Number(/\((\d+) sources\)/.exec(forced.stdout)![1]);
  assert.match(forced.stderr, new RegExp(`stage parse: ${sources} of ${sources} files parsed`));
  assert.match(forced.stderr, /stage publish: \d+ of \d+/);
  assert.doesNotMatch(forced.stdout, /stage/, 'progress never goes to stdout');
  writeFileSync(path.join(root, 'docs', 'extra.md'), '# Extra\n');
  const quiet = cli(['sync', '-C', root]);
  assert.equal(quiet.status, 0, quiet.stderr);
  assert.doesNotMatch(quiet.stderr, /stage/, 'no progress when stderr is not a terminal');
});

test('on a terminal (script(1) gives the command a pty) sync rewrites one progress line in place', { skip: !existsSync('/usr/bin/script') && 'script(1) is not installed' }, () => {
  const root = exampleProjectCopy({ state: false });
  const command = [process.execPath, CLI_ENTRY, 'sync', '-C', root].map((a) => `'${a}'`).join(' ');
  const run = spawnSync('/usr/bin/script', ['-qec', command, '/dev/null'], { encoding: 'utf8', input: '' });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /\r\x1b\[2Kdocforge: indexing, stage parse: (\d+) of \1 files parsed/);
  assert.match(run.stdout, /rebuilt: generation 1/);
});

test('commands refuse arguments they do not take, and name what they expect', () => {
  const root = tempDir('docforge-cli-args-');
  for (const [args, message] of [
    [['init', path.join(root, 'a'), path.join(root, 'b')], /docforge: init takes at most one DIR \(got ".*b"\)/],
    [['demo', 'extra'], /docforge: demo takes no arguments \(it runs on the bundled examples\/, or on -C DIR\) \(got "extra"\)/],
    [['viewer', 'status', 'extra'], /docforge: viewer status takes no other arguments \(got "extra"\)/],
    // `rebase` is listed since issue 30 (stop 49) added `docforge changeset rebase ID --writer W`.
    [['changeset'], /docforge: changeset needs a subcommand \(list, show, diff, validate, rebase, abandon, apply\)/],
    [['changeset', 'bogus', 'x'], /docforge: unknown changeset subcommand "bogus" \(list, show, diff, validate, rebase, abandon, apply\)/],
    [['changeset', 'list', 'extra', '-C', root], /docforge: changeset list takes no arguments \(got "extra"\)/],
    [['changeset', 'show', '-C', root], /docforge: changeset show needs a changeset ID/],
    [['changeset', 'show', 'abc', 'def', '-C', root], /docforge: changeset show takes one changeset ID \(got 2 arguments\)/],
  ] as const) {
    const result = cli([...args]);
    assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, message, args.join(' '));
    assert.equal(result.stdout, '', args.join(' '));
  }
  assert.equal(existsSync(path.join(root, 'a', 'docforge.toml')), false, 'init wrote nothing');
});
