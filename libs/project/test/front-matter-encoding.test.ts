// Break-it trial (issue 30): two front matter blocks vanished without a word. A YAML `"x\uD800y"`
// escape decoded to a lone surrogate and was stored as replacement characters (TOML's parser already
// refused the same escape); a block whose lines end with a lone CR (classic Mac OS) was read as body
// text and its node id silently lost. Both are now `malformed_front_matter` error findings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseContentSource } from '../src/index.js';
import { testDescriptor } from './helpers.js';

const descriptor = testDescriptor();

test('a YAML escape that decodes to a lone surrogate is malformed_front_matter at its line; a surrogate pair escape is fine', () => {
  for (const [escape, key] of [['\\uD800', 'title'], ['\\uDFFF', 'summary'], ['\\ud83d', 'title']] as const) {
    const text = ['---', 'tags: [a]', `${key}: "x${escape}y"`, '---', '# Page', ''].join('\n');
    const parsed = parseContentSource({ path: 'docs/y.md', text, descriptor });
    const issue = parsed.issues.find((i) => i.code === 'malformed_front_matter');
    assert.ok(issue, `${escape}: ${JSON.stringify(parsed.issues)}`);
    assert.equal(issue.severity, 'error');
    assert.equal(issue.line, 3, 'the line of the scalar');
    assert.match(issue.message, /invalid unicode escape/);
    assert.ok(!JSON.stringify(parsed.nodes).includes('\uFFFD'), 'no replacement character is stored');
  }
  const pair = parseContentSource({ path: 'docs/y.md', text: ['---', 'title: "rocket \\uD83D\\uDE80"', '---', '# Page', ''].join('\n'), descriptor });
  assert.deepEqual(pair.issues.filter((i) => i.code === 'malformed_front_matter'), []);
});

test('front matter whose lines end with a lone CR is malformed_front_matter, for TOML and YAML; CRLF still reads', () => {
  for (const open of ['+++', '---']) {
    const body = open === '+++' ? ['id = "BI-CR"', 'kind = "document"', 'title = "cr"'] : ['title: cr'];
    const text = [open, ...body, open, 'body', ''].join('\r');
    const parsed = parseContentSource({ path: 'docs/cr.md', text, descriptor });
    const issue = parsed.issues.find((i) => i.code === 'malformed_front_matter');
    assert.ok(issue, `${open}: ${JSON.stringify(parsed.issues)}`);
    assert.equal(issue.severity, 'error');
    assert.equal(issue.line, 1);
    assert.match(issue.message, /lone carriage return/);
  }
  const crlf = parseContentSource({ path: 'docs/crlf.md', text: ['+++', 'id = "BI-CRLF"', 'kind = "document"', 'title = "crlf"', '+++', 'body', ''].join('\r\n'), descriptor });
  assert.deepEqual(crlf.issues, []);
  assert.equal(crlf.nodes[0]!.id, 'BI-CRLF');
  const plain = parseContentSource({ path: 'docs/plain.md', text: '# Title\rwith a CR inside a line\n', descriptor });
  assert.deepEqual(plain.issues, [], 'a CR elsewhere is not front matter');
});
