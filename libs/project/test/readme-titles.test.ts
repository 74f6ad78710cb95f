// Pins the new-user trial 48 finding left open (issue 30): axios 1.21.1's README has no level-1 heading (a sponsors
// `<h3>`, then `## Table of contents`), so its page was titled "Table of contents". A README is its folder's page: without
// a level-1 heading (Markdown `#` or an HTML `<h1>`) it is titled by the project's `[project].name` at the root and by its
// folder's name elsewhere. A README with a level-1 heading keeps it (axios' lib/adapters/README.md: "axios // adapters"),
// even after a `##`; any other page keeps its first heading of any level. Input: axios 1.21.1 from the npm registry.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseContentSource } from '../src/index.js';
import { removeTree, tempTree, testDescriptor } from './helpers.js';

let pack = '';
before(() => {
  pack = tempTree({});
  execFileSync('npm', ['pack', 'axios@1.21.1', '--silent'], { cwd: pack, stdio: ['ignore', 'ignore', 'inherit'], timeout: 120_000 });
  execFileSync('tar', ['xzf', 'axios-1.21.1.tgz'], { cwd: pack });
});
after(() => {
  if (pack !== '') removeTree(pack);
});

const descriptor = testDescriptor({ project: { id: 'axios', name: 'axios' }, sources: { content_roots: ['README.md', 'MIGRATION_GUIDE.md', 'lib'], code_roots: ['lib'], exclude: [] } });

function title(path: string, text: string): string | undefined {
  return parseContentSource({ path, text, descriptor }).nodes[0]?.title;
}

test('axios: the README without a level-1 heading is titled by the project name, not "Table of contents"', () => {
  const readme = readFileSync(join(pack, 'package/README.md'), 'utf8');
  assert.match(readme, /\n## Table of contents/);
  assert.equal(title('README.md', readme), 'axios');
  // Its folder READMEs have their own `# axios // adapters`; the migration guide keeps its first heading.
  assert.equal(title('lib/adapters/README.md', readFileSync(join(pack, 'package/lib/adapters/README.md'), 'utf8')), 'axios // adapters');
  const guide = readFileSync(join(pack, 'package/MIGRATION_GUIDE.md'), 'utf8');
  assert.equal(title('MIGRATION_GUIDE.md', guide), guide.split('\n').find((line) => line.startsWith('#'))!.replace(/^#+\s*/, '').trim());
});

test('a folder README without a level-1 heading is titled by its folder; a level-1 heading after a ## still wins', () => {
  assert.equal(title('lib/web/README.md', '## Usage\n\nCall it.\n'), 'web');
  assert.equal(title('lib/web/Readme.markdown', '<h3>Sponsors</h3>\n\n## Usage\n\nCall it.\n'), 'web');
  assert.equal(title('lib/web/README.md', '## Badges\n\n# Web client\n\nText.\n'), 'Web client');
  assert.equal(title('lib/web/README.md', '<h1 align="center">Web</h1>\n\n## Usage\n'), 'Web');
  // Not a README: the first heading of any level, as before.
  assert.equal(title('lib/web/usage.md', '## Usage\n\nCall it.\n'), 'Usage');
  assert.equal(title('lib/web/README.old.md', '## Usage\n\nCall it.\n'), 'Usage');
});

test('foreign front matter titles still come first', () => {
  assert.equal(title('README.md', '---\ntitle: Axios client\n---\n\n## Table of contents\n'), 'Axios client');
});
