// Pins issue 32 items 2 and 4 in graph resolution: `unresolved_code_mention` (a missing code path,
// a member a project class lacks; never a bare name or a document-bound receiver),
// `drift_parameters` (the three list forms against the declared parameters of the function a
// heading names) and the coverage findings (info).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codeId, coverageIssues, signatureParameters, withContentHash, type GraphEdge, type GraphNode } from '@docforge/core';
import { codeSourcePathMatcher, parseContentSource, resolveGraph, type ResolveSource } from '../src/index.js';
import { testDescriptor } from './helpers.js';

const desc = testDescriptor();

function parsed(path: string, text: string): ResolveSource {
  const result = parseContentSource({ path, text, descriptor: desc });
  return { path, nodes: result.nodes, edges: result.edges, links: result.links };
}

function codeNode(id: string, kind: string, summary: string, capabilities: string[] = []): GraphNode {
  const path = id.slice(5).split('#')[0]!;
  return withContentHash({
    id, kind, title: id, family: null, authority: null, status: null, tags: [], summary, body: '',
    source_path: path, start_line: 1, end_line: 10, anchors: [], language: 'typescript', capabilities, origin: 'code',
  });
}

/** src/ledger.ts with class Ledger { capture(paymentId, amount); refund(paymentId, amount) } and function withRetry(operation, options). */
function ledgerSource(refund = 'async Ledger.refund(paymentId: string, amount: Money): Promise<Entry>'): ResolveSource & { nodes: GraphNode[] } {
  const path = 'src/ledger.ts';
  return {
    path,
    nodes: [
      codeNode(codeId(path), 'module', ''),
      codeNode(`code:${path}#Ledger`, 'class', 'export class Ledger', ['exported']),
      codeNode(`code:${path}#Ledger.capture`, 'method', 'async Ledger.capture(paymentId: string, amount: Money): Promise<Entry>'),
      codeNode(`code:${path}#Ledger.refund`, 'method', refund),
      codeNode(`code:${path}#withRetry`, 'function', 'async function withRetry<T>(operation: () => Promise<T>, options: RetryOptions = {}): Promise<T>', ['exported']),
    ],
    edges: [],
    links: [],
  };
}

function resolve(doc: string, code: ResolveSource = ledgerSource()): ReturnType<typeof resolveGraph> {
  return resolveGraph({
    descriptor: desc, sources: [parsed('docs/guide.md', doc), code], codePaths: new Set(['src/ledger.ts']),
    isCodeSourcePath: codeSourcePathMatcher(desc, ['.ts', '.js']),
  });
}

const drift = (graph: ReturnType<typeof resolveGraph>, code: string): [number | null, string][] =>
  graph.issues.filter((i) => i.code === code).map((i) => [i.line, i.message]);

