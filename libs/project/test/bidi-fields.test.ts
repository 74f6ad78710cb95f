// Pins the break-it trial 48 finding left open (issue 30): ids refuse control, bidi and invisible characters, but a
// title, kind or tag took them (`title = "Invoice \u202Efdp.exe"` reaches terminals reversed). In DocForge front matter and
// `[[node]]` records they are now refused as an id is: `malformed_front_matter` / `malformed_record`, no node. In foreign
// front matter the field is ignored with a warning, as a field of an unusable shape is. A title may keep the
// zero-width joiners that Persian and emoji text need.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseContentSource } from '../src/index.js';
import { testDescriptor } from './helpers.js';

function front(fields: string): ReturnType<typeof parseContentSource> {
  return parseContentSource({ path: 'docs/inv.md', text: `+++\nid = "inv"\n${fields}\n+++\n\nBody.\n`, descriptor: testDescriptor() });
}

test('DocForge front matter: a bidi control in title, kind, tags or status gives no node and names the field', () => {
  for (const [fields, key, code] of [
    ['kind = "doc"\ntitle = "Invoice \\u202Efdp.exe"', 'title', 'U+202E'],
    ['kind = "doc\\u2066"\ntitle = "Invoice"', 'kind', 'U+2066'],
    ['kind = "doc"\ntitle = "Invoice"\ntags = ["ok", "bad\\u200F"]', 'tags', 'U+200F'],
    ['kind = "doc"\ntitle = "Invoice"\nstatus = "draft\\u0007"', 'status', 'U+0007'],
  ] as const) {
    const parsed = front(fields);
    assert.equal(parsed.nodes.length, 0, fields);
    assert.deepEqual(parsed.issues.map((i) => [i.severity, i.code]), [['error', 'malformed_front_matter']], fields);
    assert.ok(parsed.issues[0]!.message.includes(`"${key}"`) && parsed.issues[0]!.message.includes(code), parsed.issues[0]!.message);
  }
  // Joiners inside a title are text (Persian ZWNJ, an emoji ZWJ sequence).
  const persian = front('kind = "doc"\ntitle = "می\\u200Cخواهم 👩\\u200D💻"');
  assert.equal(persian.nodes.length, 1);
  assert.deepEqual(persian.issues, []);
});

test('[[node]] records are refused the same way', () => {
  const parsed = parseContentSource({ path: 'docs/recs.toml', text: '[[node]]\nid = "a"\nkind = "doc"\ntitle = "A\\u202Eb"\n\n[[node]]\nid = "b"\nkind = "doc"\ntitle = "B"\n', descriptor: testDescriptor() });
  assert.deepEqual(parsed.nodes.map((n) => n.id), ['b']);
  assert.deepEqual(parsed.issues.map((i) => [i.severity, i.code]), [['error', 'malformed_record']]);
});

test('foreign front matter: the field is ignored with a warning, the page kept', () => {
  const parsed = parseContentSource({ path: 'docs/inv.md', text: '---\ntitle: "Invoice \\u202Efdp.exe"\ntags: [ok, "x\\u2067"]\n---\n\n# Invoice\n', descriptor: testDescriptor() });
  assert.equal(parsed.nodes.length, 1);
  assert.equal(parsed.nodes[0]!.title, 'Invoice');
  assert.deepEqual(parsed.nodes[0]!.tags, []);
  assert.deepEqual(parsed.issues.map((i) => [i.severity, i.code, i.line]), [['warning', 'malformed_front_matter', 2], ['warning', 'malformed_front_matter', 3]]);
});
