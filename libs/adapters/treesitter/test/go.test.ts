// Pins the Go adapter of the tree-sitter family: ids, kinds, capabilities, summaries, contains/defines/imports/calls/tested_by edges,
// Logic, code text, the lexical strategy and --no-ast, on an in-memory module; then imports and calls on testify (Debian's
// golang-github-stretchr-testify-dev), checked against the source text.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAdapter } from '@docforge/core';
import { adapterFor, buildMemory, edgeLines, inputSkip, lineOf, mostImported, readTree } from './helpers.js';

const SHOP: Record<string, string> = {
  'go.mod': 'module example.com/shop\n\ngo 1.21\n',
  'main.go': [
    'package main',
    '',
    'import (',
    '\t"fmt"',
    '\t"example.com/shop/ledger"',
    ')',
    '',
    'func main() {',
    '\tl := ledger.New()',
    '\tl.Add(1)',
    '\tfmt.Println(ledger.Total(l))',
    '\thelper()',
    '}',
    '',
    'func helper() {}',
    '',
  ].join('\n'),
  'ledger/ledger.go': [
    '// Package ledger keeps accounts.',
    'package ledger',
    '',
    '// Ledger holds entries.',
    'type Ledger struct{ entries []int }',
    '',
    'type Store interface{ Save() error }',
    '',
    '// New makes an empty ledger.',
    'func New() *Ledger { return &Ledger{} }',
    '',
    'func (l *Ledger) Add(n int) {',
    '\tif n < 0 {',
    '\t\tpanic("negative amount")',
    '\t}',
    '\tfor i := 0; i < n; i++ {',
    '\t\tl.push(i)',
    '\t}',
    '\tswitch n {',
    '\tcase 1:',
    '\t\treturn',
    '\tdefault:',
    '\t}',
    '}',
    '',
    'func (l *Ledger) push(i int) { l.entries = append(l.entries, i) }',
    '',
    'func Total(l *Ledger) int { return sum(l) }',
    '',
    'func Shadow() {',
    '\tNew := func() {}',
    '\tNew()',
    '}',
    '',
  ].join('\n'),
  'ledger/sum.go': 'package ledger\n\nfunc sum(l *Ledger) int { return len(l.entries) }\n',
  'ledger/ledger_test.go': 'package ledger\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tl := New()\n\tl.Add(2)\n}\n',
};

let go: CodeAdapter;
before(async () => {
  go = await adapterFor('go');
});

