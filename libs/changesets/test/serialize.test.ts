// Pins the format-preserving serializer (issue 11, item 3): a TOML front matter comment, an unusual key order, single-quoted strings, CRLF and a BOM survive an update of one other key byte for byte outside that key; a [[node]] file with three records keeps the two untouched records byte-identical; YAML front matter keeps its other keys and comments; body edits leave front matter bytes alone; plain Markdown titles are first headings and other metadata is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import type { GraphNode } from '@docforge/core';
import { parseContentSource, type Descriptor } from '@docforge/project';
import { createNodeText, removeNodeText, updateNodeText, updateRelationsText } from '../src/serialize.js';

const ROOT = '/tmp/docforge-serialize-test';

function descriptor(): Descriptor {
  return {
    schema_version: 1, root: ROOT, path: path.join(ROOT, 'docforge.toml'), project: { id: 't', name: 'T' },
    sources: { content_roots: ['docs'], code_roots: [], exclude: ['**/node_modules/**', '**/.git/**', '.docforge/**'] },
    adapter: { code: [], strategy: 'ast', module: null, canonical_applier: null }, vocabulary: { kinds: null, authorities: null, statuses: null, relations: null },
    limits: { max_results: 200, max_output_chars: 60000 }, state: { dir: '.docforge' }, views: [], proposals: { writers: {}, appliers: {} },
  };
}

function nodeOf(p: string, text: string, id?: string): GraphNode {
  const parsed = parseContentSource({ path: p, text, descriptor: descriptor() });
  const node = id === undefined ? parsed.nodes[0] : parsed.nodes.find((n) => n.id === id);
  assert.ok(node, `${p} gives node ${id ?? '(first)'}: ${JSON.stringify(parsed.issues)}`);
  return node;
}

function textOf(result: ReturnType<typeof updateNodeText>): string {
  assert.equal(result.refused, false, JSON.stringify(result));
  if (result.refused) throw new Error('refused');
  return result.text!;
}

test('TOML front matter: comment, key order, single quotes, CRLF and BOM survive an update of one other key byte for byte', () => {
  const original = '\ufeff+++\r\n# Owned by the payments team\r\ntitle = \'Ledger\'   # short\r\nstatus = "draft"\r\nkind = \'component\'\r\nid = "CMP-LEDGER"\r\ntags = [ \'money\',  "core" ]\r\n+++\r\n# Ledger\r\n\r\nBody text.\r\n';
  const node = nodeOf('docs/ledger.md', original);
  const updated = textOf(updateNodeText(node, original, { status: 'accepted' }, undefined));
  assert.equal(updated, original.replace('status = "draft"', 'status = "accepted"'));
  // The result reads back with the new value.
  assert.equal(nodeOf('docs/ledger.md', updated).status, 'accepted');
});

test('a body edit leaves the front matter bytes alone and keeps CRLF, the BOM and the final newline', () => {
  const original = '\ufeff+++\r\nid = \'DOC-1\'  # keep\r\nkind = "document"\r\ntitle = "Doc"\r\n+++\r\nOld body.\r\n';
  const node = nodeOf('docs/doc.md', original);
  const updated = textOf(updateNodeText(node, original, undefined, 'New body.\nSecond line.'));
  assert.equal(updated, '\ufeff+++\r\nid = \'DOC-1\'  # keep\r\nkind = "document"\r\ntitle = "Doc"\r\n+++\r\nNew body.\r\nSecond line.\r\n');
});

test('a [[node]] file with three records keeps the two untouched records byte-identical', () => {
  const records = [
    "# Records of the payment interfaces\n[[node]]\nid = 'IFC-A'   # first\nkind = \"interface\"\ntitle = 'A'\nbody = '''\nAlpha.\n'''\n",
    '\n[[node]]\ntitle = "B"\nid = "IFC-B"\nkind = "interface"\nstatus = \'draft\'\nbody = "Beta."\n',
    '\n[[node]]\nid = "IFC-C"\nkind = "interface"\ntitle = "C"\n# trailing comment of C\nbody = """\nGamma.\n"""\n',
  ];
  const original = records.join('');
  const node = nodeOf('docs/interfaces.toml', original, 'IFC-B');
  const updated = textOf(updateNodeText(node, original, { status: 'accepted' }, undefined));
  assert.ok(updated.startsWith(records[0]!), 'the first record is byte-identical');
  assert.ok(updated.endsWith(records[2]!), 'the third record is byte-identical');
  assert.equal(updated, original.replace("status = 'draft'", "status = 'accepted'"), 'only the one value changed, in its own quote style');
  // A relation added and a record removed leave the others alone too.
  const related = textOf(updateRelationsText(node, original, [{ relation: 'refines', target_id: 'IFC-A' }], []));
  assert.ok(related.startsWith(records[0]!) && related.endsWith(records[2]!));
  const removed = removeNodeText(node, original);
  assert.equal(removed.refused, false);
  if (!removed.refused) assert.equal(removed.text, records[0]! + records[2]!);
  // A created record is appended; the existing ones keep their bytes.
  const created = createNodeText({ op: 'node_create', node: { id: 'IFC-D', kind: 'interface', title: 'D' }, path: 'docs/interfaces.toml', body: 'Delta.' }, original);
  assert.equal(created.refused, false);
  if (!created.refused) assert.ok(created.text!.startsWith(original));
});

