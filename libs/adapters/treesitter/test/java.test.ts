// Pins the Java adapter of the tree-sitter family on in-memory sources (nodes, package imports, static calls, extends/implements,
// tested_by, Logic with try/catch, lexical, --no-ast), then imports and calls on java.util.concurrent from Debian's openjdk-17-source.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAdapter } from '@docforge/core';
import { adapterFor, buildMemory, edgeLines, inputSkip, lineOf, mostImported, readTree } from './helpers.js';

const SOURCES: Record<string, string> = {
  'src/main/java/shop/ledger/Ledger.java': [
    'package shop.ledger;',
    '',
    'import shop.util.Util;',
    'import static shop.util.Util.clamp;',
    '',
    '/** A ledger of entries. */',
    'public class Ledger extends Base implements Store {',
    '  /** Adds an amount. */',
    '  public void add(int n) {',
    '    if (n < 0) { throw new IllegalArgumentException("negative amount"); }',
    '    try { flush(); } catch (RuntimeException e) { this.flush(); } finally { Util.log("x"); }',
    '    clamp(n);',
    '  }',
    '  void flush() {}',
    '  public static void main(String[] args) { new Ledger().add(1); }',
    '}',
    '',
  ].join('\n'),
  'src/main/java/shop/ledger/Base.java': 'package shop.ledger;\n\nabstract class Base {}\n',
  'src/main/java/shop/ledger/Store.java': 'package shop.ledger;\n\npublic interface Store { void add(int n); }\n',
  'src/main/java/shop/util/Util.java': 'package shop.util;\n\npublic final class Util {\n  public static int clamp(int n) { return n; }\n  public static void log(String s) {}\n}\n',
  'src/test/java/shop/ledger/LedgerTest.java': 'package shop.ledger;\n\nimport shop.util.Util;\n\nclass LedgerTest {\n  @Test void adds() { Util.clamp(1); }\n}\n',
};

let java: CodeAdapter;
before(async () => {
  java = await adapterFor('java');
});

describe('java adapter on in-memory sources', () => {
  it('gives class, interface and method nodes with capabilities, summaries and edges', () => {
    const { parsed, link } = buildMemory(java, SOURCES);
    const lines = parsed.flatMap((p) => p.nodes).map((n) => `${n.id} ${n.kind} [${n.capabilities.join(',')}]`);
    for (const expected of [
      'code:src/main/java/shop/ledger/Ledger.java#Ledger class [exported]', 'code:src/main/java/shop/ledger/Ledger.java#Ledger.add method [exported]',
      'code:src/main/java/shop/ledger/Ledger.java#Ledger.main method [entrypoint,exported,static]', 'code:src/main/java/shop/ledger/Store.java#Store interface [exported]',
      'code:src/test/java/shop/ledger/LedgerTest.java#LedgerTest.adds method [test]',
    ]) assert.ok(lines.includes(expected), `${expected} in\n${lines.join('\n')}`);
    const add = parsed.flatMap((p) => p.nodes).find((n) => n.id.endsWith('#Ledger.add'));
    assert.equal(add?.summary, 'public void add(int n) — Adds an amount.');
    const L = 'code:src/main/java/shop/ledger/Ledger.java';
    const U = 'code:src/main/java/shop/util/Util.java';
    // The single-type and the static import of Util make one edge, at the first line.
    assert.deepEqual(edgeLines(link.edges, 'imports'), [`${L} imports ${U} @3`, `code:src/test/java/shop/ledger/LedgerTest.java imports ${U} @3`]);
    assert.deepEqual(edgeLines(link.edges, 'calls'), [
      `${L}#Ledger.add calls ${L}#Ledger.flush @11`, `${L}#Ledger.add calls ${U}#Util.clamp @12`, `${L}#Ledger.add calls ${U}#Util.log @11`,
      `code:src/test/java/shop/ledger/LedgerTest.java#LedgerTest.adds calls ${U}#Util.clamp @6`,
    ]);
    assert.deepEqual(edgeLines(link.edges, 'inherits'), [`${L}#Ledger inherits code:src/main/java/shop/ledger/Base.java#Base @7`]);
    assert.deepEqual(edgeLines(link.edges, 'implements'), [`${L}#Ledger implements code:src/main/java/shop/ledger/Store.java#Store @7`]);
    assert.ok(edgeLines(link.edges, 'tested_by').includes(`${U}#Util.clamp tested_by code:src/test/java/shop/ledger/LedgerTest.java @6`));
    assert.deepEqual(link.api?.['shop.util.Util.clamp'], [`${U}#Util.clamp`]);
  });

  it('builds Logic with throw, try, catch and finally; none under --no-ast; lexical gives modules and imports only', () => {
    const { parsed } = buildMemory(java, SOURCES);
    const kinds = parsed.flatMap((p) => p.logic_steps).filter((s) => s.owner_id.endsWith('#Ledger.add')).map((s) => s.kind);
    assert.deepEqual(kinds, ['entry', 'branch', 'throw', 'try', 'statement', 'catch', 'statement', 'finally', 'statement', 'statement', 'exit']);
    assert.equal(buildMemory(java, SOURCES, 'ast', false).parsed.flatMap((p) => p.logic_steps).length, 0);
    const lexical = buildMemory(java, SOURCES, 'lexical');
    assert.ok(lexical.parsed.every((p) => p.nodes.length === 1 && p.nodes[0]!.kind === 'module'));
    assert.deepEqual(edgeLines(lexical.link.edges, 'imports'), edgeLines(buildMemory(java, SOURCES).link.edges, 'imports'));
  });
});

const SRC_ZIP = '/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip';

describe('java adapter on java.util.concurrent (openjdk-17-source)', { skip: inputSkip(SRC_ZIP, 'apt-get install -y openjdk-17-source') }, () => {
  let dir = '';
  after(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });
  it('finds the importers and callers of the three most-imported modules as the source says', () => {
    dir = mkdtempSync(join(tmpdir(), 'docforge-jdk-'));
    execFileSync('unzip', ['-q', SRC_ZIP, 'java.base/java/util/concurrent/*', '-d', dir]);
    const texts = readTree(join(dir, 'java.base'), ['.java']);
    const { link } = buildMemory(java, texts);
    const top = mostImported(link.edges);
    assert.equal(top.length, 3);
    for (const [target, importers] of top) {
      const file = target.slice('code:'.length);
      const type = file.replace(/\.java$/, '').split('/').join('.');
      for (const importer of importers) {
        const imports = [...(texts[importer.slice('code:'.length)] ?? '').matchAll(/^import\s+(static\s+)?([\w.]+)(\.\*)?;/gm)].map((m) => m[2]!);
        assert.ok(imports.some((name) => name === type || name.startsWith(`${type}.`) || (type.startsWith(`${name}.`) && !type.slice(name.length + 1).includes('.'))), `${importer} imports ${type}`);
      }
      for (const call of link.edges.filter((e) => e.relation === 'calls' && e.target_id.startsWith(`${target}#`))) {
        // An overload's id ends in `~n`; a constructor is also called as `super(...)` or `this(...)`.
        const [type, name] = call.target_id.split('#')[1]!.replace(/~\d+$/, '').split('.').slice(-2) as [string, string];
        const callee = name === type ? `(${name}|super|this)` : name;
        assert.match(lineOf(texts, call.source_path, call.line), new RegExp(`\\b${callee}\\s*\\(`), `${call.source_path}:${call.line} calls ${name}`);
      }
    }
    assert.ok(link.edges.filter((e) => e.relation === 'calls').length > 500);
  });
});
