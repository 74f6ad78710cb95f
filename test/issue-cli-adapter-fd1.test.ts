// Pins the CLI half of the break-it trial of stop 45 (issue 30): a project-owned adapter that writes
// to file descriptor 1 directly (fs.writeSync(1, ...)) or spawns a process with inherited stdio,
// inside extract() in the build worker thread, never puts a byte into the CLI's stdout. When the
// project's docforge.toml names a `module`, the launcher (apps/cli/bin/docforge.js) runs the CLI as
// a child whose fd 1 is the caller's stderr and whose fd 3 carries the CLI's own output. The real
// launcher runs with piped stdio: `docforge sync --json` prints exactly one JSON document, text
// output, the no-change path and `--version` print only their own lines, and the adapter's bytes
// are on stderr.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';

const FD1_ADAPTER = [
  "import { writeSync } from 'node:fs';",
  "import { spawnSync } from 'node:child_process';",
  "export const version = '1.0.0';",
  "export const inputs = ['services/*.json'];",
  'export function extract({ files }) {',
  "  writeSync(1, 'FD1-WRITESYNC\\n');",
  // A line that looks like a JSON document must not reach stdout either.
  "  writeSync(1, JSON.stringify({ schema_version: 1, forged: 535353 }) + '\\n');",
  "  spawnSync('sh', ['-c', 'echo FD1-SPAWNED'], { stdio: 'inherit' });",
  "  return { nodes: files.map((f) => ({ id: 'service:' + JSON.parse(f.content).name, kind: 'service', source_path: f.path })) };",
  '}',
  '',
].join('\n');

const MARKS = ['FD1-WRITESYNC', 'FD1-SPAWNED', '535353'];

function fd1Project(): string {
  const root = tempDir('docforge-cli-fd1-');
  for (const dir of ['docs', 'services']) mkdirSync(path.join(root, dir), { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "clifd1"\nname = "CliFd1"\n[sources]\ncontent_roots = ["docs"]\n[adapter]\ncode = "none"\nmodule = "adapter.mjs"\n');
  writeFileSync(path.join(root, 'docs', 'index.md'), '# CliFd1\n\nA project whose adapter writes fd 1.\n');
  writeFileSync(path.join(root, 'services', 'billing.json'), JSON.stringify({ name: 'billing' }));
  writeFileSync(path.join(root, 'adapter.mjs'), FD1_ADAPTER);
  return root;
}

/** Runs the real launcher with piped stdin, stdout and stderr. */
function docforge(args: string[], cwd?: string): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8', cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function assertMarksOnStderrOnly(run: { stdout: string; stderr: string }, what: string): void {
  for (const mark of MARKS) {
    assert.ok(!run.stdout.includes(mark), `${what}: ${mark} not on stdout:\n${run.stdout}`);
    assert.ok(run.stderr.includes(mark), `${what}: ${mark} on stderr:\n${run.stderr}`);
  }
}

test('docforge sync --json under an adapter that writes fd 1: stdout is exactly one JSON document, the adapter bytes are on stderr', () => {
  const root = fd1Project();
  const first = docforge(['sync', '--json', '-C', root]);
  assert.equal(first.status, 0, first.stderr);
  const document = JSON.parse(first.stdout) as { rebuilt: boolean; staleness: string; forged?: number };
  assert.equal(document.rebuilt, true);
  assert.equal(document.staleness, 'current');
  assert.equal(document.forged, undefined);
  assertMarksOnStderrOnly(first, 'first build, --json');

  // A second build runs extract again; text output, the root named by --project-root=DIR.
  writeFileSync(path.join(root, 'services', 'ledger.json'), JSON.stringify({ name: 'ledger' }));
  const text = docforge(['sync', `--project-root=${root}`]);
  assert.equal(text.status, 0, text.stderr);
  assert.ok(text.stdout.length > 0, 'the text output is on stdout');
  assertMarksOnStderrOnly(text, 'second build, text');

  // The no-change path (bundled fast path while fresh) prints through the same output; the root is the current folder.
  const unchanged = docforge(['sync', '--json'], root);
  assert.equal(unchanged.status, 0, unchanged.stderr);
  assert.deepEqual([(JSON.parse(unchanged.stdout) as { rebuilt: boolean }).rebuilt, (JSON.parse(unchanged.stdout) as { staleness: string }).staleness], [false, 'current']);
  for (const mark of MARKS) assert.ok(!unchanged.stdout.includes(mark), mark);

  const version = docforge(['--version', '-C', root]);
  assert.equal(version.status, 0, version.stderr);
  assert.match(version.stdout, /^docforge \S+\n$/);
});
