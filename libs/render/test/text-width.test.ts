// Pins the graph renderer's text measure (wrapping and cutting stay within the width asked) and the page renderer's heading rule on hand-made nodes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ViewDeclaration } from '@docforge/project';
import { fitText, renderViewHtml, textWidth, wrapText } from '../src/index.js';
import { byTag, elements, parseHtml, text } from './dom.js';
import { memoryGraph, node } from './fixtures.js';

test('textWidth: wider letters measure wider, combining marks add nothing, other scripts count one em', () => {
  assert.ok(textWidth('WWW', 10) > textWidth('iii', 10));
  assert.equal(textWidth('e\u0301', 10), textWidth('e', 10));
  assert.equal(textWidth('日本', 12), 24);
  assert.equal(textWidth('', 12), 0);
});

test('wrapText keeps whole words on lines within the width and marks left-over text with an ellipsis', () => {
  const title = 'Asynchronous Logging with a rather long tail of words that cannot all fit';
  for (const max of [60, 120, 220]) {
    const lines = wrapText(title, max, 12, 2);
    assert.ok(lines.length >= 1 && lines.length <= 2);
    for (const line of lines) assert.ok(textWidth(line, 12) <= max, `${line} fits ${max}`);
    assert.ok(lines[lines.length - 1]!.endsWith('…'), 'the cut is visible');
  }
  assert.deepEqual(wrapText('Web Frameworks', 220, 12, 2), ['Web Frameworks']);
  assert.deepEqual(wrapText('Web Frameworks', 100, 12, 2), ['Web', 'Frameworks']);
  const single = wrapText('Supercalifragilisticexpialidocious', 80, 12, 2);
  assert.equal(single.length, 1);
  assert.ok(textWidth(single[0]!, 12) <= 80 && single[0]!.endsWith('…'));
});

test('fitText cuts at the end or in the middle, keeping the head and the tail of an id', () => {
  const id = 'code:lib/some/deeply/nested/folder/transport.js#transport';
  const cut = fitText(id, 200, 11, 'middle');
  assert.ok(textWidth(cut, 11) <= 200);
  assert.ok(cut.startsWith('code:') && cut.endsWith('transport') && cut.includes('…'));
  assert.equal(fitText('short', 120, 11), 'short');
});

function pageView(over: Partial<ViewDeclaration>): ViewDeclaration {
  return { id: 'v', title: 'API', renderer: 'page', select: {}, output: 'site/v.html', ...over };
}

test('page: a body heading equal to the node or view title is dropped (anchor kept); a node titled like the view has no h2; one node, no contents list', async () => {
  const graph = memoryGraph([
    node('api', { kind: 'document', title: 'API', body: '# API\n\nSee [below](#api).\n\n## Options\n\nText.' }),
    node('web', { kind: 'document', title: 'Web Frameworks', body: '#  web   frameworks!\n\nText.' }),
    node('other', { kind: 'document', title: 'Other', body: '# Something else\n\nText.' }),
  ], []);
  const single = parseHtml(await renderViewHtml({ view: pageView({ select: { ids: ['api'] } }), graph }));
  const headings = elements(single).filter((e) => /^h[1-6]$/.test(e.tagName ?? '')).map(text);
  assert.deepEqual(headings, ['API', 'Options']);
  assert.deepEqual(byTag(single, 'nav'), []);
  const anchor = elements(single).find((e) => e.attrs?.some((a) => a.name === 'id' && a.value.endsWith('--api')));
  assert.equal(anchor?.tagName, 'span', 'the in-page link to #api still lands');
  const all = parseHtml(await renderViewHtml({ view: pageView({ title: 'Docs' }), graph }));
  const order = elements(all).filter((e) => /^h[1-6]$/.test(e.tagName ?? '')).map(text);
  assert.deepEqual(order, ['Docs', 'API', 'Options', 'Other', 'Something else', 'Web Frameworks']);
  assert.equal(byTag(all, 'nav').length, 1);
});