test('YAML front matter keeps its other keys and comments', () => {
  const original = '---\n# Docusaurus page\ntitle: Old title  # shown in the sidebar\nsidebar_position: 3\ntags: [guide, setup]\nslug: /install\n---\n# Install\n\nSteps.\n';
  const node = nodeOf('docs/install.md', original);
  assert.equal(node.title, 'Old title');
  const updated = textOf(updateNodeText(node, original, { title: 'New title', tags: ['guide'] }, undefined));
  assert.match(updated, /^# Docusaurus page$/m);
  assert.match(updated, /^title: New title +# shown in the sidebar$/m);
  assert.match(updated, /^tags: \[ ?guide ?\]$/m, 'a flow sequence stays a flow sequence');
  assert.match(updated, /^sidebar_position: 3$/m);
  assert.match(updated, /^slug: \/install$/m);
  assert.ok(updated.endsWith('---\n# Install\n\nSteps.\n'), 'the body is untouched');
  const reread = nodeOf('docs/install.md', updated);
  assert.equal(reread.title, 'New title');
  assert.deepEqual(reread.tags, ['guide']);
});

test('plain Markdown: the title is the first heading; metadata it cannot hold is refused', () => {
  const original = 'Intro line.\n\n## Getting started\n\nText.\n';
  const node = nodeOf('docs/start.md', original);
  const updated = textOf(updateNodeText(node, original, { title: 'First steps' }, undefined));
  assert.equal(updated, 'Intro line.\n\n## First steps\n\nText.\n');
  assert.equal(nodeOf('docs/start.md', updated).title, 'First steps');
  const refused = updateNodeText(node, original, { status: 'accepted' }, undefined);
  assert.equal(refused.refused, true);
  if (refused.refused) {
    assert.equal(refused.code, 'metadata_not_representable');
    assert.match(refused.message, /cannot hold status/);
  }
  const relations = updateRelationsText(node, original, [{ relation: 'refines', target_id: 'X' }], []);
  assert.equal(relations.refused, true);
});

test('removing a record keeps every other record and its [node.relations] sub-table byte for byte (first, middle, last; LF and CRLF; with and without a final newline)', () => {
  const records = [
    '# Decisions\n\n[[node]]\nid = "A"\nkind = "decision"\ntitle = "A"\n\n[node.relations]\nrelates_to = ["B"]\n',
    '\n[[node]]\nid = "B"\nkind = "decision"\ntitle = "B"\n\n[node.relations]\ngoverns = ["C"]\n',
    '\n[[node]]\nid = "C"\nkind = "decision"\ntitle = "C"\nbody = """\nGamma.\n"""\n\n[node.relations]\nrelates_to = ["A"]\n',
  ];
  const lf = records.join('');
  const expected: Record<string, string> = {
    A: `# Decisions\n\n${records[1]!.slice(1)}${records[2]}`,
    B: records[0]! + records[2]!,
    C: records[0]! + records[1]!,
  };
  for (const eol of ['\n', '\r\n']) {
    for (const final of [true, false]) {
      const original = (final ? lf : lf.slice(0, -1)).replace(/\n/g, eol);
      for (const id of ['A', 'B', 'C']) {
        const removed = removeNodeText(nodeOf('docs/decisions.toml', original, id), original);
        const text = textOf(removed);
        const want = expected[id]!;
        assert.equal(text, (final ? want : want.slice(0, -1)).replace(/\n/g, eol), `remove ${id} (${JSON.stringify(eol)}, final newline ${final})`);
        const left = parseContentSource({ path: 'docs/decisions.toml', text, descriptor: descriptor() });
        assert.deepEqual(left.nodes.map((n) => n.id), ['A', 'B', 'C'].filter((x) => x !== id));
        assert.equal(left.edges.length, 2, 'the other records keep their relations');
      }
    }
  }
});

test('a TOML edit that would not read back as the intended change is refused (serialization_mismatch), never written', () => {
  const original = '[[node]]\nid = "A"\nkind = "decision"\ntitle = "A"\n';
  const node = nodeOf('docs/decisions.toml', original, 'A');
  // A record whose lines no longer match the text it is removed from (the node read from other text).
  const result = removeNodeText({ ...node, start_line: 2, end_line: 2 }, original);
  assert.equal(result.refused, true);
  if (result.refused) assert.equal(result.code, 'serialization_mismatch');
});
