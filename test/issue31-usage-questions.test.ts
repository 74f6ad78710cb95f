// Pins the usage-question rule of issue 31 item 2 (libs/retrieval/src/ranking.ts, hasCodeIntent) on
// documentation and code nobody here wrote: the installed fastify package (docs/, lib/, fastify.js).
// "defined", "declared" or "implemented" in a question asks where code is ("where is a decorator
// defined"), except in a usage question ("how do I / how can I / how to / can I …"), where the word
// describes what is used ("a decorator defined in a parent plugin") and the documentation answers:
// there code no longer gets the "where is X" bonus and the documentation keeps its full score.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY, FASTIFY_DIR } from './helpers/paths.js';
import { sharedFastifyProject } from './helpers/shared-fixtures.js';
import type { Json } from './helpers/server.js';

const DESCRIPTOR = 'schema_version = 1\n[project]\nid = "fastify"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["lib", "fastify.js"]\n[adapter]\ncode = "typescript"\n';

function search(root: string, query: string, limit = 5): string[] {
  const out = spawnSync(process.execPath, [CLI_ENTRY, 'search', '-C', root, '--json', '--limit', String(limit), query], { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  return ((JSON.parse(out.stdout) as Json).items as Json[]).map((item) => String(item.id));
}

describe('fastify (installed package): usage questions go to the documentation', () => {
  // Reads only: the run's shared built copy (test/helpers/shared-fixtures.ts).
  const root = sharedFastifyProject(['docs', 'lib', 'fastify.js', 'package.json'], DESCRIPTOR);

  test('a usage question naming something "defined" elsewhere finds the documentation first', () => {
    // The sources: the Encapsulation page explains what a child context sees of its parent's decorators.
    assert.match(readFileSync(path.join(FASTIFY_DIR, 'docs', 'Reference', 'Encapsulation.md'), 'utf8'), /decorat/);
    const ids = search(root, 'how can I access a decorator defined in a parent plugin');
    assert.ok(!ids[0]!.startsWith('code:'), JSON.stringify(ids));
    assert.ok(ids.slice(0, 3).some((id) => ['Reference/Plugins', 'Reference/Encapsulation', 'Reference/Decorators'].includes(id)), JSON.stringify(ids));
  });

  test('asked where it is defined, the code that defines decorators comes first', () => {
    assert.match(readFileSync(path.join(FASTIFY_DIR, 'lib', 'decorate.js'), 'utf8'), /function decorate \(/);
    assert.equal(search(root, 'where is a decorator defined')[0], 'code:lib/decorate.js#decorate');
  });
});
