// Pins the Ruby adapter of the tree-sitter family on in-memory sources (classes and modules qualified by nesting, reopened
// modules, singleton methods, visibility, require_relative and require on lib/, constant-path and self calls, superclasses,
// tested_by, Logic with begin/rescue/ensure, lexical, --no-ast), then requires and calls on thor 1.2.1 from Debian's ruby-thor.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAdapter } from '@docforge/core';
import { adapterFor, buildMemory, edgeLines, inputSkip, lineOf, mostImported, readTree } from './helpers.js';

const SOURCES: Record<string, string> = {
  'lib/shop/ledger.rb': [
    'require_relative "base"',
    'require "shop/util"',
    'require "json"',
    '',
    'module Shop',
    '  # A ledger of entries.',
    '  class Ledger < Base',
    '    # Adds an amount.',
    '    def add(n)',
    '      raise ArgumentError, "negative amount" if n < 0',
    '      begin',
    '        flush',
    '        flush()',
    '      rescue StandardError => e',
    '        self.flush',
    '      ensure',
    '        Util.log("x")',
    '      end',
    '      Shop::Util.clamp(n)',
    '    end',
    '',
    '    private',
    '',
    '    def flush; end',
    '  end',
    'end',
    '',
  ].join('\n'),
  'lib/shop/base.rb': 'module Shop\n  class Base\n    def self.build; new; end\n  end\nend\n',
  'lib/shop/util.rb': 'module Shop\n  module Util\n    def self.clamp(n)\n      n\n    end\n\n    def self.log(s); end\n  end\nend\nmodule Shop\n  module Util\n    def self.more; end\n  end\nend\n',
  'test/ledger_test.rb': 'require_relative "../lib/shop/util"\n\nclass LedgerTest\n  def test_clamp\n    Shop::Util.clamp(1)\n  end\nend\n',
};

let ruby: CodeAdapter;
before(async () => {
  ruby = await adapterFor('ruby');
});

describe('ruby adapter on in-memory sources', () => {
  it('gives classes, modules and methods with capabilities, summaries and edges', () => {
    const { parsed, link } = buildMemory(ruby, SOURCES);
    const lines = parsed.flatMap((p) => p.nodes).map((n) => `${n.id} ${n.kind} [${n.capabilities.join(',')}]`);
    for (const expected of [
      'code:lib/shop/ledger.rb#Shop namespace [exported]', 'code:lib/shop/ledger.rb#Shop.Ledger class [exported]',
      'code:lib/shop/ledger.rb#Shop.Ledger.add method [exported]', 'code:lib/shop/ledger.rb#Shop.Ledger.flush method []',
      'code:lib/shop/util.rb#Shop.Util.more method [exported,static]', 'code:test/ledger_test.rb#LedgerTest.test_clamp method [exported,test]',
    ]) assert.ok(lines.includes(expected), `${expected} in\n${lines.join('\n')}`);
    // The reopened module joins the first: no `Shop~2`.
    assert.ok(!lines.some((l) => l.includes('~')), lines.join('\n'));
    const add = parsed.flatMap((p) => p.nodes).find((n) => n.id.endsWith('#Shop.Ledger.add'));
    assert.equal(add?.summary, 'def add(n) — Adds an amount.');
    const L = 'code:lib/shop/ledger.rb';
    const U = 'code:lib/shop/util.rb';
    assert.deepEqual(edgeLines(link.edges, 'imports'), [`${L} imports code:lib/shop/base.rb @1`, `${L} imports ${U} @2`, `code:test/ledger_test.rb imports ${U} @1`]);
    assert.deepEqual(edgeLines(link.edges, 'calls'), [
      `${L}#Shop.Ledger.add calls ${L}#Shop.Ledger.flush @13`, `${L}#Shop.Ledger.add calls ${U}#Shop.Util.clamp @19`, `${L}#Shop.Ledger.add calls ${U}#Shop.Util.log @17`,
      `code:test/ledger_test.rb#LedgerTest.test_clamp calls ${U}#Shop.Util.clamp @5`,
    ]);
    assert.deepEqual(edgeLines(link.edges, 'inherits'), [`${L}#Shop.Ledger inherits code:lib/shop/base.rb#Shop.Base @7`]);
    assert.ok(edgeLines(link.edges, 'tested_by').includes(`${U}#Shop.Util.clamp tested_by code:test/ledger_test.rb @5`));
    assert.equal(link.stats['imports_unresolved'], 1);
  });

  it('builds Logic with raise, begin, rescue and ensure; none under --no-ast; lexical gives modules and imports only', () => {
    const { parsed } = buildMemory(ruby, SOURCES);
    const kinds = parsed.flatMap((p) => p.logic_steps).filter((s) => s.owner_id.endsWith('#Shop.Ledger.add')).map((s) => s.kind);
    assert.deepEqual(kinds, ['entry', 'statement', 'try', 'statement', 'statement', 'catch', 'statement', 'finally', 'statement', 'statement', 'exit']);
    assert.equal(buildMemory(ruby, SOURCES, 'ast', false).parsed.flatMap((p) => p.logic_steps).length, 0);
    const lexical = buildMemory(ruby, SOURCES, 'lexical');
    assert.ok(lexical.parsed.every((p) => p.nodes.length === 1 && p.nodes[0]!.kind === 'module'));
    assert.deepEqual(edgeLines(lexical.link.edges, 'imports'), edgeLines(buildMemory(ruby, SOURCES).link.edges, 'imports'));
  });
});

