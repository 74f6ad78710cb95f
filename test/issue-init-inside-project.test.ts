// Noticed in the issue 30 new-user trial: `docforge init` with no DIR, run in a subfolder of a
// project, wrote a second, nested docforge.toml, while every other command run there works on the
// enclosing project. It now refuses (usage error, exit 2, nothing written) and names the enclosing
// project; `docforge init .` still makes a nested project on purpose. Input: fastify's own docs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { fastifyProjectCopy, removeDir } from './helpers/projects.js';

function cli(cwd: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [CLI_ENTRY, ...args], { cwd, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

test('init with no DIR inside a project names the enclosing project and writes nothing; init . still nests', () => {
  const root = realpathSync(fastifyProjectCopy(['docs', 'package.json']));
  try {
    assert.equal(cli(root, 'init').status, 0);
    const docs = path.join(root, 'docs');
    const refused = cli(docs, 'init');
    assert.equal(refused.status, 2, refused.stdout);
    assert.ok(refused.stderr.includes(`inside the DocForge project at ${root}`), refused.stderr);
    assert.match(refused.stderr, /docforge init \./);
    assert.equal(existsSync(path.join(docs, 'docforge.toml')), false, 'nothing written');
    const json = cli(docs, 'init', '--json');
    assert.equal(json.status, 2);
    assert.equal(JSON.parse(json.stdout).error.code, 'invalid_arguments');
    const nested = cli(docs, 'init', '.');
    assert.equal(nested.status, 0, nested.stderr);
    assert.ok(existsSync(path.join(docs, 'docforge.toml')), 'an explicit DIR makes the nested project');
  } finally {
    removeDir(root);
  }
});