describe('go adapter on an in-memory module', () => {
  it('gives module, type, function and method nodes with kinds and capabilities', () => {
    const { parsed } = buildMemory(go, SHOP);
    const nodes = parsed.flatMap((p) => p.nodes).map((n) => `${n.id} ${n.kind} [${n.capabilities.join(',')}]`);
    for (const expected of [
      'code:main.go module [entrypoint]', 'code:main.go#main function [entrypoint]', 'code:main.go#helper function []',
      'code:ledger/ledger.go#Ledger struct [exported]', 'code:ledger/ledger.go#Store interface [exported]', 'code:ledger/ledger.go#New function [exported]',
      'code:ledger/ledger.go#Ledger.Add method [exported]', 'code:ledger/ledger.go#Ledger.push method []', 'code:ledger/ledger_test.go module [test]',
      'code:ledger/ledger_test.go#TestAdd function [exported,test]',
    ]) assert.ok(nodes.includes(expected), `${expected} in\n${nodes.join('\n')}`);
    assert.ok(parsed.flatMap((p) => p.nodes).every((n) => n.language === 'go'));
  });

  it('uses doc comments as summaries and keeps bodies searchable', () => {
    const { parsed } = buildMemory(go, SHOP);
    const byId = new Map(parsed.flatMap((p) => p.nodes).map((n) => [n.id, n]));
    assert.equal(byId.get('code:ledger/ledger.go')?.summary, 'Package ledger keeps accounts.');
    assert.equal(byId.get('code:ledger/ledger.go#Ledger')?.summary, 'type Ledger struct — Ledger holds entries.');
    assert.equal(byId.get('code:ledger/ledger.go#New')?.summary, 'func New() *Ledger — New makes an empty ledger.');
    const text = parsed.flatMap((p) => p.code_text ?? []).find((t) => t.node_id === 'code:ledger/ledger.go#Ledger.Add');
    assert.ok(text?.words.split(' ').includes('negative'), 'a string literal of the body is searchable');
  });

  it('reads go.mod in time linear in its lines: 400,000 blank lines before the module line (break-it trial)', () => {
    // A pattern over the whole text (`^\s*module` with the m flag) took quadratic time here: minutes.
    const { link } = buildMemory(go, { ...SHOP, 'go.mod': `${'\n'.repeat(400_000)}module example.com/shop\n` });
    assert.deepEqual(edgeLines(link.edges, 'imports'), ['code:main.go imports code:ledger/ledger.go @5', 'code:main.go imports code:ledger/sum.go @5']);
  });

  it('a function whose ifs nest 10,000 deep keeps its node and the file its other declarations; only that Logic is missing (break-it trial)', () => {
    const depth = 10_000;
    const deep = `package deep\n\nfunc Deep(x int) int {\n${'if x > 0 {\n'.repeat(depth)}return x\n${'}\n'.repeat(depth)}return 0\n}\n\n// Helper helps.\nfunc Helper() int { if true { return 1 }; return 2 }\n`;
    const { parsed } = buildMemory(go, { 'go.mod': 'module example.com/deep\n', 'deep.go': deep });
    const file = parsed.find((p) => p.path === 'deep.go')!;
    assert.deepEqual(file.issues.filter((i) => i.severity === 'error'), []);
    const ids = file.nodes.map((n) => n.id);
    for (const id of ['code:deep.go', 'code:deep.go#Deep', 'code:deep.go#Helper']) assert.ok(ids.includes(id), `${id} in ${ids.join(' ')}`);
    assert.ok(file.logic_steps.some((step) => step.owner_id === 'code:deep.go#Helper'), 'the shallow function keeps its Logic');
  });

  it('links imports through go.mod, calls only where declarations prove them, and tested_by', () => {
    const { parsed, link } = buildMemory(go, SHOP);
    const intra = parsed.flatMap((p) => p.edges);
    assert.ok(edgeLines(intra, 'defines').includes('code:ledger/ledger.go defines code:ledger/ledger.go#New @10'));
    assert.ok(edgeLines(intra, 'contains').includes('code:ledger/ledger.go contains code:ledger/ledger.go#Ledger.Add @12'));
    assert.deepEqual(edgeLines(link.edges, 'imports'), ['code:main.go imports code:ledger/ledger.go @5', 'code:main.go imports code:ledger/sum.go @5']);
    assert.deepEqual(edgeLines(link.edges, 'calls'), [
      'code:ledger/ledger.go#Ledger.Add calls code:ledger/ledger.go#Ledger.push @17',
      'code:ledger/ledger.go#Total calls code:ledger/sum.go#sum @28',
      // `l := New()` / `l := ledger.New()`: New's declared result *Ledger proves l (1.2.4).
      'code:ledger/ledger_test.go#TestAdd calls code:ledger/ledger.go#Ledger.Add @7',
      'code:ledger/ledger_test.go#TestAdd calls code:ledger/ledger.go#New @6',
      'code:main.go#main calls code:ledger/ledger.go#Ledger.Add @10',
      'code:main.go#main calls code:ledger/ledger.go#New @9',
      'code:main.go#main calls code:ledger/ledger.go#Total @11',
      'code:main.go#main calls code:main.go#helper @12',
    ]);
    assert.deepEqual(edgeLines(link.edges, 'tested_by'), [
      'code:ledger/ledger.go tested_by code:ledger/ledger_test.go @6', 'code:ledger/ledger.go#Ledger.Add tested_by code:ledger/ledger_test.go @7',
      'code:ledger/ledger.go#New tested_by code:ledger/ledger_test.go @6',
    ]);
    assert.equal(link.stats['imports_unresolved'], 2, 'fmt and testing are not project packages');
    assert.ok((link.unresolved_calls?.['code:ledger/ledger.go#Shadow'] ?? 0) >= 1, 'a call of a local closure is unresolved');
    assert.deepEqual(link.api?.['ledger.New'], ['code:ledger/ledger.go#New']);
    assert.deepEqual(link.api?.['ledger.Ledger.Add'], ['code:ledger/ledger.go#Ledger.Add']);
  });

  it('tested_by by the naming convention: x_test.go tests x.go beside it, even through the package API only (new-user trial, yaml.v3)', () => {
    const files = {
      'go.mod': 'module example.com/yaml\n',
      'yaml.go': 'package yaml\n\n// Marshal encodes.\nfunc Marshal(v int) string { return encode(v) }\n',
      'encode.go': 'package yaml\n\nfunc encode(v int) string { return "" }\n',
      'encode_test.go': 'package yaml_test\n\nimport (\n\t"testing"\n\t"example.com/yaml"\n)\n\nfunc TestEncode(t *testing.T) { yaml.Marshal(1) }\n',
      'orphan_test.go': 'package yaml\n\nimport "testing"\n\nfunc TestNothing(t *testing.T) {}\n',
    };
    const { link } = buildMemory(go, files);
    assert.deepEqual(edgeLines(link.edges, 'tested_by'), [
      'code:encode.go tested_by code:encode_test.go @1',
      'code:yaml.go tested_by code:encode_test.go @8',
      'code:yaml.go#Marshal tested_by code:encode_test.go @8',
    ]);
  });

  it('builds Logic for functions: branch, panic as throw, loop, switch, cases, return', () => {
    const { parsed } = buildMemory(go, SHOP);
    const steps = parsed.flatMap((p) => p.logic_steps).filter((s) => s.owner_id === 'code:ledger/ledger.go#Ledger.Add');
    assert.deepEqual(steps.map((s) => s.kind), ['entry', 'branch', 'throw', 'loop', 'statement', 'switch', 'case', 'return', 'case', 'exit']);
    const flows = parsed.flatMap((p) => p.logic_flows).filter((f) => f.owner_id === 'code:ledger/ledger.go#Ledger.Add').map((f) => `${f.from_step}-${f.kind}->${f.to_step}`);
    for (const flow of ['1-branch_true->2', '2-throw->9', '1-branch_false->3', '3-loop_body->4', '4-loop_back->3', '3-loop_exit->5', '5-case->6', '7-return->9', '8-sequence->9']) {
      assert.ok(flows.includes(flow), `${flow} in ${flows.join(' ')}`);
    }
  });

  it('--no-ast (logic false) keeps nodes and edges but builds no Logic', () => {
    const { parsed, link } = buildMemory(go, SHOP, 'ast', false);
    assert.equal(parsed.flatMap((p) => p.logic_steps).length, 0);
    assert.ok(link.edges.some((e) => e.relation === 'calls'));
  });

  it('strategy lexical: module nodes and the same imports, no definitions, calls or Logic', () => {
    const lexical = buildMemory(go, SHOP, 'lexical');
    const ast = buildMemory(go, SHOP);
    assert.deepEqual(lexical.parsed.flatMap((p) => p.nodes).map((n) => n.id), ['code:ledger/ledger.go', 'code:ledger/ledger_test.go', 'code:ledger/sum.go', 'code:main.go']);
    assert.deepEqual(edgeLines(lexical.link.edges, 'imports'), edgeLines(ast.link.edges, 'imports'));
    assert.deepEqual(lexical.link.edges.filter((e) => e.relation !== 'imports'), []);
    assert.equal(lexical.parsed.flatMap((p) => p.logic_steps).length, 0);
    assert.deepEqual(lexical.parsed.find((p) => p.path === 'main.go')?.nodes[0]?.capabilities, ['entrypoint']);
  });
});

