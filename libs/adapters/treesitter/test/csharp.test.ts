// Pins the C# adapter of the tree-sitter family on in-memory sources (nodes, namespaces to files, using and aliases, static and
// receiver calls, base lists, tested_by, Logic, lexical, --no-ast), then calls on edge-js's .cs files (`npm pack edge-js@26.1.0`).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAdapter } from '@docforge/core';
import { adapterFor, buildMemory, edgeLines, lineOf, readTree } from './helpers.js';

const SOURCES: Record<string, string> = {
  'src/Ledger.cs': [
    'using System;',
    'using Shop.Util;',
    'using U = Shop.Util.Clamp;',
    '',
    'namespace Shop.Ledger',
    '{',
    '    /// <summary>A ledger of entries.</summary>',
    '    public class Ledger : Base, IStore',
    '    {',
    '        public async Task Add(int n)',
    '        {',
    '            if (n < 0) { throw new ArgumentException("negative amount"); }',
    '            try { Flush(); } catch (Exception e) { this.Flush(); } finally { Log.Write("x"); }',
    '            U.Apply(n);',
    '        }',
    '        void Flush() { }',
    '        public void Save() { }',
    '    }',
    '}',
    '',
  ].join('\n'),
  'src/Base.cs': 'namespace Shop.Ledger\n{\n    public abstract class Base { }\n    public interface IStore { void Save(); }\n}\n',
  'src/Util.cs': 'namespace Shop.Util\n{\n    public static class Log { public static void Write(string s) { } }\n    public static class Clamp { public static int Apply(int n) { return n; } }\n}\n',
  'tests/LedgerTests.cs': 'using Shop.Util;\n\nnamespace Shop.Tests\n{\n    public class LedgerTests\n    {\n        [Fact]\n        public void Writes() { Log.Write("t"); }\n    }\n}\n',
};

let cs: CodeAdapter;
before(async () => {
  cs = await adapterFor('csharp');
});

describe('csharp adapter on in-memory sources', () => {
  it('gives types and methods with capabilities, resolves namespaces, calls, bases and tested_by', () => {
    const { parsed, link } = buildMemory(cs, SOURCES);
    const lines = parsed.flatMap((p) => p.nodes).map((n) => `${n.id} ${n.kind} [${n.capabilities.join(',')}]`);
    for (const expected of ['code:src/Ledger.cs#Ledger class [exported]', 'code:src/Ledger.cs#Ledger.Add method [async,exported]', 'code:src/Base.cs#IStore interface [exported]', 'code:tests/LedgerTests.cs#LedgerTests.Writes method [exported,test]']) {
      assert.ok(lines.includes(expected), `${expected} in\n${lines.join('\n')}`);
    }
    assert.equal(parsed.flatMap((p) => p.nodes).find((n) => n.id === 'code:src/Ledger.cs#Ledger')?.summary, 'public class Ledger : Base, IStore — <summary>A ledger of entries.</summary>');
    assert.deepEqual(edgeLines(link.edges, 'imports'), ['code:src/Ledger.cs imports code:src/Util.cs @2', 'code:tests/LedgerTests.cs imports code:src/Util.cs @1']);
    assert.deepEqual(edgeLines(link.edges, 'calls'), [
      'code:src/Ledger.cs#Ledger.Add calls code:src/Ledger.cs#Ledger.Flush @13', 'code:src/Ledger.cs#Ledger.Add calls code:src/Util.cs#Clamp.Apply @14',
      'code:src/Ledger.cs#Ledger.Add calls code:src/Util.cs#Log.Write @13', 'code:tests/LedgerTests.cs#LedgerTests.Writes calls code:src/Util.cs#Log.Write @8',
    ]);
    assert.deepEqual(edgeLines(link.edges, 'inherits'), ['code:src/Ledger.cs#Ledger inherits code:src/Base.cs#Base @8']);
    assert.deepEqual(edgeLines(link.edges, 'implements'), ['code:src/Ledger.cs#Ledger implements code:src/Base.cs#IStore @8']);
    assert.ok(edgeLines(link.edges, 'tested_by').includes('code:src/Util.cs#Log.Write tested_by code:tests/LedgerTests.cs @8'));
  });

  it('builds Logic with throw, try, catch and finally; none under --no-ast; lexical gives modules and imports only', () => {
    const kinds = buildMemory(cs, SOURCES).parsed.flatMap((p) => p.logic_steps).filter((s) => s.owner_id.endsWith('#Ledger.Add')).map((s) => s.kind);
    assert.deepEqual(kinds, ['entry', 'branch', 'throw', 'try', 'statement', 'catch', 'statement', 'finally', 'statement', 'statement', 'exit']);
    assert.equal(buildMemory(cs, SOURCES, 'ast', false).parsed.flatMap((p) => p.logic_steps).length, 0);
    const lexical = buildMemory(cs, SOURCES, 'lexical');
    assert.ok(lexical.parsed.every((p) => p.nodes.length === 1 && p.nodes[0]!.kind === 'module'));
    assert.deepEqual(edgeLines(lexical.link.edges, 'imports'), edgeLines(buildMemory(cs, SOURCES).link.edges, 'imports'));
  });
});

describe('csharp adapter on edge-js 26.1.0 (npm pack)', () => {
  let dir = '';
  after(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });
  it('links calls whose lines call the target, in files that hold the target or see its type', () => {
    dir = mkdtempSync(join(tmpdir(), 'docforge-edge-js-'));
    execFileSync('npm', ['pack', 'edge-js@26.1.0', '--silent'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
    execFileSync('tar', ['xzf', 'edge-js-26.1.0.tgz'], { cwd: dir });
    const texts = readTree(join(dir, 'package'), ['.cs']);
    assert.equal(Object.keys(texts).length, 11);
    const { link } = buildMemory(cs, texts);
    const calls = link.edges.filter((e) => e.relation === 'calls');
    assert.ok(calls.length >= 50, `${calls.length} calls edges`);
    for (const call of calls) {
      const name = call.target_id.split('#')[1]!.split('.').pop()!.replace(/~\d+$/, '');
      assert.match(lineOf(texts, call.source_path, call.line), new RegExp(`\\b${name}\\s*(<[^>]*>)?\\(`), `${call.source_path}:${call.line} calls ${name}`);
    }
    // edge-js's files declare their types in the global namespace and `using` only System namespaces: no imports edge.
    assert.equal(link.edges.filter((e) => e.relation === 'imports').length, 0);
  });
});
