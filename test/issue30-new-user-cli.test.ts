// Pins a new-user trial of issue 30 (2026-12-07) on packages nobody here wrote, each copied from
// node_modules into a temporary project that `docforge init` describes, as a user would:
// - semver 7.8.6: `docforge context QUERY` showed README's last section while `search` named the
//   section the query is about; context, task context and search now pick a section by one rule.
// - piscina 5.0.0: `context --node` spent its limit on depth-2 callees and left out the only
//   caller; depth-1 neighbours in both directions now come first, and the text shows the relation.
// - semver: `validate` now shows the mention counts; `node` lists its sections, `--section` takes
//   the heading text and a miss names the nearest slugs.
// - Outside any project the error says so instead of proposing to init that folder.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY, REPO_ROOT } from './helpers/paths.js';
import { removeDir, tempDir } from './helpers/projects.js';
import type { Json } from './helpers/server.js';

/** One finished `docforge` run. */
interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], cwd?: string): Run {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args], { encoding: 'utf8', cwd, maxBuffer: 64 * 1024 * 1024 });
}

/** `docforge ARGS --json` that must succeed, parsed: a read command's tool `result`, else the whole output. */
function json(args: string[]): Json {
  const run = cli([...args, '--json']);
  assert.equal(run.status, 0, `${args.join(' ')}: ${run.stderr}`);
  const parsed = JSON.parse(run.stdout) as Json;
  return parsed.ok === true && typeof parsed.result === 'object' ? (parsed.result as Json) : parsed;
}

/** A copy of an installed package in a temporary folder, described by `docforge init`. */
function initCopy(name: string, prefix: string): { root: string; dir: string } {
  const dir = tempDir(prefix);
  const root = path.join(dir, name);
  const source = path.join(REPO_ROOT, 'node_modules', name);
  cpSync(source, root, { recursive: true, filter: (from) => !path.relative(source, from).split(path.sep).includes('node_modules') });
  const init = cli(['init', root]);
  assert.equal(init.status, 0, init.stderr);
  return { root, dir };
}

