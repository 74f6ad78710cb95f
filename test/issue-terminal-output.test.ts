// Pins issue 8 follow-ups 5 and 6: CLI text output escapes control and bidi characters of ids, titles, file names and messages (no forged `path:line:` line), front-matter ids with such characters are malformed, every finding message starts with `path:line:`, and `docforge search` text names the best matching section.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI_ENTRY } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';

/** Characters that must never reach a terminal raw. */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/u;

function hostileProject(): string {
  const root = tempDir('docforge-term-');
  for (const dir of ['docs', 'src']) mkdirSync(path.join(root, dir), { recursive: true });
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "term"\nname = "Term"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["src"]\n[adapter]\ncode = "typescript"\n');
  // A heading with ESC, BEL, CR and a right-to-left override (a derived title drops the control and bidi characters since
  // the break-it trial of stop 49; the body keeps them); a heading to find as the best section.
  writeFileSync(path.join(root, 'docs', 'evil.md'), '# Zebra \u001b[31mred\u0007 \r\u202eevil\n\nText \u001b[31mred\u0007 \u202eevil.\n\n## Zebra stripes\n\nZebra zebra.\n');
  // A file name with a newline that would forge a finding line, holding a broken link.
  writeFileSync(path.join(root, 'docs', 'a\nforged.md:1: error fake.md'), '# Zebra forged\n\n[x](missing.md)\n');
  // Front-matter ids with NUL, ESC and a bidi override.
  writeFileSync(path.join(root, 'docs', 'nul.md'), '+++\nid = "A\\u0000B"\nkind = "document"\ntitle = "Nul"\n+++\n# Nul\n');
  writeFileSync(path.join(root, 'docs', 'esc.md'), '+++\nid = "A\\u001bB"\nkind = "document"\ntitle = "Esc"\n+++\n# Esc\n');
  writeFileSync(path.join(root, 'docs', 'bidi.md'), '+++\nid = "A\\u202eB"\nkind = "document"\ntitle = "Bidi"\n+++\n# Bidi\n');
  writeFileSync(path.join(root, 'src', 'a.ts'), "import { x } from './nope.js';\nexport const y = x;\n");
  return root;
}

function cli(root: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [CLI_ENTRY, ...args, '-C', root], { encoding: 'utf8', input: '' });
}

test('CLI text output escapes control and bidi characters; no forged finding line', () => {
  const root = hostileProject();
  const search = cli(root, 'search', 'zebra');
  assert.equal(search.status, 0, search.stderr);
  assert.doesNotMatch(search.stdout, RAW, search.stdout);
  // The title lost ESC, BEL and U+202E (a derived title drops them), not its text.
  assert.match(search.stdout, /Zebra \[31mred/);
  // The hit for "zebra" shows its Zebra stripes section's text; the body's characters show escaped in the hit for "evil".
  const evil = cli(root, 'search', 'evil');
  assert.doesNotMatch(evil.stdout, RAW, evil.stdout);
  assert.match(evil.stdout, /\\u\{202e\}evil/);
  const text = cli(root, 'search', 'text');
  assert.doesNotMatch(text.stdout, RAW, text.stdout);
  assert.match(text.stdout, /\\x1b\[31mred\\x07/);
  // The best matching section, as in the JSON.
  assert.match(search.stdout, /section zebra-stripes \(Zebra stripes\) at docs\/evil\.md:\d+$/m);
  const validate = cli(root, 'validate');
  assert.doesNotMatch(validate.stdout, RAW, validate.stdout);
  for (const line of validate.stdout.split('\n')) assert.doesNotMatch(line, /^forged\.md:1:/, 'no line forged by a file name');
  // The file whose name holds the newline gives no node (unsafe_file_name); its finding shows the name escaped.
  assert.match(validate.stdout, /unsafe_file_name: docs\/a\\nforged\.md:1: error fake\.md: the file name holds a control/);
  assert.doesNotMatch(search.stdout, /forged/, 'no hit for a file that gives no node');
});

test('front-matter ids with NUL, ESC or bidi characters are malformed; every finding message starts with path:line:', () => {
  const root = hostileProject();
  const run = cli(root, 'validate', '--json');
  const report = JSON.parse(run.stdout) as { issues: { code: string; message: string; path: string | null; line: number | null }[] };
  for (const file of ['docs/nul.md', 'docs/esc.md', 'docs/bidi.md']) {
    const finding = report.issues.find((i) => i.path === file);
    assert.ok(finding, `${file} has a finding: ${JSON.stringify(report.issues)}`);
    assert.equal(finding.code, 'malformed_front_matter');
    assert.match(finding.message, /control, bidi or invisible characters \(U\+(0000|001B|202E)/);
    assert.doesNotMatch(finding.message, /[\u0000\u001b\u202e]/u);
  }
  const unresolved = report.issues.find((i) => i.code === 'unresolved_import');
  assert.ok(unresolved, JSON.stringify(report.issues));
  for (const issue of report.issues) {
    if (issue.path === null) continue;
    const prefix = issue.line === null ? `${issue.path}:` : `${issue.path}:${issue.line}:`;
    assert.ok(issue.message.startsWith(prefix), `${issue.code}: ${JSON.stringify(issue.message)} starts with ${JSON.stringify(prefix)}`);
  }
  assert.ok(unresolved.message.startsWith('src/a.ts:1: '), unresolved.message);
});
