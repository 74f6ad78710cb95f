// Pins issue 30 item 18: a request of 10 MiB or more no longer ends docforge-mcp silently. Messages up to the stated limit (32 MiB) are read: a 10 MB register_changes is answered with a structured envelope, a 10 MiB search query with invalid_arguments (its schema's maxLength) before the handler runs. A larger message is answered with JSON-RPC -32600, data {code: "request_too_large", limit_bytes}, with the request id when it is in the first 64 KiB and null otherwise; a line that is not JSON gets -32700; the server keeps serving, and its exit logs the cause on stderr.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { MCP_ENTRY } from './helpers/paths.js';
import { exampleProjectCopy, sharedExampleProject } from './helpers/projects.js';
import { useServer } from './helpers/server.js';

const MIB = 1024 * 1024;
const LIMIT = 32 * MIB;

test('a 10 MB register_changes and a 10 MiB search query are read and answered; the next call works', async () => {
  const root = exampleProjectCopy();
  const s = await useServer(root, { proposalWriter: 'agent' });
  const body = 'x'.repeat(10_000_000);
  const big = await s.raw('docforge_register_changes', { operations: [{ op: 'node_update', node_id: 'CMP-LEDGER', body }] });
  const envelope = big.structuredContent as { ok: boolean; error?: { code: string } };
  assert.equal(typeof envelope.ok, 'boolean', 'a structured envelope, not "Connection closed"');
  if (!envelope.ok) assert.notEqual(envelope.error!.code, 'internal_error');
  const query = 'ledger '.repeat(Math.ceil((10 * MIB) / 7));
  const search = await s.call('docforge_search', { query });
  assert.equal(search.ok, false);
  assert.equal(search.error!.code, 'invalid_arguments', search.error!.message);
  assert.ok(JSON.stringify(search).length < 20_000, 'the refusal does not echo the argument');
  const next = await s.call('docforge_search', { query: 'ledger' });
  assert.equal(next.ok, true, JSON.stringify(next.error));
});

/** A raw docforge-mcp child: write lines, read response lines by id. */
class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  stderr = '';
  #buffer = '';
  readonly #responses: Record<string, unknown>[] = [];
  #waiters: (() => void)[] = [];

  constructor(root: string) {
    this.child = spawn(process.execPath, [MCP_ENTRY, '--project-root', root], { stdio: 'pipe' });
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.#buffer += chunk.toString('utf8');
      let nl: number;
      while ((nl = this.#buffer.indexOf('\n')) >= 0) {
        this.#responses.push(JSON.parse(this.#buffer.slice(0, nl)) as Record<string, unknown>);
        this.#buffer = this.#buffer.slice(nl + 1);
      }
      for (const wake of this.#waiters.splice(0)) wake();
    });
  }

  write(text: string): void {
    this.child.stdin.write(text);
  }

  /** The next response not yet taken. */
  async next(): Promise<Record<string, unknown>> {
    while (this.#responses.length === 0) {
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
    return this.#responses.shift()!;
  }
}

test('a message over the limit is answered with -32600 request_too_large (id from the first 64 KiB, else null); a non-JSON line with -32700; params its schema refuses get -32602; the server keeps serving and logs its exit', async () => {
  const server = new RawServer(sharedExampleProject());
  server.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`);
  assert.equal((await server.next()).id, 1);
  server.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);

  // The id first: it is in the first 64 KiB.
  const padding = 'q'.repeat(LIMIT + MIB);
  server.write(`{"jsonrpc":"2.0","id":"big-1","method":"tools/call","params":{"name":"docforge_search","arguments":{"query":"${padding}"}}}\n`);
  const first = await server.next();
  assert.equal(first.id, 'big-1');
  const error = first.error as { code: number; data: { code: string; limit_bytes: number } };
  assert.equal(error.code, -32600);
  assert.deepEqual(error.data, { code: 'request_too_large', limit_bytes: LIMIT });

  // The id last (as the MCP SDK serializes requests): beyond the first 64 KiB, so null.
  server.write(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"docforge_search","arguments":{"query":"${padding}"}},"id":2}\n`);
  const second = await server.next();
  assert.equal(second.id, null);
  assert.equal((second.error as { data: { code: string } }).data.code, 'request_too_large');

  server.write('this is not json\n');
  const third = await server.next();
  assert.equal(third.id, null);
  assert.equal((third.error as { code: number }).code, -32700);

  // Params the request's schema refuses: -32602 naming the field, never -32603 Internal error (break-it trial).
  const malformed: [string, Record<string, unknown> | undefined, string][] = [
    ['tools/call', { name: 'docforge_search', arguments: 'str' }, '/params/arguments'],
    ['tools/call', { name: 5 }, '/params/name'],
    ['tools/call', undefined, '/params'],
    ['initialize', {}, '/params/protocolVersion'],
  ];
  for (const [i, [method, params, path]] of malformed.entries()) {
    server.write(`${JSON.stringify({ jsonrpc: '2.0', id: `bad-${i}`, method, ...(params === undefined ? {} : { params }) })}\n`);
    const answer = await server.next();
    assert.equal(answer.id, `bad-${i}`);
    const refused = answer.error as { code: number; message: string; data: { code: string; errors: { path: string }[] } };
    assert.equal(refused.code, -32602, JSON.stringify(refused));
    assert.equal(refused.data.code, 'invalid_arguments');
    assert.ok(refused.data.errors.some((e) => e.path === path), JSON.stringify(refused.data.errors));
    assert.match(refused.message, new RegExp(`^Invalid params of ${method}: `));
  }

  server.write(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'docforge_search', arguments: { query: 'ledger' } } })}\n`);
  const fourth = await server.next();
  assert.equal(fourth.id, 3);
  assert.equal((fourth.result as { structuredContent: { ok: boolean } }).structuredContent.ok, true);

  server.child.stdin.end();
  const [code] = await once(server.child, 'exit');
  assert.equal(code, 0);
  assert.match(server.stderr, /refused an MCP message over the size limit/);
  assert.match(server.stderr, /"cause":"end of standard input[^"]*".*docforge-mcp exits/);
});