const MIXINS: Record<string, string> = {
  'lib/audit.rb': 'module Audit\n  def audit(x); end\n  def self.helper; end\nend\n',
  'lib/base.rb': 'class Base\n  def self.helper; end\n  def save; end\nend\n',
  'lib/base_more.rb': 'class Base\n  def extra; end\nend\n',
  'lib/ledger.rb': [
    'require_relative "audit"', 'require_relative "base"', 'require_relative "base_more"',
    'class Ledger < Base', '  include Audit', '  helper()', '  def add(n)', '    audit(n)', '    save', '    save()', '    extra()', '  end', 'end', '',
  ].join('\n'),
};

describe('ruby adapter: included modules, superclasses and reopened classes', () => {
  it('follows receiver calls to included modules and superclasses in method resolution order, each side apart', () => {
    const { link } = buildMemory(ruby, MIXINS);
    const L = 'code:lib/ledger.rb';
    assert.deepEqual(edgeLines(link.edges, 'implements'), [`${L}#Ledger implements code:lib/audit.rb#Audit @5`]);
    // Base is declared in base.rb and reopened in base_more.rb: the file named after it stands for the class.
    assert.deepEqual(edgeLines(link.edges, 'inherits'), [`${L}#Ledger inherits code:lib/base.rb#Base @4`]);
    // The class body's `helper` is Base's singleton method (an included module's singleton methods are not inherited);
    // `audit` comes from Audit, `save()` from Base; `extra()` is declared in a reopening base.rb does not require: unproven.
    assert.deepEqual(edgeLines(link.edges, 'calls'), [
      `${L}#Ledger calls code:lib/base.rb#Base.helper @6`, `${L}#Ledger.add calls code:lib/audit.rb#Audit.audit @8`, `${L}#Ledger.add calls code:lib/base.rb#Base.save @10`,
    ]);
  });
});

const THOR = '/usr/share/rubygems-integration/all/gems/thor-1.2.1';

describe('ruby adapter on thor 1.2.1 (ruby-thor)', { skip: inputSkip(THOR, 'apt-get install -y --no-install-recommends ruby-thor') }, () => {
  it('finds the requirers and callers of the three most-required files as the source says', () => {
    const texts = readTree(THOR, ['.rb']);
    const { link } = buildMemory(ruby, texts);
    const top = mostImported(link.edges);
    assert.equal(top.length, 3);
    for (const [target, importers] of top) {
      const file = target.slice('code:'.length);
      for (const importer of importers) {
        const path = importer.slice('code:'.length);
        const dir = path.split('/').slice(0, -1).join('/');
        // Each requirer names the target: relative to itself, or under lib/.
        const named = [...(texts[path] ?? '').matchAll(/^\s*(require_relative|require)\s*\(?\s*["']([^"']+)["']/gm)].some((m) => {
          const spec = m[2]!.replace(/\.rb$/, '');
          if (m[1] === 'require') return file === `lib/${spec}.rb`;
          const parts = `${dir}/${spec}`.split('/').reduce<string[]>((acc, part) => (part === '..' ? acc.slice(0, -1) : part === '.' ? acc : [...acc, part]), []);
          return file === `${parts.join('/')}.rb`;
        });
        assert.ok(named, `${path} requires ${file}`);
      }
      for (const call of link.edges.filter((e) => e.relation === 'calls' && e.target_id.startsWith(`${target}#`))) {
        const name = call.target_id.split('#')[1]!.split('.').pop()!;
        // A setter `x=` is called as `self.x = v`; `super` calls the caller's own name.
        const text = lineOf(texts, call.source_path, call.line);
        const viaSuper = /\bsuper\b/.test(text) && call.source_id.endsWith(`.${name}`);
        assert.ok(name.endsWith('=') ? new RegExp(`\\.${name.slice(0, -1)}\\s*=`).test(text) : text.includes(name) || viaSuper, `${call.source_path}:${call.line} calls ${name}`);
      }
    }
    assert.ok(link.edges.filter((e) => e.relation === 'calls').length > 100);
  });
});
