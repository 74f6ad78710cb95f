// Pins which heading and paragraph give a Markdown body's first heading and summary: the first
// non-empty heading, the first top-level paragraph, else the first nested one (blockquote, list).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markdownFacts } from '../src/markdown-facts.js';

test('the first heading is kept when later headings follow', () => {
  const facts = markdownFacts('# First\n\n## Second\n\n# Third\n\nText.\n', 1, 'docs/a.md');
  assert.equal(facts.firstHeading, 'First');
  assert.equal(facts.summary, 'Text.');
});

test('an empty heading does not count as the first heading', () => {
  assert.equal(markdownFacts('#\n\n## Real   one\n', 1, 'docs/a.md').firstHeading, 'Real   one');
});

test('a top-level paragraph after a nested one is the summary', () => {
  const facts = markdownFacts('> Quoted\n> words.\n\nTop   level\nparagraph.\n\nLater paragraph.\n', 1, 'docs/a.md');
  assert.equal(facts.summary, 'Top level paragraph.');
});

test('with only nested paragraphs the first nested one is the summary', () => {
  assert.equal(markdownFacts('- First item\n- Second item\n\n> Quote.\n', 1, 'docs/a.md').summary, 'First item');
});

test('headings and paragraphs inside the skipped lines give no title or summary', () => {
  const facts = markdownFacts('# Skipped\n\nSkipped text.\n\n# Kept\n\nKept text.\n', 1, 'docs/a.md', { from: 1, to: 3 });
  assert.equal(facts.firstHeading, 'Kept');
  assert.equal(facts.summary, 'Kept text.');
});