describe('semver 7.8.6: context picks the section search names', () => {
  const { root, dir } = initCopy('semver', 'docforge-f30-semver-');
  // Questions about different sections of semver's README (one long document).
  const questions = ['coerce loose version string to semver', 'caret ranges allow patch and minor updates', 'tilde ranges allow patch-level changes', 'compare two versions and sort them'];

  test('each README excerpt of context starts at the section search names for the query', () => {
    let checked = 0;
    for (const query of questions) {
      const hits = json(['search', '-C', root, '--limit', '10', query]).items as Json[];
      const readme = hits.find((hit) => hit.source_path === 'README.md');
      if (readme?.section == null) continue;
      const items = (json(['context', '-C', root, '--limit', '6', query]).items as Json[]).filter((item) => item.id === readme.id);
      assert.equal(items.length, 1, `${query}: README in context`);
      const heading = String(items[0]!.excerpt).split('\n')[0]!;
      assert.match(heading, /^#+ /, `${query}: excerpt starts at a heading: ${heading}`);
      assert.ok(heading.replace(/[`*_]/g, '').includes(String(readme.section.title).replace(/[`*_]/g, '')), `${query}: search names ${JSON.stringify(readme.section)}, context shows ${heading}`);
      checked += 1;
    }
    assert.ok(checked >= 3, `README sections checked: ${checked}`);
    // The trial's own case: the Coercion section, not SEMVER_SPEC_VERSION at the end of the file.
    const coerce = (json(['context', '-C', root, '--limit', '6', questions[0]!]).items as Json[]).find((item) => item.source_path === 'README.md');
    assert.match(String(coerce?.excerpt), /^#+ Coercion/);
  });

  test('task context excerpts pick the section by the same rule', () => {
    const result = json(['context', '-C', root, '--task-kind', 'implementation', '--limit', '20', questions[0]!]);
    const readme = (result.items as Json[]).find((item) => item.source_path === 'README.md' && item.type !== 'omission');
    assert.ok(readme !== undefined, 'README is evidence');
    assert.equal(readme.excerpt_section?.slug, 'coercion', JSON.stringify(readme.excerpt_section));
    assert.match(String(readme.excerpt), /^#+ Coercion/);
  });

  test.after(() => removeDir(dir));
});

describe('piscina 5.0.0: context --node lists every direct neighbour, callers included, before depth 2', () => {
  const { root, dir } = initCopy('piscina', 'docforge-f30-piscina-');
  const focus = 'code:src/index.ts#ThreadPool.runTask';

  test('depth-1 neighbours in both directions come first, and the text form shows relation and direction', () => {
    const result = json(['context', '-C', root, '--node', focus, '--limit', '30']);
    const entries = (result.items as Json[]).filter((item) => item.type !== 'omission');
    const depths = entries.filter((item) => item.relation != null).map((item) => Number(item.relation.depth));
    assert.ok(depths.length > 0);
    // Never a depth-2 neighbour before a depth-1 one.
    assert.deepEqual(depths, [...depths].sort((a, b) => a - b), JSON.stringify(depths));
    // Every edge of the focus, incoming and outgoing, is a depth-1 entry (the trial's missing caller: Piscina.run).
    const node = json(['node', '-C', root, focus, '--no-body']);
    const incoming = (node.edges.incoming as Json[]).map((edge) => String(edge.source_id));
    assert.ok(incoming.includes('code:src/index.ts#Piscina.run'), JSON.stringify(incoming));
    const listed = new Set(entries.map((item) => String(item.id)));
    for (const id of incoming) assert.ok(listed.has(id), `caller ${id} listed`);
    const callers = entries.filter((item) => item.relation?.direction === 'incoming' && item.relation.depth === 1);
    assert.ok(callers.length >= 1);
    const text = cli(['context', '-C', root, '--node', focus, '--limit', '30']);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^<-calls- code:src\/index\.ts#Piscina\.run /m, text.stdout);
    assert.match(text.stdout, /^-calls-> code:/m, text.stdout);
    // A depth-2 item names the node it was reached through.
    if (depths.includes(2)) assert.match(text.stdout, /^\(via code:[^)]+\) (-\S+-> |<-\S+- )code:/m, text.stdout);
  });

  test.after(() => removeDir(dir));
});

describe('semver 7.8.6: validate shows why doc mentions did not link; node lists and finds sections', () => {
  const { root, dir } = initCopy('semver', 'docforge-f30-semver-b-');

  test('validate --json carries mentions as docforge_validate_project does, and the text form says them', () => {
    const result = json(['validate', '-C', root]);
    const mentions = result.mentions as Record<string, number> | undefined;
    assert.ok(mentions !== undefined, JSON.stringify(Object.keys(result)));
    for (const key of ['edges', 'linked', 'bare_leaf', 'ambiguous']) assert.equal(typeof mentions[key], 'number', key);
    const text = cli(['validate', '-C', root]);
    assert.match(text.stdout, new RegExp(`code mentions in documents: ${mentions.linked} linked \\(${mentions.edges} documents edges\\); not linked: ${mentions.bare_leaf} only a leaf name of some code node \\(bare_leaf\\), ${mentions.ambiguous} naming several nodes \\(ambiguous\\)`), text.stdout);
  });

  test('node lists its sections; --section takes a slug or the heading text; a miss suggests the nearest slugs', () => {
    const text = cli(['node', '-C', root, 'README', '--no-body']);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^ {4}\s*caret-ranges-123-025-004 {2}\(Caret Ranges `\^1\.2\.3` `\^0\.2\.5` `\^0\.0\.4`\) {2}line \d+$/m, text.stdout);
    assert.match(text.stdout, /^ {4}\s*coercion {2}\(Coercion\) {2}line \d+$/m, text.stdout);
    const bySlug = json(['node', '-C', root, 'README', '--section', 'coercion', '--no-body']);
    // The heading text as shown, in any case, names the same section.
    // The trial's spelling drops the code spans: the heading whose slug is that text's slug.
    for (const heading of ['Coercion', 'coercion', 'Caret Ranges `^1.2.3` `^0.2.5` `^0.0.4`', 'Caret Ranges ^1.2.3 ^0.2.5 ^0.0.4', 'caret ranges ^1.2.3 ^0.2.5 ^0.0.4']) {
      const result = json(['node', '-C', root, 'README', '--section', heading, '--no-body']);
      assert.equal(result.section.slug, heading.toLowerCase().startsWith('caret') ? 'caret-ranges-123-025-004' : bySlug.section.slug, heading);
    }
    // A near miss: the error names the nearest slugs, in the message and in details.did_you_mean.
    for (const [wanted, meant] of [['Caret Ranges', 'caret-ranges-123-025-004'], ['coersion', 'coercion'], ['tilde-ranges', 'tilde-ranges-123-12-1']]) {
      const miss = cli(['node', '-C', root, 'README', '--section', wanted!, '--json']);
      // invalid_arguments exits 2 wherever it is raised (issue 30, stop 49; before: 1, as a tool error).
      assert.equal(miss.status, 2, miss.stderr);
      const error = (JSON.parse(miss.stdout) as Json).error as Json;
      assert.equal(error.code, 'invalid_arguments');
      assert.ok((error.details.did_you_mean as string[]).includes(meant!), `${wanted}: ${JSON.stringify(error.details.did_you_mean)}`);
      assert.ok(String(error.message).includes(`Did you mean "${meant}"`), error.message);
    }
  });

  test.after(() => removeDir(dir));
});

test('outside any project the CLI says there is no DocForge project here, never to init that folder', () => {
  const dir = tempDir('docforge-f30-nowhere-');
  try {
    for (const args of [['search', 'retry'], ['validate']]) {
      const run = cli(args, dir);
      assert.equal(run.status, 1, run.stderr);
      assert.ok(run.stderr.includes('descriptor_invalid'), run.stderr);
      assert.ok(run.stderr.includes('no DocForge project here'), run.stderr);
      assert.ok(run.stderr.includes('"docforge init DIR" on the project\'s folder'), run.stderr);
      assert.ok(!run.stderr.includes(`docforge init ${dir}`), run.stderr);
    }
  } finally {
    removeDir(dir);
  }
});