const TESTIFY = '/usr/share/gocode/src/github.com/stretchr/testify';

/** Import paths of a Go file by a plain reading of its import declarations (comments dropped), written independently of the adapter. */
function goImports(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const out: string[] = [];
  for (const match of code.matchAll(/^import\s*(?:\(([\s\S]*?)\)|(.*))$/gm)) {
    for (const quoted of (match[1] ?? match[2] ?? '').matchAll(/"([^"]+)"/g)) out.push(quoted[1]!);
  }
  return out;
}

describe('go adapter on testify (golang-github-stretchr-testify-dev)', { skip: inputSkip(TESTIFY, 'apt-get install -y golang-github-stretchr-testify-dev') }, () => {
  it('finds the importers and callers of the three most-imported modules as the source says', () => {
    const texts = readTree(TESTIFY, ['.go'], ['go.mod']);
    const module = /^module\s+(\S+)/m.exec(texts['go.mod'] ?? '')?.[1];
    assert.equal(module, 'github.com/stretchr/testify');
    const { parsed, link } = buildMemory(go, texts);
    assert.equal(parsed.length, Object.keys(texts).length - 1);
    const top = mostImported(link.edges);
    assert.equal(top.length, 3);
    for (const [target, importers] of top) {
      const dir = target.slice('code:'.length).split('/').slice(0, -1).join('/');
      for (const importer of importers) {
        assert.ok(goImports(texts[importer.slice('code:'.length)] ?? '').includes(`${module}/${dir}`), `${importer} imports ${module}/${dir}`);
      }
      // Every file that imports the package is an importer (checked by text, independently of the adapter).
      const expected = Object.keys(texts).filter((p) => p.endsWith('.go') && goImports(texts[p]!).includes(`${module}/${dir}`)).map((p) => `code:${p}`).sort();
      assert.deepEqual([...importers].sort(), expected, `importers of ${target}`);
      const callers = link.edges.filter((e) => e.relation === 'calls' && e.target_id.startsWith(`${target}#`));
      for (const call of callers) {
        const name = call.target_id.split('.').pop()!.split('#').pop()!;
        const text = lineOf(texts, call.source_path, call.line);
        assert.match(text, new RegExp(`\\b${name}\\(`), `${call.source_path}:${call.line} calls ${name}: ${text.trim()}`);
      }
    }
    const counts = top.map(([id, importers]) => `${id} ${importers.length}`);
    assert.ok(top.every(([, importers]) => importers.length >= 3), counts.join(', '));
    assert.ok(link.edges.filter((e) => e.relation === 'calls').length > 500);
  });
});
