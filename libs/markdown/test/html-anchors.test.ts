// HTML anchors in Markdown (`<a id="x"></a>` / `<a name='x'>`) become anchors of their section. The
// tag scan is linear since the regex guard of issue 30 (the pattern before backtracked over runs of
// `<a ` without a `>`: 5.8 s on 7.6 KB). These pin what it finds, on the shapes the old pattern
// accepted, on an HTML block that holds such a run, and on real READMEs from node_modules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { markdownFacts } from '../src/index.js';

/** Every slug and HTML anchor id (an anchor tag names the section that follows it: its `aliases`). */
const ids = (body: string): string[] => markdownFacts(body, 1, 'docs/a.md').anchors.flatMap((a) => [a.slug, ...a.aliases]);

test('anchor tags of every quoting, case and attribute order name their section', () => {
  const body = ['# Title', '', '<a id="first"></a>', '', '## Two', '', "<A class=x NAME='second'>", '', '## Three', '', '<a data-x=1 id=third></a>', ''].join('\n');
  const slugs = ids(body);
  for (const id of ['first', 'second', 'third']) assert.ok(slugs.includes(id), `${id}: ${JSON.stringify(slugs)}`);
});

test('an HTML block with a long run of unclosed `<a ` still yields the real anchor after it', () => {
  const body = ['# Title', '', `<div>${'<a \t'.repeat(20_000)}</div>`, '', '<a id="after-the-run"></a>', ''].join('\n');
  assert.ok(ids(body).includes('after-the-run'));
});

test("real READMEs: bl's and fast-json-stringify's HTML anchors are all found", () => {
  // The compiled test runs from libs/markdown/dist/test: the repository's node_modules is four folders up.
  const modules = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../node_modules');
  for (const pkg of ['bl', 'fast-json-stringify']) {
    const readme = readFileSync(path.join(modules, pkg, 'README.md'), 'utf8');
    const html = [...readme.matchAll(/<a (?:id|name)="([^"]+)"/g)].map((m) => m[1]!);
    const slugs = new Set(ids(readme));
    assert.ok(html.length >= 10, `${pkg}: ${html.length} anchor tags`);
    for (const id of html) assert.ok(slugs.has(id), `${pkg}: ${id}`);
  }
});
