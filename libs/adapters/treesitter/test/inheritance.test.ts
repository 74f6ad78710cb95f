// Pins what issue 33 left of imports and inheritance in the tree-sitter family: Java on-demand imports (`a.b.*`, `import static
// a.b.C.*`) as a weaker tier than single-type imports and the own package; Ruby `prepend` and `extend` beside `include` as
// `implements` mixins in method resolution order; PHP trait `use` as `implements` whose methods `$this->` reaches, and
// `parent::` calls through the one superclass. Then the PHP rules on monolog 2.9.1 (Debian's php-monolog): every trait edge and
// every `parent::` call edge checked against the source.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAdapter } from '@docforge/core';
import { adapterFor, buildMemory, edgeLines, inputSkip, lineOf, monologProject, PHP_SHARE, readTree } from './helpers.js';

let java: CodeAdapter;
let ruby: CodeAdapter;
let php: CodeAdapter;
before(async () => {
  java = await adapterFor('java');
  ruby = await adapterFor('ruby');
  php = await adapterFor('php');
});

const JAVA: Record<string, string> = {
  'src/a/App.java': [
    'package a;', '', 'import b.*;', 'import c.*;', 'import static b.Util.*;', 'import static b.Other.pick;', '',
    'public class App extends Base {',
    '  void run() { Util.log(); Shared.go(); clamp(1); pick(); only(); twice(); inst(); }',
    '}', '',
  ].join('\n'),
  'src/a/Shared.java': 'package a;\n\npublic class Shared { public static void go() {} }\n',
  'src/b/Base.java': 'package b;\n\npublic class Base {}\n',
  'src/b/Util.java': 'package b;\n\npublic class Util {\n  public static void log() {}\n  public static int clamp(int n) { return n; }\n  public static void only() {}\n  public void inst() {}\n}\n',
  'src/b/Other.java': 'package b;\n\npublic class Other {\n  public static void pick() {}\n  public static void only() {}\n}\n',
  'src/b/Shared.java': 'package b;\n\npublic class Shared { public static void go() {} }\n',
  'src/c/Util.java': 'package c;\n\npublic class Util { public static void log() {} }\n',
  'src/c/Twice.java': 'package c;\n\npublic class Twice { public static void twice() {} }\n',
};

describe('java on-demand imports', () => {
  it('open a package after the own package and a class\'s static members after single static imports', () => {
    const { link } = buildMemory(java, JAVA);
    const A = 'code:src/a/App.java';
    assert.deepEqual(edgeLines(link.edges, 'imports'), [
      `${A} imports code:src/b/Base.java @3`, `${A} imports code:src/b/Other.java @3`, `${A} imports code:src/b/Shared.java @3`,
      `${A} imports code:src/b/Util.java @3`, `${A} imports code:src/c/Twice.java @4`, `${A} imports code:src/c/Util.java @4`,
    ]);
    // `Base` is only in b.*; `Shared` is in the own package a (wins over b.*); `Util` is in b.* and c.* (ambiguous: unproven).
    assert.deepEqual(edgeLines(link.edges, 'inherits'), [`${A}#App inherits code:src/b/Base.java#Base @8`]);
    // clamp: Util.* static; pick: the single static import; only: declared by Util (Util.*) and by Other, but Other's is
    // not imported on demand; twice: no static import; inst: not static.
    assert.deepEqual(edgeLines(link.edges, 'calls'), [
      `${A}#App.run calls code:src/a/Shared.java#Shared.go @9`, `${A}#App.run calls code:src/b/Other.java#Other.pick @9`,
      `${A}#App.run calls code:src/b/Util.java#Util.clamp @9`, `${A}#App.run calls code:src/b/Util.java#Util.only @9`,
    ]);
  });
});

const RUBY: Record<string, string> = {
  'lib/loud.rb': 'module Loud\n  def say(x)\n    x\n  end\nend\n',
  'lib/finder.rb': 'module Finder\n  def find(x)\n    x\n  end\nend\n',
  'lib/base.rb': 'class Base\n  def self.build\n  end\nend\n',
  'lib/app.rb': [
    'require_relative "loud"', 'require_relative "finder"', 'require_relative "base"',
    'class App < Base', '  prepend Loud', '  extend Finder', '  def say(x)', '    x', '  end', '  def run', '    say(1)', '  end',
    '  def self.go', '    find(1)', '    build()', '  end', 'end',
    'class Plain < Base', '  prepend Missing if Missing', '  def say(x)', '    x', '  end', '  def run', '    say(2)', '  end', 'end', '',
  ].join('\n'),
};

describe('ruby prepend and extend', () => {
  it('are implements mixins: a prepended method comes before the class\'s own, an extended module stops the class side', () => {
    const { link } = buildMemory(ruby, RUBY);
    const A = 'code:lib/app.rb';
    assert.deepEqual(edgeLines(link.edges, 'implements'), [`${A}#App implements code:lib/finder.rb#Finder @6`, `${A}#App implements code:lib/loud.rb#Loud @5`]);
    // App#run's `say` is Loud#say (prepended); App.go's `find` would be Finder#find as a singleton method and `build` might be
    // Finder's too: both unproven; Plain's prepend of an unresolved constant leaves its `say` unproven.
    assert.deepEqual(edgeLines(link.edges, 'calls'), [`${A}#App.run calls code:lib/loud.rb#Loud.say @11`]);
  });
});

