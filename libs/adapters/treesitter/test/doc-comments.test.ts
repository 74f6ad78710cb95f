// Pins what becomes a definition's doc in Ruby and PHP (new-user trial u2 on rake and Monolog): magic comments
// (`# frozen_string_literal: true`, `# encoding:`, `# -*- ... -*-`, `# typed:`, shebangs) are no doc, RDoc directives
// (`# :nodoc:`) leave signatures and summaries, an RDoc `##` opener leaves no stray `#`, and `{@inheritDoc}` is no summary.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CodeAdapter } from '@docforge/core';
import { adapterFor, buildMemory } from './helpers.js';

const RUBY: Record<string, string> = {
  'lib/a.rb': '# frozen_string_literal: true\nmodule A\n  module Back # :nodoc: all\n    def x; end\n  end\nend\n',
  'lib/b.rb': '#!/usr/bin/env ruby\n# -*- coding: utf-8 -*-\n# encoding: utf-8\n# typed: strict\nclass B\n  def windows? # :nodoc:\n  end\nend\n',
  'lib/c.rb': '# frozen_string_literal: true\n# The C class does work.\nclass C\n  ##\n  # Runs the task.\n  # :nodoc:\n  def run; end\nend\n',
};

const PHP: Record<string, string> = {
  'src/F.php': [
    '<?php', 'namespace App;', 'class F {',
    '    /**', '     * {@inheritDoc}', '     *', '     * @return mixed[]', '     */', '    public function format(array $r) { return $r; }',
    '    /** {@inheritdoc} */', '    public function batch(array $r) { return $r; }',
    '    /**', '     * {@inheritDoc}', '     * Also trims the record.', '     */', '    public function trim(array $r) { return $r; }',
    '}', '',
  ].join('\n'),
};

function summaries(adapter: CodeAdapter, texts: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const node of buildMemory(adapter, texts).parsed.flatMap((p) => p.nodes)) out[node.id.replace(/^code:/, '')] = node.summary;
  return out;
}

let ruby: CodeAdapter;
let php: CodeAdapter;
before(async () => {
  ruby = await adapterFor('ruby');
  php = await adapterFor('php');
});

describe('doc comments of Ruby and PHP definitions', () => {
  it('Ruby: magic comments are no doc, RDoc directives and `##` openers leave summaries', () => {
    const s = summaries(ruby, RUBY);
    assert.equal(s['lib/a.rb#A'], 'module A');
    assert.equal(s['lib/a.rb#A.Back'], 'module Back');
    assert.equal(s['lib/b.rb#B'], 'class B');
    assert.equal(s['lib/b.rb#B.windows?'], 'def windows?');
    // A doc comment directly below a magic comment is still the doc.
    assert.equal(s['lib/c.rb#C'], 'class C — The C class does work.');
    assert.equal(s['lib/c.rb#C.run'], 'def run; end — Runs the task.');
    assert.ok(!Object.values(s).some((v) => /frozen_string_literal|coding|typed:|#!|:nodoc:/.test(v)), JSON.stringify(s, null, 1));
  });

  it('PHP: `{@inheritDoc}` alone or with tags only is no summary; own text after it is', () => {
    const s = summaries(php, PHP);
    assert.equal(s['src/F.php#F.format'], 'public function format(array $r)');
    assert.equal(s['src/F.php#F.batch'], 'public function batch(array $r)');
    assert.equal(s['src/F.php#F.trim'], 'public function trim(array $r) — Also trims the record.');
  });
});
