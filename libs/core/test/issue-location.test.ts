// Pins the `path:line:` prefix of every stored finding message (docs/errors.md, issue 8 follow-up 6).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { locatedIssueMessage } from '../src/issue-location.js';

test('a message without a location gets path:line:, or path: without a line', () => {
  assert.equal(locatedIssueMessage({ message: "Import './x' resolves to no file.", path: 'src/a.ts', line: 3 }), "src/a.ts:3: Import './x' resolves to no file.");
  assert.equal(locatedIssueMessage({ message: 'adapter failed', path: 'tools/adapter.mjs', line: null }), 'tools/adapter.mjs: adapter failed');
});

test('a located message is kept; a path-only prefix gets the line; a project-level finding is unchanged', () => {
  assert.equal(locatedIssueMessage({ message: 'docs/a.md:4:2: bad byte', path: 'docs/a.md', line: 4 }), 'docs/a.md:4:2: bad byte');
  assert.equal(locatedIssueMessage({ message: 'docs/a.md: unclosed', path: 'docs/a.md', line: 7 }), 'docs/a.md:7: unclosed');
  assert.equal(locatedIssueMessage({ message: 'descriptor broken', path: null, line: null }), 'descriptor broken');
});
