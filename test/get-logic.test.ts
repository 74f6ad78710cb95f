// Pins docforge_get_logic's bounds in-process (createProjectServer over InMemoryTransport): the step limit against max_results, packing into max_output_chars, and Logic of methods and arrow functions.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { pino } from 'pino';
import { createProjectServer, type ProjectServer } from '@docforge/mcp-server';
import { removeDir } from './helpers/projects.js';
import { expectError, REQUEST_TIMEOUT_MS, type Envelope } from './helpers/server.js';

const LONG = ['export function long(x: number): number {', '  let y = x;'];
for (let i = 0; i < 300; i += 1) LONG.push(i % 10 === 0 ? `  if (y > ${i}) { y -= ${i}; }` : `  y = y * 3 + ${i}; // step ${i} of a deliberately long function body`);
LONG.push('  return y;', '}', '');

const SHAPES = [
  'export class Queue {',
  '  private items: number[] = [];',
  '  async drain(limit: number): Promise<number> {',
  '    let n = 0;',
  '    while (this.items.length > 0) {',
  '      if (n >= limit) break;',
  '      await this.take();',
  '      n += 1;',
  '    }',
  '    return n;',
  '  }',
  '  async take(): Promise<void> {}',
  '}',
  'export const pick = (xs: number[]) => {',
  '  for (const x of xs) {',
  '    if (x > 0) return x;',
  '  }',
  '  throw new Error("none");',
  '};',
  '',
].join('\n');

let root: string;
let project: ProjectServer;
let client: Client;

before(async () => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'docforge-logic-')));
  mkdirSync(path.join(root, 'src'));
  mkdirSync(path.join(root, 'docs'));
  writeFileSync(path.join(root, 'docforge.toml'), 'schema_version = 1\n[project]\nid = "logic"\nname = "Logic"\n[sources]\ncontent_roots = ["docs"]\ncode_roots = ["src"]\n[adapter]\ncode = "typescript"\n[limits]\nmax_results = 250\nmax_output_chars = 6000\n');
  writeFileSync(path.join(root, 'docs', 'index.md'), '# Logic\n');
  writeFileSync(path.join(root, 'src', 'long.ts'), LONG.join('\n'));
  writeFileSync(path.join(root, 'src', 'shapes.ts'), SHAPES);
  project = createProjectServer({ projectRoot: root, logger: pino({ level: 'silent' }) });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await project.server.connect(serverTransport);
  client = new Client({ name: 'logic-test', version: '1.0.0' });
  await client.connect(clientTransport);
});
after(async () => {
  await client?.close();
  await project?.close();
  removeDir(root);
});

async function logic(args: Record<string, unknown>): Promise<{ envelope: Envelope; chars: number }> {
  const response = await client.callTool({ name: 'docforge_get_logic', arguments: args }, undefined, { timeout: REQUEST_TIMEOUT_MS });
  return { envelope: response.structuredContent as Envelope, chars: (response.content as { text: string }[])[0]!.text.length };
}

test('a Logic projection larger than max_output_chars is cut to fit, with truncation_reason response_limit', async () => {
  const { envelope, chars } = await logic({ node_id: 'code:src/long.ts#long' });
  assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
  const r = envelope.result!;
  assert.ok(chars <= 6000, `response of ${chars} characters fits the limit`);
  assert.equal(r.limit, 200, 'the default step limit');
  assert.ok(r.total_steps > 300);
  assert.ok(r.steps.length > 5 && r.steps.length < 200, `${r.steps.length} steps fit`);
  assert.deepEqual([r.truncated, r.truncation_reason], [true, 'response_limit']);
  assert.deepEqual(r.steps.map((s: { step: number }) => s.step), [...Array(r.steps.length).keys()], 'a prefix of the steps');
  assert.ok(r.flows.every((f: { from_step: number; to_step: number }) => f.from_step < r.steps.length && f.to_step < r.steps.length));
});

test('the step limit is bounded by max_results', async () => {
  const small = await logic({ node_id: 'code:src/long.ts#long', limit: 3 });
  assert.deepEqual([small.envelope.result!.steps.length, small.envelope.result!.truncation_reason], [3, 'result_limit']);
  await expectError((await logic({ node_id: 'code:src/long.ts#long', limit: 251 })).envelope, 'invalid_arguments');
  await expectError((await logic({ node_id: 'code:src/long.ts#long', limit: 0 })).envelope, 'invalid_arguments');
});

test('Logic of an async class method with a while loop and break, and of an arrow function', async () => {
  const method = (await logic({ node_id: 'code:src/shapes.ts#Queue.drain' })).envelope.result!;
  assert.equal(method.owner.kind, 'method');
  assert.deepEqual(method.owner.capabilities, ['async']);
  assert.deepEqual(method.steps.map((s: { kind: string; start_line: number; end_line: number }) => `${s.kind}@${s.start_line}-${s.end_line}`), [
    'entry@3-11', 'statement@4-4', 'loop@5-9', 'branch@6-6', 'break@6-6', 'statement@7-7', 'statement@8-8', 'return@10-10', 'exit@11-11',
  ]);
  const kinds = new Set(method.flows.map((f: { kind: string }) => f.kind));
  for (const kind of ['loop_body', 'loop_exit', 'loop_back', 'branch_true', 'branch_false', 'break', 'return']) assert.ok(kinds.has(kind), kind);
  const arrow = (await logic({ node_id: 'code:src/shapes.ts#pick' })).envelope.result!;
  assert.deepEqual(arrow.steps.map((s: { kind: string; start_line: number }) => `${s.kind}@${s.start_line}`), [
    'entry@14', 'loop@15', 'branch@16', 'return@16', 'throw@18', 'exit@19',
  ]);
  await expectError((await logic({ node_id: 'code:src/shapes.ts#Queue' })).envelope, 'logic_not_found');
});
