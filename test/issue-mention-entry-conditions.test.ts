// New-user trial on yaml 2.9.1 (2026-12-08): `yaml.parseAllDocuments` in a page linked to the browser build
// (`browser/dist/public-api.js`), because the Node build's CommonJS entry (`dist/index.js`:
// `var publicApi = require('./public-api.js'); exports.parse = publicApi.parse;`) proved no name and the
// `default` (browser) condition's ESM entry did; with `browser/**` excluded the mentions linked nothing and
// were not even counted. Pins, on the installed yaml package: the package entry is read as Node resolves it
// (`node` before `default`, never `browser`/`types`), an export of a required module's member is followed, and
// a `pkg.name` mention nothing proves is counted with the bare leaves.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './helpers/paths.js';
import { tempDir } from './helpers/projects.js';
import { useServer, type Json } from './helpers/server.js';

const YAML = path.join(REPO_ROOT, 'node_modules', 'yaml');

/** A copy of the installed yaml package with two pages of ours, `exclude` as the descriptor's. */
function yamlProject(exclude: string): string {
  const root = tempDir('docforge-yaml-entry-');
  for (const part of ['dist', 'browser', 'package.json', 'util.js']) cpSync(path.join(YAML, part), path.join(root, part), { recursive: true });
  mkdirSync(path.join(root, 'docs'));
  writeFileSync(path.join(root, 'docs', 'parse.md'), '# Parse\n\nCall `yaml.parse` on a string.\n');
  writeFileSync(path.join(root, 'docs', 'all.md'), '# All\n\nCall `yaml.parseAllDocuments` here.\n');
  writeFileSync(path.join(root, 'docs', 'hidden.md'), '# Hidden\n\n`yaml.parseOptions` is no export of the package.\n');
  writeFileSync(path.join(root, 'docforge.toml'), [
    'schema_version = 1', '[project]', 'id = "yaml"', 'name = "yaml"', '[sources]', 'content_roots = ["docs"]', 'code_roots = ["."]',
    `exclude = [${exclude}]`, '[adapter]', 'code = "typescript"', 'strategy = "ast"', '',
  ].join('\n'));
  return root;
}

/** The `documents` targets of a page. */
async function documented(s: Awaited<ReturnType<typeof useServer>>, page: string): Promise<string[]> {
  const deps = await s.call('docforge_dependencies', { node_id: page, relations: ['documents'], depth: 1 });
  assert.equal(deps.ok, true, JSON.stringify(deps.error));
  return (deps.result!.items as Json[]).map((item: Json) => item.id as string).sort();
}

describe('a package.json entry read as Node resolves it', () => {
  test('the installed yaml package: Node takes `node` (dist/) before `default` (browser/)', () => {
    const manifest = JSON.parse(readFileSync(path.join(YAML, 'package.json'), 'utf8')) as { exports: Record<string, Record<string, string>> };
    assert.deepEqual(Object.keys(manifest.exports['.']!), ['types', 'node', 'default']);
    assert.equal(manifest.exports['.']!['node'], './dist/index.js');
    assert.equal(manifest.exports['.']!['default'], './browser/index.js');
    const entry = readFileSync(path.join(YAML, 'dist', 'index.js'), 'utf8');
    assert.ok(entry.includes("var publicApi = require('./public-api.js');") && entry.includes('exports.parseAllDocuments = publicApi.parseAllDocuments;'));
  });

  for (const [label, exclude] of [['browser build indexed', '"**/node_modules/**"'], ['browser build excluded', '"**/node_modules/**", "browser/**"']] as const) {
    test(`\`yaml.parse\` and \`yaml.parseAllDocuments\` document the Node build (${label})`, async () => {
      const s = await useServer(yamlProject(exclude));
      try {
        assert.deepEqual(await documented(s, 'parse'), ['code:dist/public-api.js#parse']);
        assert.deepEqual(await documented(s, 'all'), ['code:dist/public-api.js#parseAllDocuments']);
        // `yaml.parseOptions` names a declaration no entry exports: linked to none, counted.
        assert.deepEqual(await documented(s, 'hidden'), []);
        const validate = await s.call('docforge_validate_project', {});
        assert.equal(validate.ok, true, JSON.stringify(validate.error));
        assert.deepEqual(validate.result!.mentions, { edges: 2, linked: 2, bare_leaf: 1, ambiguous: 0 });
      } finally {
        await s.close();
      }
    });
  }
});
