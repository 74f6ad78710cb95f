// Pins the break-it trial 48 finding left open (issue 30): a Markdown file whose first line is `---` and whose next
// lines are front-matter keys, with no closing `---`, was silently read as body text (the `---` is a thematic break on
// purpose, as CommonMark reads it). It still is, but a `malformed_front_matter` warning at line 1 now says the keys were
// not read as metadata. A `---` rule followed by prose, or by one key no site generator reads, says nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SourceIssue } from '@docforge/core';
import { parseContentSource } from '../src/index.js';
import { testDescriptor } from './helpers.js';

function parse(text: string): { title: string | undefined; issues: SourceIssue[] } {
  const parsed = parseContentSource({ path: 'docs/page.md', text, descriptor: testDescriptor() });
  return { title: parsed.nodes[0]?.title, issues: parsed.issues };
}

test('an unclosed --- followed by front-matter keys warns at line 1 and stays body text', () => {
  const { title, issues } = parse('---\ntitle: Install guide\ntags: [setup]\n\n# Install\n\nRun the installer.\n');
  assert.equal(title, 'Install');
  assert.deepEqual(issues.map((i) => [i.severity, i.code, i.line]), [['warning', 'malformed_front_matter', 1]]);
  assert.match(issues[0]!.message, /never closed/);
  assert.match(issues[0]!.message, /"title", "tags"/);
  // One key that front matter uses is enough; so are two of any name.
  assert.equal(parse('---\ntitle: Install guide\n\nBody.\n').issues.length, 1);
  assert.equal(parse('---\nowner: ops\nreviewed: 2026-12-01\n\nBody.\n').issues.length, 1);
});

test('a thematic break followed by prose, a lone unknown key, or a closed block gives no such warning', () => {
  assert.deepEqual(parse('---\n\n# Title\n\nText.\n').issues, []);
  assert.deepEqual(parse('---\nSome text after a rule.\n').issues, []);
  assert.deepEqual(parse('---\nNote: the rule above is decoration.\n').issues, []);
  const closed = parse('---\ntitle: Install guide\n---\n\n# Install\n');
  assert.equal(closed.title, 'Install guide');
  assert.deepEqual(closed.issues, []);
});
