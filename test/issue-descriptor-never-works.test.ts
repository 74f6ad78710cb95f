// Issue 30, third trial on merged stop 48 (docs/notes: "A third trial, on the merged result"):
// docforge.toml values that are accepted although they can never work. Each kind is now refused
// with a structured `descriptor_invalid` error naming key and line, or warned at its line:
// - a `[state] dir` inside a root `.` that already holds sources (`lib` on commander: every
//   lib/*.js dropped out, and the only sign was an unresolved_import naming a glob `lib/**` the
//   user never wrote);
// - exclude globs: `**` on a code root `.`, globs removing every code file of a code root, malformed
//   (`[`, `{`) and never-matching globs, and `""` (refused without a line before);
// - writer ids and relation names outside their grammars, `code = []`, repeated adapters, the
//   descriptor or `.git` as a root, range errors that did not say what they got.
// Inputs: commander 14.0.3 as `npm pack` gives it, and ms as installed under node_modules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BUILTIN_CODE_ADAPTERS, BUILTIN_CODE_EXTENSIONS, excludeGlobOf, loadDescriptor } from '@docforge/project';
import { codeExtensionsOf } from '@docforge/identity';
import { CLI_ENTRY, REPO_ROOT } from './helpers/paths.js';
import { npmPackProject } from './helpers/npm-pack.js';
import { removeDir, tempDir } from './helpers/projects.js';

const HEAD = 'schema_version = 1\n[project]\nid = "commander"\nname = "commander"\n';

interface Issue { severity: string; code: string; message: string; path: string | null; line: number | null }

/** `docforge validate --json` on `root` with `descriptor`: its exit status and JSON. */
function validate(root: string, descriptor: string): { status: number | null; json: { issues?: Issue[]; error?: { code: string; message: string; details: { key: string | null; line: number | null } } } } {
  writeFileSync(path.join(root, 'docforge.toml'), descriptor);
  const r = spawnSync(process.execPath, [CLI_ENTRY, 'validate', '-C', root, '--json'], { encoding: 'utf8' });
  return { status: r.status, json: JSON.parse(r.stdout) as never };
}

/** The descriptor error of `descriptor` on `root` (loadDescriptor, as every command and the server load it). */
function refusal(root: string, descriptor: string): { code: string; message: string; details: { key: string; line: number | null } } {
  writeFileSync(path.join(root, 'docforge.toml'), descriptor);
  try {
    loadDescriptor(root);
  } catch (error) {
    return error as never;
  }
  assert.fail(`accepted:\n${descriptor}`);
}

function warningsOf(root: string, descriptor: string): Issue[] {
  writeFileSync(path.join(root, 'docforge.toml'), descriptor);
  return loadDescriptor(root).warnings ?? [];
}

test('a state dir inside a root "." that holds sources is refused with key, line and examples (commander)', () => {
  const root = npmPackProject('commander@14.0.3', HEAD, 'docforge-state-sources-');
  try {
    const code = validate(root, `${HEAD}[sources]\ncontent_roots = ["Readme.md"]\ncode_roots = ["."]\n\n[state]\ndir = "lib"\n`);
    assert.notEqual(code.status, 0);
    assert.equal(code.json.error?.code, 'descriptor_invalid');
    assert.deepEqual([code.json.error?.details.key, code.json.error?.details.line], ['state.dir', 10]);
    assert.match(code.json.error!.message, /\[state\]\.dir "lib" lies inside the code root "\." and holds project sources .*"lib\/argument\.js"/);
    // A content root "." and a folder of Markdown: the same refusal; the user's own excludes are honoured.
    mkdirSync(path.join(root, 'notes'));
    writeFileSync(path.join(root, 'notes', 'a.md'), '# A\n');
    const content = refusal(root, `${HEAD}[sources]\ncontent_roots = ["."]\n[state]\ndir = "notes"\n`);
    assert.equal(content.code, 'descriptor_invalid');
    assert.match(content.message, /^docforge\.toml:8: \[state\]\.dir "notes" lies inside the content root "\." .*"notes\/a\.md"/);
    // The same folder excluded by the user hides nothing.
    assert.doesNotThrow(() => { writeFileSync(path.join(root, 'docforge.toml'), `${HEAD}[sources]\ncontent_roots = ["."]\nexclude = ["notes/**"]\n[state]\ndir = "notes"\n`); loadDescriptor(root); });
    // A state dir holding no sources, and the default one, stay valid.
    assert.doesNotThrow(() => { writeFileSync(path.join(root, 'docforge.toml'), `${HEAD}[sources]\ncontent_roots = ["Readme.md"]\ncode_roots = ["."]\n[state]\ndir = "cache"\n`); loadDescriptor(root); });
    const synced = spawnSync(process.execPath, [CLI_ENTRY, 'sync', '-C', root], { encoding: 'utf8' });
    assert.equal(synced.status, 0, synced.stderr);
    assert.equal(validate(root, `${HEAD}[sources]\ncontent_roots = ["Readme.md"]\ncode_roots = ["."]\n[state]\ndir = "cache"\n`).status, 0);
  } finally {
    removeDir(root);
  }
});

