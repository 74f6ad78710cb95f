// Pins the Rust adapter of the tree-sitter family on an in-memory crate (nodes, use/mod imports, proven calls, implements,
// tested_by, Logic, lexical, --no-ast), then imports and calls on the bytes crate (Debian's librust-bytes-dev), checked against the source.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAdapter } from '@docforge/core';
import { adapterFor, buildMemory, edgeLines, inputSkip, lineOf, mostImported, readTree } from './helpers.js';

const CRATE: Record<string, string> = {
  'Cargo.toml': '[package]\nname = "shop-core"\nversion = "0.1.0"\n',
  'src/lib.rs': '//! Shop core.\npub mod ledger;\nmod util;\npub use crate::ledger::Ledger;\n\npub fn open() -> Ledger { ledger::Ledger::new() }\n',
  'src/ledger.rs': [
    'use crate::util::{clamp, Bounds as B};',
    '',
    '/// A ledger of entries.',
    '#[derive(Debug)]',
    'pub struct Ledger { entries: Vec<i64> }',
    '',
    'pub trait Store { fn save(&self); }',
    '',
    'impl Store for Ledger { fn save(&self) { self.flush(); } }',
    '',
    'impl Ledger {',
    '    /// Makes an empty ledger.',
    '    pub fn new() -> Self { Self::with(0) }',
    '    fn with(n: usize) -> Self { Ledger { entries: Vec::with_capacity(n) } }',
    '    pub async fn add(&mut self, n: i64) {',
    '        if n < 0 { panic!("negative amount"); }',
    '        for _ in 0..2 { self.flush(); }',
    '        match n { 1 => return, _ => {} }',
    '        clamp(n);',
    '    }',
    '    fn flush(&self) {}',
    '}',
    '',
    '#[cfg(test)]',
    'mod tests {',
    '    use super::*;',
    '    #[test]',
    '    fn adds() { let l = Ledger::new(); helper(); }',
    '    fn helper() {}',
    '}',
    '',
  ].join('\n'),
  'src/util.rs': 'pub fn clamp(n: i64) -> i64 { n }\npub struct Bounds;\n',
  'src/main.rs': 'use shop_core::open;\n\nfn main() { open(); }\n',
  'tests/it.rs': 'use shop_core::ledger::Ledger;\n\n#[test]\nfn works() { Ledger::new(); shop_core::open(); }\n',
};

let rust: CodeAdapter;
before(async () => {
  rust = await adapterFor('rust');
});

