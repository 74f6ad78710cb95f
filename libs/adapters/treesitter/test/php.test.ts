// Pins the PHP adapter of the tree-sitter family on in-memory sources (types and methods, static capability, use through PSR-4,
// group use and aliases, use function, $this/self/static and Type:: calls, extends/implements, tested_by, Logic with
// elseif/else and try/catch/finally, lexical, --no-ast), then use and calls on monolog 2.9.1 and psr/log from Debian's php-monolog.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAdapter } from '@docforge/core';
import { adapterFor, buildMemory, edgeLines, inputSkip, lineOf, monologProject, mostImported, PHP_SHARE, readTree } from './helpers.js';

const SOURCES: Record<string, string> = {
  'composer.json': '{"autoload": {"psr-4": {"Shop\\\\": "src/"}}, "autoload-dev": {"psr-4": {"Shop\\\\Tests\\\\": "tests/"}}}',
  'src/Ledger/Ledger.php': [
    '<?php',
    'namespace Shop\\Ledger;',
    '',
    'use Shop\\Util\\{Clamp, Log as L};',
    'use function Shop\\Util\\format;',
    '',
    '/** A ledger of entries. */',
    'class Ledger extends Base implements Store',
    '{',
    '    /** Adds an amount. */',
    '    public function add(int $n): void',
    '    {',
    '        if ($n < 0) { throw new \\InvalidArgumentException("negative amount"); } elseif ($n === 0) { return; } else { $n = 1; }',
    '        try { $this->flush(); } catch (\\Exception $e) { self::flush(); } finally { L::write("x"); }',
    '        Clamp::apply($n);',
    '        Clamp::instance();',
    '        format($n);',
    '    }',
    '    private function flush(): void {}',
    '}',
    '',
  ].join('\n'),
  'src/Ledger/Base.php': '<?php\nnamespace Shop\\Ledger;\n\nabstract class Base {}\n',
  'src/Ledger/Store.php': '<?php\nnamespace Shop\\Ledger;\n\ninterface Store { public function add(int $n): void; }\n',
  'src/Util/Clamp.php': '<?php\nnamespace Shop\\Util;\n\nfinal class Clamp {\n    public static function apply(int $n): int { return $n; }\n    public function instance(): void {}\n}\n',
  'src/Util/Log.php': '<?php\nnamespace Shop\\Util;\n\nclass Log { public static function write(string $s): void {} }\n',
  'src/Util/functions.php': '<?php\nnamespace Shop\\Util;\n\nfunction format(int $n): string { return (string) $n; }\n',
  'tests/LedgerTest.php': '<?php\nnamespace Shop\\Tests;\n\nuse Shop\\Util\\Clamp;\n\nclass LedgerTest {\n    public function testApply(): void { \\Shop\\Util\\Clamp::apply(1); Clamp::apply(2); }\n}\n',
};

let php: CodeAdapter;
before(async () => {
  php = await adapterFor('php');
});

describe('php adapter on in-memory sources', () => {
  it('gives types, methods and functions with capabilities, resolves use through PSR-4, calls, bases and tested_by', () => {
    const { parsed, link } = buildMemory(php, SOURCES);
    const lines = parsed.flatMap((p) => p.nodes).map((n) => `${n.id} ${n.kind} [${n.capabilities.join(',')}]`);
    for (const expected of [
      'code:src/Ledger/Ledger.php#Ledger class [exported]', 'code:src/Ledger/Ledger.php#Ledger.add method [exported]', 'code:src/Ledger/Ledger.php#Ledger.flush method []',
      'code:src/Util/Clamp.php#Clamp.apply method [exported,static]', 'code:src/Util/functions.php#format function [exported]',
      'code:tests/LedgerTest.php#LedgerTest.testApply method [exported,test]',
    ]) assert.ok(lines.includes(expected), `${expected} in\n${lines.join('\n')}`);
    assert.equal(parsed.flatMap((p) => p.nodes).find((n) => n.id.endsWith('#Ledger.add'))?.summary, 'public function add(int $n): void — Adds an amount.');
    const L = 'code:src/Ledger/Ledger.php';
    const C = 'code:src/Util/Clamp.php';
    assert.deepEqual(edgeLines(link.edges, 'imports'), [
      `${L} imports ${C} @4`, `${L} imports code:src/Util/Log.php @4`, `${L} imports code:src/Util/functions.php @5`, `code:tests/LedgerTest.php imports ${C} @4`,
    ]);
    // Clamp::instance() names an instance method through the class: not proven.
    assert.deepEqual(edgeLines(link.edges, 'calls'), [
      `${L}#Ledger.add calls ${L}#Ledger.flush @14`, `${L}#Ledger.add calls ${C}#Clamp.apply @15`, `${L}#Ledger.add calls code:src/Util/Log.php#Log.write @14`,
      `${L}#Ledger.add calls code:src/Util/functions.php#format @17`, `code:tests/LedgerTest.php#LedgerTest.testApply calls ${C}#Clamp.apply @7`,
    ]);
    assert.deepEqual(edgeLines(link.edges, 'inherits'), [`${L}#Ledger inherits code:src/Ledger/Base.php#Base @8`]);
    assert.deepEqual(edgeLines(link.edges, 'implements'), [`${L}#Ledger implements code:src/Ledger/Store.php#Store @8`]);
    assert.ok(edgeLines(link.edges, 'tested_by').includes(`${C}#Clamp.apply tested_by code:tests/LedgerTest.php @7`));
  });

  it('builds Logic with elseif, else, throw, try, catch and finally; none under --no-ast; lexical gives modules and imports only', () => {
    const kinds = buildMemory(php, SOURCES).parsed.flatMap((p) => p.logic_steps).filter((s) => s.owner_id.endsWith('#Ledger.add')).map((s) => s.kind);
    assert.deepEqual(kinds, ['entry', 'branch', 'throw', 'branch', 'return', 'statement', 'try', 'statement', 'catch', 'statement', 'finally', 'statement', 'statement', 'statement', 'statement', 'exit']);
    assert.equal(buildMemory(php, SOURCES, 'ast', false).parsed.flatMap((p) => p.logic_steps).length, 0);
    const lexical = buildMemory(php, SOURCES, 'lexical');
    assert.ok(lexical.parsed.every((p) => p.nodes.length === 1 && p.nodes[0]!.kind === 'module'));
    assert.deepEqual(edgeLines(lexical.link.edges, 'imports'), edgeLines(buildMemory(php, SOURCES).link.edges, 'imports'));
  });
});

