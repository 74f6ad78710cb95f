// Issue 30, break-it trial of stop 49 (on the merged result): descriptor values and titles that
// still got through, each fixed as a kind:
// - an exclude glob ending in "/" (`node_modules/`, `src/ledger/`, the .gitignore way to name a
//   folder) excluded nothing, silently: it now names the folder and everything below it;
// - an unclosed "(" or "{" was accepted, and `archive/(old|src` silently matched the code root
//   `src` (the "|" escaped the group): now refused as malformed; "." warned as never matching;
// - `code = ["none", "typescript"]` was accepted and "none" ignored: now refused;
// - `schema_version = 1.5` did not say what it got; numbers past 2^53 were shown rounded;
// - a heading or an <h1> holding a bidi or control character put it into the node title, and
//   `[project].name` (a root README's title) was not checked;
// - `docforge --json` with no command printed the text usage, not the one error document.
// Inputs: the bundled examples/ and ms as installed under node_modules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadDescriptor } from '@docforge/project';
import { CLI_ENTRY, REPO_ROOT } from './helpers/paths.js';
import { exampleProjectCopy, removeDir } from './helpers/projects.js';

interface Failure { code: string; message: string; details: { key: string | null; line: number | null } }

function cli(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** examples/ docforge.toml with `line` put in place of the line starting `key =`, or appended to its section. */
function withLine(root: string, key: string, line: string): void {
  const file = path.join(root, 'docforge.toml');
  const text = readFileSync(file, 'utf8');
  const at = new RegExp(`^${key} = .*$`, 'm');
  writeFileSync(file, at.test(text) ? text.replace(at, line) : `${text}\n${line}\n`);
}

function refusal(root: string): Failure {
  try {
    loadDescriptor(root);
  } catch (error) {
    return error as Failure;
  }
  assert.fail('accepted');
}

test('an exclude glob ending in "/" names the folder and everything below it (ms as installed in node_modules)', () => {
  const root = exampleProjectCopy();
  try {
    mkdirSync(path.join(root, 'vendor', 'node_modules'), { recursive: true });
    cpSync(path.join(REPO_ROOT, 'node_modules', 'ms'), path.join(root, 'vendor', 'node_modules', 'ms'), { recursive: true });
    withLine(root, 'code_roots', 'code_roots = ["src", "vendor"]');
    withLine(root, 'exclude', 'exclude = ["vendor/node_modules/"]');
    assert.deepEqual((loadDescriptor(root).warnings ?? []).filter((w) => w.code.startsWith('exclude_')), []);
    const sync = cli(['sync', '-C', root, '--json']);
    assert.equal(sync.status, 0, sync.stderr);
    const search = cli(['search', 'ms', '--languages', 'javascript', '-C', root, '--json']);
    const items = (JSON.parse(search.stdout) as { items?: { id: string }[] }).items ?? [];
    assert.deepEqual(items.filter((item) => item.id.includes('node_modules')), [], 'nothing under vendor/node_modules/ is indexed');
    // Without the trailing "/" glob the same file is indexed: the glob is what leaves it out.
    withLine(root, 'exclude', 'exclude = []');
    assert.equal(cli(['sync', '-C', root]).status, 0);
    const all = JSON.parse(cli(['search', 'ms', '--languages', 'javascript', '-C', root, '--json']).stdout) as { items?: { id: string }[] };
    assert.ok((all.items ?? []).some((item) => item.id.startsWith('code:vendor/node_modules/ms/')), JSON.stringify(all).slice(0, 400));
  } finally {
    removeDir(root);
  }
});

test('unclosed groups are refused, "." is warned, "none" beside an adapter is refused, numbers are shown as written', () => {
  const root = exampleProjectCopy();
  try {
    for (const glob of ['archive/(old|src', 'docs/+(a', 'docs/{a,b']) {
      withLine(root, 'exclude', `exclude = [${JSON.stringify(glob)}]`);
      const error = refusal(root);
      assert.equal(error.code, 'descriptor_invalid', glob);
      assert.equal(error.details.key, 'sources.exclude');
      assert.match(error.message, /malformed/);
    }
    withLine(root, 'exclude', 'exclude = ["."]');
    assert.ok((loadDescriptor(root).warnings ?? []).some((w) => w.code === 'exclude_never_matches' && /"\."/.test(w.message)));
    withLine(root, 'exclude', 'exclude = ["./src/**"]');
    assert.deepEqual((loadDescriptor(root).warnings ?? []).filter((w) => w.code === 'exclude_never_matches'), [], './src/** matches src/**');
    withLine(root, 'exclude', 'exclude = []');
    for (const list of ['["none", "typescript"]', '["typescript", "none"]', '["auto", "none"]']) {
      withLine(root, 'code', `code = ${list}`);
      const error = refusal(root);
      assert.equal(error.details.key, 'adapter.code', list);
      assert.match(error.message, /"none"/);
    }
    withLine(root, 'code', 'code = "typescript"');
    withLine(root, 'schema_version', 'schema_version = 1.5');
    assert.match(refusal(root).message, /, got 1\.5$/);
    withLine(root, 'schema_version', 'schema_version = 1');
    withLine(root, 'max_results', 'max_results = 99999999999999999999');
    const big = refusal(root);
    assert.match(big.message, /got 99999999999999999999$/, big.message);
  } finally {
    removeDir(root);
  }
});

test('derived titles drop bidi and control characters; [project].name may hold none; --json alone gets the error document', () => {
  const root = exampleProjectCopy();
  try {
    const docs = path.join(root, 'docs');
    writeFileSync(path.join(docs, 'plain-bidi.md'), '# Heading with \u202e bidi and \u001b[31m escape\n\nText.\n');
    writeFileSync(path.join(docs, 'README.md'), '<h1 align="center"> Evil \u202e txt &#x202E;x </h1>\n\nText.\n');
    assert.equal(cli(['sync', '-C', root]).status, 0);
    for (const [id, title] of [['plain-bidi', 'Heading with  bidi and [31m escape'], ['README', 'Evil  txt x']]) {
      const node = cli(['node', id, '-C', root, '--json']);
      const found = JSON.parse(node.stdout) as { result?: { node?: { title: string } } };
      const shown = found.result?.node?.title ?? '';
      assert.doesNotMatch(shown, /[\u001b\u202e]/u, `${id}: ${JSON.stringify(shown)}`);
      assert.equal(shown.replace(/\s+/g, ' '), title.replace(/\s+/g, ' '));
    }
    withLine(root, 'name', 'name = "Acme \u202eslaer"');
    const error = refusal(root);
    assert.deepEqual([error.code, error.details.key], ['descriptor_invalid', 'project.name']);
    assert.match(error.message, /U\+202E/);
    const bare = cli(['--json']);
    assert.equal(bare.status, 2);
    const doc = JSON.parse(bare.stdout) as { schema_version: number; ok: boolean; error: { code: string } };
    assert.deepEqual([doc.schema_version, doc.ok, doc.error.code], [1, false, 'invalid_arguments']);
  } finally {
    removeDir(root);
  }
});
