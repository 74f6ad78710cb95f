// Pins Ruby's `Class#method` notation in documents (new-user trial u2 on rake): `Rake::Task#invoke` is a mention of the
// instance method `invoke` of `Rake::Task` (`Rake.Task.invoke`), as `Rake::FileTask.timestamp` is; a member the class
// lacks (`Rake::Task#gone?`) is an `unresolved_code_mention`, counted like the dotted form.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withContentHash, type GraphNode } from '@docforge/core';
import { parseContentSource, resolveGraph, type ResolveSource } from '../src/index.js';
import { mentionName } from '../src/drift-mentions.js';
import { testDescriptor } from './helpers.js';

const desc = testDescriptor();

function codeNode(id: string, kind: string, summary: string): GraphNode {
  return withContentHash({
    id, kind, title: id, family: null, authority: null, status: null, tags: [], summary, body: '',
    source_path: 'lib/rake/task.rb', start_line: 1, end_line: 10, anchors: [], language: 'ruby', capabilities: ['exported'], origin: 'code',
  });
}

const code: ResolveSource = {
  path: 'lib/rake/task.rb',
  nodes: [
    codeNode('code:lib/rake/task.rb', 'module', ''),
    codeNode('code:lib/rake/task.rb#Rake', 'namespace', 'module Rake'),
    codeNode('code:lib/rake/task.rb#Rake.Task', 'class', 'class Task'),
    codeNode('code:lib/rake/task.rb#Rake.Task.invoke', 'method', 'def invoke(*args)'),
    codeNode('code:lib/rake/task.rb#Rake.Task.needed?', 'method', 'def needed?'),
    codeNode('code:lib/rake/task.rb#Rake.Task.timestamp', 'method', 'def timestamp'),
  ],
  edges: [],
  links: [],
};

test('mentionName reads `A::B#m` as `A.B.m`, leaves paths with anchors and bare `#x` alone', () => {
  assert.equal(mentionName('Rake::Task#invoke'), 'Rake.Task.invoke');
  assert.equal(mentionName('Rake::FileTask#needed?'), 'Rake.FileTask.needed?');
  assert.equal(mentionName('Ledger#capture()'), 'Ledger.capture');
  assert.equal(mentionName('Rake::Task.timestamp'), 'Rake.Task.timestamp');
  assert.equal(mentionName('docs/guide.md#setup'), 'docs/guide.md#setup');
  assert.equal(mentionName('#invoke'), '#invoke');
});

test('`Rake::Task#invoke` links to the instance method; a missing one is an unresolved_code_mention', () => {
  const text = '# Notes\n\nA `Rake::Task` runs `Rake::Task#invoke` and `Rake::Task#needed?`, not `Rake::Task#gone?`; see `Rake::Task.timestamp`.\n';
  const doc = parseContentSource({ path: 'README.md', text, descriptor: desc });
  const graph = resolveGraph({ descriptor: desc, sources: [{ path: 'README.md', nodes: doc.nodes, edges: doc.edges, links: doc.links }, code], codePaths: new Set(['lib/rake/task.rb']) });
  const targets = graph.edges.filter((e) => e.relation === 'documents' && e.source_path === 'README.md').map((e) => e.target_id).sort();
  assert.deepEqual(targets, [
    'code:lib/rake/task.rb#Rake.Task', 'code:lib/rake/task.rb#Rake.Task.invoke', 'code:lib/rake/task.rb#Rake.Task.needed?', 'code:lib/rake/task.rb#Rake.Task.timestamp',
  ]);
  const unresolved = graph.issues.filter((i) => i.code === 'unresolved_code_mention').map((i) => i.message);
  assert.equal(unresolved.length, 1, unresolved.join('\n'));
  assert.match(unresolved[0]!, /names `Rake::Task#gone\?`.*"Rake\.Task" resolves to code:lib\/rake\/task\.rb#Rake\.Task, which has no "gone\?"/);
});