test('a member a project class does not have, and a missing code path, are unresolved_code_mention with the doc line', () => {
  const graph = resolve('# Guide\n\n## Capture\n\nCall `Ledger.capture` then `Ledger.settle()`.\n\nSee `src/old-ledger.ts` and `src/ledger.ts`.\n');
  const found = drift(graph, 'unresolved_code_mention');
  assert.deepEqual(found.map(([line]) => line), [5, 7]);
  assert.match(found[0]![1], /^docs\/guide\.md:5: section "capture" names `Ledger\.settle\(\)`.*"Ledger" resolves to code:src\/ledger\.ts#Ledger, which has no "settle"/);
  assert.match(found[1]![1], /"src\/old-ledger\.ts" is no code file under the code roots/);
  assert.equal(graph.issues.find((i) => i.code === 'unresolved_code_mention')!.severity, 'info');
});

test('bare names, unknown receivers, implicit members, file names and document-bound receivers are never drift', () => {
  const doc = [
    '# Guide', '', '```js', "const ledger = require('./ledger')", '```', '',
    'Use `lookupGone()`, `retryForever`, `JSON.parse()`, `options.level`, `Ledger.prototype`, `Ledger.name`,',
    '`index.js`, `ledger.settle()`, `docs/notes.md` and `README.txt`.', '',
  ].join('\n');
  assert.deepEqual(drift(resolve(doc), 'unresolved_code_mention'), []);
});

test('a class that extends another is no receiver: its members may be inherited', () => {
  const code = ledgerSource();
  code.nodes[1] = codeNode('code:src/ledger.ts#Ledger', 'class', 'export class Ledger extends BaseService', ['exported']);
  assert.deepEqual(drift(resolve('# Guide\n\nCall `Ledger.start()`.\n', code), 'unresolved_code_mention'), []);
});

test('signatureParameters reads TypeScript, JavaScript and Python signatures; a cut signature is unknown', () => {
  assert.deepEqual(signatureParameters('async function withRetry<T extends (x: number) => void>(operation: () => Promise<T>, options: RetryOptions = {}): Promise<T>'), ['operation', 'options']);
  assert.deepEqual(signatureParameters('Ledger.post(this: Ledger, id: string, ...postings: Posting[])'), ['id', 'postings']);
  assert.deepEqual(signatureParameters('function f({ a, b }: Opts, [c]: number[], private readonly d = new Map<string, number>())'), [null, null, 'd']);
  assert.deepEqual(signatureParameters('def dumps(self, obj, *, skipkeys=False, **kw) -> str — Serialize obj.'), ['obj', 'skipkeys', 'kw']);
  assert.deepEqual(signatureParameters('function transport (fullOptions)'), ['fullOptions']);
  assert.equal(signatureParameters('function long(a: string, b: Record<string, (x: number…'), null);
  assert.equal(signatureParameters('class Ledger'), null);
});

const parameterDoc = [
  '# Ledger API', '',
  '## `Ledger.capture(paymentId, amount)`', '',
  '| Name | Type |', '|---|---|', '| `paymentId` | string |', '| `amount` | Money |', '',
  '## `Ledger.refund()`', '',
  '### Parameters', '',
  '- `paymentId`: the payment.', '- `amount`: the amount.', '',
  '## The helper `withRetry()`', '',
  '@param {Function} operation what to run', '@param [options] retry options', '',
  '## `Ledger.capture()` options', '',
  '**Options:**', '', '- `level`: unrelated option fields are another list.', '',
].join('\n');

test('parameter lists that match the declared parameters give no finding', () => {
  assert.deepEqual(drift(resolve(parameterDoc), 'drift_parameters'), []);
});

test('changed parameters are drift_parameters naming the missing and extra ones, with the line of the list', () => {
  const graph = resolve(parameterDoc, ledgerSource('async Ledger.refund(paymentId: string, refundAmount: Money, reason?: string): Promise<Entry>'));
  const found = drift(graph, 'drift_parameters');
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.equal(found[0]![0], 14);
  assert.match(found[0]![1], /section "parameters" lists the parameters of code:src\/ledger\.ts#Ledger\.refund as \(paymentId, amount\).*not listed: refundAmount, reason; not declared: amount/);
});

test('table and @param forms are compared too', () => {
  const code = ledgerSource();
  code.nodes[2] = codeNode('code:src/ledger.ts#Ledger.capture', 'method', 'async Ledger.capture(paymentId: string, merchantId: string, amount: Money)');
  code.nodes[4] = codeNode('code:src/ledger.ts#withRetry', 'function', 'async function withRetry(operation: () => Promise<void>)', ['exported']);
  const found = drift(resolve(parameterDoc, code), 'drift_parameters');
  assert.deepEqual(found.map(([line]) => line), [5, 19]);
  assert.match(found[0]![1], /not listed: merchantId/);
  assert.match(found[1]![1], /not declared: options/);
});

function docNode(id: string, kind: string, status: string | null = null): GraphNode {
  return withContentHash({
    id, kind, title: id, family: null, authority: null, status, tags: [], summary: '', body: '',
    source_path: `docs/${id}.md`, start_line: 1, end_line: 5, anchors: [], language: null, capabilities: [], origin: 'document',
  });
}

const edge = (source_id: string, relation: string, target_id: string): GraphEdge => ({ source_id, relation, target_id, source_path: 'docs/x.md', line: 1 });

test('coverage: untraced requirements, undocumented exported API and decisions governing nothing, as info', () => {
  const nodes = [
    docNode('REQ-1', 'requirement'), docNode('REQ-2', 'requirement'), docNode('REQ-3', 'Requirement'), docNode('REQ-4', 'requirement', 'deprecated'),
    docNode('CMP-1', 'component'), docNode('TST-1', 'test'), docNode('ADR-1', 'decision'), docNode('ADR-2', 'adr'),
    codeNode('code:src/a.ts#documented', 'function', 'function documented()', ['exported']),
    codeNode('code:src/a.ts#Undocumented', 'class', 'class Undocumented', ['exported']),
    codeNode('code:src/a.ts#internal', 'function', 'function internal()'),
    codeNode('code:src/a.test.ts#helper', 'function', 'function helper()', ['exported', 'test']),
  ];
  const edges = [
    edge('CMP-1', 'implements', 'REQ-1'), edge('CMP-1', 'defines', 'code:src/a.ts#documented'),
    edge('REQ-2', 'tested_by', 'TST-1'), edge('REQ-3', 'relates_to', 'CMP-1'), edge('ADR-1', 'governs', 'CMP-1'),
  ];
  const issues = coverageIssues(nodes, edges);
  assert.deepEqual(issues.map((i) => [i.severity, i.code, i.node_id]), [
    ['info', 'coverage_decision_ungoverning', 'ADR-2'],
    ['info', 'coverage_requirement_untraced', 'REQ-3'],
    ['info', 'coverage_api_undocumented', 'code:src/a.ts#Undocumented'],
  ]);
});

test('an Options list of a function taking an options object lists its fields: never compared', () => {
  const code = ledgerSource();
  code.nodes[4] = codeNode('code:src/ledger.ts#withRetry', 'function', 'function withRetry(operation, options)', ['exported']);
  const doc = ['# API', '', '## `withRetry(operation, options) => Promise`', '', '#### Options', '', '- `options.attempts`: how many.', '- `backoff`: the base.', '- `operation`: ignored here.', ''].join('\n');
  assert.deepEqual(drift(resolve(doc, code), 'drift_parameters'), []);
  // Under a Parameters heading the same list is compared.
  const found = drift(resolve(doc.replace('#### Options', '#### Parameters'), code), 'drift_parameters');
  assert.equal(found.length, 1);
  assert.match(found[0]![1], /not declared: backoff/);
});

test('a name an implementation declares and its shipped typings repeat links the implementation (new-user trial: commander)', () => {
  const js = 'lib/command.js';
  const dts = 'typings/index.d.ts';
  const code: ResolveSource = {
    path: js,
    nodes: [
      codeNode(codeId(js), 'module', ''),
      codeNode(`code:${js}#Command`, 'class', 'class Command', ['exported']),
      codeNode(`code:${js}#Command.requiredOption`, 'method', 'Command.requiredOption(flags, description)'),
    ],
    edges: [],
    links: [],
  };
  const typings: ResolveSource = {
    path: dts,
    nodes: [
      codeNode(codeId(dts), 'module', ''),
      codeNode(`code:${dts}#Command`, 'class', 'export class Command', ['exported']),
      codeNode(`code:${dts}#Command.requiredOption`, 'method', 'Command.requiredOption(flags: string, description?: string): this'),
      codeNode(`code:${dts}#OptionValues`, 'interface', 'export interface OptionValues', ['exported']),
    ],
    edges: [],
    links: [],
  };
  const graph = resolveGraph({
    descriptor: desc, sources: [parsed('docs/guide.md', '# Guide\n\nCall `Command.requiredOption()`; read `OptionValues.x`.\n'), code, typings],
    codePaths: new Set([js, dts]), isCodeSourcePath: codeSourcePathMatcher(desc, ['.ts', '.js']),
  });
  const documents = graph.edges.filter((e) => e.relation === 'documents').map((e) => e.target_id);
  assert.deepEqual(documents, [`code:${js}#Command.requiredOption`]);
});