test('a path in the state dir is named as the state dir, never as a glob the user wrote', () => {
  const root = npmPackProject('commander@14.0.3', `${HEAD}[sources]\ncontent_roots = ["Readme.md"]\ncode_roots = ["."]\nexclude = ["lib/**"]\n[state]\ndir = "cache"\n`, 'docforge-state-note-');
  try {
    const matching = excludeGlobOf(loadDescriptor(root));
    assert.equal(matching('cache/x.js'), '[state].dir "cache"');
    assert.equal(matching('lib/command.js'), 'lib/**');
    assert.equal(matching('index.js'), null);
  } finally {
    removeDir(root);
  }
});

test('exclude globs: "**" on a code root ".", globs removing every code file, malformed, never-matching and empty ones, each at its line', () => {
  const root = npmPackProject('commander@14.0.3', HEAD, 'docforge-exclude-checks-');
  // tempCopy leaves out every path under node_modules, the package's own included: copied as is.
  const ms = tempDir('docforge-ms-');
  cpSync(path.join(REPO_ROOT, 'node_modules', 'ms'), ms, { recursive: true });
  try {
    const all = warningsOf(root, `${HEAD}[sources]\ncontent_roots = ["Readme.md"]\ncode_roots = ["."]\nexclude = [\n  "**/node_modules/**",\n  "**",\n]\n`);
    const covers = all.filter((w) => w.code === 'exclude_covers_root' && w.message.includes('code root "."'));
    assert.equal(covers.length, 1, JSON.stringify(all));
    assert.equal(covers[0]!.line, 10);
    const lib = warningsOf(root, `${HEAD}[sources]\ncontent_roots = ["Readme.md"]\ncode_roots = ["lib"]\nexclude = [\n  "**/node_modules/**",\n  "lib/*.js",\n]\n`);
    assert.deepEqual(lib.map((w) => [w.code, w.line]), [['exclude_removes_code', 10]]);
    assert.match(lib[0]!.message, /glob "lib\/\*\.js" removes every code file of the code root "lib" \(6 files, such as "lib\/argument\.js"\)/);
    // All code in lib, with code root ".": `lib/**` removes all of it.
    const onlyLib = `${HEAD}[sources]\ncontent_roots = ["Readme.md"]\ncode_roots = ["."]\nexclude = ["lib/**", "index.js", "esm.mjs", "typings/**"]\n`;
    assert.ok(warningsOf(root, onlyLib).some((w) => w.code === 'exclude_removes_code' && w.message.includes('code root "."') && w.line === 8));
    // ms (index.js only): `*.js` removes every code file of the code root ".".
    const js = warningsOf(ms, 'schema_version = 1\n[project]\nid = "ms"\nname = "ms"\n[sources]\ncontent_roots = ["readme.md"]\ncode_roots = ["."]\nexclude = ["*.js"]\n');
    assert.deepEqual(js.map((w) => [w.code, w.line]), [['exclude_removes_code', 8]]);
    // An ordinary glob warns about nothing.
    assert.deepEqual(warningsOf(root, `${HEAD}[sources]\ncontent_roots = ["Readme.md"]\ncode_roots = ["."]\nexclude = ["**/node_modules/**", "typings/**"]\n`), []);
    for (const [glob, pattern] of [['[', /malformed/], ['lib/{a,b', /malformed/], ['', /must not hold an empty glob, got ""/]] as const) {
      const error = refusal(root, `${HEAD}[sources]\ncontent_roots = ["Readme.md"]\nexclude = [\n  "x/**",\n  ${JSON.stringify(glob)},\n]\n`);
      assert.equal(error.code, 'descriptor_invalid');
      assert.deepEqual([error.details.key, error.details.line], ['sources.exclude', 9], glob);
      assert.match(error.message, pattern);
    }
    const never = warningsOf(root, `${HEAD}[sources]\ncontent_roots = ["Readme.md"]\nexclude = ["/lib/**", "a/../b"]\n`);
    assert.deepEqual(never.map((w) => [w.code, w.line]), [['exclude_never_matches', 7], ['exclude_never_matches', 7]]);
  } finally {
    removeDir(root);
    removeDir(ms);
  }
});