const PHP: Record<string, string> = {
  'composer.json': '{"autoload": {"psr-4": {"Shop\\\\": "src/"}}}',
  'src/Loud.php': '<?php\nnamespace Shop;\n\ntrait Loud {\n    public function say(): void {}\n    public function both(): void {}\n}\n',
  'src/Quiet.php': '<?php\nnamespace Shop;\n\ntrait Quiet {\n    public function both(): void {}\n}\n',
  'src/Base.php': '<?php\nnamespace Shop;\n\nabstract class Base {\n    public function __construct() {}\n    public function save(): void {}\n    public static function make(): void {}\n}\n',
  'src/Store.php': '<?php\nnamespace Shop;\n\ninterface Store { public function keep(): void; }\n',
  'src/App.php': [
    '<?php', 'namespace Shop;', '',
    'class App extends Base implements Store', '{', '    use Loud;', '',
    '    public function __construct() { parent::__construct(); }',
    '    public function keep(): void { $this->say(); $this->save(); parent::make(); parent::nothing(); }',
    '}', '',
    'class Picky extends Base', '{', '    use Loud, Quiet { Loud::both insteadof Quiet; }', '',
    '    public function run(): void { $this->both(); $this->say(); parent::save(); }',
    '}', '',
  ].join('\n'),
};

describe('php traits and parent::', () => {
  it('uses a trait as an implements mixin, reaches its methods through $this, and parent:: through the superclass', () => {
    const { link } = buildMemory(php, PHP);
    const A = 'code:src/App.php';
    assert.deepEqual(edgeLines(link.edges, 'implements'), [
      `${A}#App implements code:src/Loud.php#Loud @6`, `${A}#App implements code:src/Store.php#Store @4`,
      `${A}#Picky implements code:src/Loud.php#Loud @14`, `${A}#Picky implements code:src/Quiet.php#Quiet @14`,
    ]);
    // Picky's `insteadof` block is not followed: its receiver calls stop at the traits; parent:: still reaches Base.
    assert.deepEqual(edgeLines(link.edges, 'calls'), [
      `${A}#App.__construct calls code:src/Base.php#Base.__construct @8`, `${A}#App.keep calls code:src/Base.php#Base.make @9`,
      `${A}#App.keep calls code:src/Base.php#Base.save @9`, `${A}#App.keep calls code:src/Loud.php#Loud.say @9`,
      `${A}#Picky.run calls code:src/Base.php#Base.save @16`,
    ]);
  });
});

describe('php traits and parent:: on monolog 2.9.1 (php-monolog)', { skip: inputSkip(join(PHP_SHARE, 'Monolog'), 'apt-get install -y --no-install-recommends php-monolog') }, () => {
  let dir = '';
  after(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });
  it('gives every trait edge a `use` line of the class and every parent:: call edge its line', (t) => {
    dir = mkdtempSync(join(tmpdir(), 'docforge-monolog-traits-'));
    monologProject(dir);
    const texts = readTree(dir, ['.php'], ['composer.json']);
    const { parsed, link } = buildMemory(php, texts);
    const kinds = new Map(parsed.flatMap((p) => p.nodes).map((n) => [n.id, n.kind]));
    const traitEdges = link.edges.filter((e) => e.relation === 'implements' && kinds.get(e.target_id) === 'trait');
    // Every class-body `use Trait;` of the sources (9 in monolog 2.9.1 and psr/log 1.1.4) is one edge.
    const written = Object.values(texts).flatMap((text) => text.split('\n')).filter((line) => /^ {4}use [A-Z]\w*;/.test(line));
    assert.equal(traitEdges.length, written.length);
    for (const edge of traitEdges) {
      const trait = edge.target_id.split('#')[1]!;
      assert.match(lineOf(texts, edge.source_path, edge.line), new RegExp(`^\\s*use\\b.*\\b${trait}\\b`), `${edge.source_path}:${edge.line} uses ${trait}`);
    }
    const calls = link.edges.filter((e) => e.relation === 'calls');
    const parentCalls = calls.filter((e) => /\bparent::/.test(lineOf(texts, e.source_path, e.line)));
    assert.ok(parentCalls.length >= 20, `${parentCalls.length} parent:: call edges`);
    for (const edge of parentCalls) {
      const name = edge.target_id.split('.').pop()!;
      const line = lineOf(texts, edge.source_path, edge.line);
      assert.ok(line.includes(`parent::${name}(`) || new RegExp(`\\b${name}\\s*\\(`).test(line), `${edge.source_path}:${edge.line} calls ${name}`);
    }
    // Calls into trait methods through $this, or parent:: when the superclass uses the trait.
    const intoTraits = calls.filter((e) => kinds.get(e.target_id.slice(0, e.target_id.lastIndexOf('.'))) === 'trait' && e.source_path !== e.target_id.slice(5, e.target_id.indexOf('#')));
    assert.ok(intoTraits.length >= 5, `${intoTraits.length} calls into traits from other files`);
    t.diagnostic(`${traitEdges.length} trait edges, ${parentCalls.length} parent:: call edges, ${intoTraits.length} calls into traits from other files`);
    for (const edge of intoTraits) assert.match(lineOf(texts, edge.source_path, edge.line), new RegExp(`(\\$this->|parent::)${edge.target_id.split('.').pop()!}\\s*\\(`));
  });
});