describe('php adapter on monolog 2.9.1 (php-monolog)', { skip: inputSkip(join(PHP_SHARE, 'Monolog'), 'apt-get install -y --no-install-recommends php-monolog') }, () => {
  let dir = '';
  after(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });
  it('finds the importers and callers of the three most-imported files as the source says', () => {
    dir = mkdtempSync(join(tmpdir(), 'docforge-monolog-'));
    monologProject(dir);
    const texts = readTree(dir, ['.php'], ['composer.json']);
    const { link } = buildMemory(php, texts);
    const top = mostImported(link.edges);
    assert.equal(top.length, 3);
    for (const [target, importers] of top) {
      const file = target.slice('code:'.length);
      const fqcn = file.replace(/\.php$/, '').split('/').join('\\');
      for (const importer of importers) {
        const uses = [...(texts[importer.slice('code:'.length)] ?? '').matchAll(/^use\s+(?:function\s+)?\\?([\w\\]+)(?:\s+as\s+\w+)?;/gm)].map((m) => m[1]!);
        assert.ok(uses.includes(fqcn), `${importer} uses ${fqcn}`);
      }
      for (const call of link.edges.filter((e) => e.relation === 'calls' && e.target_id.startsWith(`${target}#`))) {
        const name = call.target_id.split('#')[1]!.split('.').pop()!;
        assert.match(lineOf(texts, call.source_path, call.line), new RegExp(`\\b${name}\\s*\\(`), `${call.source_path}:${call.line} calls ${name}`);
      }
    }
    assert.ok(link.edges.filter((e) => e.relation === 'calls').length > 100);
  });
});

describe('php: no guessed parent:: or $this edges on invalid code (break-it trial)', () => {
  it('a named function inside a method is global: its parent::, self:: and $this name nothing; a closure keeps the class scope; a class extending itself has no parent', () => {
    const { link } = buildMemory(php, {
      'composer.json': '{"autoload":{"psr-4":{"App\\\\":"src/"}}}\n',
      'src/Base.php': '<?php\nnamespace App;\n\nclass Base {\n    public function x(): int { return 1; }\n    public function y(): int { return 2; }\n}\n',
      'src/Outer.php': [
        '<?php', 'namespace App;', '', 'class Outer extends Base {', '    public function o(): int {',
        '        function inner() { return parent::x() + self::z() + $this->z(); }',
        '        $f = function () { return parent::y(); };', '        return $f();', '    }', '    public function z(): int { return 3; }', '}', '',
      ].join('\n'),
      'src/L.php': '<?php\nnamespace App;\n\nclass L extends L {\n    public function m(): int { return parent::m(); }\n}\n',
    });
    const calls = edgeLines(link.edges, 'calls');
    assert.ok(calls.includes('code:src/Outer.php#Outer.o calls code:src/Base.php#Base.y @7'), `the closure's parent:: resolves:\n${calls.join('\n')}`);
    assert.equal(calls.filter((line) => /Base\.x|Outer\.z/.test(line)).length, 0, `nothing from the nested function:\n${calls.join('\n')}`);
    assert.equal(calls.filter((line) => line.startsWith('code:src/L.php#L.m calls')).length, 0, `no self-parent call:\n${calls.join('\n')}`);
  });
});

describe('php: a fully qualified one-segment name is the global class', () => {
  it('`extends \\DateTimeImmutable` in a namespace never names the class itself; `\\Base` reaches a class of the global namespace', () => {
    const { link } = buildMemory(php, {
      'composer.json': '{"autoload":{"psr-4":{"App\\\\":"src/"}}}\n',
      'src/DateTimeImmutable.php': '<?php\nnamespace App;\n\nclass DateTimeImmutable extends \\DateTimeImmutable {\n    public function __construct() { parent::__construct(\'now\'); }\n}\n',
      'lib/Base.php': '<?php\n\nclass Base {\n    public function x(): int { return 1; }\n}\n',
      'lib/Child.php': '<?php\n\nclass Child extends \\Base {\n    public function y(): int { return parent::x(); }\n}\n',
    });
    const lines = edgeLines(link.edges);
    assert.equal(lines.filter((line) => line.startsWith('code:src/DateTimeImmutable.php#')).length, 0, `no self edge:\n${lines.join('\n')}`);
    assert.ok(lines.includes('code:lib/Child.php#Child inherits code:lib/Base.php#Base @3'), lines.join('\n'));
    assert.ok(lines.includes('code:lib/Child.php#Child.y calls code:lib/Base.php#Base.x @4'), lines.join('\n'));
  });
});