test('values that can never work are descriptor errors with key and line; range errors say what they got', () => {
  const root = npmPackProject('commander@14.0.3', HEAD, 'docforge-never-works-');
  try {
    const cases: [string, string, number, RegExp][] = [
      ['[proposals.writers."bad id!"]\noperations = ["node_update"]\n', 'proposals.writers.bad id!', 5, /must name a writer id of .*, got "bad id!"/],
      ['[proposals.appliers."a b"]\nwriters = ["ok"]\n', 'proposals.appliers.a b', 5, /must name an applier id/],
      ['[vocabulary]\nrelations = [\n  "implements",\n  "Bad Relation!",\n]\n', 'vocabulary.relations', 8, /got "Bad Relation!"/],
      ['[sources]\ncode_roots = ["lib"]\n[adapter]\ncode = []\n', 'adapter.code', 8, /got \[\]/],
      ['[adapter]\ncode = [\n  "typescript",\n  "python",\n  "typescript",\n]\n', 'adapter.code', 9, /names "typescript" twice/],
      ['[adapter]\ncode = ["auto", "python"]\n', 'adapter.code', 6, /"auto" before it already includes/],
      ['[sources]\ncontent_roots = [\n  "Readme.md",\n  "docforge.toml",\n]\n', 'sources.content_roots', 8, /names the descriptor "docforge.toml" itself/],
      ['[sources]\ncontent_roots = [".git"]\n', 'sources.content_roots', 6, /lies in "\.git", version-control metadata/],
      ['[limits]\nmax_results = 0\n', 'limits.max_results', 6, /must be an integer from 1 to 10000, got 0$/],
      ['[limits]\nmax_results = 5.0 # fifty?\n', 'limits.max_results', 6, /\(got a TOML float: .*\), got 5\.0$/],
      ['[limits]\nmax_results = 1.5\n', 'limits.max_results', 6, /\(got a TOML float: write the integer without a decimal point or exponent\), got 1\.5$/],
      ['[[views]]\nid = "g"\nrenderer = "graph"\nfocus = "X"\noutput = "g.html"\ndepth = 9\n', 'views.0.depth', 10, /must be an integer from 1 to 4, got 9/],
    ];
    const version = refusal(root, 'schema_version = 2\n[project]\nid = "x"\n');
    assert.match(version.message, /^docforge\.toml:1: schema_version must be 1, got 2$/);
    for (const [body, key, line, pattern] of cases) {
      const error = refusal(root, `${HEAD}${body}`);
      assert.equal(error.code, 'descriptor_invalid', body);
      assert.deepEqual([error.details.key, error.details.line], [key, line], `${body}\n${error.message}`);
      assert.match(error.message, pattern);
    }
    // The CLI says the same (structured JSON, not an internal error).
    const cli = validate(root, `${HEAD}[adapter]\ncode = []\n`);
    assert.equal(cli.json.error?.code, 'descriptor_invalid');
  } finally {
    removeDir(root);
  }
});

test('the state-dir scan knows every built-in code adapter extension', () => {
  assert.deepEqual([...BUILTIN_CODE_EXTENSIONS].sort(), [...new Set(codeExtensionsOf(BUILTIN_CODE_ADAPTERS))].sort());
});