describe('rust adapter on an in-memory crate', () => {
  it('gives struct, trait, method, function and inline module nodes with capabilities and doc summaries', () => {
    const { parsed } = buildMemory(rust, CRATE);
    const nodes = parsed.flatMap((p) => p.nodes);
    const lines = nodes.map((n) => `${n.id} ${n.kind} [${n.capabilities.join(',')}]`);
    for (const expected of [
      'code:src/ledger.rs#Ledger struct [exported]', 'code:src/ledger.rs#Store trait [exported]', 'code:src/ledger.rs#Ledger.new method [exported]',
      'code:src/ledger.rs#Ledger.add method [async,exported]', 'code:src/ledger.rs#Ledger.flush method []', 'code:src/ledger.rs#Ledger.save method []',
      'code:src/ledger.rs#tests namespace [test]', 'code:src/ledger.rs#tests.adds function [test]', 'code:src/lib.rs#open function [exported]',
      'code:src/main.rs module [entrypoint]', 'code:src/main.rs#main function [entrypoint]', 'code:tests/it.rs module [test]',
    ]) assert.ok(lines.includes(expected), `${expected} in\n${lines.join('\n')}`);
    const byId = new Map(nodes.map((n) => [n.id, n]));
    assert.equal(byId.get('code:src/ledger.rs#Ledger')?.summary, 'pub struct Ledger — A ledger of entries.');
    assert.equal(byId.get('code:src/lib.rs')?.summary, 'Shop core.');
  });

  it('reads Cargo.toml in time linear in its lines, [lib] name before the package name (break-it trial)', async () => {
    const { cargoLibName } = await import('@docforge/module-resolution');
    const blank = '\n'.repeat(400_000);
    assert.equal(cargoLibName(`[package]\nname = "slow-crate"\n[lib]${blank}[dependencies]\n`), 'slow_crate');
    assert.equal(cargoLibName(`[package]${blank}name = "pkg-name"\n[lib]\nname = "lib_name"\n`), 'lib_name');
    assert.equal(cargoLibName(`[workspace]\nname = "no"\n${blank}`), null);
  });

  it('definitions nested 4,000 deep: the first 64 levels are nodes, the rest stays inside the innermost (break-it trial B2)', async () => {
    const { MAX_DEFINITION_DEPTH } = await import('../src/extract.js');
    const n = 4000;
    let text = '';
    for (let i = 0; i < n; i += 1) text += `pub mod m${i} {\n`;
    text += 'pub fn leaf() -> u32 { 1 }\n';
    text += '}\n'.repeat(n);
    const { parsed } = buildMemory(rust, { 'Cargo.toml': '[package]\nname = "deep"\n', 'src/lib.rs': text });
    const file = parsed.find((p) => p.path === 'src/lib.rs')!;
    assert.deepEqual(file.issues.filter((i) => i.severity === 'error'), []);
    const modules = file.nodes.filter((node) => node.id !== 'code:src/lib.rs');
    assert.equal(modules.length, MAX_DEFINITION_DEPTH);
    assert.ok(modules.every((node) => node.id.length < 64 * 8), 'ids stay bounded');
    // What is left out is said, once, at the first definition too deep.
    assert.deepEqual(file.issues.filter((i) => i.code === 'code_definitions_bounded').map((i) => `${i.severity} @${i.line}`), [`warning @${MAX_DEFINITION_DEPTH + 1}`]);
  });

  it('resolves use and mod within the crate, proven calls, implements and tested_by', () => {
    const { link } = buildMemory(rust, CRATE);
    assert.deepEqual(edgeLines(link.edges, 'imports'), [
      'code:src/ledger.rs imports code:src/util.rs @1', 'code:src/lib.rs imports code:src/ledger.rs @2', 'code:src/lib.rs imports code:src/util.rs @3',
      'code:src/main.rs imports code:src/lib.rs @1', 'code:tests/it.rs imports code:src/ledger.rs @1',
    ]);
    assert.deepEqual(edgeLines(link.edges, 'calls'), [
      'code:src/ledger.rs#Ledger.add calls code:src/ledger.rs#Ledger.flush @17',
      'code:src/ledger.rs#Ledger.add calls code:src/util.rs#clamp @19',
      'code:src/ledger.rs#Ledger.new calls code:src/ledger.rs#Ledger.with @13',
      'code:src/ledger.rs#Ledger.save calls code:src/ledger.rs#Ledger.flush @9',
      'code:src/ledger.rs#tests.adds calls code:src/ledger.rs#Ledger.new @28',
      'code:src/ledger.rs#tests.adds calls code:src/ledger.rs#tests.helper @28',
      'code:src/lib.rs#open calls code:src/ledger.rs#Ledger.new @6',
      'code:src/main.rs#main calls code:src/lib.rs#open @3',
      'code:tests/it.rs#works calls code:src/ledger.rs#Ledger.new @4',
    ]);
    assert.deepEqual(edgeLines(link.edges, 'implements'), ['code:src/ledger.rs#Ledger implements code:src/ledger.rs#Store @9']);
    assert.ok(edgeLines(link.edges, 'tested_by').includes('code:src/ledger.rs#Ledger.new tested_by code:tests/it.rs @4'));
    assert.deepEqual(link.api?.['shop_core.ledger.Ledger.new'], ['code:src/ledger.rs#Ledger.new']);
  });

  it('builds Logic with match arms and panic! as throw; none under --no-ast; lexical gives modules and imports only', () => {
    const { parsed } = buildMemory(rust, CRATE);
    const kinds = parsed.flatMap((p) => p.logic_steps).filter((s) => s.owner_id === 'code:src/ledger.rs#Ledger.add').map((s) => s.kind);
    assert.deepEqual(kinds, ['entry', 'branch', 'throw', 'loop', 'statement', 'switch', 'case', 'return', 'case', 'statement', 'exit']);
    assert.equal(buildMemory(rust, CRATE, 'ast', false).parsed.flatMap((p) => p.logic_steps).length, 0);
    const lexical = buildMemory(rust, CRATE, 'lexical');
    assert.ok(lexical.parsed.every((p) => p.nodes.length === 1 && p.nodes[0]!.kind === 'module'));
    assert.deepEqual(edgeLines(lexical.link.edges, 'imports'), edgeLines(buildMemory(rust, CRATE).link.edges, 'imports'));
  });
});

const BYTES = '/usr/share/cargo/registry/bytes-1.2.1';

describe('rust adapter on bytes 1.2.1 (librust-bytes-dev)', { skip: inputSkip(BYTES, 'apt-get install -y librust-bytes-dev') }, () => {
  it('finds the importers and callers of the three most-imported modules as the source says', () => {
    const texts = readTree(BYTES, ['.rs'], ['Cargo.toml']);
    const { link } = buildMemory(rust, texts);
    const top = mostImported(link.edges);
    assert.equal(top.length, 3);
    for (const [target, importers] of top) {
      const file = target.slice('code:'.length);
      const stem = file.replace(/^src\//, '').replace(/(\/mod)?\.rs$/, '').split('/').pop()!;
      for (const importer of importers) {
        const lines = link.edges.filter((e) => e.relation === 'imports' && e.source_id === importer && e.target_id === target).map((e) => e.line);
        // The import's first line (a `use` or `mod` item, possibly a multi-line use tree) names the module or an item it defines.
        const text = (texts[importer.slice('code:'.length)] ?? '').split('\n').slice(lines[0]! - 1, lines[0]! + 12).join(' ');
        assert.match(text, /\b(use|mod)\b/, `${importer}:${lines[0]} is a use or mod item`);
        const names = [stem, ...[...(texts[file] ?? '').matchAll(/pub(?:\([^)]*\))?\s+(?:unsafe\s+)?(?:fn|struct|trait|enum|type)\s+(\w+)/g)].map((m) => m[1]!)];
        assert.ok(names.some((name) => new RegExp(`\\b${name}\\b`).test(text)), `${importer}:${lines[0]} names ${stem} or one of its items: ${text.slice(0, 160)}`);
      }
      for (const call of link.edges.filter((e) => e.relation === 'calls' && e.target_id.startsWith(`${target}#`))) {
        const name = call.target_id.split('#')[1]!.split('.').pop()!;
        assert.match(lineOf(texts, call.source_path, call.line), new RegExp(`\\b${name}\\s*(::<[^>]*>)?\\(`), `${call.source_path}:${call.line} calls ${name}`);
      }
    }
    assert.ok(link.edges.filter((e) => e.relation === 'calls').length > 200);
  });
});
